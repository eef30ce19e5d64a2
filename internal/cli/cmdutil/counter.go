package cmdutil

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/external"
)

// CounterEngine is compare's engine for the model counter command on the
// encoding enc: the total is its count of the instance; without
// pre-placed queens, the unique count is its count of the instance with
// the lex-leader clauses of every symmetry (one model per class).
func CounterEngine(command string, enc encode.Encoding) func(ctx context.Context, n int, place []board.Queen) (total, unique uint64, err error) {
	counter := external.Counter{Command: command}
	gen := "queens " + Version()
	return func(ctx context.Context, n int, place []board.Queen) (total, unique uint64, err error) {
		e, err := encode.NewEncoder(n, encode.Options{Encoding: enc, Place: place})
		if err != nil {
			return 0, 0, err
		}
		if total, err = counter.CountEncoder(ctx, e, gen); err != nil || len(place) > 0 {
			return total, 0, err
		}
		e, err = encode.NewEncoder(n, encode.Options{Encoding: enc, Symmetry: true})
		if err != nil {
			return 0, 0, err
		}
		unique, err = counter.CountEncoder(ctx, e, gen)
		if err != nil {
			err = fmt.Errorf("the unique count (--break-symmetry): %w", err)
		}
		return total, unique, err
	}
}
