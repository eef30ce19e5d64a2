package compare_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"

	"github.com/queens-dev/queens/internal/testutil"
)

// These tests break real engines on purpose and check that compare
// notices, and shows the offending solutions or models.

func allText(r compare.Result) string {
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(f.String() + "\n")
	}
	for _, m := range r.Mismatches {
		b.WriteString("mismatch " + m.Have + " " + perm(m.Solution) + "\n")
	}
	return b.String()
}

func perm(s board.Solution) string {
	b, _ := board.Append(nil, s, board.FormatPerm) // perm has no size limit: no error
	return strings.TrimSpace(string(b))
}

// dropDiagonalClause removes the pairwise clause that forbids queens on
// both a and b (DIMACS variables).
func dropDiagonalClause(cnf *encode.CNF, a, b int) *encode.CNF {
	for i, c := range cnf.Clauses {
		if len(c) == 2 && (c[0] == -a && c[1] == -b || c[0] == -b && c[1] == -a) {
			cnf.Clauses = append(cnf.Clauses[:i:i], cnf.Clauses[i+1:]...)
			return cnf
		}
	}
	panic("no such clause")
}

// nearMiss returns a placement of n queens, one per row and column, whose
// only attack is one diagonal pair (a brute-force search, independent of
// the engines), and that pair.
func nearMiss(n int) (board.Solution, int, int) {
	p := make(board.Solution, n)
	used := make([]bool, n)
	var a, b int
	var rec func(row int) bool
	rec = func(row int) bool {
		if row == n {
			var c *board.Conflict
			err := p.Check()
			if !errors.As(err, &c) || c.Kind != "diagonal" {
				return false
			}
			pairs := 0
			for r1 := 0; r1 < n; r1++ {
				for r2 := r1 + 1; r2 < n; r2++ {
					if p[r1]-p[r2] == r1-r2 || p[r1]-p[r2] == r2-r1 {
						pairs++
					}
				}
			}
			a, b = encode.Var(n, c.Row1, c.Col1), encode.Var(n, c.Row2, c.Col2)
			return pairs == 1
		}
		for col := 0; col < n; col++ {
			if !used[col] {
				used[col], p[row] = true, col
				if rec(row + 1) {
					return true
				}
				used[col] = false
			}
		}
		return false
	}
	rec(0)
	return p, a, b
}

func TestFaultDroppedDiagonalClause(t *testing.T) {
	extra, a, b := nearMiss(8)
	broken := compare.CNF("pairwise", func(ctx context.Context, cnf *encode.CNF) iter.Seq2[board.Solution, error] {
		return sat.All(ctx, dropDiagonalClause(cnf, a, b))
	})
	r := compare.Check(context.Background(), 8, nil, []compare.Engine{
		{Name: "backtrack", Solutions: compare.Backtrack},
		{Name: "broken", Solutions: broken},
	})
	text := allText(r)
	if r.OK() || !strings.Contains(text, "broken") || !strings.Contains(text, "diagonal") {
		t.Errorf("a CNF without one diagonal clause went unnoticed or unexplained:\n%s", text)
	}
	t.Logf("dropped the clause for variables %d and %d; the near miss %v is then a model:\n%s", a, b, []int(extra), text)
}

// skipping is the backtracker with a bug: in row 5 it never tries column 3.
func skipping(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error] {
	return func(yield func(board.Solution, error) bool) {
		for s, err := range compare.Backtrack(ctx, n, place) {
			if err == nil && s[4] == 2 {
				continue
			}
			if !yield(s, err) {
				return
			}
		}
	}
}

func TestFaultBacktrackerSkipsAColumn(t *testing.T) {
	r := compare.Check(context.Background(), 9, nil, []compare.Engine{
		{Name: "sat/seq", Solutions: compare.SAT("seq")},
		{Name: "skipping", Solutions: skipping},
	})
	if r.OK() || len(r.Mismatches) == 0 {
		t.Fatalf("a backtracker skipping a column went unnoticed:\n%s", allText(r))
	}
	for _, m := range r.Mismatches {
		if m.Have != "sat/seq" || m.Solution[4] != 2 || !board.Valid(m.Solution) {
			t.Errorf("mismatch %v held by %s: want valid solutions with a queen at 5:3 held by sat/seq", m.Solution, m.Have)
		}
	}
}

func TestFaultDuplicatedSolution(t *testing.T) {
	var dup board.Solution
	twice := func(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error] {
		return func(yield func(board.Solution, error) bool) {
			i := 0
			for s, err := range compare.SAT("commander")(ctx, n, place) {
				if !yield(s, err) {
					return
				}
				if i++; i == 50 && err == nil {
					dup = s.Clone()
					if !yield(s, nil) {
						return
					}
				}
			}
		}
	}
	r := compare.Check(context.Background(), 8, nil, []compare.Engine{
		{Name: "backtrack", Solutions: compare.Backtrack},
		{Name: "twice", Solutions: twice},
	})
	if r.OK() || len(r.Mismatches) != 1 {
		t.Fatalf("a duplicated solution went unnoticed or was not pinned down:\n%s", allText(r))
	}
	if m := r.Mismatches[0]; m.Have != "twice" || m.HaveCopies != 2 || m.MissingCopies != 1 || !m.Solution.Equal(dup) {
		t.Errorf("mismatch %+v, want %v twice in 'twice'", m, dup)
	}
}

// solverScript writes a shell script standing in for a lying SAT solver.
func solverScript(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "liar")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestFaultLyingSolver(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"claims UNSAT", "echo 's UNSATISFIABLE'; exit 20", "claims no solution (UNSAT)"},
		{"invalid model", "echo 's SATISFIABLE'; echo 'v 1 10 -2 0'; exit 10", "its queens: 1:1 2:2"},
	}
	for _, tt := range tests {
		for _, firstOnly := range []bool{false, true} {
			liar := compare.Engine{Name: "liar", Solutions: compare.External(solverScript(t, tt.body)), FirstOnly: firstOnly}
			r := compare.Check(context.Background(), 8, nil, []compare.Engine{{Name: "backtrack", Solutions: compare.Backtrack}, liar})
			if text := allText(r); r.OK() || !strings.Contains(text, tt.want) {
				t.Errorf("%s (first only %v): problems\n%s\nwant %q", tt.name, firstOnly, text, tt.want)
			}
		}
	}
}

// TestRandomCompletions: random pre-placements (seeded) give the same
// completions in every engine, n <= 12.
func TestRandomCompletions(t *testing.T) {
	if testutil.Race {
		t.Skip("-race: one goroutine's cross-checks, about 40 s under the detector; the plain run checks them whole")
	}
	rng := rand.New(rand.NewPCG(2026, 11))
	engines := []compare.Engine{{Name: "backtrack", Solutions: compare.Backtrack}}
	for _, enc := range []encode.Encoding{encode.Pairwise, encode.Seq, encode.Commander} {
		engines = append(engines, compare.Engine{Name: "sat/" + string(enc), Solutions: compare.SAT(enc)})
	}
	engines = append(engines, compare.Engine{Name: "sat-sequential/pairwise", Solutions: compare.SATSequential("pairwise")})
	for i := 0; i < 30; i++ {
		n := 4 + rng.IntN(9)
		var place []board.Queen
		for k := 1 + rng.IntN(3); k > 0; k-- {
			q := board.Queen{Row: rng.IntN(n), Col: rng.IntN(n)}
			if board.CheckPlacement(n, append(place, q)) == nil {
				place = append(place, q)
			}
		}
		r := compare.Check(context.Background(), n, place, engines)
		if !r.OK() {
			t.Errorf("n=%d place %v:\n%s", n, place, allText(r))
		}
	}
}

// BenchmarkCheck compares two engines' full solution sets (n = 14 has
// 365,596 solutions). Memory stays flat: no set is held, and the bytes
// allocated per solution (the fresh slice each engine hands out) are the
// same at n = 12 and n = 14.
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{12, 14} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			engines := []compare.Engine{
				{Name: "a", Solutions: compare.Backtrack},
				{Name: "b", Solutions: compare.Backtrack},
			}
			c, ok := board.Known(n)
			if !ok {
				b.Fatalf("no published count for n = %d", n)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ReportAllocs()
			for b.Loop() {
				if r := compare.Check(context.Background(), n, nil, engines); !r.OK() {
					b.Fatal(r.Findings)
				}
			}
			runtime.ReadMemStats(&after)
			sols := float64(2*c.Total) * float64(b.N)
			b.ReportMetric(float64(2*c.Total), "solutions/op")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/sols, "B/solution")
		})
	}
}

// counter is the bitboard counter, backtrack.Count, as the Count of an
// Engine: the completions of place, and without them the classes up to
// symmetry too.
func counter(ctx context.Context, n int, place []board.Queen) (total, unique uint64, err error) {
	res, err := backtrack.Count(ctx, n, backtrack.CountOptions{Place: place, Unique: len(place) == 0})
	return res.Total, res.Unique, err
}

// TestCounter checks a counter engine: the real one agrees with the
// backtracker, with and without pre-placed queens; one that is off by one
// solution, or by one class, is named, against the backtracker and
// against the published table.
func TestCounter(t *testing.T) {
	bt := compare.Engine{Name: "backtrack", Solutions: compare.Backtrack}
	good := compare.Engine{Name: "constellations", Count: counter}
	for _, place := range [][]board.Queen{nil, {{Row: 2, Col: 3}}} {
		if r := compare.Check(context.Background(), 9, place, []compare.Engine{bt, good}); !r.OK() || !r.Outcomes[1].Counted {
			t.Errorf("place %v: the counter does not agree:\n%s", place, allText(r))
		}
	}
	off := func(dt, du uint64) compare.Engine {
		return compare.Engine{Name: "off", Count: func(ctx context.Context, n int, place []board.Queen) (uint64, uint64, error) {
			total, unique, err := counter(ctx, n, place)
			return total + dt, unique + du, err
		}}
	}
	cases := []struct {
		place []board.Queen
		e     compare.Engine
		want  []string
	}{
		{nil, off(1, 0), []string{"off: 353 solutions, published 352", "off: 353 solutions, backtrack found 352"}},
		{nil, off(0, 1), []string{"off: 47 unique, published 46"}},
		{[]board.Queen{{Row: 2, Col: 3}}, off(1, 0), []string{"off: 39 solutions, backtrack found 38"}},
	}
	for _, c := range cases {
		r := compare.Check(context.Background(), 9, c.place, []compare.Engine{bt, c.e})
		if got := allText(r); r.OK() || !strings.Contains(got, strings.Join(c.want, "\n")) {
			t.Errorf("place %v: problems\n%s\nwant\n%s", c.place, got, strings.Join(c.want, "\n"))
		}
	}
}
