package drat_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/queens-dev/queens/drat"
)

// TestDegenerateCNF (issue 42): an empty clause is a clause. Every
// degenerate CNF is read as it is, and a formula that holds the empty
// clause is refuted by any well-formed proof in every format, the empty
// proof included (drat-trim verifies those); one without it is not
// refuted by a proof that derives nothing.
func TestDegenerateCNF(t *testing.T) {
	for _, tc := range []struct {
		name, cnf string
		clauses   int
		empty     bool // holds the empty clause
	}{
		{"p cnf 0 0", "p cnf 0 0\n", 0, false},
		{"no clauses, variables declared", "p cnf 5 0\n", 0, false},
		{"only the empty clause (CaDiCaL's false.cnf)", "p cnf 0 1\n0\n", 1, true},
		{"only empty clauses", "p cnf 0 3\n0\n0 0\n", 3, true},
		{"empty clause among others", "p cnf 2 3\n1 2 0\n0\n-1 0\n", 3, true},
		{"empty clause last", "p cnf 2 2\n1 2 0\n0\n", 2, true},
		{"variables declared and unused", "p cnf 9 2\n1 0\n0\n", 2, true},
		{"variables declared, one used", "p cnf 9 1\n1 0\n", 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := drat.ReadCNF(strings.NewReader(tc.cnf))
			if err != nil || len(f.Clauses) != tc.clauses {
				t.Fatalf("ReadCNF: %v, %v; want %d clauses", f, err, tc.clauses)
			}
			id := len(f.Clauses) + 1 // the first id a proof may add
			// Proofs that derive the empty clause from one already there,
			// or nothing: each format, by CheckProof and its own checker.
			proofs := []struct{ format, proof string }{
				{"DRAT", ""},
				{"DRAT", "0\n"},
				{"binary DRAT", "a\x00"},
				{"FRAT", "a " + itoa(id) + " 0\n"},
				// (an o step first: "a ID 0" alone reads as binary DRAT too)
				{"binary FRAT", "o\x01\x00a" + string(rune(id)) + "\x00"},
			}
			if tc.empty {
				e := firstEmpty(f) // an LRAT hint: the empty clause is false
				proofs = append(proofs,
					struct{ format, proof string }{"LRAT", itoa(id) + " 0 " + itoa(e) + " 0\n"},
					struct{ format, proof string }{"binary LRAT", "a" + string(rune(2*id)) + "\x00" + string(rune(2*e)) + "\x00"})
			}
			for _, p := range proofs {
				res, err := drat.CheckProof(context.Background(), f, strings.NewReader(p.proof))
				if tc.empty && (err != nil || res.Format != p.format) {
					t.Errorf("%s proof %q: %+v, %v; want it to refute the empty clause's formula", p.format, p.proof, res, err)
				}
				if !tc.empty && err == nil {
					t.Errorf("%s proof %q: accepted as a refutation of a satisfiable formula", p.format, p.proof)
				}
				var le *drat.LemmaError
				if !tc.empty && !errors.As(err, &le) && !errors.Is(err, drat.ErrNoEmptyClause) {
					t.Errorf("%s proof %q: %v; want a failing lemma or no empty clause", p.format, p.proof, err)
				}
			}
			if tc.empty {
				for name, check := range map[string]func(context.Context, *drat.Formula, *strings.Reader) (*drat.Result, error){
					"CheckDRAT": func(c context.Context, f *drat.Formula, r *strings.Reader) (*drat.Result, error) {
						return drat.CheckDRAT(c, f, r)
					},
					"CheckFRAT": func(c context.Context, f *drat.Formula, r *strings.Reader) (*drat.Result, error) {
						return drat.CheckFRAT(c, f, r)
					},
					"CheckLRAT": func(c context.Context, f *drat.Formula, r *strings.Reader) (*drat.Result, error) {
						return drat.CheckLRAT(c, f, r)
					},
				} {
					if res, err := check(context.Background(), f, strings.NewReader("")); err != nil || !res.FormulaConflict {
						t.Errorf("%s of the empty proof: %+v, %v; want a formula conflict", name, res, err)
					}
				}
			}
		})
	}
}

func firstEmpty(f *drat.Formula) int {
	for j, c := range f.Clauses {
		if len(c) == 0 {
			return j + 1
		}
	}
	return 0
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
