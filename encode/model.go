package encode

import (
	"errors"
	"fmt"

	"github.com/queens-dev/queens/board"
)

// ErrModelSize is wrapped by [Decode]'s error when a model does not assign
// all n*n board variables: it is a model of a smaller board, or truncated.
var ErrModelSize = errors.New("model does not cover the board")

// ErrNotPlacement is wrapped by [Decode]'s error when the true board
// variables do not put exactly one queen in every row.
var ErrNotPlacement = errors.New("not one queen per row")

// Decode returns the placement of the true board variables ([Var]) among
// the signed DIMACS literals of a model of the n-queens CNF. Literals of
// auxiliary variables are ignored. The placement is not checked for
// attacks: call [board.Solution.Check] for that.
//
// Errors: a model that does not mention every board variable wraps
// [ErrModelSize]; a row with no queen or two queens wraps
// [ErrNotPlacement] (for two queens, together with a *[board.Conflict] of
// Kind "row").
func Decode(n int, model []int) (board.Solution, error) {
	if n < 1 {
		return nil, board.CheckSize(n, board.MaxN)
	}
	seen := make([]bool, n*n+1)
	s := make(board.Solution, n)
	for row := range s {
		s[row] = -1
	}
	maxVar := 0
	for _, lit := range model {
		maxVar = max(maxVar, lit, -lit)
	}
	if maxVar < n*n {
		return nil, fmt.Errorf("%w: the model's variables end at %d, but n = %d has %d board variables (a model for a smaller n?)",
			ErrModelSize, maxVar, n, n*n)
	}
	assigned := 0
	for _, lit := range model {
		v := max(lit, -lit)
		if v == 0 || v > n*n {
			continue
		}
		if !seen[v] {
			seen[v] = true
			assigned++
		}
		if lit < 0 {
			continue
		}
		row, col := (v-1)/n, (v-1)%n
		if s[row] >= 0 && s[row] != col {
			c1, c2 := min(s[row], col), max(s[row], col)
			return nil, fmt.Errorf("%w: %w", ErrNotPlacement, &board.Conflict{Kind: "row", Row1: row, Col1: c1, Row2: row, Col2: c2})
		}
		s[row] = col
	}
	if assigned < n*n {
		return nil, fmt.Errorf("%w: %d of the %d board variables have no value", ErrModelSize, n*n-assigned, n*n)
	}
	for row, col := range s {
		if col < 0 {
			return nil, fmt.Errorf("%w: no queen in row %d", ErrNotPlacement, row+1)
		}
	}
	return s, nil
}

// Satisfies reports whether the complete assignment (signed DIMACS
// literals; unmentioned variables count as false) satisfies every clause
// of cnf, and if not, the index of the first false clause.
func (cnf *CNF) Satisfies(model []int) (ok bool, clause int) {
	// Sized by the variables the clauses use, not by Vars, which a file's
	// header may claim to be 2^31.
	used := 0
	for _, c := range cnf.Clauses {
		for _, lit := range c {
			used = max(used, lit, -lit)
		}
	}
	used = min(used, cnf.Vars)
	val := make([]bool, used+1)
	for _, lit := range model {
		if lit > 0 && lit <= used {
			val[lit] = true
		}
	}
	for i, c := range cnf.Clauses {
		sat := false
		for _, lit := range c {
			if lit > 0 && lit <= used && val[lit] || lit < 0 && -lit <= used && !val[-lit] {
				sat = true
				break
			}
		}
		if !sat {
			return false, i
		}
	}
	return true, -1
}

// Model returns the assignment of the board variables that places the
// queens of s (signed DIMACS literals 1..n*n). Auxiliary variables are not
// included.
func Model(s board.Solution) []int {
	n := len(s)
	model := make([]int, 0, n*n)
	for row := range n {
		for col := range n {
			v := Var(n, row, col)
			if s[row] != col {
				v = -v
			}
			model = append(model, v)
		}
	}
	return model
}
