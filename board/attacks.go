package board

import (
	"slices"
	"strconv"
)

// FormatAttacks writes the board as attack counts, the representation of
// the classic N-Queens applets: one line per row, for each square Q where
// a queen stands (as the lab sheets and the page show it; [Attacks] has
// -1 there) and otherwise the number of queens that attack it (that
// share its row, column or a diagonal; a queen in between does not block,
// as in the puzzle), 0 for a free square. The numbers are right-aligned in
// columns. The solution may be partial: a negative column leaves its row
// empty. The 4×4 board with one queen at 2:2 (the partial solution
// [-1 1 -1 -1]):
//
//	1  1  1  0
//	1  Q  1  1
//	1  1  1  0
//	0  1  0  1
//
// It is written by [Append] but not read by [Parse], and is not one of
// [TextFormats]: it is a view of a board, not a way to store one.
const FormatAttacks Format = "attacks"

// Attacks returns the attack counts of the queens qs on an n×n board,
// row-major (index row*n+col): -1 on a square that holds a queen, and
// otherwise the number of queens of qs on the same row, column, diagonal
// or anti-diagonal (no queen blocks another). Any set of queens is
// allowed, partial, attacking each other or several in a row; queens off
// the board are ignored, and a square given twice holds one queen. n must
// be at least 0.
func Attacks(n int, qs []Queen) []int {
	cells := make([]int, n*n)
	if n == 0 {
		return cells
	}
	rows, cols := make([]int, n), make([]int, n)
	diag, anti := make([]int, 2*n-1), make([]int, 2*n-1) // row-col+n-1, row+col
	on := make(map[Queen]bool, len(qs))
	for _, q := range qs {
		if q.Row < 0 || q.Row >= n || q.Col < 0 || q.Col >= n || on[q] {
			continue
		}
		on[q] = true
		rows[q.Row]++
		cols[q.Col]++
		diag[q.Row-q.Col+n-1]++
		anti[q.Row+q.Col]++
	}
	for row := range n {
		for col := range n {
			if on[Queen{row, col}] {
				cells[row*n+col] = -1
			} else {
				cells[row*n+col] = rows[row] + cols[col] + diag[row-col+n-1] + anti[row+col]
			}
		}
	}
	return cells
}

// PlacedQueens returns the queens of the partial solution s in row order,
// skipping rows whose column is negative (empty rows).
func (s Solution) PlacedQueens() []Queen {
	qs := make([]Queen, 0, len(s))
	for row, col := range s {
		if col >= 0 {
			qs = append(qs, Queen{row, col})
		}
	}
	return qs
}

// appendAttacks writes the attack counts of the partial solution s (see
// [FormatAttacks]).
func appendAttacks(dst []byte, s Solution) []byte {
	n := len(s)
	cells := Attacks(n, s.PlacedQueens())
	width := 2
	for _, v := range cells {
		width = max(width, len(strconv.Itoa(v)))
	}
	for row := range n {
		for col := range n {
			if col > 0 {
				dst = append(dst, ' ')
			}
			v := strconv.Itoa(cells[row*n+col])
			if cells[row*n+col] < 0 {
				v = "Q"
			}
			for range width - len(v) {
				dst = append(dst, ' ')
			}
			dst = append(dst, v...)
		}
		dst = append(dst, '\n')
	}
	return dst
}

// Conflicts returns every pair of queens of qs that attack each other, in
// the order of qs (each pair once, the earlier queen first): Kind "row",
// "column", "diagonal" or "anti-diagonal", 0-based. A queen given twice
// is one queen. Queens are not checked against a board size.
func Conflicts(qs []Queen) []Conflict {
	var out []Conflict
	for i, q := range qs {
		if slices.Contains(qs[:i], q) {
			continue // given before: its conflicts are listed
		}
		for _, p := range qs[:i] {
			if p == q {
				continue
			}
			if kind := attack(p, q); kind != "" {
				out = append(out, Conflict{Kind: kind, Row1: p.Row, Col1: p.Col, Row2: q.Row, Col2: q.Col})
			}
		}
	}
	return out
}

// article returns "a" or "an" for the line name kind ("a row", "an
// anti-diagonal").
func article(kind string) string {
	if kind != "" && kind[0] == 'a' {
		return "an"
	}
	return "a"
}
