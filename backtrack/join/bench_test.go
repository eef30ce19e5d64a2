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
	gen := func(n int) []uint64 {
		pats := make([]uint64, n)
		for i := range pats {
			for range 9 {
				pats[i] |= 1 << uint(r.IntN(width))
			}
		}
		return pats
	}
	xs, ys := gen(4096), gen(512)
	for _, s := range paths() {
		b.Run(s.String(), func(b *testing.B) {
			m := newMatcher(width, s)
			m.forceKB = 0 // every pair: the cost of a probe
			var sum uint64
			for b.Loop() {
				s, _ := m.disjoint(xs, ys)
				sum += s
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4096, "ns/probe")
		})
	}
}

// BenchmarkSortKeys sorts 100000 random patterns of n = 22's width (42
// bits, 11 queens a half) by a key of 8 bits, the bits chosen on a sample
// each time (ns/pattern is what matcher.pickKeys calls sortProbes).
func BenchmarkSortKeys(b *testing.B) {
	const width = 42
	r := rand.New(rand.NewPCG(22, 1))
	pats := make([]uint64, 100000)
	for i := range pats {
		for range 11 {
			pats[i] |= 1 << uint(r.IntN(width))
		}
	}
	m := newMatcher(width, simdGo)
	m.forceKB = 8
	var at [1<<maxKeyBits + 1]int32
	var buf []uint64
	for b.Loop() {
		m.pickKeys(pats, pats)
		buf, _ = m.sortKeys(pats, at[:1<<8+1], buf)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pats)), "ns/pattern")
}
