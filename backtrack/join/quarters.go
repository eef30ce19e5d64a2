package join

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

// quarterMaxN is the largest board whose halves are built from quarter
// boards ([quarters]): the tables take 92 MiB at n = 20 (11 million
// placements, built in about 0.7 s of CPU) and 147 MiB at 21 (1.2 s); at
// 22 they would take 774 MiB (6.5 s), most of the 1 GiB a shard of n = 22
// runs in, and past 22 the diagonals of a quarter no longer fit one word
// (bit 32+r-c+n-1).
const quarterMaxN = 21

// quarters holds the quarter boards that the halves of an n×n board
// (n <= quarterMaxN) are built from: the placements of queens on some of
// the top h rows and some of the columns of one side of the board (left:
// the m lowest columns, right: the others), a queen on each of those rows
// and columns, none attacking another nor on the anti-diagonal's squares
// (r, n-1-r), which no top half takes (see [Count]). A placement is its
// diagonals, one word: bit r+c for each queen on (r, c), and bit
// 32+r-c+n-1. A half on the columns S is a placement of the rows A on the
// left columns of S and one of the other rows on the right columns of S
// whose diagonals are disjoint: a table lookup and a test a candidate,
// about 2.5 candidates a half, where a search takes tens of steps, and the
// halves come out by column set, needing no sort.
type quarters struct {
	n, h, m int
	w       [2]uint // columns of the left and right side
	// The placements of the rows A on the columns C of side s (C
	// shifted to bit 0 of the side) are ds[s][at[s][C<<h|A]:at[s][C<<h|A+1]]:
	// those of one column set lie together.
	at    [2][]int32
	ds    [2][]uint64
	bytes int64 // what the tables take
}

// quarterCache holds the quarter tables of each n once built: they are
// read-only, shared by every worker and count of the process.
var quarterCache sync.Map // n → *quarterEntry

type quarterEntry struct {
	mu sync.Mutex // held while the tables are built
	q  *quarters
}

// quartersFor returns the quarter tables of an n×n board, n <=
// quarterMaxN, building them at the first call (once, however many
// goroutines ask at the same time), or nil if done is closed before
// they are built (a second or so at n = 20 and 21): the next call builds
// them again.
func quartersFor(n int, done <-chan struct{}) *quarters {
	v, _ := quarterCache.LoadOrStore(n, &quarterEntry{})
	e := v.(*quarterEntry)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.q == nil {
		e.q = newQuarters(n, done)
	}
	return e.q
}

// quarterBytes returns about what the quarter tables of an n×n board
// take (0 past quarterMaxN, where none are built): measured up to 21,
// and checked by the tests.
func quarterBytes(n int) int64 {
	if n < 1 || n > quarterMaxN {
		return 0
	}
	return quarterKiB[n] << 10
}

// quarterKiB[n] is the KiB the quarter tables of n take, rounded up
// (TestQuarters checks them).
var quarterKiB = [quarterMaxN + 1]int64{0, 1, 1, 1, 1, 1, 1, 2, 4, 5, 14, 20, 63, 95, 325, 492, 1888, 2906, 12554, 19668, 94206, 150652}

// newQuarters builds the quarter tables of an n×n board, or returns nil
// if done is closed first.
func newQuarters(n int, done <-chan struct{}) *quarters {
	h := n / 2
	q := &quarters{n: n, h: h, m: n / 2, w: [2]uint{uint(n / 2), uint(n - n/2)}}
	var (
		wg   sync.WaitGroup
		stop [2]bool
	)
	for s := range 2 {
		wg.Go(func() { stop[s] = !q.build(s, done) })
	}
	wg.Wait()
	if stop[0] || stop[1] {
		return nil
	}
	for s := range 2 {
		q.bytes += int64(len(q.at[s]))*4 + int64(len(q.ds[s]))*8
	}
	return q
}

// quarterSearch is the search that fills the tables of one side.
type quarterSearch struct {
	n, h  int
	first int    // the side's lowest column
	hmask uint32 // the rows of a half
	at    []int32
	ds    []uint64 // nil on the first pass, which counts
	// At column poll the search looks whether done is closed (a few
	// thousand times a pass), and if so gives up (stopped).
	poll    int
	done    <-chan struct{}
	stopped bool
}

// build fills the tables of side s: one search finds every placement,
// a first time to count them by rows and columns, a second time to put
// them in place. It places a queen or none in each column, the highest
// first, so that the placements come out by column set, the order of
// the tables, and each pass writes to a few kilobytes of them at a time
// rather than all over them. It reports false, the tables left unfilled,
// if done was closed first.
func (q *quarters) build(s int, done <-chan struct{}) bool {
	top := int(q.w[s]) - 1
	b := quarterSearch{n: q.n, h: q.h, hmask: 1<<uint(q.h) - 1, poll: max(0, top-3), done: done}
	if s == 1 {
		b.first = q.m
	}
	b.at = make([]int32, 1<<(uint(q.h)+q.w[s])+1)
	b.rec(top, 0, 0, 0)
	if b.stopped {
		return false
	}
	at := b.at
	for i := 1; i < len(at); i++ {
		at[i] += at[i-1]
	}
	b.ds = make([]uint64, at[len(at)-1])
	b.rec(top, 0, 0, 0) // at[k] moves from the start of k's placements to their end
	if b.stopped {
		return false
	}
	copy(at[1:], at[:len(at)-1])
	at[0] = 0
	q.at[s], q.ds[s] = at, b.ds
	return true
}

// rec places a queen or none in column c of the side and in each lower
// one, after the queens on rows and (above c) columns cols, whose
// diagonals are d, and adds each placement to the tables.
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
	n, col := b.n, b.first+c
	// The rows r whose square (r, col) is free: not on a queen's row,
	// diagonal (bit r+col of d) or anti-diagonal (bit 32+r-col+n-1),
	// nor on the board's anti-diagonal (r, n-1-r).
	free := b.hmask &^ rows &^ uint32(d>>uint(col)) &^ uint32(d>>uint(32-col+n-1))
	if r := n - 1 - col; r < 32 {
		free &^= 1 << uint(r)
	}
	if c > 0 {
		b.rec(c-1, rows, cols, d)
		for f := free; f != 0; f &= f - 1 {
			r := bits.TrailingZeros32(f)
			bit := uint64(1)<<uint(r+col) | uint64(1)<<uint(32+r-col+n-1)
			b.rec(c-1, rows|1<<uint(r), cols|1<<uint(c), d|bit)
		}
		return
	}
	// Column 0: the placement without a queen there, then with one.
	k := cols<<uint(b.h) | rows
	kc := k | 1<<uint(b.h) // column 0 taken
	at := b.at
	if b.ds == nil {
		at[k+1]++
		for f := free; f != 0; f &= f - 1 {
			at[(kc|f&-f)+1]++
		}
		return
	}
	ds := b.ds
	ds[at[k]] = d
	at[k]++
	for f := free; f != 0; f &= f - 1 {
		r := bits.TrailingZeros32(f)
		j := kc | 1<<uint(r)
		ds[at[j]] = d | uint64(1)<<uint(r+col) | uint64(1)<<uint(32+r-col+n-1)
		at[j]++
	}
}

// attacks returns the diagonals of the middle queen of an odd board in
// column c, as a placement's word: a half that has one of them attacks
// it.
func (q *quarters) attacks(c int) uint64 {
	return uint64(1)<<uint(q.h+c) | uint64(1)<<uint(32+q.h-c+q.n-1)
}

// halves appends to out the patterns (see [geometry]) of the top halves
// on exactly the columns cols (h of them), clear of the diagonals z, and
// returns it: as top patterns, or with bottom as the bottom patterns of
// the same placements mirrored top to bottom ([quarters.quarters]); pr
// is a buffer for the quarters.
func (q *quarters) halves(cols uint32, z uint64, bottom bool, out []uint64, pr *[]quarter) []uint64 {
	h := q.h
	wl, wr := q.w[0], q.w[1]
	cl, cr := cols&(1<<wl-1), cols>>wl
	a := bits.OnesCount32(cl)
	if h-a > int(wr) {
		return out
	}
	full := uint32(1)<<uint(h) - 1
	atL, atR, dL, dR := q.at[0], q.at[1], q.ds[0], q.ds[1]
	for rows := uint32(1)<<uint(a) - 1; rows <= full; {
		kl := cl<<uint(h) | rows
		kr := cr<<uint(h) | full ^ rows
		if i, j, u, v := atL[kl], atL[kl+1], atR[kr], atR[kr+1]; i < j && u < v {
			left, right := dL[i:j], dR[u:v]
			if need := len(left) + len(right); cap(*pr) < need {
				*pr = make([]quarter, need+need/2)
			}
			xs := q.quarters((*pr)[:0], left, z, bottom)
			ys := q.quarters(xs[len(xs):], right, 0, bottom)
			o := len(out)
			if size := len(xs) * len(ys); cap(out)-o < size {
				out = append(out[:cap(out)], make([]uint64, size+cap(out))...)
			}
			buf := out[:cap(out)]
			out = buf[:pairUp(buf, o, xs, ys)]
		}
		if rows == 0 {
			break
		}
		// The next set of a rows (Gosper's hack).
		c := rows & -rows
		r := rows + c
		rows = (r^rows)>>2/c | r
	}
	return out
}

// A quarter is a placement of a quarter board as halves are built from
// it: its diagonals (with those of a middle queen it must miss) and its
// pattern.
type quarter struct{ d, pat uint64 }

// quarters appends to dst the placements ds clear of the diagonals z,
// each with z's diagonals added and its top pattern, or with bottom its
// bottom pattern: that of the placement mirrored top to bottom (row r to
// n-1-r), whose anti-diagonals become the diagonals and the other way
// round, each in reverse order, which reverses the whole 2(2h-1) bits. A
// half's pattern is the OR of its quarters'.
func (q *quarters) quarters(dst []quarter, ds []uint64, z uint64, bottom bool) []quarter {
	lo := uint(q.n-q.h) & 31
	span := uint(2*q.h-1) & 31
	mask := uint64(1)<<span - 1
	s := uint(64-2*(2*q.h-1)) & 63
	for _, d := range ds {
		if d&z != 0 {
			continue
		}
		p := d>>lo&mask | d>>(32+lo)&mask<<span
		if bottom {
			p = bits.Reverse64(p) >> s
		}
		dst = append(dst, quarter{d | z, p})
	}
	return dst
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

// countQuarters is count on halves built from quarter boards, one
// column set at a time: for each column set of the top half in part p,
// its top halves and the bottom halves on the other columns are built and
// matched at once, so a worker holds the halves of one column set only
// and never sorts them. With the middle queen of an odd board in any
// inner column, the top halves of a column set are built once, and for
// each inner column left the middle queen may take, those clear of it
// meet the bottom halves on the columns left, built clear of it.
func (w *worker) countQuarters(p part, stop *atomic.Bool) count {
	pl, q := w.pl, w.pl.q
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
		z = q.attacks(p.mid)
	}
	// match adds the pairs of the top halves xs and the bottom halves on
	// the columns bot, clear of the diagonals zb, and reports whether
	// they fit the cap.
	match := func(xs []uint64, bot uint32, zb uint64) bool {
		w.ys = q.halves(bot, zb, true, w.ys[:0], &w.pr)
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
	// Every set of need of the m inner columns, as the bits of pick.
	for pick := uint32(1)<<uint(need) - 1; pick < 1<<uint(m); {
		var key uint32
		for a := pick; a != 0; a &= a - 1 {
			key |= pos[bits.TrailingZeros32(a)]
		}
		w.xs = q.halves(mine|key, z, false, w.xs[:0], &w.pr)
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
				if len(w.zs) > 0 && !match(w.zs, other|inner&^key&^(1<<uint(mid)), q.attacks(mid)) {
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
		lowest := pick & -pick
		r := pick + lowest
		pick = (r^pick)>>2/lowest | r
	}
	c.total = p.weight * sum
	return c
}
