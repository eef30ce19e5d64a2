package backtrack

import "sync/atomic"

// plan is one bitboard search problem: place one queen on each of levels
// rows, in the order the levels list them (not necessarily top to bottom).
// Level i may use the columns in allowed[i] (bit j is column j of the
// searched region). Diagonals are kept as masks over diagonal numbers,
// row+col in d1 and col-row+n-1 in d2, so that any row order works: the
// columns attacked on level i are d1>>up[i] and d2>>down[i]. Every column
// of the region must be used exactly once, so on the last level at most one
// column is left.
//
// Fixed-size arrays indexed with &31 keep bounds checks out of the inner
// loop; 32 rows is the widest board the counter accepts.
type plan struct {
	levels  int
	allowed [32]uint32
	up      [32]uint8 // row of level i
	down    [32]uint8 // n-1-row of level i
}

// frame is one saved level of the iterative search.
type frame struct {
	avail, cols uint32
	d1, d2      uint64
}

// splitRows is how many levels below the current one the tight loop takes
// on in one go. Above that, search walks the tree one queen at a time and
// looks at the stop flag, so that a cancelled count stops within about a
// second even for very large boards.
const splitRows = 14

// attacked returns the columns of level d attacked by the queens in d1, d2.
func (p *plan) free(d int, cols uint32, d1, d2 uint64) uint32 {
	return p.allowed[d&31] &^ (cols | uint32(d1>>(p.up[d&31]&63)) | uint32(d2>>(p.down[d&31]&63)))
}

// search counts the completions of p from level d on, with the columns in
// cols and the diagonals in d1, d2 taken. It gives up (returning what it
// found) once stop is set; the caller discards a part that was stopped.
func search(p *plan, d int, cols uint32, d1, d2 uint64, stop *atomic.Bool) (sols, nodes uint64) {
	if p.levels-d <= splitRows {
		return dfs(p, d, cols, d1, d2)
	}
	avail := p.free(d, cols, d1, d2)
	u, v := p.up[d&31]&63, p.down[d&31]&63
	for avail != 0 {
		if stop.Load() {
			return sols, nodes
		}
		bit := avail & -avail
		avail ^= bit
		x, y := search(p, d+1, cols|bit, d1|uint64(bit)<<u, d2|uint64(bit)<<v, stop)
		sols += x
		nodes += y + 1
	}
	return sols, nodes
}

// dfs is the tight loop of the counter: an iterative depth-first search
// with an explicit stack, no allocation and no calls. The last level is
// unrolled: on the level before it each free square is tried and the last
// level merely checked for a free column.
func dfs(p *plan, d int, cols uint32, d1, d2 uint64) (sols, nodes uint64) {
	last := p.levels - 1
	if d > last {
		return 1, 0 // nothing left to place: the placement is complete
	}
	avail := p.free(d, cols, d1, d2)
	if d == last {
		if avail != 0 {
			return 1, 1
		}
		return 0, 0
	}
	var stack [32]frame
	start := d
	for {
		if d == last-1 {
			u, v := p.up[d&31]&63, p.down[d&31]&63
			for avail != 0 {
				bit := avail & -avail
				avail ^= bit
				nodes++
				if p.free(d+1, cols|bit, d1|uint64(bit)<<u, d2|uint64(bit)<<v) != 0 {
					sols++
					nodes++
				}
			}
		}
		if avail == 0 {
			if d == start {
				return sols, nodes
			}
			d--
			f := &stack[d&31]
			avail, cols, d1, d2 = f.avail, f.cols, f.d1, f.d2
			continue
		}
		bit := avail & -avail
		avail ^= bit
		nodes++
		stack[d&31] = frame{avail, cols, d1, d2}
		cols |= bit
		d1 |= uint64(bit) << (p.up[d&31] & 63)
		d2 |= uint64(bit) << (p.down[d&31] & 63)
		d++
		avail = p.free(d, cols, d1, d2)
	}
}
