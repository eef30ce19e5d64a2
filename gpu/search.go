package gpu

import "math/bits"

// bad is what the kernel writes for a task it cannot search (fewer than 3
// or more than MaxRows empty rows): no task the splitter emits, so the
// host takes it as a defect.
const bad = ^uint64(0)

// search counts the completions of t on an n×n board: the loop of
// count_task in kernel.cu, statement for statement, so that it is the
// reference the kernel is tested against. It is backtrack's tight loop
// (solver.fast) with the levels counted from the top: a depth-first
// search of the rows t.rows[0:m] in that order with an explicit stack.
// The diagonals are kept rotated so that bit c is column c of the current
// row; moving from row r to row r' rotates d1 by r-r' and d2 by r'-r (bits
// that leave the board wrap to bits >= 33, beyond every column as n <= 32).
// A child with no free square is never pushed, and the last two rows are
// finished in registers. A stack level holds only the squares left to try
// and the queen placed (8 bytes, so that a GPU thread's stack stays small):
// going back up undoes the queen, rotating the diagonals back.
func search(t *task, n int) uint64 {
	m := bits.OnesCount32(t.free)
	if m < 3 || m > MaxRows {
		return bad
	}
	var r1, r2 [MaxRows]uint8 // rotations from level d to level d+1
	for d := 0; d+1 < m; d++ {
		r1[d] = uint8((int(t.rows[d]) - int(t.rows[d+1])) & 63)
		r2[d] = uint8((int(t.rows[d+1]) - int(t.rows[d])) & 63)
	}
	r0 := int(t.rows[0])
	x1 := bits.RotateLeft64(t.d1, -r0)
	x2 := bits.RotateLeft64(t.d2, -(n - 1 - r0))
	f := t.free
	a := f &^ uint32(x1|x2)
	last := m - 3 // the level whose children are on the second to last row
	var stack [MaxRows]struct{ a, bit uint32 }
	d := 0
	var sum uint64
	for {
		if a == 0 {
			if d == 0 {
				break
			}
			d--
			bit := stack[d].bit
			a = stack[d].a
			f |= bit
			x1 = bits.RotateLeft64(x1, -int(r1[d])) &^ uint64(bit)
			x2 = bits.RotateLeft64(x2, -int(r2[d])) &^ uint64(bit)
			continue
		}
		bit := a & -a
		a &= a - 1
		nf := f ^ bit
		nx1 := bits.RotateLeft64(x1|uint64(bit), int(r1[d]))
		nx2 := bits.RotateLeft64(x2|uint64(bit), int(r2[d]))
		na := nf &^ uint32(nx1|nx2)
		if d == last {
			// Of the two free columns p and q, each may take the second
			// to last row and leave the other to the last one.
			k1, k2 := int(r1[d+1]), int(r2[d+1])
			p := nf & -nf
			q := nf ^ p
			pq := uint64(q) &^ (bits.RotateLeft64(nx1|uint64(p), k1) | bits.RotateLeft64(nx2|uint64(p), k2))
			qp := uint64(p) &^ (bits.RotateLeft64(nx1|uint64(q), k1) | bits.RotateLeft64(nx2|uint64(q), k2))
			if na&p != 0 && pq != 0 {
				sum++
			}
			if na&q != 0 && qp != 0 {
				sum++
			}
			continue
		}
		if na != 0 {
			stack[d].a, stack[d].bit = a, bit
			d++
			a, f, x1, x2 = na, nf, nx1, nx2
		}
	}
	return sum
}
