package encode_test

import (
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
