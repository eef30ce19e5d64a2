package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/external"
)

// checkCounter checks --counter's options: it counts, in place of
// --solver, and counts every solution (not the classes).
func (o *satOptions) checkCounter() error {
	switch {
	case !o.count:
		return usagef("--counter counts: it goes with --count")
	case o.solverSet || o.proof || o.solverOutputSet:
		return usagef("--counter replaces --solver (and its --proof, --solver-output)")
	case o.unique.on:
		return usagef("--counter with --unique: a counter gives the number of classes, not the total; write the instance with queens dimacs --break-symmetry --mc and count it")
	}
	return nil
}

// runCounter is sat --count --counter CMD: the count of an external model
// counter, checked by the referee.
func runCounter(parent context.Context, o satOptions, stdout, stderr io.Writer) error {
	if err := external.LookSolver(o.counter); err != nil {
		return usageErr(err)
	}
	argv, _ := external.SplitCommand(o.counter)
	who := filepath.Base(argv[0])
	e, err := encode.NewEncoder(o.n, encode.Options{Encoding: o.enc, Place: o.placed})
	if err != nil {
		return usageErr(err)
	}
	ctx, cancel := timeoutContext(parent, o.timeout)
	defer cancel()
	out, err := openSolutions(parent, stdout, o.solutionFlags, o.n, o.placed)
	if err != nil {
		return err
	}
	total, err := external.Counter{Command: o.counter}.CountEncoder(ctx, e, "queens "+version())
	ref := &referee{ctx: ctx, cmd: "sat", solver: who, n: o.n, place: o.placed, count: true, counted: true}
	if err == nil {
		err = ref.check(total)
	}
	if err == nil {
		err = writeCount(out, o.format, o.n, total, nil, ref.verified())
	}
	if errors.Is(err, external.ErrCounterFailed) {
		err = fmt.Errorf("sat: %w", err)
	}
	return ref.unverified(out.finish(satError(err, o.timeout)))
}

// counterEngine is compare's engine for the model counter command on the
// encoding enc: the total is its count of the instance; without
// pre-placed queens, the unique count is its count of the instance with
// the lex-leader clauses of every symmetry (one model per class).
func counterEngine(command string, enc encode.Encoding) func(ctx context.Context, n int, place []board.Queen) (total, unique uint64, err error) {
	counter := external.Counter{Command: command}
	gen := "queens " + version()
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
