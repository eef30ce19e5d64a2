package encode

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/queens-dev/queens/board"
)

// countModels counts the assignments of variables 1..vars that extend val
// (1 true, -1 false, 0 free) and satisfy every clause, by DPLL with unit
// propagation: a small #SAT solver independent of gini. With stop it
// returns as soon as it knows the count is not 0 (a SAT check).
func countModels(t *testing.T, clauses [][]int, vars int, val []int8, stop bool) uint64 {
	t.Helper()
	val = slices.Clone(val)
	for changed := true; changed; {
		changed = false
		for _, c := range clauses {
			free, unit := 0, 0
			sat := false
			for _, lit := range c {
				v := max(lit, -lit)
				switch {
				case val[v] == 0:
					free++
					unit = lit
				case (val[v] > 0) == (lit > 0):
					sat = true
				}
				if sat {
					break
				}
			}
			if sat {
				continue
			}
			if free == 0 {
				return 0
			}
			if free == 1 {
				v := max(unit, -unit)
				val[v] = 1
				if unit < 0 {
					val[v] = -1
				}
				changed = true
			}
		}
	}
	for _, c := range clauses {
		sat := false
		for _, lit := range c {
			v := max(lit, -lit)
			if val[v] != 0 && (val[v] > 0) == (lit > 0) {
				sat = true
				break
			}
		}
		if sat {
			continue
		}
		for _, lit := range c { // an open clause: branch on its first free variable
			v := max(lit, -lit)
			if val[v] != 0 {
				continue
			}
			val[v] = 1
			n := countModels(t, clauses, vars, val, stop)
			if stop && n > 0 {
				return n
			}
			val[v] = -1
			return n + countModels(t, clauses, vars, val, stop)
		}
	}
	free := 0
	for v := 1; v <= vars; v++ {
		if val[v] == 0 {
			free++
		}
	}
	if free >= 64 {
		t.Fatalf("%d free variables: count overflows", free)
	}
	return 1 << free
}

// TestAMO checks every at-most-one encoding on its own, for lines of 1 to
// 45 literals (product recurses above 20, bimander above 4): with all
// literals false or exactly one true the clauses are satisfiable; with
// any two true (the others free) they are not.
func TestAMO(t *testing.T) {
	for _, e := range encodings {
		t.Run(string(e.name), func(t *testing.T) {
			for L := 1; L <= 45; L++ {
				xs := make([]int, L)
				for i := range xs {
					xs[i] = i + 1
				}
				var clauses [][]int
				b := &builder{ctx: context.Background(), next: L + 1, yield: func(c []int) error {
					clauses = append(clauses, slices.Clone(c))
					return nil
				}}
				e.amo(b, xs)
				wantC, wantA := e.count(L)
				if len(clauses) != wantC || b.next-1-L != wantA {
					t.Fatalf("L=%d: %d clauses, %d aux; count says %d, %d", L, len(clauses), b.next-1-L, wantC, wantA)
				}
				vars := b.next - 1
				for one := -1; one < L; one++ { // -1: none true
					val := make([]int8, vars+1)
					for i := range L {
						val[i+1] = -1
					}
					if one >= 0 {
						val[one+1] = 1
					}
					if countModels(t, clauses, vars, val, true) == 0 {
						t.Fatalf("L=%d: literal %d alone true is refused", L, one+1)
					}
				}
				for i := range L {
					for j := i + 1; j < L; j++ {
						val := make([]int8, vars+1)
						val[i+1], val[j+1] = 1, 1
						if n := countModels(t, clauses, vars, val, true); n != 0 {
							t.Fatalf("L=%d: literals %d and %d both true are accepted", L, i+1, j+1)
						}
					}
				}
			}
		})
	}
}

// TestModelCount counts the models of whole formulas by DPLL. For the
// encodings Exact reports, they are exactly the solutions (what "c t mc"
// promises); for every encoding, with and without symmetry breaking, the
// board assignments that extend to a model (checked one by one, n^n
// of them with one queen per row) are exactly the solutions, or the
// canonical ones (what "c t pmc" with "c p show 1..n*n" promises).
func TestModelCount(t *testing.T) {
	for _, e := range encodings {
		for _, sym := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/symmetry=%v", e.name, sym), func(t *testing.T) {
				for n := 1; n <= 6; n++ {
					enc, err := NewEncoder(n, Options{Encoding: e.name, Symmetry: sym})
					if err != nil {
						t.Fatal(err)
					}
					cnf, err := enc.CNF(context.Background())
					if err != nil {
						t.Fatal(err)
					}
					known, _ := board.Known(n)
					want := known.Total
					if sym {
						want = known.Unique
					}
					if Exact(e.name) && !sym {
						if got := countModels(t, cnf.Clauses, cnf.Vars, make([]int8, cnf.Vars+1), false); got != want {
							t.Errorf("n=%d: %d models, want %d", n, got, want)
						}
					}
					projected := uint64(0)
					s := make(board.Solution, n)
					var walk func(row int)
					walk = func(row int) {
						if row == n {
							val := make([]int8, cnf.Vars+1)
							for i := 1; i <= n*n; i++ {
								val[i] = -1
							}
							for r, c := range s {
								val[Var(n, r, c)] = 1
							}
							if countModels(t, cnf.Clauses, cnf.Vars, val, true) > 0 {
								projected++
								if !board.Valid(s) || sym && !board.IsCanonical(s) {
									t.Errorf("n=%d: %v extends to a model", n, s)
								}
							}
							return
						}
						for col := range n {
							s[row] = col
							walk(row + 1)
						}
					}
					walk(0)
					if projected != want {
						t.Errorf("n=%d: %d projected models, want %d", n, projected, want)
					}
				}
			})
		}
	}
}

// TestExactOverCounts: the encodings not marked exact do have more models
// than solutions, so "c t mc" would be wrong for them.
func TestExactOverCounts(t *testing.T) {
	for _, e := range encodings {
		if e.exact || e.name == Product { // product is pairwise up to n = 20
			continue
		}
		cnf, _ := Queens(6, e.name, nil)
		if got := countModels(t, cnf.Clauses, cnf.Vars, make([]int8, cnf.Vars+1), false); got <= 4 {
			t.Errorf("%s n=6: %d models, want more than the 4 solutions", e.name, got)
		}
	}
}
