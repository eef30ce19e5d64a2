package sat

import (
	"context"
	"fmt"
	"time"

	"github.com/go-air/gini/z"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/sat/engine"
)

// residual is the completion problem that a placement of queens leaves on
// an n×n board: the rows without a queen, and in them the squares no
// queen attacks. Its variables are those squares (1..len(squares)) and
// the auxiliary variables of its at-most-one constraints.
type residual struct {
	n       int
	squares []board.Queen // variable i+1 is a queen on squares[i]
	vars    int
	clauses [][]int
}

// newResidual encodes the completion of the queens of fixed (fixed[row]
// is a column, or -1 for a free row): each free row has exactly one queen
// (at least one, and at most one on its free squares), each free column
// and each diagonal at most one (sequential counters, Sinz 2005: linear
// in the squares). ok is false when a free row has no free square: no
// completion, with nothing to solve.
func newResidual(n int, fixed []int) (r *residual, ok bool) {
	col := make([]bool, n)
	diag := make([]bool, 2*n) // row-col+n
	anti := make([]bool, 2*n) // row+col
	for row, c := range fixed {
		if c >= 0 {
			col[c], diag[row-c+n], anti[row+c] = true, true, true
		}
	}
	r = &residual{n: n}
	var rows, cols, diags, antis [][]int
	cols = make([][]int, n)
	diags = make([][]int, 2*n)
	antis = make([][]int, 2*n)
	for row, c := range fixed {
		if c >= 0 {
			continue
		}
		var line []int
		for c := range n {
			if !col[c] && !diag[row-c+n] && !anti[row+c] {
				r.squares = append(r.squares, board.Queen{Row: row, Col: c})
				v := len(r.squares)
				line = append(line, v)
				cols[c] = append(cols[c], v)
				diags[row-c+n] = append(diags[row-c+n], v)
				antis[row+c] = append(antis[row+c], v)
			}
		}
		if len(line) == 0 {
			return nil, false
		}
		rows = append(rows, line)
	}
	r.vars = len(r.squares)
	for _, line := range rows {
		r.clauses = append(r.clauses, line) // at least one
		r.amo(line)
	}
	for _, lines := range [][][]int{cols, diags, antis} {
		for _, line := range lines {
			r.amo(line)
		}
	}
	return r, true
}

// amo adds "at most one of lits is true" as a sequential counter: s_i
// says one of the first i literals is true.
func (r *residual) amo(lits []int) {
	if len(lits) < 2 {
		return
	}
	s := make([]int, len(lits)-1)
	for i := range s {
		r.vars++
		s[i] = r.vars
	}
	r.clauses = append(r.clauses, []int{-lits[0], s[0]})
	for i := 1; i < len(lits)-1; i++ {
		r.clauses = append(r.clauses, []int{-lits[i], s[i]}, []int{-s[i-1], s[i]}, []int{-lits[i], -s[i-1]})
	}
	r.clauses = append(r.clauses, []int{-lits[len(lits)-1], -s[len(s)-1]})
}

// solve runs gini on the residual problem and returns the board: fixed
// with the completion gini found, nil when there is none. The board is
// checked with [board.Valid] before it is returned.
func (r *residual) solve(ctx context.Context, fixed []int) (board.Solution, error) {
	g := loadGini(r.vars, r.clauses, nil)
	res, err := solve(ctx, g)
	if err != nil || res != 1 {
		return nil, err
	}
	sol := board.Solution(append([]int(nil), fixed...))
	for i, q := range r.squares {
		if g.Value(z.Dimacs2Lit(i + 1)) {
			sol[q.Row] = q.Col
		}
	}
	if !board.Valid(sol) {
		return nil, fmt.Errorf("sat: gini's completion of a seed is not a solution: %v", sol)
	}
	return sol, nil
}

// completeSeed finds a first solution of the empty n×n board the way
// [NewSeeded] does, by completing a random greedy placement of its top
// rows, but gives gini only the residual problem: the free squares of the
// rows the seed leaves, a formula a few hundredths the size of the
// board's (n = 1000: the CNF of the whole board has 3 million variables
// and 14 million clauses). A seed without completion is halved, down to
// half of its first rows; nil then means the caller must solve the whole
// board (an empty seed leaves the whole problem). It returns the solves
// made and the size of the last residual formula.
func completeSeed(ctx context.Context, n int, seed []int) (sol board.Solution, st engine.Stats, err error) {
	start := time.Now()
	defer func() { st.Elapsed = time.Since(start) }()
	for ; len(seed) >= seedRows(n)/2 && len(seed) > 0; seed = seed[:len(seed)/2] {
		fixed := make([]int, n)
		for row := range fixed {
			fixed[row] = -1
		}
		for _, lit := range seed {
			row, col := (lit-1)/n, (lit-1)%n
			fixed[row] = col
		}
		r, ok := newResidual(n, fixed)
		if !ok {
			continue
		}
		st.Vars, st.Clauses = r.vars, len(r.clauses)
		st.Solves++
		if sol, err = r.solve(ctx, fixed); err != nil || sol != nil {
			return sol, st, err
		}
	}
	return nil, st, nil
}
