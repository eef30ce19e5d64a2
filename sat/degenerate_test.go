package sat_test

import (
	"context"
	"strings"
	"testing"

	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
)

// TestDegenerateCNF (issue 42): an empty clause is a clause all the way
// from the reader to the model search. Every degenerate CNF keeps its
// clauses, empty ones included, through ReadDIMACS and ScanDIMACS; a
// formula with an empty clause has no model (sat.Model says nil, and no
// assignment satisfies it); one without clauses has the empty model.
func TestDegenerateCNF(t *testing.T) {
	for _, tc := range []struct {
		name, cnf string
		clauses   int
		sat       bool
	}{
		{"p cnf 0 0", "p cnf 0 0\n", 0, true},
		{"no clauses, variables declared", "p cnf 5 0\n", 0, true},
		{"only the empty clause (CaDiCaL's false.cnf)", "p cnf 0 1\n0\n", 1, false},
		{"only empty clauses", "p cnf 0 3\n0\n0 0\n", 3, false},
		{"empty clause among others", "p cnf 2 3\n1 2 0\n0\n-1 0\n", 3, false},
		{"variables declared and unused", "p cnf 9 2\n1 0\n0\n", 2, false},
		{"variables declared, one used", "p cnf 9 1\n1 0\n", 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cnf, err := encode.ReadDIMACS(strings.NewReader(tc.cnf))
			if err != nil || len(cnf.Clauses) != tc.clauses {
				t.Fatalf("ReadDIMACS: %v; want %d clauses", err, tc.clauses)
			}
			empty, scanned := 0, 0
			if _, err := encode.ScanDIMACS(strings.NewReader(tc.cnf), func(c []int) error {
				scanned++
				if len(c) == 0 {
					empty++
				}
				return nil
			}); err != nil || scanned != tc.clauses {
				t.Fatalf("ScanDIMACS: %d clauses, %v; want %d", scanned, err, tc.clauses)
			}
			if tc.sat && empty > 0 {
				t.Fatalf("%d empty clauses in a satisfiable case", empty)
			}
			model, err := sat.Model(context.Background(), cnf)
			if err != nil {
				t.Fatal(err)
			}
			if got := model != nil; got != tc.sat {
				t.Errorf("sat.Model = %v, want a model: %v", model, tc.sat)
			}
			if model != nil {
				if ok, i := cnf.Satisfies(model); !ok {
					t.Errorf("sat.Model's %v falsifies clause %d", model, i+1)
				}
			}
			if ok, _ := cnf.Satisfies([]int{1, 2, 3, 4, 5, 6, 7, 8, 9}[:cnf.Vars]); ok && !tc.sat {
				t.Errorf("an assignment satisfies a formula with an empty clause")
			}
		})
	}
}
