package sat_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
	"github.com/queens-dev/queens/sat/engine"
)

// gini exposes no search statistics (conflicts, decisions live in its
// internal package), so the benchmarks report what can be counted from
// outside: solutions, solves (SAT calls) and cubes per op.

// BenchmarkFirst finds one solution with gini per encoding, building the
// solver each time (the CNF is built once): plain and seeded.
func BenchmarkFirst(b *testing.B) {
	for _, name := range encode.Encodings() {
		for _, n := range []int{50, 100, 200} {
			if name == "pairwise" && n > 100 {
				continue // 690 MB and seconds to build
			}
			cnf, _ := encode.Queens(n, name, nil)
			for _, seeded := range []bool{false, true} {
				b.Run(fmt.Sprintf("%s/seeded=%v/n=%d", name, seeded, n), func(b *testing.B) {
					solves := 0
					for b.Loop() {
						s, _ := sat.New(cnf)
						if seeded {
							s, _ = sat.NewSeeded(cnf, 1)
						}
						if sol, err := s.First(context.Background()); sol == nil || err != nil {
							b.Fatal(sol, err)
						}
						solves += s.Stats().Solves
					}
					b.ReportMetric(float64(solves)/float64(b.N), "solves/op")
				})
			}
		}
	}
}

// BenchmarkCount enumerates every solution with one gini instance and
// global blocking clauses (pairwise).
func BenchmarkCount(b *testing.B) {
	for n := 8; n <= 10; n++ {
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

// BenchmarkParallelCount counts with cube and conquer (pairwise, all
// cores, default depth), and at n = 12 at other depths.
func BenchmarkParallelCount(b *testing.B) {
	type tc struct{ n, depth int }
	cases := []tc{{8, 0}, {10, 0}, {11, 0}, {12, 0}, {12, 2}, {12, 4}, {12, 5}}
	for _, c := range cases {
		cnf, _ := encode.Queens(c.n, "pairwise", nil)
		b.Run(fmt.Sprintf("n=%d/depth=%d", c.n, c.depth), func(b *testing.B) {
			var total uint64
			var st engine.Stats
			for b.Loop() {
				p, _ := sat.NewParallel(cnf, sat.Options{Depth: c.depth})
				count, err := p.Count(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				total += count
				s := p.Stats()
				st.Solves += s.Solves
				st.Cubes += s.Cubes
			}
			b.ReportMetric(float64(total)/float64(b.N), "solutions/op")
			b.ReportMetric(float64(st.Solves)/float64(b.N), "solves/op")
			b.ReportMetric(float64(st.Cubes)/float64(b.N), "cubes/op")
		})
	}
}
