package backtrack

import (
	"math/big"

	"github.com/queens-dev/queens/board"
)

// The strategies of the textbooks besides Lex: the same search without
// recursion (Iterative), a search over the cells of the whole board
// (Cells), and generate-and-test (Generate). They share the searcher's
// placement, events and statistics with Lex.

// emptyRows returns the rows without a pre-placed queen, top to bottom.
func (s *searcher) emptyRows() []int {
	rows := make([]int, 0, s.n)
	for row, f := range s.fixed {
		if !f {
			rows = append(rows, row)
		}
	}
	return rows
}

// iterative is lex with an explicit stack: next[k] is the next column to
// try on level k (the k-th empty row). Coming back to a level whose row
// holds a queen means the subtree of that queen is done: it is taken
// away, and the level goes on with the next column.
func (s *searcher) iterative() {
	rows := s.emptyRows()
	if len(rows) == 0 {
		s.solution()
		return
	}
	next := make([]int, len(rows))
	// stack shows the observer the explicit stack: levels 0 to k.
	stack := func(k int) {
		if s.observe != nil {
			s.frames = s.frames[:0]
			for j := 0; j <= k; j++ {
				s.frames = append(s.frames, board.Queen{Row: rows[j], Col: next[j]})
			}
		}
	}
	for k := 0; k >= 0; {
		row := rows[k]
		stack(k)
		if c := s.q[row]; c >= 0 {
			s.remove(row, c)
		}
		col := next[k]
		for ; col < s.n; col++ {
			if s.observe != nil {
				if s.try(row, col) {
					break
				}
			} else if s.safe(row, col) {
				break
			}
		}
		if col == s.n { // the level is exhausted: back to the one before
			next[k] = 0
			k--
			continue
		}
		next[k] = col + 1
		stack(k)
		s.place(row, col)
		if s.stopped {
			return
		}
		if k+1 < len(rows) {
			k++
			continue
		}
		stack(k)
		s.solution() // and stay on level k, whose queen goes next
		if s.stopped {
			return
		}
	}
}

// The states of a cell of [Cells].
const (
	cellFree   = iota // no queen attacks it
	cellQueen         // a queen stands on it
	cellThreat        // a queen attacks it
)

// cells runs the Cells strategy: level k has its own copy of the grid.
func (s *searcher) cells() {
	n := s.n
	need := s.free
	grids := make([][]uint8, need+1)
	for k := range grids {
		grids[k] = make([]uint8, n*n)
	}
	for row, col := range s.q {
		if col >= 0 {
			threaten(grids[0], n, row, col)
		}
	}
	s.cellLevel(grids, 0, 0)
}

// cellLevel places the k-th queen on each free cell from start on, in
// reading order, on a copy of the grid of level k.
func (s *searcher) cellLevel(grids [][]uint8, k, start int) {
	if k == len(grids)-1 {
		s.solution()
		return
	}
	n, g := s.n, grids[k]
	top := s.push(-1)
	for i := start; i < n*n; i++ {
		row, col := i/n, i%n
		if top >= 0 {
			s.frames[top] = board.Queen{Row: row, Col: col}
		}
		switch g[i] {
		case cellQueen: // a pre-placed queen
			continue
		case cellThreat:
			if s.observe != nil {
				s.emit(EventTry, row, col, board.Queen{})
				s.emit(EventReject, row, col, s.cellAttacker(row, col))
			}
			continue
		}
		if s.observe != nil {
			s.emit(EventTry, row, col, board.Queen{})
		}
		copy(grids[k+1], g) // the board cloned for the next level
		threaten(grids[k+1], n, row, col)
		s.place(row, col)
		if !s.stopped {
			next := i + 1
			if s.scan {
				next = 0 // the text's program: the whole board again
			}
			s.cellLevel(grids, k+1, next)
		}
		if s.stopped {
			return
		}
		s.remove(row, col)
	}
	s.pop(top)
}

// cellAttacker returns a queen attacking (row, col): the one in its row,
// else as [searcher.attacker] looks.
func (s *searcher) cellAttacker(row, col int) board.Queen {
	if c := s.q[row]; c >= 0 {
		return board.Queen{Row: row, Col: c}
	}
	a := s.attacker(row, col)
	return board.Queen{Row: a, Col: s.q[a]}
}

// threaten puts a queen on (row, col) of the n×n grid g and marks the
// free cells it attacks.
func threaten(g []uint8, n, row, col int) {
	mark := func(r, c int) {
		if r >= 0 && r < n && c >= 0 && c < n && g[r*n+c] == cellFree {
			g[r*n+c] = cellThreat
		}
	}
	for i := range n {
		mark(row, i)         // the row
		mark(i, col)         // the column
		mark(i, col+i-row)   // the diagonal: row-col the same
		mark(i, col-(i-row)) // the anti-diagonal: row+col the same
	}
	g[row*n+col] = cellQueen
}

// usedColumns returns the columns of the pre-placed queens.
func (s *searcher) usedColumns() []bool {
	used := make([]bool, s.n)
	for _, c := range s.q {
		if c >= 0 {
			used[c] = true
		}
	}
	return used
}

// generate places a queen on each empty row from row on, top to bottom,
// in each column not used yet, attacked or not, and tests each complete
// placement.
func (s *searcher) generate(row int, used []bool) {
	for row < s.n && s.fixed[row] {
		row++
	}
	if row == s.n {
		s.test()
		return
	}
	top := s.push(row)
	for col := range s.n {
		if used[col] {
			continue
		}
		if top >= 0 {
			s.frames[top].Col = col
		}
		used[col] = true
		s.q[row] = col
		s.stats.Nodes++
		if s.observe != nil {
			s.emit(EventPlace, row, col, board.Queen{})
		}
		s.poll()
		if !s.stopped {
			s.generate(row+1, used)
		}
		if s.stopped {
			return
		}
		used[col] = false
		s.q[row] = -1
		s.stats.Backtracks++
		if s.observe != nil {
			s.emit(EventBacktrack, row, col, board.Queen{})
		}
	}
	s.pop(top)
}

// test checks the complete placement s.q, one queen per row and column,
// for two queens on a diagonal.
func (s *searcher) test() {
	s.stats.Candidates++
	for r := range s.n {
		for a := range r {
			if d := s.q[r] - s.q[a]; d == r-a || d == a-r {
				if s.observe != nil {
					s.emit(EventFail, r, s.q[r], board.Queen{Row: a, Col: s.q[a]})
				}
				return
			}
		}
	}
	s.solution()
}

// SearchSpace returns the sizes of the two spaces a generate-and-test
// search of the n×n board could run through: every placement of n queens
// on n² squares, C(n², n), and every placement of one queen per row and
// column, n! (what [Generate] tests). For n = 8 they are 4426165368 and
// 40320; the backtracker (Lex) places 2056 queens to find all 92 solutions.
func SearchSpace(n int) (placements, permutations *big.Int) {
	if n < 0 {
		n = 0
	}
	placements = new(big.Int).Binomial(int64(n)*int64(n), int64(n))
	permutations = new(big.Int).MulRange(1, int64(n))
	return placements, permutations
}
