package join

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/queens-dev/queens/board"
)

// BenchmarkCount counts each board once per iteration on one thread.
func BenchmarkCount(b *testing.B) {
	for _, n := range []int{12, 14, 16, 17, 18} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var res Result
			for b.Loop() {
				var err error
				res, err = Count(context.Background(), n, Options{Threads: 1})
				if err != nil {
					b.Fatal(err)
				}
			}
			if want, _ := board.Known(n); res.Total != want.Total {
				b.Fatalf("n=%d: %d solutions, want %d", n, res.Total, want.Total)
			}
			b.ReportMetric(float64(res.Total), "solutions/op")
			b.ReportMetric(float64(res.Pairs), "pairs/op")
		})
	}
}

// BenchmarkDisjoint matches 4096 random patterns of n = 18's width (34
// bits, 9 queens a half) against 512 on each path this machine runs:
// one group of tables and 4096 probes a pass (ns/op over 4096 is the
// cost of one probe of 512 lanes; the 64-lane path takes 8 groups).
func BenchmarkDisjoint(b *testing.B) {
	const width = 34
	r := rand.New(rand.NewPCG(18, 1))
	gen := func(n int) list {
		pats := make([]uint64, n)
		for i := range pats {
			for range 9 {
				pats[i] |= 1 << uint(r.IntN(width))
			}
		}
		return list{pats, []int32{0, int32(n)}}
	}
	xs, ys := gen(4096), gen(512)
	for _, s := range paths() {
		b.Run(s.String(), func(b *testing.B) {
			m := newMatcher(width, s)
			var sum uint64
			for b.Loop() {
				sum += m.disjoint(xs, ys)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4096, "ns/probe")
		})
	}
}
