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

// loopBlock is the number of threads in a block of count_loop, the size
// of the lane dimension of its shared stack (LOOP_BLOCK in kernel.cu).
const loopBlock = 128

// loopLane is the state one thread of count_loop keeps in registers.
type loopLane struct {
	ti       uint32 // the task searched; none when >= count
	sum      uint64
	x1, x2   uint64
	a, f     uint32
	kl, dl   int // the last two rows: the diagonals' rotation from one to the other, their distance
	d, last  int
	finished bool
}

// searchLoop writes to out[i] the count of tasks[i] on an n×n board, as a
// block of lanes threads of count_loop does: the Go twin of that kernel,
// statement for statement, the lanes run in lockstep (each does one
// iteration of the loop in turn) with the shared stack [level][lane] and
// the atomic index next that they share. 1 <= lanes <= loopBlock.
func searchLoop(tasks []task, out []uint64, n, lanes int) {
	var sa, sw [MaxRows][loopBlock]uint32
	count := uint32(len(tasks))
	var next uint32
	ls := make([]loopLane, lanes)
	for i := range ls {
		ls[i].ti = ^uint32(0)
	}
	for running := lanes; running > 0; {
		for me := range ls {
			l := &ls[me]
			if l.finished {
				continue
			}
			if l.a == 0 && l.d == 0 { // the task is done: write its count, take the next
				if l.ti < count {
					out[l.ti] = l.sum
				}
				l.ti = next
				next++
				if l.ti >= count {
					l.finished = true
					running--
					continue
				}
				t := &tasks[l.ti]
				m := bits.OnesCount32(t.free)
				l.sum = 0
				if m < 3 || m > MaxRows {
					l.sum = bad
					continue
				}
				for j := 0; j+1 < m; j++ {
					sw[j][me] = uint32((int(t.rows[j])-int(t.rows[j+1]))&63) << 8
				}
				r0 := int(t.rows[0])
				l.x1 = bits.RotateLeft64(t.d1, -(r0 & 63))
				l.x2 = bits.RotateLeft64(t.d2, -((n - 1 - r0) & 63))
				l.f = t.free
				l.a = l.f &^ uint32(l.x1|l.x2)
				l.last = m - 3
				dr := int(t.rows[m-2]) - int(t.rows[m-1])
				l.kl, l.dl = dr&63, max(dr, -dr)
				continue
			}
			loopStep(l, &sa, &sw, me)
		}
	}
}

// loopStep is one step of a lane of count_loop (the body of its loop
// after the fetch): place the lowest square of a on level d, or, when a
// is empty, take back the queen of level d-1, the choice made by selects.
func loopStep(l *loopLane, sa, sw *[MaxRows][loopBlock]uint32, me int) {
	pop := l.a == 0
	dd := l.d
	if pop {
		dd--
	}
	w, saved := sw[dd][me], sa[dd][me]
	k := int(w>>8) & 63
	back := (64 - k) & 63
	var bit uint32
	if pop {
		bit = 1 << (w & 31)
	} else {
		bit = l.a & -l.a
	}
	rest := l.a & (l.a - 1)
	nf := l.f ^ bit
	set, clear, k1, k2 := uint64(bit), uint64(0), k, back
	if pop {
		set, clear, k1, k2 = 0, uint64(bit), back, k
	}
	y1 := bits.RotateLeft64(l.x1|set, k1) &^ clear
	y2 := bits.RotateLeft64(l.x2|set, k2) &^ clear
	na := nf &^ uint32(y1|y2)
	att := uint32(bits.RotateLeft64(y1, l.kl) | bits.RotateLeft64(y2, -l.kl))
	p := nf & -nf
	q := nf ^ p
	pq := q &^ (att | p<<l.dl | p>>l.dl)
	qp := p &^ (att | q<<l.dl | q>>l.dl)
	if !pop && l.d == l.last {
		if na&p != 0 && pq != 0 {
			l.sum++
		}
		if na&q != 0 && qp != 0 {
			l.sum++
		}
	}
	push := !pop && l.d != l.last && na != 0
	if push {
		sa[l.d][me] = rest
		sw[l.d][me] = uint32(bits.TrailingZeros32(bit)) | uint32(k)<<8
	}
	switch {
	case pop:
		l.a = saved
	case push:
		l.a = na
	default:
		l.a = rest
	}
	if pop || push {
		l.f, l.x1, l.x2 = nf, y1, y2
	}
	switch {
	case pop:
		l.d = dd
	case push:
		l.d++
	}
}
