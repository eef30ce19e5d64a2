package join

import (
	"math/bits"
	"sync/atomic"
)

// maxH is the most rows a half has: 14 on the 28×28 board.
const maxH = MaxN / 2

// geometry is what the enumeration of the halves of an n×n board needs:
// the rows of a half, and for each square of the top half the bits its
// queen sets in a top pattern and, mirrored into the bottom half (row r
// to row n-1-r), in a bottom pattern.
//
// A pattern records the diagonals a half occupies that the other half
// can reach too: the top half (rows 0..h-1) reaches the anti-diagonals
// (row+column) 0..n+h-2, the bottom half (rows n-h..n-1) n-h..2n-2, so
// only the 2h-1 anti-diagonals n-h..n+h-2 matter, and likewise the 2h-1
// diagonals (row-column+n-1) n-h..n+h-2. Bits 0..2h-2 of a pattern are
// those anti-diagonals, bits 2h-1..4h-3 those diagonals: a top and a
// bottom half with complementary columns make a solution exactly when
// their patterns share no bit (and each agrees with the middle queen of
// an odd board, which the enumeration sees to).
type geometry struct {
	n, h int
	top  [maxH][MaxN]uint64 // top[r][c]: the bits of a queen on (r, c)
	bot  [maxH][MaxN]uint64 // bot[r][c]: the bits of a queen on (n-1-r, c)
	mid  [MaxN]uint64       // mid[c]: the bits of a queen on (h, c), the middle row of an odd board
}

func newGeometry(n int) *geometry {
	g := &geometry{n: n, h: n / 2}
	span := 2*g.h - 1
	lo := n - g.h
	bit := func(anti, diag int) uint64 {
		var m uint64
		if anti >= lo && anti-lo < span {
			m |= 1 << uint(anti-lo)
		}
		if diag >= lo && diag-lo < span {
			m |= 1 << uint(span+diag-lo)
		}
		return m
	}
	for c := range n {
		g.mid[c] = bit(g.h+c, g.h-c+n-1)
	}
	for r := range g.h {
		for c := range n {
			g.top[r][c] = bit(r+c, r-c+n-1)
			rb := n - 1 - r
			g.bot[r][c] = bit(rb+c, rb-c+n-1)
		}
	}
	return g
}

// halves enumerates every placement of h queens on the top h rows that
// uses only the columns allow, all of the columns need, attacks no other
// and stays off the squares of ban (ban[r]: the columns row r may not
// use). It stores in s (emptied first) each one's columns of allow but
// need, shifted right by shift, as its key, and its pattern, as a top
// half when bottom is false and mirrored into the bottom half (row r to
// row n-1-r) when it is true. It stops, returning ok false, when s holds
// more than limit halves, and early once stop is set (the caller checks
// stop).
//
// The columns of need are placed first, one column at a time on every
// row that can take it (a placement that cannot use them all dies
// before it grows), then the other rows in order on the other columns,
// a bitboard search whose diagonals shift from row to row.
func (g *geometry) halves(allow, need uint32, shift int, ban *[maxH]uint32, bottom bool, limit int, stop *atomic.Bool, s *store) (ok bool) {
	h, n := g.h, g.n
	s.reset()
	keys, pats := s.cur()
	if bits.OnesCount32(need) > h {
		return true
	}
	bitsOf := &g.top
	if bottom {
		bitsOf = &g.bot
	}
	inner := allow &^ need
	var outerCols [MaxN]int
	j := 0
	for a := need; a != 0; a &= a - 1 {
		outerCols[j] = bits.TrailingZeros32(a)
		j++
	}
	ok = true
	var free [maxH]int
	// place puts the i-th column of need on a row, then fills the rest.
	var place func(i int, rows uint32, d1, d2 uint64, pat uint64)
	place = func(i int, rows uint32, d1, d2 uint64, pat uint64) {
		if !ok {
			return
		}
		if i == j {
			if stop.Load() {
				return
			}
			m := 0
			for r := range h {
				if rows>>uint(r)&1 == 0 {
					free[m] = r
					m++
				}
			}
			keys, pats, ok = g.rest(inner, shift, ban, bitsOf, free[:m], d1, d2, pat, limit, s, keys, pats)
			return
		}
		c := outerCols[i]
		for r := range h {
			if rows>>uint(r)&1 != 0 || ban[r]>>uint(c)&1 != 0 {
				continue
			}
			if d1>>uint(r+c)&1 != 0 || d2>>uint(c-r+n-1)&1 != 0 {
				continue
			}
			place(i+1, rows|1<<uint(r), d1|1<<uint(r+c), d2|1<<uint(c-r+n-1), pat|bitsOf[r][c])
		}
	}
	place(0, 0, 0, 0, 0)
	s.set(keys, pats)
	return ok
}

// rest places a queen on each of the rows free, in order, on the columns
// of inner (the queens placed so far take the diagonals d1, row+column,
// and d2, column-row+n-1, and have the pattern pat), and appends every
// placement found, stopping with false past limit.
//
// It appends to keys and pats, the current block of s, and moves on to
// the next block of s when they are nearly full.
func (g *geometry) rest(inner uint32, shift int, ban *[maxH]uint32, bitsOf *[maxH][MaxN]uint64, free []int, d1, d2, pat uint64, limit int, s *store, keys []uint32, pats []uint64) ([]uint32, []uint64, bool) {
	n := g.n
	m := len(free)
	if cap(pats)-len(pats) < MaxN {
		keys, pats = s.next(keys, pats)
	}
	if m == 0 {
		keys = append(keys, 0)
		pats = append(pats, pat)
		return keys, pats, s.full+len(pats) <= limit
	}
	// blocked[l]: the columns of row free[l] that the queens placed or
	// the ban take; step[l]: the rows from free[l-1] to free[l].
	var (
		blocked [maxH]uint32
		step    [maxH]uint
		avail   [maxH]uint32
		cols    [maxH]uint32
		dl, dr  [maxH]uint32
		pset    [maxH]uint64
	)
	for l, r := range free {
		blocked[l] = uint32(d1>>uint(r)) | uint32(d2>>uint(n-1-r)) | ban[r]
		if l > 0 {
			step[l] = uint(r - free[l-1])
		}
	}
	pset[0] = pat
	avail[0] = inner &^ blocked[0]
	last := m - 1
	l := 0
	for {
		a := avail[l]
		if l == last {
			if cap(pats)-len(pats) < MaxN {
				keys, pats = s.next(keys, pats)
			}
			row := &bitsOf[free[l]]
			base, p := cols[l], pset[l]
			o := len(pats)
			k := o + bits.OnesCount32(a)
			keys, pats = keys[:k], pats[:k]
			kk, pp := keys[o:k], pats[o:k]
			for i := range pp {
				b := a & -a
				a ^= b
				kk[i] = (base | b) >> uint(shift)
				pp[i] = p | row[bits.TrailingZeros32(b)&31]
			}
			if s.full+len(pats) > limit {
				return keys, pats, false
			}
			if l == 0 {
				return keys, pats, true
			}
			l--
			continue
		}
		if a == 0 {
			if l == 0 {
				return keys, pats, true
			}
			l--
			continue
		}
		b := a & -a
		avail[l] = a ^ b
		c := cols[l] | b
		s := step[l+1]
		nl, nr := (dl[l]|b)<<s, (dr[l]|b)>>s
		pset[l+1] = pset[l] | bitsOf[free[l]][bits.TrailingZeros32(b)]
		l++
		cols[l], dl[l], dr[l] = c, nl, nr
		avail[l] = inner &^ (c | nl | nr | blocked[l])
	}
}

// blockSize is the halves of one block of a store.
const blockSize = 1 << 16

// store holds the halves one enumeration found, in blocks of blockSize
// that are kept for the next enumeration (a slice that grew would copy
// them as it grew).
type store struct {
	keys [][]uint32 // every block allocated, the used ones first
	pats [][]uint64
	used int // blocks in use, the last one the current block
	full int // halves in the used blocks but the current one
}

// reset empties s, keeping its blocks.
func (s *store) reset() {
	for i := range s.used {
		s.keys[i], s.pats[i] = s.keys[i][:0], s.pats[i][:0]
	}
	s.used, s.full = 0, 0
}

// cur returns the current block, making one if there is none.
func (s *store) cur() ([]uint32, []uint64) {
	if s.used == 0 {
		return s.next(nil, nil)
	}
	return s.keys[s.used-1], s.pats[s.used-1]
}

// set records keys and pats (the current block, appended to) in s.
func (s *store) set(keys []uint32, pats []uint64) {
	s.keys[s.used-1], s.pats[s.used-1] = keys, pats
}

// next records the current block keys and pats, if any, and returns the
// next one, empty.
func (s *store) next(keys []uint32, pats []uint64) ([]uint32, []uint64) {
	if s.used > 0 {
		s.set(keys, pats)
		s.full += len(pats)
	}
	if s.used == len(s.keys) {
		s.keys = append(s.keys, make([]uint32, 0, blockSize))
		s.pats = append(s.pats, make([]uint64, 0, blockSize))
	}
	s.used++
	return s.keys[s.used-1][:0], s.pats[s.used-1][:0]
}

// len returns the halves in s.
func (s *store) len() int { return s.full + len(s.pats[s.used-1]) }
