package sat_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
)

// BenchmarkFirst finds one solution with gini per encoding, building the
// solver each time (the CNF is built once).
func BenchmarkFirst(b *testing.B) {
	for _, name := range encode.Encodings() {
		for _, n := range []int{50, 100, 200} {
			cnf, _ := encode.Queens(n, name, nil)
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				for b.Loop() {
					if sol, err := sat.First(context.Background(), cnf); sol == nil || err != nil {
						b.Fatal(sol, err)
					}
				}
			})
		}
	}
}

// BenchmarkCount enumerates every solution with gini (pairwise).
func BenchmarkCount(b *testing.B) {
	for n := 8; n <= 11; n++ {
		cnf, _ := encode.Queens(n, "pairwise", nil)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var total uint64
			for b.Loop() {
				c, err := sat.Count(context.Background(), cnf)
				if err != nil {
					b.Fatal(err)
				}
				total += c
			}
			b.ReportMetric(float64(total)/float64(b.N), "solutions/op")
		})
	}
}
