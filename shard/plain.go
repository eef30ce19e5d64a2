package shard

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
)

// The plain search: a third way to count a piece, sharing no counting code
// with the constellations (package backtrack and internal/constellation,
// which the GPU runs too) or the join (package join), so that a recount
// with it is a check of the engine that wrote the line, whatever its
// engine field says. It places one queen a row, from the first row to the
// last, each in a column its piece allows, and counts each piece from its
// definition:
//
//   - a constellation (top, bottom, left, right): the solutions with
//     queens at (0, top), (n-1, bottom), (left, 0) and (right, n-1), times
//     24 and the number of its distinct images under the 8 symmetries;
//   - a part of the join (middle, outer, weight): the solutions whose
//     middle-row queen (odd n) is in column middle (or any inner column)
//     and whose top half (the first n/2 rows) takes, of the outer columns,
//     those of the pattern outer, the bottom half the others, with no
//     queen of the top half on the anti-diagonal nor of the bottom half on
//     the diagonal, each weighted 2 for a queen of the top half on the
//     diagonal and 2 for one of the bottom half on the anti-diagonal (the
//     join's stand-in for the left-right mirror, see [join.Count]), times
//     24 and the piece's weight;
//   - the symmetric piece: 3 × the solutions a half turn maps to
//     themselves plus 6 × those a quarter turn does (and on the 1×1 board
//     3 × its one solution for each reflection), in the unique count only
//     (Burnside's lemma), found by a search of its own that places
//     a queen and its image under the half turn at once.
//
// It is slower than either engine (no symmetry, no meet in the middle):
// a recount with it is a sample, never a count.

// PlainSeconds estimates the CPU seconds (of one core) that the plain
// search takes, on average, to count one piece of a split of the n×n board
// into parts pieces (whole constellations, for a split into sub-parts),
// of the join's split when join is set, of the constellations' otherwise:
// the whole board's plain search over parts. The whole board's cost is
// extrapolated from the means measured on an AMD EPYC core at n = 14 to
// 19 (40 s or 200 pieces a size): 28,800 s at n = 19 for the
// constellations, 7 times more each n (6.8 measured from 16 to 19), and
// 5,800 s for the join's pieces, 5.6 times more each n. It is an
// estimate, for sizing a recount (merge --recount), not a bound: one
// piece may take several times the mean.
func PlainSeconds(n int, join bool, parts int) float64 {
	whole, growth := 28800.0, 7.0
	if join {
		whole, growth = 5800.0, 5.6
	}
	return whole * math.Pow(growth, float64(n-19)) / float64(max(parts, 1))
}

// plainCount counts piece k of an n×n board with the plain search. It
// returns ctx's error when ctx ends first (within a few milliseconds).
func plainCount(ctx context.Context, n int, k key) (backtrack.Tally, error) {
	if n < 1 || n > 32 {
		return backtrack.Tally{}, fmt.Errorf("plain search: n = %d out of 1 to 32", n)
	}
	s := &plainSearch{n: n, ctx: ctx, full: uint32(1<<uint(n) - 1)}
	var weight uint64
	switch {
	case k.join && k.jp.Middle == join.Symmetric, !k.join && k.sp.Symmetric():
		return s.symmetric()
	case k.join:
		if err := k.jp.Check(n); err != nil {
			return backtrack.Tally{}, fmt.Errorf("plain search: %w", err)
		}
		s.joinPiece(k.jp)
		weight = k.jp.Weight
	default:
		if k.sp.Parts != 0 {
			return backtrack.Tally{}, fmt.Errorf("plain search: piece %v is a sub-part, which only the constellations' search defines: recount its whole constellation", k.sp)
		}
		s.constellation(k.sp)
		weight = constellationWeight(n, k.sp)
	}
	sum := s.place(0, 0, 0, 0)
	if s.err != nil {
		return backtrack.Tally{}, s.err
	}
	hi, total24 := bits.Mul64(sum, 24*weight)
	if hi != 0 {
		return backtrack.Tally{}, fmt.Errorf("plain search: piece %v: 24ths past 2^64", k)
	}
	return backtrack.Tally{Total24: total24, Unique24: total24 / 8, Nodes: s.nodes}, nil
}

// plainSearch is one count of the plain search.
type plainSearch struct {
	n     int
	ctx   context.Context
	full  uint32
	allow [32]uint32 // the columns row r's queen may take
	twice [32]uint32 // the columns where it doubles the solution's weight
	nodes uint64
	err   error // ctx's, once it ended
}

// place returns the weighted solutions below rows 0..r-1 placed on
// columns cols and attacking the diagonals ld (down to the right) and rd
// (down to the left) of row r.
func (s *plainSearch) place(r int, cols, ld, rd uint32) uint64 {
	if r == s.n {
		return 1
	}
	if s.nodes&0xffff == 0 && s.ctx.Err() != nil {
		s.err = s.ctx.Err()
	}
	if s.err != nil {
		return 0
	}
	var sum uint64
	for free := s.allow[r] &^ (cols | ld | rd) & s.full; free != 0; free &= free - 1 {
		b := free & -free
		s.nodes++
		c := s.place(r+1, cols|b, (ld|b)<<1, (rd|b)>>1)
		if b&s.twice[r] != 0 {
			c *= 2
		}
		sum += c
	}
	return sum
}

// constellation sets the rows of the constellation sp: the queens of the
// first and last rows in columns Top and Bottom, the first column's queen
// in row Left and the last's in row Right (a corner queen counts for its
// row and its column).
func (s *plainSearch) constellation(sp backtrack.Subproblem) {
	n, first, last := s.n, uint32(1), uint32(1)<<uint(s.n-1)
	for r := range n {
		s.allow[r] = s.full
		if r == sp.Left {
			s.allow[r] &= first
		} else {
			s.allow[r] &^= first
		}
		if r == sp.Right {
			s.allow[r] &= last
		} else {
			s.allow[r] &^= last
		}
	}
	s.allow[0] &= bitOf(sp.Top)
	s.allow[n-1] &= bitOf(sp.Bottom)
}

// bitOf returns the bit of column c, none for a column off the board.
func bitOf(c int) uint32 {
	if c < 0 || c >= 32 {
		return 0
	}
	return 1 << uint(c)
}

// constellationWeight returns the number of distinct images of sp under
// the 8 symmetries of the n×n board: the constellations its count stands
// for.
func constellationWeight(n int, sp backtrack.Subproblem) uint64 {
	queens := [4][2]int{{0, sp.Top}, {n - 1, sp.Bottom}, {sp.Left, 0}, {sp.Right, n - 1}}
	m := n - 1
	maps := [8]func(r, c int) (int, int){
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return c, m - r },
		func(r, c int) (int, int) { return m - r, m - c },
		func(r, c int) (int, int) { return m - c, r },
		func(r, c int) (int, int) { return r, m - c },
		func(r, c int) (int, int) { return m - r, c },
		func(r, c int) (int, int) { return c, r },
		func(r, c int) (int, int) { return m - c, m - r },
	}
	seen := map[[4]int]bool{}
	for _, g := range maps {
		img := [4]int{-1, -1, -1, -1} // top, bottom, left, right
		for _, q := range queens {
			r, c := g(q[0], q[1])
			if r == 0 {
				img[0] = c
			}
			if r == m {
				img[1] = c
			}
			if c == 0 {
				img[2] = r
			}
			if c == m {
				img[3] = r
			}
		}
		seen[img] = true
	}
	return uint64(len(seen))
}

// joinPieceColumns is the number of outer columns a side that name the
// parts of join.Pieces(n) (k of [join.Piece]): the join's own rule, which
// the tests check against every piece of every board up to join.MaxN.
func joinPieceColumns(n int) int {
	outer := min(3, n/4)
	if n >= 20 {
		return min(n-15, 10-2*(n%2))
	}
	k := max(outer, min(outer+1, n/4))
	if n%2 == 1 && n > 1 {
		k = max(k, 1)
	}
	return k
}

// joinPiece sets the rows of the part p of the join (see plainCount).
func (s *plainSearch) joinPiece(p join.Piece) {
	n, h, k := s.n, s.n/2, joinPieceColumns(s.n)
	shared := s.full
	if p.Middle >= 0 {
		shared &^= 1 << uint(p.Middle)
	}
	var pos []int // the shared columns, lowest first
	for a := shared; a != 0; a &= a - 1 {
		pos = append(pos, bits.TrailingZeros32(a))
	}
	var outer, top uint32
	for i := range k {
		lo, hi := uint32(1)<<uint(pos[i]), uint32(1)<<uint(pos[len(pos)-k+i])
		outer |= lo | hi
		if p.Outer>>uint(i)&1 != 0 {
			top |= lo
		}
		if p.Outer>>uint(k+i)&1 != 0 {
			top |= hi
		}
	}
	for r := range n {
		switch {
		case r < h: // the top half: no queen on the anti-diagonal
			s.allow[r] = s.full &^ (outer &^ top) &^ (1 << uint(n-1-r))
			s.twice[r] = 1 << uint(r)
		case n%2 == 1 && r == h: // the middle row
			s.allow[r] = bitOf(p.Middle)
			if p.Middle == join.InnerMiddle {
				s.allow[r] = s.full &^ outer
			}
		default: // the bottom half: no queen on the diagonal
			s.allow[r] = s.full &^ top &^ (1 << uint(r))
			s.twice[r] = 1 << uint(n-1-r)
		}
	}
}

// symmetric counts the symmetric piece: the solutions a half turn maps to
// themselves (H) and those a quarter turn does (Q), as the tally
// {Unique24: 3H + 6Q}.
func (s *plainSearch) symmetric() (backtrack.Tally, error) {
	n := s.n
	var sol [32]int
	var half, quarter uint64
	// Row r and row n-1-r at once: (r, c) and its image (n-1-r, n-1-c).
	var rec func(r int, cols uint32, d1, d2 uint64)
	rec = func(r int, cols uint32, d1, d2 uint64) {
		if s.nodes&0xffff == 0 && s.ctx.Err() != nil {
			s.err = s.ctx.Err()
		}
		if s.err != nil {
			return
		}
		if r == n/2 {
			half++
			q := true
			for i := range n {
				q = q && sol[sol[i]] == n-1-i
			}
			if q {
				quarter++
			}
			return
		}
		for c := range n {
			r2, c2 := n-1-r, n-1-c
			b := uint32(1)<<uint(c) | uint32(1)<<uint(c2)
			a1 := uint64(1)<<uint(r+c) | uint64(1)<<uint(r2+c2)
			a2 := uint64(1)<<uint(r-c+n-1) | uint64(1)<<uint(r2-c2+n-1)
			if c == c2 || r+c == r2+c2 || r-c == r2-c2 || cols&b != 0 || d1&a1 != 0 || d2&a2 != 0 {
				continue
			}
			s.nodes++
			sol[r], sol[r2] = c, c2
			rec(r+1, cols|b, d1|a1, d2|a2)
		}
	}
	if n%2 == 1 { // the middle row's queen is its own image: the centre
		c := n / 2
		sol[c] = c
		rec(0, 1<<uint(c), 1<<uint(2*c), 1<<uint(n-1))
	} else {
		rec(0, 0, 0, 0)
	}
	if s.err != nil {
		return backtrack.Tally{}, s.err
	}
	u24 := 3*half + 6*quarter
	if n == 1 {
		// The one board whose solution a reflection fixes (each of the
		// 4): a reflection-fixed placement of n > 1 queens has two on one
		// line.
		u24 += 3 * 4
	}
	return backtrack.Tally{Unique24: u24, Nodes: s.nodes}, nil
}
