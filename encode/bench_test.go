package encode_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/queens-dev/queens/encode"
)

// BenchmarkQueens builds the CNF per encoding; clauses and vars are the
// formula's size.
func BenchmarkQueens(b *testing.B) {
	for _, name := range encode.Encodings() {
		for _, n := range []int{50, 200} {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				b.ReportAllocs()
				var cnf *encode.CNF
				for b.Loop() {
					cnf, _ = encode.Queens(n, name, nil)
				}
				b.ReportMetric(float64(len(cnf.Clauses)), "clauses")
				b.ReportMetric(float64(cnf.Vars), "vars")
			})
		}
	}
}

// BenchmarkWriteDIMACS writes the CNF per encoding.
func BenchmarkWriteDIMACS(b *testing.B) {
	for _, name := range encode.Encodings() {
		for _, n := range []int{50, 200} {
			cnf, _ := encode.Queens(n, name, nil)
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					encode.WriteDIMACS(io.Discard, cnf)
				}
				b.ReportMetric(float64(len(cnf.Clauses)), "clauses")
			})
		}
	}
}

// BenchmarkStreamDIMACS writes the auto-encoded instance (commander above
// n = 40) to io.Discard clause by clause: B/op stays near the output
// buffer whatever n, against the whole formula that BenchmarkCNFDIMACS
// builds first. Run with -benchtime=1x for n = 2000 (about 50 million
// clauses).
func BenchmarkStreamDIMACS(b *testing.B) {
	for _, n := range []int{400, 1000, 2000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			e, err := encode.NewEncoder(n, encode.Options{})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := e.WriteDIMACS(context.Background(), io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			_, clauses := e.Size()
			b.ReportMetric(float64(clauses), "clauses")
		})
	}
}

// BenchmarkCNFDIMACS builds the auto-encoded instance as a CNF and writes
// it to io.Discard: the path before streaming, for comparison.
func BenchmarkCNFDIMACS(b *testing.B) {
	for _, n := range []int{400, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var cnf *encode.CNF
			for b.Loop() {
				var err error
				if cnf, err = encode.Queens(n, encode.Auto, nil); err != nil {
					b.Fatal(err)
				}
				if err := encode.WriteDIMACS(io.Discard, cnf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(cnf.Clauses)), "clauses")
		})
	}
}

// BenchmarkReadDIMACS reads the pairwise CNF of n = 50 back (the reader
// decode --cnf uses); MB/s is of the DIMACS text.
func BenchmarkReadDIMACS(b *testing.B) {
	cnf, _ := encode.Queens(50, encode.Pairwise, nil)
	var buf bytes.Buffer
	encode.WriteDIMACS(&buf, cnf)
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encode.ReadDIMACS(bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}
