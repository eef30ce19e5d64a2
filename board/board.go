package board

import (
	"cmp"
	"errors"
	"fmt"
)

// MaxN is the largest board size the package accepts anywhere. Commands set
// their own, usually smaller, limits on top of it.
const MaxN = 1 << 16

// ErrSize is returned (wrapped) when a board size is below 1 or above [MaxN].
var ErrSize = errors.New("board size out of range")

// CheckSize returns an error wrapping [ErrSize] unless 1 <= n <= max.
func CheckSize(n, max int) error {
	if n < 1 || n > max {
		return fmt.Errorf("%w: n = %d, want 1 <= n <= %d", ErrSize, n, max)
	}
	return nil
}

// Solution is a placement of one queen per row: s[row] == col, both counted
// from 0, on an n×n board with n == len(s). A Solution does not have to be
// valid; [Valid] and [Solution.Check] say whether it is.
type Solution []int

// N returns the board size.
func (s Solution) N() int { return len(s) }

// Clone returns a copy of s that shares no memory with it.
func (s Solution) Clone() Solution { return append(Solution(nil), s...) }

// Equal reports whether s and t place the same queens.
func (s Solution) Equal(t Solution) bool {
	if len(s) != len(t) {
		return false
	}
	for row := range s {
		if s[row] != t[row] {
			return false
		}
	}
	return true
}

// Less orders solutions of the same size lexicographically by row; a shorter
// solution sorts first.
func (s Solution) Less(t Solution) bool { return s.Compare(t) < 0 }

// Compare returns -1, 0 or +1 as s sorts before, with or after t in the
// order of [Solution.Less]; board.Solution.Compare suits slices.SortFunc.
func (s Solution) Compare(t Solution) int {
	if len(s) != len(t) {
		return cmp.Compare(len(s), len(t))
	}
	for row := range s {
		if s[row] != t[row] {
			return cmp.Compare(s[row], t[row])
		}
	}
	return 0
}

// Conflict describes why a placement is not a solution: two queens that
// attack each other (Kind "row", "column", "diagonal" or "anti-diagonal";
// [Solution.Check] never reports a row, [Conflicts] can), or a
// queen off the board (Kind "off-board", Row2 and Col2 then -1).
// Rows and columns are 0-based.
type Conflict struct {
	Kind       string
	Row1, Col1 int
	Row2, Col2 int
}

// Error describes the conflict with 1-based coordinates, as users write them.
func (c *Conflict) Error() string {
	if c.Kind == "off-board" {
		return fmt.Sprintf("queen in row %d is at column %d, off the board", c.Row1+1, c.Col1+1)
	}
	return fmt.Sprintf("queens at %d:%d and %d:%d share %s %s", c.Row1+1, c.Col1+1, c.Row2+1, c.Col2+1, article(c.Kind), c.Kind)
}

// Check returns nil if s is a valid N-Queens solution, and otherwise a
// *[Conflict] naming the first offending pair (in row order).
//
// It compares every pair of queens directly, sharing no code with the
// solvers, so that it can serve as their independent referee. It runs in
// O(n²) time and allocates nothing unless it finds a conflict.
func (s Solution) Check() error {
	n := len(s)
	for row, col := range s {
		if col < 0 || col >= n {
			return &Conflict{Kind: "off-board", Row1: row, Col1: col, Row2: -1, Col2: -1}
		}
	}
	for r1 := 0; r1 < n; r1++ {
		for r2 := r1 + 1; r2 < n; r2++ {
			c1, c2 := s[r1], s[r2]
			switch {
			case c1 == c2:
				return &Conflict{"column", r1, c1, r2, c2}
			case c2-c1 == r2-r1:
				return &Conflict{"diagonal", r1, c1, r2, c2}
			case c1-c2 == r2-r1:
				return &Conflict{"anti-diagonal", r1, c1, r2, c2}
			}
		}
	}
	return nil
}

// Valid reports whether s is an N-Queens solution: every column on the
// board, one queen per column, and no two queens on a diagonal. The empty
// placement (n = 0) is not valid.
func Valid(s Solution) bool { return len(s) > 0 && s.Check() == nil }
