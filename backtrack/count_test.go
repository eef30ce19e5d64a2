package backtrack

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

func TestCountKnown(t *testing.T) {
	for n := 1; n <= 14; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			want, _ := board.Known(n)
			got, err := Count(context.Background(), n, CountOptions{Unique: true})
			if err != nil {
				t.Fatalf("Count(%d): %v", n, err)
			}
			if got.Total != want.Total || got.Unique != want.Unique {
				t.Errorf("Count(%d) = %d (%d unique), want %d (%d unique)", n, got.Total, got.Unique, want.Total, want.Unique)
			}
			if got.Done != got.Parts {
				t.Errorf("Count(%d) finished %d of %d parts", n, got.Done, got.Parts)
			}
			plain, err := Count(context.Background(), n, CountOptions{})
			if err != nil || plain.Total != want.Total || plain.Unique != 0 {
				t.Errorf("Count(%d) without Unique = %d (%d unique), %v; want %d (0 unique)", n, plain.Total, plain.Unique, err, want.Total)
			}
		})
	}
}

func TestCountBrute(t *testing.T) {
	for n := 1; n <= 8; n++ {
		total, unique := testutil.Count(n, nil)
		got, err := Count(context.Background(), n, CountOptions{Unique: true, Threads: 2})
		if err != nil || got.Total != total || got.Unique != unique {
			t.Errorf("Count(%d) = %d (%d unique), %v; brute force %d (%d unique)", n, got.Total, got.Unique, err, total, unique)
		}
	}
}

func TestCountPlace(t *testing.T) {
	for n := 1; n <= 8; n++ {
		var cases [][]board.Queen
		for row := range n {
			for col := range n {
				cases = append(cases, []board.Queen{{Row: row, Col: col}})
				if q := (board.Queen{Row: (row + 3) % n, Col: (col + 1) % n}); board.CheckPlacement(n, []board.Queen{{Row: row, Col: col}, q}) == nil {
					cases = append(cases, []board.Queen{{Row: row, Col: col}, q, {Row: row, Col: col}})
				}
			}
		}
		for _, qs := range cases {
			want, _ := testutil.Count(n, qs)
			got, err := Count(context.Background(), n, CountOptions{Place: qs, Threads: 2})
			if err != nil || got.Total != want || got.Done != got.Parts {
				t.Errorf("Count(%d, place %v) = %d, %v (%d/%d parts); brute force %d", n, qs, got.Total, err, got.Done, got.Parts, want)
			}
		}
	}
}

func TestCountThreads(t *testing.T) {
	for _, n := range []int{9, 12, 13} {
		one, err1 := Count(context.Background(), n, CountOptions{Threads: 1, Unique: true})
		two, err2 := Count(context.Background(), n, CountOptions{Threads: 2, Unique: true})
		if err1 != nil || err2 != nil {
			t.Fatalf("Count(%d): %v, %v", n, err1, err2)
		}
		if one.Total != two.Total || one.Unique != two.Unique || one.Nodes != two.Nodes {
			t.Errorf("Count(%d): 1 thread %+v, 2 threads %+v", n, one, two)
		}
	}
}

func TestCountErrors(t *testing.T) {
	tests := []struct {
		name string
		n    int
		opt  CountOptions
		want error
	}{
		{"n=0", 0, CountOptions{}, board.ErrSize},
		{"n=33", 33, CountOptions{}, board.ErrSize},
		{"unique with place", 8, CountOptions{Unique: true, Place: []board.Queen{{Row: 0, Col: 0}}}, ErrUniquePlace},
		{"off board", 8, CountOptions{Place: []board.Queen{{Row: 8, Col: 0}}}, board.ErrPlacement},
		{"attacking", 8, CountOptions{Place: []board.Queen{{Row: 0, Col: 0}, {Row: 2, Col: 2}}}, board.ErrPlacement},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Count(context.Background(), tt.n, tt.opt); !errors.Is(err, tt.want) {
				t.Errorf("Count(%d, %+v) error = %v, want %v", tt.n, tt.opt, err, tt.want)
			}
		})
	}
	if _, err := Subproblems(0); !errors.Is(err, board.ErrSize) {
		t.Errorf("Subproblems(0) error = %v, want %v", err, board.ErrSize)
	}
}

func TestCountCancel(t *testing.T) {
	// Already cancelled: nothing done, the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Count(ctx, 12, CountOptions{})
	if !errors.Is(err, context.Canceled) || res.Done == res.Parts {
		t.Errorf("Count(cancelled ctx) = %+v, %v; want a partial result and %v", res, err, context.Canceled)
	}
	// Cancelled midway through a count that takes seconds: it stops soon,
	// with part of the work done and a partial total.
	ctx, cancel = context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var calls int
	start := time.Now()
	res, err = Count(ctx, 18, CountOptions{Threads: 2, Progress: func(done, parts int) { calls++ }})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Count(18, 300ms) error = %v, want %v", err, context.DeadlineExceeded)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("Count(18) took %v to stop", took)
	}
	want, _ := board.Known(18)
	if res.Done >= res.Parts || res.Total >= want.Total || calls == 0 {
		t.Errorf("Count(18) stopped with %d/%d parts, total %d, %d progress calls", res.Done, res.Parts, res.Total, calls)
	}
}

func TestCountProgress(t *testing.T) {
	var lastDone, lastParts int
	res, err := Count(context.Background(), 10, CountOptions{Progress: func(done, parts int) { lastDone, lastParts = done, parts }})
	if err != nil || lastDone != res.Parts || lastParts != res.Parts || res.Parts < 8 {
		t.Errorf("Count(10): last progress %d/%d, result %d parts, %v", lastDone, lastParts, res.Parts, err)
	}
}

// BenchmarkCount times the one-thread count; ns/node is the cost of one
// queen placed, nodes/op the size of the (symmetry-pruned) search.
func BenchmarkCount(b *testing.B) {
	for _, n := range []int{12, 14, 15} {
		for _, unique := range []bool{false, true} {
			b.Run(fmt.Sprintf("n=%d/unique=%v", n, unique), func(b *testing.B) {
				var nodes uint64
				for b.Loop() {
					res, err := Count(context.Background(), n, CountOptions{Threads: 1, Unique: unique})
					if err != nil {
						b.Fatal(err)
					}
					nodes += res.Nodes
				}
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
			})
		}
	}
}
