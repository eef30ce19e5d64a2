package join

import (
	"context"
	"fmt"
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
