package shard

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkRun counts a whole board as one shard, without and with a
// checkpoint (one synced rewrite of the file per piece), to show what
// the bookkeeping costs next to the count.
func BenchmarkRun(b *testing.B) {
	for _, n := range []int{10, 12, 13} {
		for _, ckpt := range []bool{false, true} {
			b.Run(fmt.Sprintf("n=%d/checkpoint=%v", n, ckpt), func(b *testing.B) {
				s := Spec{N: n, Shards: 1, Version: "bench"}
				dir := b.TempDir()
				var nodes uint64
				i := 0
				for b.Loop() {
					opt := Options{Threads: 1}
					if ckpt {
						i++
						c, err := OpenCheckpoint(filepath.Join(dir, fmt.Sprint(i)), s)
						if err != nil {
							b.Fatal(err)
						}
						opt.OnPiece = c.Record
						defer c.Close()
					}
					r, err := Run(context.Background(), s, opt)
					if err != nil {
						b.Fatal(err)
					}
					nodes += r.Nodes.Lo
				}
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			})
		}
	}
}
