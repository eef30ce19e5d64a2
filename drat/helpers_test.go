package drat_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/queens-dev/queens/drat"
	"github.com/queens-dev/queens/internal/testutil"
)

// queensCNF is a local copy of the pairwise N-Queens encoding: variable
// row*n+col+1 is a queen on (row, col); each row and each column holds
// exactly one queen, each diagonal and antidiagonal at most one. placed adds
// a unit clause per pre-placed queen {row, col}.
func queensCNF(n int, placed ...[2]int) *drat.Formula {
	v := func(row, col int) int { return row*n + col + 1 }
	f := &drat.Formula{Vars: n * n}
	atMostOne := func(xs []int) {
		for i := range xs {
			for j := i + 1; j < len(xs); j++ {
				f.Clauses = append(f.Clauses, []int{-xs[i], -xs[j]})
			}
		}
	}
	for row := 0; row < n; row++ {
		var xs []int
		for col := 0; col < n; col++ {
			xs = append(xs, v(row, col))
		}
		f.Clauses = append(f.Clauses, xs)
		atMostOne(xs)
	}
	for col := 0; col < n; col++ {
		var xs []int
		for row := 0; row < n; row++ {
			xs = append(xs, v(row, col))
		}
		f.Clauses = append(f.Clauses, xs)
		atMostOne(xs)
	}
	for d := -(n - 1); d <= n-1; d++ { // col - row = d
		var xs, ys []int
		for row := 0; row < n; row++ {
			if col := row + d; col >= 0 && col < n {
				xs = append(xs, v(row, col))
			}
			if col := n - 1 - row - d; col >= 0 && col < n { // row + col = n-1-d
				ys = append(ys, v(row, col))
			}
		}
		atMostOne(xs)
		atMostOne(ys)
	}
	for _, q := range placed {
		f.Clauses = append(f.Clauses, []int{v(q[0], q[1])})
	}
	return f
}

// solutions returns every N-Queens solution (s[row] == col), from the
// tests' one brute-force solver.
func solutions(n int) [][]int {
	var out [][]int
	for _, s := range testutil.Solutions(n, nil) {
		out = append(out, s)
	}
	return out
}

// unsatPlacement returns the first set of one, two or three mutually
// non-attacking queens (in row-major order) that no solution extends: the
// smallest pre-placement that makes the board unsatisfiable without being
// trivially so. It uses the full list of solutions.
func unsatPlacement(n int) [][2]int {
	sols := solutions(n)
	has := make([][]bool, len(sols)) // has[s][square]
	for i, s := range sols {
		has[i] = make([]bool, n*n)
		for row, col := range s {
			has[i][row*n+col] = true
		}
	}
	attack := func(a, b int) bool {
		dr, dc := b/n-a/n, b%n-a%n
		return dr == 0 || dc == 0 || dr == dc || dr == -dc
	}
	extends := func(sq ...int) bool {
		for _, h := range has {
			all := true
			for _, x := range sq {
				all = all && h[x]
			}
			if all {
				return true
			}
		}
		return false
	}
	q := func(sq ...int) [][2]int {
		var out [][2]int
		for _, x := range sq {
			out = append(out, [2]int{x / n, x % n})
		}
		return out
	}
	for a := 0; a < n*n; a++ {
		if !extends(a) {
			return q(a)
		}
	}
	for a := 0; a < n*n; a++ {
		for b := a + 1; b < n*n; b++ {
			if !attack(a, b) && !extends(a, b) {
				return q(a, b)
			}
		}
	}
	for a := 0; a < n*n; a++ {
		for b := a + 1; b < n*n; b++ {
			if attack(a, b) {
				continue
			}
			for c := b + 1; c < n*n; c++ {
				if !attack(a, c) && !attack(b, c) && !extends(a, b, c) {
					return q(a, b, c)
				}
			}
		}
	}
	return nil
}

// enumerationCNF is the pairwise CNF for n plus one blocking clause per
// solution, which is unsatisfiable: the last call of a full enumeration.
func enumerationCNF(n int) *drat.Formula {
	f := queensCNF(n)
	for _, s := range solutions(n) {
		var c []int
		for row, col := range s {
			c = append(c, -(row*n + col + 1))
		}
		f.Clauses = append(f.Clauses, c)
	}
	return f
}

func dimacs(f *drat.Formula) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "p cnf %d %d\n", f.Vars, len(f.Clauses))
	for _, c := range f.Clauses {
		for _, l := range c {
			fmt.Fprintf(&b, "%d ", l)
		}
		b.WriteString("0\n")
	}
	return b.Bytes()
}

// instance is a named unsatisfiable test formula.
type instance struct {
	name string
	f    *drat.Formula
}

var (
	instOnce sync.Once
	instList []instance
)

// instances returns the test formulas: n = 3, n = 8..10 with queens
// pre-placed, and the last call of the n = 8 enumeration. Callers must not
// modify them.
func instances() []instance {
	instOnce.Do(func() { instList = makeInstances() })
	return instList
}

func makeInstances() []instance {
	out := []instance{{"queens-3", queensCNF(3)}}
	for n := 8; n <= 10; n++ {
		out = append(out, instance{fmt.Sprintf("queens-%d-placed", n), queensCNF(n, unsatPlacement(n)...)})
	}
	return append(out, instance{"queens-8-all", enumerationCNF(8)})
}

// cadical runs cadical on f and returns its proof (binary DRAT when binary
// is true); the test is skipped when cadical is not on PATH.
func cadical(t testing.TB, f *drat.Formula, binary bool) []byte {
	t.Helper()
	path, err := exec.LookPath("cadical")
	if err != nil {
		t.Skip("cadical not on PATH (apt-get install cadical): skipping proofs made on the fly")
	}
	dir := t.TempDir()
	cnf, proof := filepath.Join(dir, "f.cnf"), filepath.Join(dir, "f.drat")
	if err := os.WriteFile(cnf, dimacs(f), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-q", cnf, proof}
	if !binary {
		args = append([]string{"--binary=false"}, args...)
	}
	out, err := exec.CommandContext(context.Background(), path, args...).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 20 {
		t.Fatalf("cadical %s: %v (want exit 20, UNSAT)\n%s", strings.Join(args, " "), err, out)
	}
	data, err := os.ReadFile(proof)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// putVarint, signed and lratToBinary are testutil's (shared with the
// command line's tests).
var (
	putVarint    = testutil.PutVarint
	signed       = testutil.Signed
	lratToBinary = testutil.BinaryLRAT
)

// lratToFRAT writes a text LRAT proof of f as FRAT, text and binary, as
// CaDiCaL writes it: an o step per clause of f, an a step with its hints
// ("l") per lemma, a d step (with the clause's literals) per deletion,
// and an f step for every clause left. In binary, ids are unsigned and
// hints 2|h| + sign.
func lratToFRAT(f *drat.Formula, text string) (txt string, bin []byte) {
	var b strings.Builder
	clauses := map[int][]int{}
	var order []int
	step := func(kind byte, id int, lits []int, hints []int) {
		fmt.Fprintf(&b, "%c %d ", kind, id)
		bin = append(bin, kind)
		bin = putVarint(bin, uint64(id))
		for _, l := range lits {
			fmt.Fprintf(&b, "%d ", l)
			bin = putVarint(bin, signed(l))
		}
		b.WriteString("0")
		bin = append(bin, 0)
		if hints != nil {
			b.WriteString(" l")
			bin = append(bin, 'l')
			for _, h := range hints {
				fmt.Fprintf(&b, " %d", h)
				bin = putVarint(bin, signed(h))
			}
			b.WriteString(" 0")
			bin = append(bin, 0)
		}
		b.WriteString("\n")
	}
	for j, c := range f.Clauses {
		step('o', j+1, c, nil)
		clauses[j+1] = c
		order = append(order, j+1)
	}
	for _, line := range strings.Split(text, "\n") {
		w := strings.Fields(line)
		if len(w) == 0 {
			continue
		}
		if w[1] == "d" {
			for _, x := range w[2 : len(w)-1] {
				id := atoi(x)
				step('d', id, clauses[id], nil)
				delete(clauses, id)
			}
			continue
		}
		id := atoi(w[0])
		var lits, hints []int
		i := 1
		for ; w[i] != "0"; i++ {
			lits = append(lits, atoi(w[i]))
		}
		for i++; w[i] != "0"; i++ {
			hints = append(hints, atoi(w[i]))
		}
		step('a', id, lits, append([]int{}, hints...))
		clauses[id] = lits
		order = append(order, id)
	}
	for _, id := range order {
		if c, ok := clauses[id]; ok {
			step('f', id, c, nil)
		}
	}
	return b.String(), bin
}
