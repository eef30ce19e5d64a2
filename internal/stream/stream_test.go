package stream_test

import (
	"context"
	"errors"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/stream"
)

// next returns k solutions, then nil, or err after them if err is set.
func next(k int, err error) func(context.Context) (board.Solution, error) {
	return func(context.Context) (board.Solution, error) {
		if k == 0 {
			return nil, err
		}
		k--
		return board.Solution{0}, nil
	}
}

func TestOfAndCount(t *testing.T) {
	ctx := context.Background()
	if n, err := stream.Count(stream.Of(ctx, next(3, nil))); n != 3 || err != nil {
		t.Errorf("Count = %d, %v; want 3, nil", n, err)
	}
	boom := errors.New("boom")
	if n, err := stream.Count(stream.Of(ctx, next(2, boom))); n != 2 || err != boom {
		t.Errorf("Count = %d, %v; want 2, boom", n, err)
	}
	calls := 0
	counting := func(ctx context.Context) (board.Solution, error) { calls++; return board.Solution{0}, nil }
	for range stream.Of(ctx, counting) {
		break
	}
	if calls != 1 {
		t.Errorf("after a break, next was called %d times, want 1", calls)
	}
}
