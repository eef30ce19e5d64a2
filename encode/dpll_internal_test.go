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
// literals false or exactly one true the clauses have exactly one model
// (the auxiliary variables are defined); with any two true (the others
// free) they have none. An encoding with an exactly-one of its own (for
// rows and columns) is checked the same way, with no literal true
// refused.
func TestAMO(t *testing.T) {
	for _, e := range encodings {
		t.Run(string(e.name), func(t *testing.T) {
			checkOne(t, e.amo, e.count, false)
		})
		if e.exactlyOne != nil {
			t.Run(string(e.name)+"/exactly-one", func(t *testing.T) {
				checkOne(t, e.exactlyOne, e.exactlyOneCount, true)
			})
		}
	}
}

// checkOne checks the encoding enc of at most one (or, with exactly,
// exactly one) of L literals, for L = 1..45, against count and by
// counting models.
func checkOne(t *testing.T, enc func(*builder, []int), count func(int) (int, int), exactly bool) {
	t.Helper()
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
		enc(b, xs)
		wantC, wantA := count(L)
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
			want := uint64(1)
			if exactly && one < 0 {
				want = 0
			}
			if got := countModels(t, clauses, vars, val, false); got != want {
				t.Fatalf("L=%d: literal %d alone true (0: none) has %d models, want %d", L, one+1, got, want)
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
}

// TestModelCount counts the models of whole formulas by DPLL: for every
// encoding, with and without symmetry breaking and a pre-placed queen,
// they are exactly the solutions, or the canonical ones (what "c t mc"
// promises); and the board assignments that extend to a model (checked
// one by one, n^n of them with one queen per row) are the same ones.
func TestModelCount(t *testing.T) {
	for _, e := range encodings {
		for _, sym := range []bool{false, true} {
			for _, placed := range [][]board.Queen{nil, {{Row: 0, Col: 1}}} {
				t.Run(fmt.Sprintf("%s/symmetry=%v/placed=%v", e.name, sym, placed), func(t *testing.T) {
					for n := 1; n <= 6; n++ {
						if board.CheckPlacement(n, placed) != nil {
							continue
						}
						modelCount(t, e.name, n, sym, placed)
					}
				})
			}
		}
	}
}

// modelCount checks the models of one instance against the solutions the
// checker and board.IsCanonical accept, found by walking every board.
func modelCount(t *testing.T, enc Encoding, n int, sym bool, placed []board.Queen) {
	t.Helper()
	e, err := NewEncoder(n, Options{Encoding: enc, Symmetry: sym, Place: placed})
	if err != nil {
		t.Fatal(err)
	}
	cnf, err := e.CNF(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	group := e.Symmetries()
	wanted := func(s board.Solution) bool {
		if !board.Valid(s) || !s.Contains(placed) {
			return false
		}
		for _, t := range group { // the canonical one of the subgroup's class
			if t.Apply(s).Less(s) {
				return false
			}
		}
		return true
	}
	var want, projected uint64
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
			ok := wanted(s)
			if ok {
				want++
			}
			if m := countModels(t, cnf.Clauses, cnf.Vars, val, false); m > 0 {
				projected++
				if !ok || m != 1 {
					t.Errorf("n=%d: %v extends to %d models", n, s, m)
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
	if got := countModels(t, cnf.Clauses, cnf.Vars, make([]int8, cnf.Vars+1), false); got != want || projected != want {
		t.Errorf("n=%d: %d models, %d boards extend to one; want %d", n, got, projected, want)
	}
	if known, ok := board.Known(n); ok && len(placed) == 0 {
		if w := map[bool]uint64{false: known.Total, true: known.Unique}[sym]; want != w {
			t.Errorf("n=%d: %d solutions found by walking, published %d", n, want, w)
		}
	}
}

// TestLineSizes checks the per-line sizes of the encodings against
// their closed forms for every L up to 2000, and sortnet's network
// against Batcher's published number of comparators for 2^p inputs,
// (p^2 - p + 4) 2^(p-2) - 1 (Knuth, TAOCP vol. 3, 5.3.4, exercise 10).
func TestLineSizes(t *testing.T) {
	for L := 3; L <= 2000; L++ {
		if c, a := totalizerCount(L); c != 7*L-13 || a != 2*L-4 {
			t.Fatalf("totalizer L=%d: %d clauses, %d aux; want 7L-13 = %d, 2L-4 = %d", L, c, a, 7*L-13, 2*L-4)
		}
		if c, a := ladderCount(L); c != 4*L-2 || a != L {
			t.Fatalf("ladder L=%d: %d clauses, %d aux", L, c, a)
		}
		if c, a := ladderExactlyOneCount(L); c != 4*L-4 || a != L-1 {
			t.Fatalf("ladder exactly-one L=%d: %d clauses, %d aux", L, c, a)
		}
	}
	for p := 1; p <= 10; p++ {
		L := 1 << p
		net := sortnetFor(L)
		comparators := (len(net.op) - L - 1) / 2
		if want := (p*p-p+4)<<p/4 - 1; comparators != want {
			t.Errorf("sortnet L=%d: %d comparators, Batcher's network has %d", L, comparators, want)
		}
		// 3 clauses for each output made, and the clauses that forbid
		// the second output: one for each minimum it depends on through
		// maxima alone.
		c, a := sortnetCount(L)
		if forbids := c - 3*a; a > 2*comparators || forbids < 1 || forbids > comparators {
			t.Errorf("sortnet L=%d: %d clauses, %d aux for %d comparators", L, c, a, comparators)
		}
	}
}
