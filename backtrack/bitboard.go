package backtrack

import (
	"math/bits"
	"sync/atomic"
)

// plan is one bitboard search problem: place one queen on each of levels
// rows, in the order the levels list them. Level i may use the columns in
// allowed[i] (bit j is column j). Diagonals are kept as masks over
// diagonal numbers, row+col in d1 and col-row+n-1 in d2, so the columns
// attacked on level i are d1>>up[i] and d2>>down[i], whatever rows were
// filled before.
//
// Fixed-size arrays indexed with &31 keep bounds checks out of the inner
// loop; 32 rows is the widest board the counter accepts.
type plan struct {
	levels  int
	allowed [32]uint32
	up      [32]uint8 // row of level i
	down    [32]uint8 // n-1-row of level i

	// checkAbove: the search looks at the stop flag whenever it steps back
	// to a level below it, so that a cancelled count stops within about a
	// second even on very large boards without slowing the deep levels.
	checkAbove int

	// ties, when set, makes every solution found go to leaf (which weighs
	// it) instead of being merely counted.
	ties *tieRule

	weight uint64 // solutions each solution found stands for, without ties

	// force, when >= 0, is the last level on which the two columns in
	// side may still be taken: entering it, a search that has taken
	// neither gives up, and one that has taken only one must take the
	// other there; entering the level before it, a search that has taken
	// neither must take one of them.
	force int
	side  uint32
}

// forced returns avail, the free columns of level d, narrowed by the
// force rule.
func (p *plan) forced(d int, cols, avail uint32) uint32 {
	if uint(p.force-d) > 1 {
		return avail
	}
	miss := p.side &^ cols
	switch {
	case d != p.force:
		if miss == p.side {
			return avail & miss // one of them here, the other next
		}
		return avail
	case miss == 0:
		return avail
	case miss == p.side:
		return 0
	}
	return avail & miss
}

// frame is one saved level of the iterative search: the state before a
// queen was placed on it, and the squares still to try there.
type frame struct{ avail, cols, ld, rd uint32 }

// checkRows is how many levels at the bottom of the tree are searched
// without looking at the stop flag; 14 levels take well under a second.
const checkRows = 14

// free returns the columns of level d not attacked by cols, d1 and d2.
func (p *plan) free(d int, cols uint32, d1, d2 uint64) uint32 {
	return p.allowed[d&31] &^ (cols | uint32(d1>>(p.up[d&31]&63)) | uint32(d2>>(p.down[d&31]&63)))
}

// dfs counts the completions of p and adds them to w, weighted: 24 × the
// solutions they stand for, and 24 × the classes up to symmetry. The levels
// are consecutive rows, top to bottom, so the diagonals move one column per
// level (ld, rd). The levels above p.checkAbove are walked one queen at a
// time, looking at stop; the rest by the tight loop, inner. It gives up
// once stop is set; the caller discards a part that stopped.
func (p *plan) dfs(stop *atomic.Bool, w *partCount) {
	if p.levels == 0 {
		w.add(p.weight, 1) // nothing to place: the placement is complete
		return
	}
	var stack [32]frame
	sols, nodes := p.outer(&stack, 0, 0, 0, 0, stop)
	w.nodes += nodes
	w.add(p.weight, sols)
	if p.ties != nil {
		w.total24 += p.ties.w.total24
		w.unique24 += p.ties.w.unique24
	}
}

// outer walks level d and below, handing the levels from checkAbove on
// to inner.
func (p *plan) outer(stack *[32]frame, d int, cols, ld, rd uint32, stop *atomic.Bool) (sols, nodes uint64) {
	if d >= p.checkAbove || d >= p.levels-2 {
		return p.inner(stack, d, cols, ld, rd)
	}
	for avail := p.forced(d, cols, p.allowed[d&31]&^(cols|ld|rd)); avail != 0 && !stop.Load(); {
		bit := avail & -avail
		avail ^= bit
		stack[d&31] = frame{avail, cols, ld, rd}
		s, n := p.outer(stack, d+1, cols|bit, (ld|bit)<<1, (rd|bit)>>1, stop)
		sols += s
		nodes += n + 1
	}
	return sols, nodes
}

// inner is the tight loop of the counter: an iterative depth-first search
// of the levels from d0 on with an explicit stack, no allocation and no
// calls but for the rare ties. The last level is unrolled: on the level
// before it each free square is tried and the last level merely checked
// for a free column (every column is used once, so at most one is left).
func (p *plan) inner(stack *[32]frame, d0 int, cols, ld, rd uint32) (sols, nodes uint64) {
	last := p.levels - 1
	allowed := &p.allowed
	d := d0
	avail := p.forced(d, cols, allowed[d&31]&^(cols|ld|rd))
	force := p.force
	if d == last {
		if avail != 0 {
			p.leaf(stack, d-1, cols, 0, avail)
			return 1, 1
		}
		return 0, 0
	}
	for {
		if d == last-1 {
			al := allowed[(d+1)&31]
			for avail != 0 {
				bit := avail & -avail
				avail ^= bit
				nodes++
				if f := al &^ (cols | bit | (ld|bit)<<1 | (rd|bit)>>1); f != 0 {
					nodes++
					if p.ties == nil {
						sols++
					} else {
						p.leaf(stack, d, cols, bit, f)
					}
				}
			}
		}
		if avail == 0 {
			if d == d0 {
				return sols, nodes
			}
			d--
			f := &stack[d&31]
			avail, cols, ld, rd = f.avail, f.cols, f.ld, f.rd
			continue
		}
		bit := avail & -avail
		avail ^= bit
		nodes++
		stack[d&31] = frame{avail, cols, ld, rd}
		cols |= bit
		ld = (ld | bit) << 1
		rd = (rd | bit) >> 1
		d++
		avail = allowed[d&31] &^ (cols | ld | rd)
		if uint(force-d) <= 1 {
			avail = p.forced(d, cols, avail)
		}
	}
}

// leaf passes a solution found to the tie rule, if any.
func (p *plan) leaf(stack *[32]frame, d int, cols, bit, f uint32) {
	if p.ties != nil {
		p.ties.leaf(&p.ties.w, stack, d, cols, bit, f)
	}
}

// tieRule weighs the solutions of a non-corner subproblem (see
// [Subproblem]): the queen of row 0 stands in column a, the border queen
// nearest a corner, and the search allows the other border queens to stand
// as near (a tie). A solution found stands for 8/k solutions, where k is
// the number of its images the search also finds: 1 plus one for each tie.
type tieRule struct {
	n, a int
	w    partCount // the weighted solutions found
}

// leaf weighs one solution found by dfs: levels 0..d-1 were placed as
// saved in stack, level d (the second to last) at bit, with cols the
// columns taken before it, and the last level at f.
func (t *tieRule) leaf(w *partCount, stack *[32]frame, d int, cols, bit, f uint32) {
	n, a := t.n, t.a
	// colsAt(i) is the set of columns taken before level i (row i+1).
	colsAt := func(i int) uint32 {
		switch {
		case i < d:
			return stack[i&31].cols
		case i == d:
			return cols
		}
		return cols | bit
	}
	// placedAt(i) is the column bit of the queen on level i.
	placedAt := func(i int) uint32 {
		if i == d+1 {
			return f
		}
		return colsAt(i+1) ^ colsAt(i)
	}
	k := uint64(1)
	tb := f == 1<<(n-1-a)
	if tb {
		k++ // bottom queen as near the bottom-right corner as a
	}
	if placedAt(n-2-a) == 1 {
		k++ // left queen in row n-1-a: as near the bottom-left corner
	}
	if placedAt(a-1) == 1<<(n-1) {
		k++ // right queen in row a: as near the top-right corner
	}
	s := uint64(1)
	if tb {
		// Only then can the solution be symmetric (under a half or
		// quarter turn, which map the top queen to the bottom one).
		var sol [32]int
		sol[0] = a
		for i := 0; i <= d+1; i++ {
			sol[(i+1)&31] = bits.TrailingZeros32(placedAt(i))
		}
		s = rotationsFixing(n, &sol)
	}
	w.total24 += 8 * 24 / k
	w.unique24 += s * 24 / k
}

// rotationsFixing returns how many of the 4 rotations map sol to itself:
// 1, 2 (a half turn does) or 4 (a quarter turn does).
func rotationsFixing(n int, sol *[32]int) uint64 {
	half, quarter := true, true
	for r := 0; r < n; r++ {
		c := sol[r&31]
		half = half && sol[(n-1-r)&31] == n-1-c
		quarter = quarter && sol[c&31] == n-1-r
	}
	switch {
	case quarter:
		return 4
	case half:
		return 2
	}
	return 1
}
