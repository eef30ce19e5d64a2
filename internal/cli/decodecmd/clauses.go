package decodecmd

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/sat/external"
)

// decodeClauses is decode --cnf FILE without -n: the answer checked
// against the clauses alone, whatever formula they are, as CaDiCaL's
// dimocheck checks a model. A model must satisfy every clause (exit
// status 0) and use no variable beyond the "p cnf" line; one that
// falsifies a clause fails the check (1), naming the clause. An
// UNSATISFIABLE answer is confirmed by a proof that refutes the file
// (--proof) or by an empty clause of the file; a model of the clauses
// that gini finds refutes it (1); otherwise it is printed, unverified
// (3). The clauses are kept in memory only for an UNSATISFIABLE answer.
func (d *decoder) decodeClauses(ctx context.Context, res *external.Result) error {
	unsat := res.Status == external.Unsatisfiable
	inst, err := d.readInstance(ctx, res, unsat)
	if err != nil {
		return err
	}
	if !unsat {
		if lit := beyond(res.Model, inst.vars); lit != 0 {
			return cmdutil.Failf("decode: not a model of %s: its literal %d is beyond the %d variables of its \"p cnf\" line", inst.path, lit, inst.vars)
		}
		if inst.falsified >= 0 {
			return cmdutil.Failf("decode: not a model of %s: its clause %d, %s, is false", inst.path, inst.falsified+1, clauseText(inst.clause))
		}
		return d.writeClauses(verdict{Satisfiable: true, Clauses: &inst.clauses, Verification: cmdutil.Verification{Verified: true, VerifiedBy: "clauses"}},
			fmt.Sprintf("SATISFIABLE: the model satisfies every clause of %s (%d)", inst.path, inst.clauses))
	}
	if d.proof != "" {
		format, err := d.checkProofFile(ctx, inst.formula(), inst.path)
		if err != nil {
			return err
		}
		name := d.proof
		if name == "-" {
			name = "on stdin"
		}
		return d.writeClauses(verdict{ProofFormat: format, Verification: cmdutil.Verification{Verified: true, VerifiedBy: "proof"}},
			fmt.Sprintf("UNSATISFIABLE: the %s proof %s refutes %s", format, name, inst.path))
	}
	proved, why, err := inst.judgeUnsat(ctx)
	switch {
	case err != nil:
		return err
	case proved:
		return d.writeClauses(verdict{Verification: cmdutil.Verification{Verified: true, VerifiedBy: "empty clause"}}, "UNSATISFIABLE: "+why)
	}
	if err := d.writeClauses(verdict{}, "UNSATISFIABLE (unverified)"); err != nil {
		return err
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitUnverified, Err: fmt.Errorf("unverified: the solver answered UNSATISFIABLE of %s; %s", inst.path, why)}
}

// verdict is the JSON of decode without -n:
// {"satisfiable":true,"clauses":744,"verified":true,"verified_by":"clauses"},
// {"satisfiable":false,"proof_format":"binary DRAT","verified":true,"verified_by":"proof"}.
type verdict struct {
	Satisfiable bool   `json:"satisfiable"`
	Clauses     *int   `json:"clauses,omitempty"`
	ProofFormat string `json:"proof_format,omitempty"`
	cmdutil.Verification
}

// writeClauses writes the verdict: text, or with --format json its JSON.
func (d *decoder) writeClauses(v verdict, text string) error {
	if d.format == board.FormatJSON {
		return cmdutil.WriteJSONLine(d.stdout, v)
	}
	_, err := fmt.Fprintln(d.stdout, text)
	return err
}

// clauseText writes a clause as DIMACS does ("-1 -2 0"), cut after 16
// literals.
func clauseText(clause []int) string {
	s := ""
	for i, lit := range clause {
		if i == 16 {
			return s + fmt.Sprintf("... (%d literals) 0", len(clause))
		}
		s += fmt.Sprint(lit) + " "
	}
	return s + "0"
}
