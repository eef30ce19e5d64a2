package backtrack

import (
	"math/bits"
	"sync/atomic"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/constellation"
)

// solver counts the completions of a partial placement on an n×n board,
// n <= 32. A placement is the set of columns still free, the diagonals
// taken, d1 with bit row+col and d2 with bit col-row+n-1 (so the columns
// they attack in row r are d1>>r and d2>>(n-1-r)), and the set of rows
// still empty; since every row and every column holds one queen, there are
// as many free columns as empty rows.
//
// The rows are not filled top to bottom: while more than frozenRows rows
// are empty, the search fills the row with the fewest free squares next
// (the rows nearest the middle first on a tie), which prunes far more than
// a fixed order. With frozenRows left it fixes the order of the rest, in
// the same way, and hands them to fast, the tight loop.
type solver struct {
	n     int
	stop  *atomic.Bool // the search gives up once it is set
	nodes uint64       // queens placed

	tie   [32]int      // per row: |2r-(n-1)|<<5 | r, the order of rows with as many free squares
	keys  [32]int      // scratch for freezing the order: free squares<<11 | tie
	rows  [32]int      // the frozen order
	rot   [32][2]uint8 // per frozen level: how far to rotate d1, d2 to reach the next row
	stack [32]frame
}

// frozenRows is how many rows the tight loop fills in a fixed order.
// Fewer rows freeze later and place fewer queens, but spend more time
// choosing rows; 8 measured fastest at n = 16 (7 places 18% fewer queens
// but takes longer, 9 and 10 place more).
const frozenRows = 8

// frame is one saved level of the tight loop: the squares still to try on
// it, and the free columns and rotated diagonals before a queen was placed.
type frame struct{ avail, free, x1, x2 uint64 }

// newSolver returns a solver of n×n boards that gives up once stop is set.
func newSolver(n int, stop *atomic.Bool) *solver {
	return &solver{n: n, stop: stop, tie: constellation.Ties(n)}
}

// squares returns the free squares of row r.
func (s *solver) squares(free, d1, d2 uint64, r int) uint64 {
	return free &^ (d1>>uint(r&63) | d2>>uint((s.n-1-r)&63))
}

// count returns the number of ways to fill the rows in rem, most
// constrained row first; it returns 0 early (an incomplete count) once
// s.stop is set.
func (s *solver) count(free, d1, d2 uint64, rem uint32) uint64 {
	k := bits.OnesCount32(rem)
	if k <= frozenRows {
		return s.frozen(free, d1, d2, rem)
	}
	if s.stop.Load() {
		return 0
	}
	best, avail := s.pick(free, d1, d2, rem)
	rem &^= 1 << uint(best)
	var sum uint64
	for ; avail != 0; avail &= avail - 1 {
		bit := avail & -avail
		s.nodes++
		sum += s.count(free^bit, d1|bit<<uint(best), d2|bit<<uint((s.n-1-best)&63), rem)
	}
	return sum
}

// pick returns the row of rem (not empty) to fill next: the one with the
// fewest free squares, the rows nearest the middle first on a tie, and its
// free squares; those are none when some row of rem has none.
func (s *solver) pick(free, d1, d2 uint64, rem uint32) (best int, avail uint64) {
	bestKey := int(^uint(0) >> 1)
	for x := rem; x != 0; x &= x - 1 {
		r := bits.TrailingZeros32(x)
		a := s.squares(free, d1, d2, r)
		if a == 0 {
			return r, 0
		}
		if key := bits.OnesCount64(a)<<11 | s.tie[r&31]; key < bestKey {
			best, bestKey, avail = r, key, a
		}
	}
	return best, avail
}

// frozen fixes the order of the rows in rem (at most frozenRows): fewest
// free squares first, and counts their completions.
func (s *solver) frozen(free, d1, d2 uint64, rem uint32) uint64 {
	m := 0
	keys := &s.keys
	for x := rem; x != 0; x &= x - 1 {
		r := bits.TrailingZeros32(x)
		c := bits.OnesCount64(s.squares(free, d1, d2, r))
		if c == 0 {
			return 0
		}
		key := c<<11 | s.tie[r&31]
		j := m
		for ; j > 0 && keys[(j-1)&31] > key; j-- {
			keys[j&31] = keys[(j-1)&31]
		}
		keys[j&31] = key
		m++
	}
	switch m {
	case 0:
		return 1
	case 1:
		s.nodes++ // the one free column, not attacked (c > 0 above)
		return 1
	}
	rows := &s.rows
	for j := 0; j < m; j++ {
		rows[j&31] = keys[j&31] & 31
	}
	if m == 2 {
		r0, r1 := rows[0], rows[1]
		var sum uint64
		for a := s.squares(free, d1, d2, r0); a != 0; a &= a - 1 {
			bit := a & -a
			s.nodes++
			if s.squares(free^bit, d1|bit<<uint(r0), d2|bit<<uint((s.n-1-r0)&63), r1) != 0 {
				s.nodes++
				sum++
			}
		}
		return sum
	}
	return s.fast(free, d1, d2, m)
}

// fast is the tight loop: a depth-first search of the m >= 3 rows of
// s.rows in that order, with an explicit stack, no calls and no
// allocation. The diagonals are kept rotated so that bit c is column c of
// the current row: moving from row r to row r' rotates them by r-r' (a
// bit that leaves the board on one side wraps to bits >= 33 on the other,
// beyond every column as n <= 32). A child with no free square is counted
// but never pushed, and the last two rows are finished in registers.
func (s *solver) fast(free, d1, d2 uint64, m int) uint64 {
	// Levels are numbered from the end: e = m-3-d for the d-th row, so
	// the row whose children are second to last is level 0 and no
	// register holds the depth at which the last rows start.
	n, rows, rot, st := s.n, &s.rows, &s.rot, &s.stack
	top := m - 3
	for d := 0; d+1 < m; d++ {
		e := top - d
		rot[e&31][0] = uint8((rows[d&31] - rows[(d+1)&31]) & 63)
		rot[e&31][1] = uint8((rows[(d+1)&31] - rows[d&31]) & 63)
	}
	x1 := bits.RotateLeft64(d1, -rows[0])
	x2 := bits.RotateLeft64(d2, -(n - 1 - rows[0]))
	f := free
	a := f &^ (x1 | x2)
	e := top
	var sum, nodes uint64
	for {
		if a == 0 {
			if e == top {
				break
			}
			e++
			p := &st[e&31]
			a, f, x1, x2 = p.avail, p.free, p.x1, p.x2
			continue
		}
		bit := a & -a
		a &= a - 1
		nodes++
		r := &rot[e&31]
		nf := f ^ bit
		nx1 := bits.RotateLeft64(x1|bit, int(r[0]))
		nx2 := bits.RotateLeft64(x2|bit, int(r[1]))
		na := nf &^ (nx1 | nx2)
		if e == 0 {
			// The child is on the second to last row: of its two free
			// columns p and q, each may take that row and leave the other
			// to the last one.
			r2 := &rot[31] // level -1
			p := nf & -nf
			q := nf ^ p
			pq := q &^ (bits.RotateLeft64(nx1|p, int(r2[0])) | bits.RotateLeft64(nx2|p, int(r2[1])))
			qp := p &^ (bits.RotateLeft64(nx1|q, int(r2[0])) | bits.RotateLeft64(nx2|q, int(r2[1])))
			c := one(na&p != 0 && pq != 0) + one(na&q != 0 && qp != 0)
			sum += c
			nodes += uint64(bits.OnesCount64(na)) + c
			continue
		}
		if na != 0 {
			st[e&31] = frame{a, f, x1, x2}
			e--
			a, f, x1, x2 = na, nf, nx1, nx2
		}
	}
	s.nodes += nodes
	return sum
}

// one returns 1 for true and 0 for false.
func one(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// placement returns the placement of the queens qs (valid by
// [board.CheckPlacement]; a queen given twice is placed once).
func (s *solver) placement(qs ...board.Queen) (free, d1, d2 uint64, rem uint32) {
	return constellation.Placement(s.n, qs)
}

// fixedByTurns counts the solutions of an n×n board that a half turn maps
// to themselves (f180), and among them those a quarter turn does (f90).
// It places queens in pairs, (r, c) with its image (n-1-r, n-1-c), on the
// top half of the rows; an odd board's middle queen goes in the centre.
// It returns zeros early once stop is set.
func fixedByTurns(n int, stop *atomic.Bool) (f180, f90, nodes uint64) {
	var sol [32]int
	var rec func(r int, free, d1, d2 uint64)
	rec = func(r int, free, d1, d2 uint64) {
		if stop.Load() {
			return
		}
		if 2*r >= n-1 {
			if n%2 == 1 {
				c := (n - 1) / 2
				if free&^(d1>>uint(r)|d2>>uint(n-1-r))&(1<<uint(c)) == 0 {
					return
				}
				sol[r&31] = c
			}
			f180++
			quarter := true
			for x := 0; x < n && quarter; x++ {
				quarter = sol[sol[x&31]&31] == n-1-x
			}
			if quarter {
				f90++
			}
			return
		}
		// (r, r) and (r, n-1-r) share a diagonal with their images.
		a := free &^ (d1>>uint(r) | d2>>uint(n-1-r) | 1<<uint(r) | 1<<uint(n-1-r))
		for ; a != 0; a &= a - 1 {
			c := bits.TrailingZeros64(a)
			mr, mc := n-1-r, n-1-c
			sol[r&31], sol[mr&31] = c, mc
			nodes += 2
			rec(r+1, free&^(1<<uint(c)|1<<uint(mc)),
				d1|1<<uint(r+c)|1<<uint(mr+mc),
				d2|1<<uint(c-r+n-1)|1<<uint(mc-mr+n-1))
		}
	}
	rec(0, 1<<uint(n)-1, 0, 0)
	if stop.Load() {
		return 0, 0, nodes
	}
	return f180, f90, nodes
}
