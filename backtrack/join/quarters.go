package join

import (
	"encoding/binary"
	"math/bits"
	"sync"
	"sync/atomic"
)

// quarterMaxN is the largest board whose halves are built from the
// quarter table ([quarters]) by default: 47 MiB for n = 20 and 21 (h =
// 10). The table of h = 11 would serve n = 22 and 23 in 398 MiB, built in
// about 3 s of CPU, no faster than the tables of exact columns that a
// worker builds for each column set ([quarters.buildExact]: 46 MiB a
// worker at n = 22, 80 at 23, measured peaks), which serve every board.
const quarterMaxN = 21

// quarters holds the quarter boards that the halves of an n×n board
// (n <= quarterMaxN) are built from: the placements of queens on some of
// the top h rows and some of the h lowest columns (the left side), a
// queen on each of those rows and columns, none attacking another. A
// half on the columns S is a placement of the rows A on the left columns
// of S, and one of the other rows on the right columns of S (the h
// highest), with disjoint diagonals (and on an odd board, where S may
// take the middle column h, a queen there on the one row left): a table
// lookup and a test a candidate, about 2.5 candidates a half, where a
// search takes tens of steps, and the halves come out by column set,
// needing no sort.
//
// The right side is the left one mirrored (column c to n-1-c), which
// swaps a placement's diagonals and anti-diagonals, so one table serves
// both: it depends on h alone (n = 2h and 2h+1 share it). No top half
// takes a square of the anti-diagonal, (r, n-1-r) (see [Count]), all of
// them on the right side, the mirrors of the left side's (r, r): a left
// placement with a queen on its own diagonal r = c is no right quarter.
//
// A placement is stored in 6 bytes (8 past h = 12), its diagonals in the side's own
// terms: bit r+c for each queen on (r, c), and bit 2h-1+r-c+h-1. As a
// quarter of a half (see [quarters.quarters]) it becomes one word in the
// board's terms: bit v-h for each anti-diagonal v = row+column, and bit
// 32+v-h for each diagonal v = row-column+n-1, for v from h to 3h-1+n%2:
// those a queen of the other side, of the middle column or row, or of
// the other half can share (an anti-diagonal below h, or a diagonal
// below h, holds queens of one side only, and none of the other half).
type quarters struct {
	h int
	// The placements of the rows A on the left columns C are entries
	// at[C<<h|A] to at[C<<h|A+1] of ds, 6 bytes each: those of one column
	// set lie together. A table of exact columns (see
	// [quarters.buildExact]) holds those of one column set, cols, only,
	// at[A] to at[A+1].
	at    []int32
	ds    []byte
	bytes int64 // what the tables take
	exact bool
	cols  uint32
	size  int    // the bytes of a placement: entryBytes(h)
	gen   uint64 // bumped each time buildExact refills the tables
}

// rightCache keeps the right quarters of one column set of a table,
// decoded ([quarters.quarters], no diagonals to miss: the right side's
// never have), by their rows, for the column sets that follow with the
// same right columns: the inner columns are taken lowest first, so the
// right columns of consecutive column sets change least often.
type rightCache struct {
	q      *quarters
	gen    uint64
	cols   uint32
	n      int
	bottom bool
	at     []int32 // by rows: 1 + the start of its quarters in qs, and their end; 0: not decoded yet
	qs     []quarter
}

// list returns the right quarters ds of q on the columns cols and the rows
// rows, decoded as [quarters.quarters] decodes them for the right side.
func (rc *rightCache) list(q *quarters, n int, cols, rows uint32, bottom bool, ds []byte) []quarter {
	if rc.q != q || rc.gen != q.gen || rc.cols != cols || rc.n != n || rc.bottom != bottom {
		rc.q, rc.gen, rc.cols, rc.n, rc.bottom = q, q.gen, cols, n, bottom
		size := 2 << uint(q.h)
		if cap(rc.at) < size {
			rc.at = make([]int32, size)
		}
		rc.at = rc.at[:size]
		clear(rc.at)
		rc.qs = rc.qs[:0]
	}
	if s := rc.at[2*rows]; s > 0 {
		return rc.qs[s-1 : rc.at[2*rows+1]]
	}
	start := len(rc.qs)
	rc.qs = q.quarters(n, rc.qs, ds, 0, 0, false, bottom)
	rc.at[2*rows], rc.at[2*rows+1] = int32(start+1), int32(len(rc.qs))
	return rc.qs[start:]
}

// entryBytes returns the bytes a placement of a quarter of h rows and
// columns takes: 6 up to h = 12 (4h-2 bits), 8 beyond.
func entryBytes(h int) int {
	if 4*h-2 <= 48 {
		return 6
	}
	return 8
}

// index returns the index in q.at of the placements of the rows rows on
// the left columns cols, or -1 if q does not hold them.
func (q *quarters) index(cols, rows uint32) int {
	if !q.exact {
		return int(cols<<uint(q.h) | rows)
	}
	if cols != q.cols {
		return -1
	}
	return int(rows)
}

// quarterCache holds the quarter tables of each h once built: they are
// read-only, shared by every worker and count of the process.
var quarterCache sync.Map // h → *quarterEntry

type quarterEntry struct {
	mu sync.Mutex // held while the tables are built
	q  *quarters
}

// quartersFor returns the quarter tables of an n×n board, n <=
// quarterMaxN, building them at the first call (once, however many
// goroutines ask at the same time), or nil if done is closed before
// they are built (two seconds at n = 20 and 21): the next call builds
// them again.
func quartersFor(n int, done <-chan struct{}) *quarters {
	v, _ := quarterCache.LoadOrStore(n/2, &quarterEntry{})
	e := v.(*quarterEntry)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.q == nil {
		e.q = newQuarters(n/2, done)
	}
	return e.q
}

// quarterBytes returns what the quarter tables of an n×n board take (0
// past quarterMaxN, where none are built): 6 bytes a placement (counted
// by the tests) and the index.
func quarterBytes(n int) int64 {
	if n < 1 || n > quarterMaxN {
		return 0
	}
	h := n / 2
	return int64(entryBytes(h))*quarterPlacements[h] + 2 + 4*(int64(1)<<(2*h)+1)
}

// quarterPlacements[h] is the number of placements of the quarter tables
// of h rows and columns (TestQuarters checks them).
var quarterPlacements = [quarterMaxN/2 + 1]int64{1, 2, 5, 18, 87, 462, 2635, 16870, 118969, 915442, 7535369}

// newQuarters builds the quarter tables of h rows and columns, or
// returns nil if done is closed first.
func newQuarters(h int, done <-chan struct{}) *quarters {
	q := &quarters{h: h}
	if !q.build(done) {
		return nil
	}
	q.bytes = int64(len(q.at))*4 + int64(len(q.ds))
	return q
}

// quarterSearch is the search that fills the tables.
type quarterSearch struct {
	h     int
	size  int    // the bytes of a placement
	hmask uint32 // the rows of a half
	// With exact, every placement takes the columns cols and no other,
	// and is indexed by its rows alone.
	exact bool
	cols  uint32
	at    []int32
	ds    []byte // nil on the first pass, which counts
	// At column poll the search looks whether done is closed (a few
	// thousand times a pass), and if so gives up (stopped).
	poll    int
	done    <-chan struct{}
	stopped bool
}

// build fills the tables: one search finds every placement, a first
// time to count them by rows and columns, a second time to put them in
// place. It places a queen or none in each column, the highest first,
// so that the placements come out by column set, the order of the
// tables, and each pass writes to a few kilobytes of them at a time
// rather than all over them. It reports false, the tables left unfilled,
// if done was closed first.
func (q *quarters) build(done <-chan struct{}) bool {
	top := q.h - 1
	q.size = entryBytes(q.h)
	b := quarterSearch{h: q.h, size: q.size, hmask: 1<<uint(q.h) - 1, poll: max(0, top-3), done: done}
	b.at = make([]int32, 1<<(2*uint(q.h))+1)
	if q.h == 0 {
		b.at[1] = 1
		q.at, q.ds = b.at, make([]byte, 8)
		return true
	}
	b.rec(top, 0, 0, 0)
	if b.stopped {
		return false
	}
	at := b.at
	for i := 1; i < len(at); i++ {
		at[i] += at[i-1]
	}
	// 2 bytes more: each placement is read as 8. The second pass moves
	// at[k] from the start of k's placements to their end.
	b.ds = make([]byte, q.size*int(at[len(at)-1])+2)
	b.rec(top, 0, 0, 0)
	if b.stopped {
		return false
	}
	copy(at[1:], at[:len(at)-1])
	at[0] = 0
	q.at, q.ds = at, b.ds
	return true
}

// buildExact makes q the table of exact columns cols of h rows and
// columns: the placements that take the columns cols, each with one
// queen, and no other (at most a few MiB where the whole table takes
// GiB), reusing q's buffers.
func (q *quarters) buildExact(h int, cols uint32) {
	q.h, q.exact, q.cols, q.size = h, true, cols, entryBytes(h)
	q.gen++
	b := quarterSearch{h: h, size: q.size, hmask: 1<<uint(h) - 1, poll: -1, exact: true, cols: cols}
	size := 1<<uint(h) + 1
	if cap(q.at) < size {
		q.at = make([]int32, size)
	}
	b.at = q.at[:size]
	clear(b.at)
	if h == 0 {
		b.at[1] = 1
		q.at, q.ds = b.at, append(q.ds[:0], make([]byte, 8)...)
		return
	}
	b.rec(h-1, 0, 0, 0)
	at := b.at
	for i := 1; i < len(at); i++ {
		at[i] += at[i-1]
	}
	need := q.size*int(at[len(at)-1]) + 2
	if cap(q.ds) < need {
		q.ds = make([]byte, need+need/4)
	}
	b.ds = q.ds[:need]
	b.rec(h-1, 0, 0, 0)
	copy(at[1:], at[:len(at)-1])
	at[0] = 0
	q.at, q.ds = at, b.ds
	q.bytes = int64(cap(q.at))*4 + int64(cap(q.ds))
}

// rec places a queen or none in column c and in each lower one, after
// the queens on rows and (above c) columns cols, whose diagonals are d
// (bit r+c, bit 2h-1+r-c+h-1), and adds each placement to the tables.
func (b *quarterSearch) rec(c int, rows, cols uint32, d uint64) {
	if c == b.poll {
		select {
		case <-b.done:
			b.stopped = true
		default:
		}
	}
	if b.stopped {
		return
	}
	h := b.h
	dg := uint(2*h - 1 + h - 1 - c) // the diagonal bit of (0, c)
	// The rows r whose square (r, c) is free: not on a queen's row,
	// anti-diagonal (bit r+c of d) or diagonal (bit dg+r).
	free := b.hmask &^ rows &^ uint32(d>>uint(c)) &^ uint32(d>>dg)
	empty, queen := true, true // column c may stay empty, may take a queen
	if b.exact {
		empty, queen = b.cols>>uint(c)&1 == 0, b.cols>>uint(c)&1 != 0
		if !queen {
			free = 0
		}
	}
	if c > 0 {
		if empty {
			b.rec(c-1, rows, cols, d)
		}
		for f := free; f != 0; f &= f - 1 {
			r := uint(bits.TrailingZeros32(f))
			b.rec(c-1, rows|1<<r, cols|1<<uint(c), d|1<<(r+uint(c))|1<<(dg+r))
		}
		return
	}
	// Column 0: the placement without a queen there, then with one.
	k := cols<<uint(h) | rows
	kc := k | 1<<uint(h) // column 0 taken
	if b.exact {
		k, kc = rows, rows
	}
	at := b.at
	if b.ds == nil {
		if empty {
			at[k+1]++
		}
		for f := free; f != 0; f &= f - 1 {
			at[(kc|f&-f)+1]++
		}
		return
	}
	if empty {
		b.put(at[k], d)
		at[k]++
	}
	for f := free; f != 0; f &= f - 1 {
		r := uint(bits.TrailingZeros32(f))
		j := kc | 1<<r
		b.put(at[j], d|1<<r|1<<(dg+r))
		at[j]++
	}
}

// put writes placement d as entry i of the tables.
func (b *quarterSearch) put(i int32, d uint64) {
	e := b.ds[b.size*int(i):]
	if b.size == 8 {
		binary.LittleEndian.PutUint64(e, d)
		return
	}
	binary.LittleEndian.PutUint32(e, uint32(d))
	binary.LittleEndian.PutUint16(e[4:], uint16(d>>32))
}

// attacks returns the diagonals of the middle-row queen of an odd n×n
// board in column c, as a quarter's word: a half that has one of them
// attacks it.
func attacks(n, c int) uint64 {
	return uint64(1)<<uint(c) | uint64(1)<<uint(32+n-1-c)
}

// halves appends to out the patterns (see [geometry]) of the top halves
// of an n×n board on exactly the columns cols (h of them), clear of the
// diagonals z, and returns it: as top patterns, or with bottom as the
// bottom patterns of the same placements mirrored top to bottom
// ([quarters.quarters]); pr is a buffer for the quarters.
func (q *quarters) halves(n int, cols uint32, z uint64, bottom bool, out []uint64, pr *[]quarter) []uint64 {
	return halvesOf(q, q, n, cols, z, bottom, out, pr, nil)
}

// halvesOf is [quarters.halves] with the placements of the left columns
// from ql and those of the right columns (mirrored) from qr, decoded
// through rc if not nil.
func halvesOf(ql, qr *quarters, n int, cols uint32, z uint64, bottom bool, out []uint64, pr *[]quarter, rc *rightCache) []uint64 {
	h := ql.h
	full := uint32(1)<<uint(h) - 1
	cl := cols & full
	cr := bits.Reverse32(cols>>uint(n-h)) >> uint(32-h) // the right columns mirrored onto the left
	a, b := bits.OnesCount32(cl), bits.OnesCount32(cr)
	if n%2 == 0 || cols>>uint(h)&1 == 0 {
		if a+b != h {
			return out
		}
		return join(ql, qr, n, out, cl, cr, a, full, z, 0, bottom, pr, rc)
	}
	// A queen in the middle column h, on the row the sides leave.
	if a+b != h-1 {
		return out
	}
	for r := range h {
		mc := uint64(1)<<uint(r) | uint64(1)<<uint(32+r) // its diagonals r+h, r-h+n-1
		if z&mc == 0 {
			out = join(ql, qr, n, out, cl, cr, a, full&^(1<<uint(r)), z|mc, ql.pattern(n, mc), bottom, pr, rc)
		}
	}
	return out
}

// join appends to out the patterns of the halves whose rows rows (h or
// h-1 of them) take the left columns cl (a of them, placed from ql) and
// the mirrored right columns cr (from qr), clear of z: those of a
// placement of a of the rows on cl and one of the others on cr with
// disjoint diagonals, each with z's diagonals and the pattern zp added.
func join(ql, qr *quarters, n int, out []uint64, cl, cr uint32, a int, rows uint32, z, zp uint64, bottom bool, pr *[]quarter, rc *rightCache) []uint64 {
	h := ql.h
	// Every set of a of the rows: the sets of a of the h rows in turn
	// (Gosper's hack), those outside rows left out.
	for set := uint32(1)<<uint(a) - 1; set < 1<<uint(h); {
		if kl, kr := ql.index(cl, set), qr.index(cr, rows^set); set&^rows == 0 && kl >= 0 && kr >= 0 {
			if i, j, u, v := ql.at[kl], ql.at[kl+1], qr.at[kr], qr.at[kr+1]; i < j && u < v {
				left, right := ql.ds[ql.size*int(i):ql.size*int(j)+2], qr.ds[qr.size*int(u):qr.size*int(v)+2]
				if need := int(j-i) + int(v-u); cap(*pr) < need {
					*pr = make([]quarter, need+need/2)
				}
				xs := ql.quarters(n, (*pr)[:0], left, z, zp, true, bottom)
				var ys []quarter
				if rc != nil {
					ys = rc.list(qr, n, cr, rows^set, bottom, right)
				} else {
					ys = qr.quarters(n, xs[len(xs):], right, 0, 0, false, bottom)
				}
				o := len(out)
				if size := len(xs) * len(ys); cap(out)-o < size {
					out = append(out[:cap(out)], make([]uint64, size+cap(out))...)
				}
				buf := out[:cap(out)]
				out = buf[:pairUp(buf, o, xs, ys)]
			}
		}
		if set == 0 {
			break
		}
		c := set & -set
		r := set + c
		set = (r^set)>>2/c | r
	}
	return out
}

// A quarter is a placement of a quarter board as halves are built from
// it: its diagonals (with those of queens it must miss) and its pattern.
type quarter struct{ d, pat uint64 }

// quarters appends to dst the placements ds (q.size bytes each, 2 bytes
// more at the end) as quarters of the left side (left) or, mirrored, of the
// right side, in the board's terms (see [quarters]), leaving out those
// that share a diagonal with z and, on the right, those with a queen on
// the board's anti-diagonal: each with z's diagonals and the pattern zp
// added to its own, its top pattern, or with bottom its bottom pattern:
// that of the placement mirrored top to bottom (row r to n-1-r), whose
// anti-diagonals become the diagonals and the other way round, each in
// reverse order, which reverses the whole 2(2h-1) bits. A half's pattern
// is the OR of its quarters'.
func (q *quarters) quarters(n int, dst []quarter, ds []byte, z, zp uint64, left, bottom bool) []quarter {
	h := uint(q.h) & 31
	odd := uint(n) & 1
	span := (2*h - 1) & 31
	mask := uint64(1)<<span - 1
	ban := uint64(1) << (span + h - 1) // the diagonal r = c of the left side
	s := uint(64-2*span) & 63
	size := q.size
	emask := ^uint64(0) >> ((64 - 8*uint(size)) & 63) // 6 bytes or all 8
	for i := 0; i+8 <= len(ds); i += size {
		e := binary.LittleEndian.Uint64(ds[i:]) & emask
		var d uint64
		if left {
			d = e&mask>>h | e>>span<<odd<<32
		} else {
			if e&ban != 0 {
				continue
			}
			d = e>>span<<odd | e&mask>>h<<32
		}
		if d&z != 0 {
			continue
		}
		p := d>>odd&mask | d>>(32+odd)&mask<<span | zp
		if bottom {
			p = bits.Reverse64(p) >> s
		}
		dst = append(dst, quarter{d | z, p})
	}
	return dst
}

// pattern returns the pattern (see [geometry]) of the diagonals d of an
// n×n board, given as a quarter's word.
func (q *quarters) pattern(n int, d uint64) uint64 {
	odd := uint(n) & 1
	span := uint(2*q.h - 1)
	mask := uint64(1)<<span - 1
	return d>>odd&mask | d>>(32+odd)&mask<<span
}

// pairUp writes the patterns of the halves that join a quarter of xs and
// one of ys with disjoint diagonals to buf from index o, and returns the
// index past them (buf has room for every pair). It is a function of its
// own so that its loop keeps its few values in registers.
//
//go:noinline
func pairUp(buf []uint64, o int, xs, ys []quarter) int {
	for _, x := range xs {
		for _, y := range ys {
			buf[o] = x.pat | y.pat
			o += int((x.d&y.d - 1) >> 63)
		}
	}
	return o
}

// halvesOn is [quarters.halves] from the plan's quarter table or, where
// it has none, from tables of the exact columns the halves take on each
// side (kept while the next call asks for the same columns).
func (w *worker) halvesOn(cols uint32, z uint64, bottom bool, out []uint64) []uint64 {
	pl := w.pl
	rc := &w.rc[0]
	if bottom {
		rc = &w.rc[1]
	}
	if pl.q != nil {
		return halvesOf(pl.q, pl.q, pl.n, cols, z, bottom, out, &w.pr, rc)
	}
	h := pl.h
	cl := cols & (1<<uint(h) - 1)
	cr := bits.Reverse32(cols>>uint(pl.n-h)) >> uint(32-h)
	i := 0
	if bottom {
		i = 2
	}
	ql, qr := w.exact(i, cl), w.exact(i+1, cr)
	return halvesOf(ql, qr, pl.n, cols, z, bottom, out, &w.pr, rc)
}

// exact returns the worker's table i of the exact columns cols, built
// unless it already holds them.
func (w *worker) exact(i int, cols uint32) *quarters {
	q := &w.ex[i]
	if !q.exact || q.cols != cols || q.h != w.pl.h {
		q.buildExact(w.pl.h, cols)
	}
	return q
}

// countQuarters is count on halves built from quarter boards, one
// column set at a time: for each column set of the top half in part p,
// its top halves and the bottom halves on the other columns are built and
// matched at once, so a worker holds the halves of one column set only
// and never sorts them. With the middle queen of an odd board in any
// inner column, the top halves of a column set are built once, and for
// each inner column left the middle queen may take, those clear of it
// meet the bottom halves on the columns left, built clear of it.
func (w *worker) countQuarters(p part, stop *atomic.Bool) count {
	pl := w.pl
	outer, mine, inner := pl.sides(p)
	other := outer &^ mine
	limit := pl.cap
	if limit <= 0 {
		limit = int(^uint(0) >> 1)
	}
	var (
		c   count
		sum uint64
		z   uint64 // the middle queen's diagonals, on a part that places it
	)
	if p.mid >= 0 {
		z = attacks(pl.n, p.mid)
	}
	// match adds the pairs of the top halves xs and the bottom halves on
	// the columns bot, clear of the diagonals zb, and reports whether
	// they fit the cap.
	match := func(xs []uint64, bot uint32, zb uint64) bool {
		w.ys = w.halvesOn(bot, zb, true, w.ys[:0])
		c.halves += uint64(len(w.ys))
		if len(xs)+len(w.ys) > limit {
			c.tooBig = true
			return false
		}
		s, pairs := w.m.disjoint(xs, w.ys)
		sum += s
		c.pairs += pairs
		return true
	}
	var pos [MaxN]uint32 // the inner columns, lowest first
	m := 0
	for a := inner; a != 0; a &= a - 1 {
		pos[m] = a & -a
		m++
	}
	need := pl.h - bits.OnesCount32(mine)
	if need < 0 || need > m {
		return c
	}
	// Every set of need of the m inner columns, as the bits of pick, the
	// rank-th (of units) in this order.
	first, end := 0, int(^uint(0)>>1)
	if w.units != nil {
		first, end = w.units[0], w.units[1]
	}
	for pick, rank := uint32(1)<<uint(need)-1, 0; pick < 1<<uint(m) && rank < end; rank++ {
		if rank < first {
			if pick == 0 {
				break
			}
			pick = nextSet(pick)
			continue
		}
		var key uint32
		for a := pick; a != 0; a &= a - 1 {
			key |= pos[bits.TrailingZeros32(a)]
		}
		w.xs = w.halvesOn(mine|key, z, false, w.xs[:0])
		c.halves += uint64(len(w.xs))
		switch {
		case len(w.xs) == 0:
		case p.mid != innerMids:
			if !match(w.xs, other|inner&^key, z) {
				return c
			}
		default:
			for free := inner &^ key; free != 0; free &= free - 1 {
				mid := bits.TrailingZeros32(free)
				zm := pl.geo.mid[mid]
				w.zs = clearOf(zm, w.xs, w.zs)
				if len(w.zs) > 0 && !match(w.zs, other|inner&^key&^(1<<uint(mid)), attacks(pl.n, mid)) {
					return c
				}
			}
		}
		if stop.Load() {
			return c
		}
		if pick == 0 {
			break
		}
		pick = nextSet(pick)
	}
	c.total = p.weight * sum
	return c
}

// nextSet returns the next larger number with as many bits set as pick
// (pick > 0).
func nextSet(pick uint32) uint32 {
	lowest := pick & -pick
	r := pick + lowest
	return (r^pick)>>2/lowest | r
}
