package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/drat"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/external"
	"github.com/urfave/cli/v2"
)

// ProofChecker checks the proofs of --proof (sat, decode) with the drat
// package's checkers (in pure Go), whatever the format the solver wrote:
// text or binary DRAT, picosat.trace's RUP trace, text LRAT (see
// [drat.CheckProof]). A nil checker makes --proof a usage error.
var ProofChecker external.ProofChecker = func(ctx context.Context, cnf *encode.CNF, proof io.Reader) error {
	_, err := CheckProofFormat(ctx, cnf, proof)
	return err
}

// CheckProofFormat checks the proof read from proof against cnf as
// ProofChecker does, and returns the format it detected ("DRAT", "binary
// LRAT", ...: see [drat.CheckProof]).
func CheckProofFormat(ctx context.Context, cnf *encode.CNF, proof io.Reader) (format string, err error) {
	res, err := drat.CheckProof(ctx, &drat.Formula{Vars: cnf.Vars, Clauses: cnf.Clauses}, proof)
	if err != nil {
		return "", err
	}
	return res.Format, nil
}

// ProofFlag is --proof: ask the --solver for a DRAT proof of every
// UNSATISFIABLE answer and check it.
func ProofFlag() cli.Flag {
	return &cli.BoolFlag{Name: "proof", Usage: "ask the --solver for a DRAT proof of every UNSATISFIABLE answer and check it (cadical, kissat, picosat.trace, glucose, or {proof} in CMD)"}
}

// SolverOutputFlag is --solver-output WHERE: where the --solver writes
// its answer (stdout, file or auto).
func SolverOutputFlag() cli.Flag {
	return &cli.StringFlag{Name: "solver-output", Value: "auto",
		Usage: "where the --solver writes its answer: `WHERE` stdout (s/v lines), file (minisat style: CMD CNF RESULT) or auto (found by probing)"}
}

// NewExternal returns the description of the external solver command
// with --solver-output (output) and --proof.
func NewExternal(command, output string, proof bool) (external.External, error) {
	x := external.External{Command: command}
	mode, err := external.ParseOutputMode(output)
	if err != nil {
		return x, Usagef("--solver-output: %v", err)
	}
	x.Output = mode
	if proof {
		if ProofChecker == nil {
			return x, Usagef("--proof: this build of queens has no proof checker")
		}
		x.Proof = ProofChecker
	}
	if err := external.LookSolver(command); err != nil {
		return x, UsageErr(err)
	}
	if x.Proof != nil {
		argv, _ := external.SplitCommand(command)
		if _, _, err := external.ProofArgs(argv, "PROOF"); err != nil {
			return x, UsageErr(err)
		}
	}
	return x, nil
}

// A referee is the command line's use of [compare.Referee]: it checks
// every claim of a solver that there are no more solutions (its
// UNSATISFIABLE answer), or a counter's count, against what is known
// without trusting it. A claim the referee refutes fails the run with
// both answers; the verdict on one it does not refute (how it was
// Verified, or why not) goes into the JSON of the answer, and an
// Unverified one gets exit status 3 with a "queens: unverified: ..."
// line (see unverified).
type Referee struct {
	Ctx       context.Context
	Cmd       string // "sat", "decode"
	Solver    string // who answered, for messages
	N         int
	Place     []board.Queen
	Count     bool              // the claim is a count: ask for the number of solutions
	Unique    bool              // the solutions are one per symmetry class (--unique)
	Group     []board.Transform // with unique: the symmetries broken, for the classes' sizes
	Certified func() bool       // a checked proof backs the last UNSATISFIABLE answer
	Counted   bool              // the claim is a model counter's count, not an UNSATISFIABLE answer
	budget    time.Duration     // 0: RefereeTime

	verdict *compare.Verdict // the verdict on the last claim checked (nil: none yet)
	warning string           // set by check when the claim stays unverified
}

// Stream passes seq through and, when seq ends by itself (the solver's
// final UNSATISFIABLE), checks the claim that the solutions so far are
// All of them; a contradiction is yielded as the stream's error, before
// anything like "no solution" is printed.
func (r *Referee) Stream(seq iter.Seq2[board.Solution, error]) iter.Seq2[board.Solution, error] {
	return func(yield func(board.Solution, error) bool) {
		var found, total uint64
		for s, err := range seq {
			if err != nil {
				yield(nil, err)
				return
			}
			found++
			if r.Unique {
				total += uint64(board.OrbitSizeUnder(s, r.Group))
			}
			if !yield(s, nil) {
				return
			}
		}
		if err := r.CheckClaim(compare.Claim{Solutions: found, Count: r.Count, Classes: r.Unique, Total: total}); err != nil {
			yield(nil, err)
		}
	}
}

// Check checks the claim that the problem has exactly found solutions.
func (r *Referee) Check(found uint64) error {
	return r.CheckClaim(compare.Claim{Solutions: found, Count: r.Count})
}

// CheckClaim checks claim (Proved is filled in from certified): a
// refutation is exit status 1; an unverified claim sets the warning.
func (r *Referee) CheckClaim(claim compare.Claim) error {
	claim.Proved = r.Certified != nil && r.Certified()
	budget := r.budget
	if budget == 0 {
		budget = RefereeTime
	}
	v, err := compare.Referee{N: r.N, Place: r.Place, Budget: budget}.Check(r.Ctx, claim)
	var ref *compare.Refutation
	switch {
	case errors.As(err, &ref) && ref.Counted:
		return Failf("%s: %s, but %v: a solver bug", r.Cmd, r.claimText(claim), ref)
	case errors.As(err, &ref):
		return Failf("%s: %s, but %v", r.Cmd, r.claimText(claim), ref)
	case err != nil:
		return err
	}
	r.verdict = &v
	if !v.Verified() {
		extra := ""
		if claim.Classes && claim.Solutions > 0 {
			extra = " (one per symmetry class)"
		}
		r.warning = fmt.Sprintf("unverified: %s on n = %d%s%s; the referee cannot check it (%v), and no proof was checked (--proof)",
			r.claimText(claim), r.N, placeText(r.Place), extra, v.Why)
	}
	return nil
}

// claimText says what the solver claimed, for messages.
func (r *Referee) claimText(claim compare.Claim) string {
	switch {
	case r.Counted:
		return fmt.Sprintf("the model counter %s counted %d solutions", r.Solver, claim.Solutions)
	case claim.Solutions == 0:
		return r.Solver + " answered UNSATISFIABLE (no solution)"
	case claim.Classes:
		return fmt.Sprintf("%s found %d solutions (%d in all), then answered UNSATISFIABLE", r.Solver, claim.Solutions, claim.Total)
	}
	return fmt.Sprintf("%s found %d solutions, then answered UNSATISFIABLE", r.Solver, claim.Solutions)
}

// Unverified returns err, or when err is nil and the claim stayed
// Unverified, the exit status 3 error that says so ("queens: unverified:
// ..." on stderr, after the answer was printed).
func (r *Referee) Unverified(err error) error {
	if err != nil || r.warning == "" {
		return err
	}
	return &ExitError{Code: ExitUnverified, Err: errors.New(r.warning)}
}

// Verified returns the JSON fields of the referee's verdict: nil before
// any claim was checked (the answer needs none, e.g. a solution).
func (r *Referee) Verified() *Verification {
	if r == nil || r.verdict == nil {
		return nil
	}
	return newVerification(*r.verdict)
}

func placeText(place []board.Queen) string {
	if len(place) == 0 {
		return ""
	}
	return " with --place " + joinStrings(place, " ")
}
