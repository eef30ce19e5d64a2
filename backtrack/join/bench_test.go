package join

import (
	"context"
	"fmt"
	"testing"
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
			b.ReportMetric(float64(res.Total), "solutions/op")
			b.ReportMetric(float64(res.Pairs), "pairs/op")
		})
	}
}
