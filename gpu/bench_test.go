package gpu

import (
	"context"
	"fmt"
	"testing"

	"github.com/queens-dev/queens/backtrack"
)

// BenchmarkReference times the Go twin of the kernel on all cores,
// splitting included; compare with backtrack's BenchmarkCount.
func BenchmarkReference(b *testing.B) {
	for _, n := range []int{12, 14, 16} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var res Result
			for b.Loop() {
				var err error
				if res, err = Reference(context.Background(), n, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Total), "solutions/op")
			b.ReportMetric(float64(res.Tasks), "tasks/op")
		})
	}
}

// BenchmarkSplit times the host's share of a GPU count, listing the tasks
// of every piece on one core, at the default depth.
func BenchmarkSplit(b *testing.B) {
	for _, n := range []int{16, 17, 18} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			_, ps, opt, err := plan(n, Options{})
			if err != nil {
				b.Fatal(err)
			}
			var tasks uint64
			for b.Loop() {
				s := newSplitter(n, opt.Rows, func(*task) { tasks++ })
				for _, p := range ps {
					if p.ok {
						s.split(p.free, p.d1, p.d2, p.rem)
					}
				}
			}
			b.ReportMetric(float64(tasks)/float64(b.N), "tasks/op")
			b.ReportMetric(float64(tasks)/b.Elapsed().Seconds(), "tasks/s")
		})
	}
}

// BenchmarkPieceCPU is the yardstick: backtrack counting the same pieces,
// one after the other on one core each time.
func BenchmarkPieceCPU(b *testing.B) {
	for _, n := range []int{12, 14} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			sps, _ := backtrack.Subproblems(n)
			for b.Loop() {
				for _, sp := range sps {
					if _, err := sp.Count(context.Background(), n); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
