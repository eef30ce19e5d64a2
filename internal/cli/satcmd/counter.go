package satcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/sat/external"
)

// checkCounter checks --counter's options: it counts, in place of
// --solver, and counts every solution (not the classes).
func (o *satOptions) checkCounter() error {
	switch {
	case !o.Count:
		return cmdutil.Usagef("--counter counts: it goes with --count")
	case o.solverSet || o.proof || o.solverOutputSet:
		return cmdutil.Usagef("--counter replaces --solver (and its --proof, --solver-output)")
	case o.Unique.On:
		return cmdutil.Usagef("--counter with --unique: a counter gives the number of classes, not the total; write the instance with queens dimacs --break-symmetry --mc and count it")
	}
	return nil
}

// runCounter is sat --count --counter CMD: the count of an external model
// counter, checked by the referee.
func runCounter(parent context.Context, o satOptions, stdout, stderr io.Writer) error {
	if err := external.LookSolver(o.counter); err != nil {
		return cmdutil.UsageErr(err)
	}
	argv, _ := external.SplitCommand(o.counter)
	who := filepath.Base(argv[0])
	e, err := encode.NewEncoder(o.N, encode.Options{Encoding: o.enc, Place: o.Placed})
	if err != nil {
		return cmdutil.UsageErr(err)
	}
	ctx, cancel := cmdutil.TimeoutContext(parent, o.Timeout)
	defer cancel()
	out, err := cmdutil.OpenSolutions(parent, stdout, o.SolutionFlags, o.N, o.Placed)
	if err != nil {
		return err
	}
	total, err := external.Counter{Command: o.counter}.CountEncoder(ctx, e, "queens "+cmdutil.Version())
	ref := &cmdutil.Referee{Ctx: ctx, Cmd: "sat", Solver: who, N: o.N, Place: o.Placed, Count: true, Counted: true}
	if err == nil {
		err = ref.Check(total)
	}
	if err == nil {
		err = cmdutil.WriteCount(out, o.Format, o.N, total, nil, ref.Verified())
	}
	if errors.Is(err, external.ErrCounterFailed) {
		err = fmt.Errorf("sat: %w", err)
	}
	return ref.Unverified(out.Finish(satError(err, o.Timeout)))
}
