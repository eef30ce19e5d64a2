package backtrack

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/queens-dev/queens/board"
)

func TestCountSimple(t *testing.T) {
	for n := 1; n <= 12; n++ {
		want, _ := board.Known(n)
		for _, threads := range []int{1, 0} {
			got, err := Count(context.Background(), n, CountOptions{Threads: threads, Unique: true})
			if err != nil || got.Total != want.Total || got.Unique != want.Unique || got.Done != got.Parts {
				t.Errorf("Count(%d, threads %d) = %+v, %v; want %d (%d unique)", n, threads, got, err, want.Total, want.Unique)
			}
		}
	}
	// Pre-placed queens: the same as the search's completions.
	for _, qs := range [][]board.Queen{{{Row: 0, Col: 0}}, {{Row: 3, Col: 5}}, {{Row: 7, Col: 2}, {Row: 1, Col: 4}}} {
		want := 0
		for range All(8, Options{Place: qs}) {
			want++
		}
		got, err := Count(context.Background(), 8, CountOptions{Place: qs})
		if err != nil || got.Total != uint64(want) {
			t.Errorf("Count(8, place %v) = %d, %v; want %d", qs, got.Total, err, want)
		}
	}
	for _, tc := range []struct {
		n    int
		opt  CountOptions
		want error
	}{
		{0, CountOptions{}, board.ErrSize},
		{65, CountOptions{}, board.ErrSize},
		{8, CountOptions{Place: []board.Queen{{Row: 0, Col: 0}, {Row: 1, Col: 1}}}, board.ErrPlacement},
	} {
		if _, err := Count(context.Background(), tc.n, tc.opt); !errors.Is(err, tc.want) {
			t.Errorf("Count(%d, %+v): %v, want %v", tc.n, tc.opt, err, tc.want)
		}
	}
	if _, err := Count(context.Background(), 8, CountOptions{Unique: true, Place: []board.Queen{{Row: 0, Col: 0}}}); err == nil {
		t.Errorf("Count with Unique and Place: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := Count(ctx, 16, CountOptions{}); !errors.Is(err, context.Canceled) || res.Done == res.Parts {
		t.Errorf("Count(16) cancelled = %+v, %v", res, err)
	}
}

func BenchmarkCount(b *testing.B) {
	for _, n := range []int{10, 12} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var nodes uint64
			for b.Loop() {
				res, _ := Count(context.Background(), n, CountOptions{})
				nodes += res.Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
