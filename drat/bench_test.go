package drat_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/drat"
)

// benchCheck checks proof against f once per iteration and reports the
// proof's lemmas and bytes and the lemmas checked (the core).
func benchCheck(b *testing.B, f *drat.Formula, proof []byte) {
	b.Helper()
	var res *drat.Result
	b.ReportAllocs()
	for b.Loop() {
		var err error
		res, err = drat.CheckDRAT(context.Background(), f, bytes.NewReader(proof))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Lemmas), "lemmas/op")
	b.ReportMetric(float64(res.Checked), "core/op")
	b.ReportMetric(float64(len(proof)), "proof-bytes/op")
}

// BenchmarkCheckDRAT checks the committed cadical proofs: n = 3, n = 8..10
// with queens pre-placed, and the last call of the n = 8 enumeration.
func BenchmarkCheckDRAT(b *testing.B) {
	for _, tf := range testdataFiles {
		f, proof := committed(b, tf.name, tf.binary)
		b.Run(tf.name, func(b *testing.B) { benchCheck(b, f, proof) })
	}
}

// BenchmarkCheckLRAT checks the LRAT conversions of the committed proofs.
func BenchmarkCheckLRAT(b *testing.B) {
	for _, tf := range testdataFiles {
		f, proof := committed(b, tf.name, tf.binary)
		var lrat bytes.Buffer
		if _, err := drat.ConvertDRAT(context.Background(), f, bytes.NewReader(proof), &lrat); err != nil {
			b.Fatal(err)
		}
		b.Run(tf.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := drat.CheckLRAT(context.Background(), f, bytes.NewReader(lrat.Bytes())); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(lrat.Len()), "proof-bytes/op")
		})
	}
}

// BenchmarkDir checks every NAME.cnf with a proof NAME.drat in the folder
// named by $DRAT_BENCH_DIR (bench/proof.sh makes them); skipped when unset.
func BenchmarkDir(b *testing.B) {
	dir := os.Getenv("DRAT_BENCH_DIR")
	if dir == "" {
		b.Skip("DRAT_BENCH_DIR not set (bench/proof.sh sets it)")
	}
	cnfs, err := filepath.Glob(filepath.Join(dir, "*.cnf"))
	if err != nil || len(cnfs) == 0 {
		b.Fatalf("no *.cnf in %s", dir)
	}
	for _, cnf := range cnfs {
		name := strings.TrimSuffix(filepath.Base(cnf), ".cnf")
		data, err := os.ReadFile(cnf)
		if err != nil {
			b.Fatal(err)
		}
		f, err := drat.ReadCNF(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		proof, err := os.ReadFile(filepath.Join(dir, name+".drat"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) { benchCheck(b, f, proof) })
	}
}
