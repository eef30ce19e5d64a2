package board

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Queen is one queen on the board, Row and Col counted from 0.
type Queen struct{ Row, Col int }

// String writes the queen as "R:C", 1-based, the form [ParseQueen] reads.
func (q Queen) String() string { return fmt.Sprintf("%d:%d", q.Row+1, q.Col+1) }

// ErrPlacement is wrapped by every error about pre-placed queens that can
// never be part of a solution: off the board, two in one row, or two that
// attack each other. (Pre-placements that merely admit no completion are
// not an error: the answer is "no solution".)
var ErrPlacement = errors.New("bad pre-placed queen")

// ParseQueen reads "R:C" with a 1-based row (from the top) and column (from
// the left), as in --place 1:3, and returns the 0-based queen. It does not
// know the board size; see [CheckPlacement].
func ParseQueen(text string) (Queen, error) {
	r, c, ok := strings.Cut(strings.TrimSpace(text), ":")
	if !ok {
		return Queen{}, fmt.Errorf("%w: %q: want ROW:COL, e.g. 1:3", ErrPlacement, text)
	}
	row, err1 := strconv.Atoi(strings.TrimSpace(r))
	col, err2 := strconv.Atoi(strings.TrimSpace(c))
	if err1 != nil || err2 != nil {
		return Queen{}, fmt.Errorf("%w: %q: want ROW:COL with whole numbers, e.g. 1:3", ErrPlacement, text)
	}
	if row < 1 || col < 1 {
		return Queen{}, fmt.Errorf("%w: %q: rows and columns count from 1", ErrPlacement, text)
	}
	return Queen{row - 1, col - 1}, nil
}

// ParseQueens reads each text with [ParseQueen].
func ParseQueens(texts []string) ([]Queen, error) {
	qs := make([]Queen, 0, len(texts))
	for _, t := range texts {
		q, err := ParseQueen(t)
		if err != nil {
			return nil, err
		}
		qs = append(qs, q)
	}
	return qs, nil
}

// CheckPlacement returns an error wrapping [ErrPlacement] if a queen lies off
// the n×n board, or if two queens share a row or attack each other. The same
// queen given twice is accepted.
func CheckPlacement(n int, qs []Queen) error {
	for i, q := range qs {
		if q.Row < 0 || q.Row >= n || q.Col < 0 || q.Col >= n {
			return fmt.Errorf("%w: %s is off the %dx%d board", ErrPlacement, q, n, n)
		}
		for _, p := range qs[:i] {
			if p == q {
				continue
			}
			if kind := attack(p, q); kind != "" {
				return fmt.Errorf("%w: %s and %s share %s %s", ErrPlacement, p, q, article(kind), kind)
			}
		}
	}
	return nil
}

// attack names the line two distinct queens share, or returns "".
func attack(p, q Queen) string {
	switch {
	case p.Row == q.Row:
		return "row"
	case p.Col == q.Col:
		return "column"
	case p.Col-q.Col == p.Row-q.Row:
		return "diagonal"
	case p.Col-q.Col == q.Row-p.Row:
		return "anti-diagonal"
	}
	return ""
}

// Contains reports whether s has a queen on every square of qs.
func (s Solution) Contains(qs []Queen) bool {
	for _, q := range qs {
		if q.Row < 0 || q.Row >= len(s) || s[q.Row] != q.Col {
			return false
		}
	}
	return true
}

// Queens returns the queens of s in row order.
func (s Solution) Queens() []Queen {
	qs := make([]Queen, len(s))
	for row, col := range s {
		qs[row] = Queen{row, col}
	}
	return qs
}
