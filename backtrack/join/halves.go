package join

import (
	"math/bits"
	"sync/atomic"
)

// maxH is the most rows a half has: 13 on the 27×27 board.
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
// use). It appends its columns, shifted right by shift and cut to the
// columns of allow, to keys and to pats its pattern, as a top half when
// bottom is false and mirrored into the bottom half (row r to row n-1-r)
// when it is true. It stops, returning ok false, when pats holds more
// than limit halves, and early once stop is set (the caller checks stop).
func (g *geometry) halves(allow, need uint32, shift int, ban *[maxH]uint32, bottom bool, limit int, stop *atomic.Bool, keys []uint32, pats []uint64) (_ []uint32, _ []uint64, ok bool) {
	h := g.h
	bitsOf := &g.top
	if bottom {
		bitsOf = &g.bot
	}
	if h == 0 {
		return append(keys, 0), append(pats, 0), true
	}
	if h == 1 {
		a := allow &^ ban[0]
		if need != 0 {
			a &= need
		}
		for ; a != 0; a &= a - 1 {
			b := a & -a
			keys = append(keys, (b&allow&^need)>>uint(shift))
			pats = append(pats, bitsOf[0][bits.TrailingZeros32(b)])
		}
		return keys, pats, len(pats) <= limit
	}
	var (
		avail          [maxH]uint32
		used, d1s, d2s [maxH]uint32
		mp             [maxH]uint64
	)
	last := h - 1
	r := 0
	avail[0] = allow &^ ban[0]
	if bits.OnesCount32(need) == h {
		avail[0] &= need
	}
	for {
		a := avail[r]
		if a == 0 {
			if r == 0 {
				return keys, pats, true
			}
			r--
			if r < 2 && stop.Load() {
				return keys, pats, true
			}
			continue
		}
		b := a & -a
		avail[r] = a ^ b
		c := bits.TrailingZeros32(b)
		np := mp[r] | bitsOf[r][c]
		u := used[r] | b
		d1, d2 := (d1s[r]|b)<<1, (d2s[r]|b)>>1
		a = allow &^ (u | d1 | d2 | ban[r+1])
		if bits.OnesCount32(need&^u) == h-r-1 {
			a &= need
		}
		if r+1 == last {
			// The last row: every free square is a half.
			row := &bitsOf[last]
			for ; a != 0; a &= a - 1 {
				b := a & -a
				keys = append(keys, ((u|b)&allow&^need)>>uint(shift))
				pats = append(pats, np|row[bits.TrailingZeros32(b)])
			}
			if len(pats) > limit {
				return keys, pats, false
			}
			continue
		}
		r++
		used[r], d1s[r], d2s[r], mp[r], avail[r] = u, d1, d2, np, a
	}
}
