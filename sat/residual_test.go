package sat

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/go-air/gini/z"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/testutil"
)

// TestResidual checks the residual encoding against the brute-force
// solver: for boards up to n = 8 and every placement of the top k rows
// taken from a solution or made up, the residual problem's models,
// enumerated with blocking clauses over its squares, are exactly the
// completions testutil finds; a placement that leaves a row without a
// free square has no residual at all, and then no completion.
func TestResidual(t *testing.T) {
	for n := 4; n <= 8; n++ {
		for k := 0; k < n; k++ {
			tried := map[string]bool{}
			for _, s := range testutil.Solutions(n, nil) {
				fixed := make([]int, n)
				for row := range fixed {
					fixed[row] = -1
				}
				copy(fixed, s[:k])
				// and a made-up one: the same, with the last fixed queen
				// moved one column, if that keeps the queens apart
				for _, f := range [][]int{fixed, moved(n, fixed, k)} {
					if f == nil || tried[fmt.Sprint(f)] {
						continue
					}
					tried[fmt.Sprint(f)] = true
					checkResidual(t, n, f)
				}
			}
		}
	}
}

func moved(n int, fixed []int, k int) []int {
	if k == 0 {
		return nil
	}
	f := slices.Clone(fixed)
	f[k-1] = (f[k-1] + 1) % n
	var qs []board.Queen
	for row, c := range f {
		if c >= 0 {
			qs = append(qs, board.Queen{Row: row, Col: c})
		}
	}
	if board.CheckPlacement(n, qs) != nil {
		return nil
	}
	return f
}

func checkResidual(t *testing.T, n int, fixed []int) {
	t.Helper()
	var placed []board.Queen
	for row, c := range fixed {
		if c >= 0 {
			placed = append(placed, board.Queen{Row: row, Col: c})
		}
	}
	want := testutil.Solutions(n, placed)
	r, ok := newResidual(n, fixed)
	if !ok {
		if len(want) > 0 {
			t.Fatalf("n=%d %v: no residual, but %d completions", n, fixed, len(want))
		}
		return
	}
	g := loadGini(r.vars, r.clauses, nil)
	var got []string
	for g.Solve() == 1 {
		sol := board.Solution(slices.Clone(fixed))
		var block []z.Lit
		for i, q := range r.squares {
			if g.Value(z.Dimacs2Lit(i + 1)) {
				sol[q.Row] = q.Col
				block = append(block, z.Dimacs2Lit(-(i + 1)))
			}
		}
		if !board.Valid(sol) {
			t.Fatalf("n=%d %v: a model is not a solution: %v", n, fixed, sol)
		}
		got = append(got, fmt.Sprint(sol))
		for _, m := range block {
			g.Add(m)
		}
		g.Add(z.LitNull)
	}
	var w []string
	for _, s := range want {
		w = append(w, fmt.Sprint(s))
	}
	slices.Sort(got)
	if !slices.Equal(got, w) {
		t.Fatalf("n=%d %v: the residual's models %v, the completions %v", n, fixed, got, w)
	}
}

// TestNewEncodedResidual checks the first solutions of large boards,
// which come from the residual of the greedy seed: valid, the same for the
// same seed, and a second one that differs after the whole board is
// loaded (the first blocked).
func TestNewEncodedResidual(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{50, 97, 300} {
		e, err := encode.NewEncoder(n, encode.Options{Encoding: encode.Commander})
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewEncoded(ctx, e, 1)
		if err != nil {
			t.Fatal(err)
		}
		first, err := s.Next(ctx)
		if err != nil || !board.Valid(first) {
			t.Fatalf("n=%d: first %v, %v", n, first, err)
		}
		again, _ := NewEncoded(ctx, e, 1)
		if sol, _ := again.Next(ctx); !sol.Equal(first) {
			t.Errorf("n=%d: the same seed gave %v, then %v", n, first, sol)
		}
		if n > 100 {
			continue // the second solution loads the whole board: keep it small
		}
		second, err := s.Next(ctx)
		if err != nil || !board.Valid(second) || second.Equal(first) {
			t.Errorf("n=%d: second %v, %v after %v", n, second, err, first)
		}
		if vars, _ := e.Size(); s.Stats().Solutions != 2 || s.Stats().Vars != vars {
			st := s.Stats()
			t.Errorf("n=%d: stats %+v after the whole board (%d variables) was loaded", n, st, vars)
		}
	}
}
