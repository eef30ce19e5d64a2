package satcmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/sat"
	"github.com/queens-dev/queens/sat/engine"
)

// competitionFormat is --format competition: the SAT competition's
// answer, "s SATISFIABLE" and "v ... 0" lines or "s UNSATISFIABLE", with
// exit status 10 or 20.
const competitionFormat = "competition"

// checkCompetition refuses what --format competition cannot say: it
// answers one instance, SATISFIABLE with one model or UNSATISFIABLE.
func (o *satOptions) checkCompetition() error {
	switch {
	case o.enumerate || o.Unique.On:
		return cmdutil.Usagef("--format competition answers the instance once (one model, or UNSATISFIABLE): no --all, --count, --limit or --unique")
	case o.counterSet:
		return cmdutil.Usagef("--format competition answers the instance; --counter counts it")
	}
	return o.CheckOutput(board.FormatPerm, o.N) // --attacks and --numbers draw pictures
}

// runCompetition is sat --format competition: the first solution, gini's
// or the --solver's, checked as any other, written as the model of the
// CNF that queens dimacs writes with the same flags (every variable,
// auxiliary ones included: see sat.ModelOf), exit status 10; or an
// UNSATISFIABLE that the referee or a proof checked, exit status 20. An
// unverified UNSATISFIABLE exits with status 3, a timeout with "s
// UNKNOWN" and status 1.
func runCompetition(parent context.Context, o satOptions, stdout, stderr io.Writer) error {
	r, err := newSatRun(o, stderr)
	if err != nil {
		return err
	}
	ctx, cancel := cmdutil.TimeoutContext(parent, o.Timeout)
	defer cancel()
	out, err := cmdutil.OpenOutputContext(parent, o.Output, stdout)
	if err != nil {
		return err
	}
	solver, err := sat.Detach(ctx, func() (engine.Interface, error) { return r.load(ctx, nil) })
	if err != nil {
		return unknown(out, err, o)
	}
	ref := &cmdutil.Referee{Ctx: ctx, Cmd: "sat", Solver: r.who, N: r.n, Place: r.placed,
		Certified: func() bool { return solver.Stats().Proofs > 0 }}
	all, finished := solver.All(ctx), func() bool { return true }
	if !r.external {
		all, finished = sat.DetachSeq(ctx, all) // as solve: a stop returns at once
	}
	var sol board.Solution
	for s, serr := range ref.Stream(all) {
		sol, err = s, serr
		break
	}
	if err == nil && sol != nil {
		err = r.writeModel(ctx, out, sol)
	} else if err == nil {
		_, err = io.WriteString(out, "s UNSATISFIABLE\n")
	}
	if err != nil {
		return unknown(out, err, o)
	}
	err = out.Finish(nil)
	if o.Stats && finished() {
		r.writeStats(solver.Stats())
	}
	switch {
	case err != nil:
		return err
	case sol != nil:
		return cmdutil.StatusSatisfiable
	}
	if err := ref.Unverified(nil); err != nil {
		return err // exit status 3, the answer printed
	}
	return cmdutil.StatusUnsatisfiable
}

// writeModel writes "s SATISFIABLE" and the model of the CNF for the
// checked solution sol: every variable 1..V in order, a "v" line at most
// vLine bytes long, the last ending in 0. The model is checked against
// every clause, and its board against sol, before a byte is written.
func (r *satRun) writeModel(ctx context.Context, out io.Writer, sol board.Solution) error {
	cnf, err := r.e.CNF(ctx)
	if err != nil {
		return err
	}
	model, err := sat.ModelOf(ctx, cnf, sol)
	if err != nil {
		return err
	}
	if model == nil {
		return cmdutil.Failf("sat: gini finds no model of the CNF with the board %s found: a solver or encoder bug", r.who)
	}
	if ok, c := cnf.Satisfies(model); !ok {
		return cmdutil.Failf("sat: the model of the board falsifies clause %d: a solver bug", c+1)
	}
	if got, err := encode.Decode(r.n, model); err != nil || !slices.Equal(got, sol) {
		return cmdutil.Failf("sat: the model of the board places other queens: a solver bug")
	}
	w := bufio.NewWriter(out)
	w.WriteString("s SATISFIABLE\n")
	line := []byte("v")
	for _, lit := range append(model, 0) {
		word := strconv.AppendInt([]byte(" "), int64(lit), 10)
		if len(line)+len(word) > vLine {
			w.Write(append(line, '\n'))
			line = append(line[:0], 'v')
		}
		line = append(line, word...)
	}
	w.Write(append(line, '\n'))
	return w.Flush()
}

// vLine bounds the bytes of a "v" line, its newline left out (solvers
// write about 80; readers take any length).
const vLine = 78

// unknown ends a competition run that has no answer: after a timeout "s
// UNKNOWN" is written (and kept, as an answer), then the error says why;
// any other error leaves no output.
func unknown(out *cmdutil.Output, err error, o satOptions) error {
	if !errors.Is(err, context.DeadlineExceeded) {
		out.Abort()
		return satError(err, o.Timeout)
	}
	if _, werr := io.WriteString(out, "s UNKNOWN\n"); werr != nil {
		return out.Finish(werr)
	}
	if ferr := out.Finish(nil); ferr != nil {
		return ferr
	}
	return satError(err, o.Timeout)
}

// competitionText is the --format competition paragraph of sat's help.
var competitionText = fmt.Sprintf("--format competition answers as a SAT competition solver does: \"s SATISFIABLE\" and the\n"+
	"model of the CNF that \"queens dimacs\" writes with the same flags, every variable in\n"+
	"\"v ... 0\" lines of at most %d bytes (auxiliary variables too: each encoding defines them,\n"+
	"so the model of a board is the solver's own), exit status 10; or \"s UNSATISFIABLE\", exit\n"+
	"status 20 (never 0). The answer is checked first, as any other (an unverified\n"+
	"UNSATISFIABLE exits with status 3); --timeout writes \"s UNKNOWN\" and exits with status 1.\n"+
	"It answers once: no --all, --count, --limit or --unique.\n\n", vLine)
