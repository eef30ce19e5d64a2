// Package constellation holds what the two counters of queens (the CPU's,
// backtrack.Count, and the GPU's, gpu.Count) share: the constellations a
// full count is split into, their images under the 8 symmetries of the
// board, their weights, the bitboard placement of their queens, and the
// order in which both searches pick rows on a tie. backtrack.Subproblem
// has the fields of [C], so each converts to the other.
package constellation

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/queens-dev/queens/board"
)

// C is a constellation: the four queens on the border of an n×n board,
// the one in the first row in column Top, the one in the last row in
// column Bottom, the one in the first column in row Left and the one in
// the last column in row Right (all 0-based; a queen in a corner counts
// for its row and its column).
type C struct {
	Top, Bottom, Left, Right int
}

// List returns the constellations of an n×n board (n >= 1) that are the
// smallest of their images (by [C.Less]), the ones with the most squares
// left free by their queens first (the largest pieces of work), a tie
// kept in the order of Top, Bottom, Left, Right.
func List(n int) []C {
	type piece struct {
		c    C
		room int
	}
	var ps []piece
	for top := 0; top < n; top++ {
		for bottom := 0; bottom < n; bottom++ {
			for left := 0; left < n; left++ {
				for right := 0; right < n; right++ {
					c := C{top, bottom, left, right}
					if qs, k, ok := c.Queens(n); ok && c.Canonical(n) {
						ps = append(ps, piece{c, room(n, qs[:k])})
					}
				}
			}
		}
	}
	slices.SortStableFunc(ps, func(a, b piece) int { return b.room - a.room })
	out := make([]C, len(ps))
	for i, p := range ps {
		out[i] = p.c
	}
	return out
}

// room returns the number of squares of an n×n board that the queens qs
// neither take nor attack: roughly how large a piece is.
func room(n int, qs []board.Queen) int {
	free := 0
	for r := 0; r < n; r++ {
		row := uint64(1)<<uint(n) - 1
		for _, q := range qs {
			if q.Row == r {
				row = 0
				break
			}
			k := r - q.Row
			row &^= 1<<uint(q.Col) | bitAt(q.Col+k) | bitAt(q.Col-k)
		}
		free += bits.OnesCount64(row)
	}
	return free
}

// bitAt returns 1<<c, or 0 when c is negative.
func bitAt(c int) uint64 {
	if c < 0 {
		return 0
	}
	return 1 << uint(c)
}

// Queens returns the k distinct queens qs[:k] of c on an n×n board, and
// whether c is a constellation at all: on the board, consistent about the
// corners (a queen in a corner is the queen of both its lines) and no two
// queens attacking each other.
func (c C) Queens(n int) (qs [4]board.Queen, k int, ok bool) {
	t, b, l, r, m := c.Top, c.Bottom, c.Left, c.Right, n-1
	if min(t, b, l, r) < 0 || max(t, b, l, r) > m ||
		(t == 0) != (l == 0) || (t == m) != (r == 0) || (b == 0) != (l == m) || (b == m) != (r == m) {
		return qs, 0, false
	}
	for _, q := range [4]board.Queen{{Row: 0, Col: t}, {Row: m, Col: b}, {Row: l, Col: 0}, {Row: r, Col: m}} {
		if slices.Contains(qs[:k], q) {
			continue
		}
		for _, p := range qs[:k] {
			dr, dc := p.Row-q.Row, p.Col-q.Col
			if dr == 0 || dc == 0 || dr == dc || dr == -dc {
				return qs, 0, false
			}
		}
		qs[k] = q
		k++
	}
	return qs, k, true
}

// Images returns the constellations of the 8 images of c (a constellation
// by [C.Queens]) under the symmetries of the n×n board, in the order of
// [board.Transforms], c itself first.
func (c C) Images(n int) [8]C {
	qs, k, _ := c.Queens(n)
	var out [8]C
	for i, f := range board.Transforms() {
		var im C
		for _, q := range qs[:k] {
			r, col := f.Point(n, q.Row, q.Col)
			if r == 0 {
				im.Top = col
			}
			if r == n-1 {
				im.Bottom = col
			}
			if col == 0 {
				im.Left = r
			}
			if col == n-1 {
				im.Right = r
			}
		}
		out[i] = im
	}
	return out
}

// Less orders constellations by Top, Bottom, Left, Right.
func (c C) Less(o C) bool {
	return cmp.Or(cmp.Compare(c.Top, o.Top), cmp.Compare(c.Bottom, o.Bottom),
		cmp.Compare(c.Left, o.Left), cmp.Compare(c.Right, o.Right)) < 0
}

// Canonical reports whether c is the smallest of its images.
func (c C) Canonical(n int) bool {
	for _, im := range c.Images(n) {
		if im.Less(c) {
			return false
		}
	}
	return true
}

// Weight returns the number of distinct images of c: how many
// constellations a count of c stands for.
func (c C) Weight(n int) uint64 {
	ims := c.Images(n)
	var w uint64
	for i, im := range ims {
		if !slices.Contains(ims[:i], im) {
			w++
		}
	}
	return w
}

// Placement returns the bitboards of the queens qs (on the board, none
// attacking another; a queen given twice is placed once) on an n×n board,
// n <= 32: the free columns, the diagonals taken (d1 with bit row+col, d2
// with bit col-row+n-1, so that the columns they attack in row r are d1>>r
// and d2>>(n-1-r)) and the empty rows.
func Placement(n int, qs []board.Queen) (free, d1, d2 uint64, rem uint32) {
	free, rem = 1<<uint(n)-1, uint32(1<<uint(n)-1)
	for _, q := range qs {
		if r, c := q.Row, q.Col; rem&(1<<uint(r)) != 0 {
			free &^= 1 << uint(c)
			d1 |= 1 << uint(r+c)
			d2 |= 1 << uint(c-r+n-1)
			rem &^= 1 << uint(r)
		}
	}
	return free, d1, d2, rem
}

// Ties returns, per row r of an n×n board (n <= 32), the key that orders
// rows with as many free squares: |2r-(n-1)|<<5 | r, the rows nearest the
// middle first. Both counters pick the row with the fewest free squares
// next, by the key free squares<<11 | Ties(n)[r].
func Ties(n int) [32]int {
	var tie [32]int
	for r := 0; r < n && r < 32; r++ {
		dc := 2*r - (n - 1)
		if dc < 0 {
			dc = -dc
		}
		tie[r] = dc<<5 | r
	}
	return tie
}
