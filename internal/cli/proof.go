package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/drat"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/external"
	"github.com/urfave/cli/v2"
)

// proofChecker checks the DRAT proofs of --proof (sat, decode) with the
// drat package's checker (backward RUP/RAT, in pure Go). A nil checker
// makes --proof a usage error.
var proofChecker external.ProofChecker = func(ctx context.Context, cnf *encode.CNF, proof io.Reader) error {
	_, err := drat.CheckDRAT(ctx, &drat.Formula{Vars: cnf.Vars, Clauses: cnf.Clauses}, proof)
	return err
}

func proofFlag() cli.Flag {
	return &cli.BoolFlag{Name: "proof", Usage: "ask the --solver for a DRAT proof of every UNSATISFIABLE answer and check it (cadical, kissat, picosat.trace, glucose, or {proof} in CMD)"}
}

func solverOutputFlag() cli.Flag {
	return &cli.StringFlag{Name: "solver-output", Value: "auto",
		Usage: "where the --solver writes its answer: `WHERE` stdout (s/v lines), file (minisat style: CMD CNF RESULT) or auto (found by probing)"}
}

// externalSolver reads --solver-output and --proof into the description
// of the external solver command.
func externalSolver(c *cli.Context, command string) (external.External, error) {
	x := external.External{Command: command}
	mode, err := external.ParseOutputMode(c.String("solver-output"))
	if err != nil {
		return x, usagef("--solver-output: %v", err)
	}
	x.Output = mode
	if c.Bool("proof") {
		if proofChecker == nil {
			return x, usagef("--proof: this build of queens has no proof checker")
		}
		x.Proof = proofChecker
	}
	if err := external.LookSolver(command); err != nil {
		return x, usageErr(err)
	}
	if x.Proof != nil {
		argv, _ := external.SplitCommand(command)
		if _, _, err := external.ProofArgs(argv, "PROOF"); err != nil {
			return x, usageErr(err)
		}
	}
	return x, nil
}

// solverError maps the errors of building an external solver: a missing
// program, a bad quote or a solver that writes no proof are usage errors.
func solverError(err error) error {
	if errors.Is(err, external.ErrSolverNotFound) || errors.Is(err, external.ErrQuote) || errors.Is(err, external.ErrNoProof) {
		return usageErr(err)
	}
	return err
}

// A referee checks every claim of a solver that there are no more
// solutions (its UNSATISFIABLE answer) against what is known without any
// SAT solver ([compare.Exists], [compare.Completions]): a claim the
// referee contradicts fails the run with both answers; one it cannot
// decide, and that no checked proof certifies, is reported on stderr as
// unverified.
type referee struct {
	ctx       context.Context
	cmd       string // "sat", "decode"
	solver    string // who answered, for messages
	n         int
	place     []board.Queen
	count     bool        // the claim is a count: ask for the number of solutions
	unique    bool        // the solutions are one per symmetry class (--unique)
	certified func() bool // a checked proof backs the last UNSATISFIABLE answer
	warning   string      // set by check when the claim stays unverified
	counted   bool        // the claim is a model counter's count, not an UNSATISFIABLE answer
}

// stream passes seq through and, when seq ends by itself (the solver's
// final UNSATISFIABLE), checks the claim that the solutions so far are
// all of them; a contradiction is yielded as the stream's error, before
// anything like "no solution" is printed.
func (r *referee) stream(seq iter.Seq2[board.Solution, error]) iter.Seq2[board.Solution, error] {
	return func(yield func(board.Solution, error) bool) {
		var found uint64
		for s, err := range seq {
			if err != nil {
				yield(nil, err)
				return
			}
			found++
			if !yield(s, nil) {
				return
			}
		}
		if err := r.check(found); err != nil {
			yield(nil, err)
		}
	}
}

// check checks the claim that the problem has exactly found solutions.
func (r *referee) check(found uint64) error {
	ctx, cancel := context.WithTimeout(r.ctx, refereeTime)
	defer cancel()
	claim := fmt.Sprintf("%s found %d solutions, then answered UNSATISFIABLE", r.solver, found)
	if found == 0 {
		claim = r.solver + " answered UNSATISFIABLE (no solution)"
	}
	if r.counted {
		claim = fmt.Sprintf("the model counter %s counted %d solutions", r.solver, found)
	}
	if r.unique && found > 0 {
		// One solution per class: the published count of classes is the
		// referee; with pre-placed queens nothing counts classes.
		if c, ok := board.Known(r.n); ok && len(r.place) == 0 {
			if c.Unique != found {
				return failf("%s: %s, but the published count of classes is %d: a solver bug", r.cmd, claim, c.Unique)
			}
			return nil
		}
		if r.certified != nil && r.certified() {
			return nil
		}
		r.warning = fmt.Sprintf("unverified: %s on n = %d%s (one per symmetry class); the referee counts classes only for the published table without --place, and no proof was checked (--proof)",
			claim, r.n, placeText(r.place))
		return nil
	}
	var v compare.Verdict
	var err error
	if r.count || found > 0 {
		v, err = compare.Completions(ctx, r.n, r.place)
	}
	if err == nil && !v.Counted && found == 0 {
		v, err = compare.Exists(ctx, r.n, r.place)
	}
	if err != nil {
		return err
	}
	switch {
	case v.Counted && v.Count != found && v.How == "the published count":
		return failf("%s: %s, but the published count is %d: a solver bug", r.cmd, claim, v.Count)
	case v.Counted && v.Count != found:
		return failf("%s: %s, but %s counts %d: a solver bug", r.cmd, claim, v.How, v.Count)
	case !v.Counted && v.Decided && v.Exists && found == 0:
		return failf("%s: %s, but %s gives a solution: %s", r.cmd, claim, v.How, permText(v.Witness))
	case v.Decided && (v.Counted || found == 0):
		return nil
	}
	if r.certified != nil && r.certified() {
		return nil
	}
	if r.ctx.Err() != nil {
		return r.ctx.Err()
	}
	why := fmt.Sprintf("it counts completions of pre-placed queens only up to n = %d", compare.RefereeCountMax)
	if found == 0 {
		why = fmt.Sprintf("the backtracker found no answer within %v", refereeTime)
	} else if len(r.place) == 0 {
		why = "the published counts end at n = 27"
	}
	r.warning = fmt.Sprintf("unverified: %s on n = %d%s; the referee cannot check it (%s), and no proof was checked (--proof)",
		claim, r.n, placeText(r.place), why)
	return nil
}

// warn prints the referee's warning, if any, on w.
func (r *referee) warn(w io.Writer) {
	if r.warning != "" {
		fmt.Fprintf(w, "queens: %s\n", r.warning)
	}
}

func placeText(place []board.Queen) string {
	if len(place) == 0 {
		return ""
	}
	parts := make([]string, len(place))
	for i, q := range place {
		parts[i] = q.String()
	}
	return " with --place " + strings.Join(parts, " ")
}

// permText writes a solution in the 1-based perm format, for messages.
func permText(s board.Solution) string {
	b, _ := board.Append(nil, s, board.FormatPerm)
	return "[" + strings.TrimSpace(string(b)) + "]"
}
