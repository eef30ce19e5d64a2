package sat_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/sat"
)

// TestDetach: Detach returns ctx's error as soon as ctx ends, though
// the work goes on, and the work's result when it comes first.
func TestDetach(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := sat.Detach(ctx, func() (int, error) { <-block; return 1, nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Detach = %v, want context.DeadlineExceeded", err)
	}
	if v, err := sat.Detach(context.Background(), func() (int, error) { return 42, nil }); v != 42 || err != nil {
		t.Errorf("Detach = %d, %v; want 42, nil", v, err)
	}
}

// TestDetachSeq: the stream ends with ctx's error as soon as ctx ends,
// though the producer is busy; without ctx it passes every item and
// waits for nothing when stopped early.
func TestDetachSeq(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	busy := func(yield func(board.Solution, error) bool) {
		if yield(board.Solution{1, 3, 0, 2}, nil) {
			<-block // a solve that does not notice the stop
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seq, finished := sat.DetachSeq(ctx, busy)
	var got []error
	for s, err := range seq {
		got = append(got, err)
		if s != nil {
			cancel()
		}
	}
	if len(got) != 2 || got[0] != nil || !errors.Is(got[1], context.Canceled) {
		t.Errorf("got %v, want a solution, then context.Canceled", got)
	}
	if finished() {
		t.Error("finished() with the producer still busy")
	}

	seq, finished = sat.DetachSeq(context.Background(), busyFree(5))
	n := 0
	for range seq {
		if n++; n == 2 {
			break
		}
	}
	if !finished() {
		t.Error("the producer still runs after an early stop")
	}
}

// busyFree yields k solutions.
func busyFree(k int) func(func(board.Solution, error) bool) {
	return func(yield func(board.Solution, error) bool) {
		for range k {
			if !yield(board.Solution{0}, nil) {
				return
			}
		}
	}
}
