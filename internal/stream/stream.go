// Package stream turns a solver that returns one solution at a time into a
// stream of them, and counts a stream: the loop that sat's gini Solver and
// sat/external's Solver share.
package stream

import (
	"context"
	"iter"

	"github.com/queens-dev/queens/board"
)

// Of returns the solutions next returns, until it returns a nil solution
// (no more) or an error, which is yielded with a nil solution and ends the
// stream. Breaking out of the range stops calling next.
func Of(ctx context.Context, next func(context.Context) (board.Solution, error)) iter.Seq2[board.Solution, error] {
	return func(yield func(board.Solution, error) bool) {
		for {
			sol, err := next(ctx)
			if err != nil {
				yield(nil, err)
				return
			}
			if sol == nil || !yield(sol, nil) {
				return
			}
		}
	}
}

// Count returns the number of solutions seq yields before it ends, and
// its error, if one ended it (with the count so far).
func Count(seq iter.Seq2[board.Solution, error]) (uint64, error) {
	var total uint64
	for _, err := range seq {
		if err != nil {
			return total, err
		}
		total++
	}
	return total, nil
}
