package join

import (
	"errors"
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/queens-dev/queens/internal/memlimit"
)

// ErrMemory is returned (wrapped) by [Count] and [Piece.CountWith] when
// even the smallest pieces of a board (its parts split by columns, then
// rows) need more memory than Options.Memory allows.
var ErrMemory = errors.New("memory limit too small for the half-board join")

// halfBytes is the memory one half takes while its part is counted: its
// key and pattern as enumerated, and the pattern again sorted by key.
const halfBytes = 4 + 8 + 8

// reserve returns the part of a memory limit of mem bytes kept for what
// is not halves (the program itself, tables, buffers, the Go runtime,
// garbage not yet collected): a quarter of it, at most 64 MiB.
func reserve(mem int64) int64 { return min(mem/4, 64<<20) }

// maxHalves bounds the halves of a part: its sorted halves are indexed
// by int32.
const maxHalves = 1 << 30

// halvesCap returns the most halves each of threads workers may hold
// within a memory limit of mem bytes, its reserve left out, at most
// maxHalves.
func halvesCap(mem int64, threads int) int {
	return int(max(1, min((mem-reserve(mem))/int64(max(1, threads))/halfBytes, maxHalves)))
}

// HeapLimit returns the soft memory limit of the Go runtime
// (debug.SetMemoryLimit) under which a process that counts with
// Options.Memory mem (resolved: see [DefaultMemory]) stays within mem
// bytes: half of the reserve below mem is left for the program's own code
// and data and for the collector's overshoot. Without a soft limit the
// collector lets the heap grow to twice what is live before it reclaims
// the buffers a part outgrew.
func HeapLimit(mem int64) int64 {
	return mem - reserve(mem)/2
}

// MinMemory is the smallest Options.Memory [Count] accepts: the fixed
// buffers of a worker and room for a few halves.
const MinMemory = 1 << 20

// threadMemory is the memory each of a count's threads may hold by
// default on boards up to n = 19 (see [DefaultMemory]).
const threadMemory = 20 << 20

// DefaultMemory returns the memory [Count] uses on an n×n board when
// Options.Memory is 0, for threads workers (<= 0: runtime.GOMAXPROCS(0)):
// 20 MiB a thread up to n = 19, 4 times more a thread for each size to
// n = 21 (80 MiB a thread at n = 20, 320 MiB at 21), 512 MiB a thread
// at n = 22 and 23, 1 GiB at 24 and 25, 4 GiB at 26 and 27 and 8 GiB at
// 28 (a column set of n = 28 holds tens of millions of halves: one unit
// peaked at 4.6 GB, another at 7.3), and the table of quarter boards that the halves are
// built from up to n = 21 (12 MiB at n = 18, 19 MiB at 19, 47 MiB at 20
// and 21), but never more than half of the memory the process may use
// ([memlimit.Usable]: the machine's memory, the control group's limit, the
// address space ulimit -v leaves) nor less than [MinMemory]. With the
// quarter table, or from n = 22 the tables of exact columns, a worker
// holds the halves of one column set at a time, far less than its share
// (a peak of 46 MiB a thread at n = 22, 80 MiB at 23, 155 MiB at 24), so
// nothing splits.
func DefaultMemory(n, threads int) int64 {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	per := int64(512 << 20)
	switch {
	case n <= quarterMaxN:
		per = int64(threadMemory) << (2 * min(max(0, n-19), 2))
	case n >= 28:
		per = 8 << 30
	case n >= 26:
		per = 4 << 30
	case n >= 24:
		per = 1 << 30
	}
	want := int64(1) << 50
	if int64(threads) < want/per {
		want = int64(threads)*per + quarterBytes(n)
	}
	return max(MinMemory, min(want, memlimit.Usable()/2))
}

// SensibleMemory returns the smallest Options.Memory worth giving a count
// of an n×n board on threads workers (<= 0: runtime.GOMAXPROCS(0)): below
// it the halves are built and matched in so many small parts, under so
// tight a heap, that the count costs more than 3 times its CPU (n = 20,
// one thread: 4.3 times at 16 MiB, 39 times at 1 MiB, 0.9 at 256 MiB). It
// is the quarter table and 1 MiB a worker beside the reserve up to n =
// 21 (64 MiB at n = 20 on one thread), from n = 22, where each worker
// builds tables of exact columns, 32 MiB a thread (n = 22, one thread:
// 1.1 times the CPU at 24 MiB), twice that every two sizes. Below n = 20
// a count takes seconds whatever the limit: [MinMemory].
func SensibleMemory(n, threads int) int64 {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	if n < 20 {
		return MinMemory
	}
	var need int64
	if qb := quarterBytes(n); qb > 0 {
		need = qb + int64(threads)<<20
	} else {
		need = int64(threads) * (32 << 20) << min(uint(n-22)/2, 20)
	}
	// mem - reserve(mem) >= need: the reserve is a quarter of mem, at most
	// 64 MiB (past mem = 256 MiB).
	mem := need * 4 / 3
	if mem > 256<<20 {
		mem = need + 64<<20
	}
	return (mem + 1<<20 - 1) &^ (1<<20 - 1)
}

// useQuarters makes pl build its halves from quarter boards where the
// board is small enough and their tables fit in what a memory limit of
// mem bytes leaves beside its reserve and 1 MiB for each of threads
// workers (which then hold the halves of one column set at a time), and
// returns the memory left for the halves. When done is closed before the
// tables are built, pl searches its halves (the count is being stopped).
func (pl *plan) useQuarters(done <-chan struct{}, mem int64, threads int) int64 {
	pl.q, pl.exact = nil, true
	if qb := quarterBytes(pl.n); qb > 0 && qb <= mem-reserve(mem)-int64(threads)<<20 {
		if pl.q = quartersFor(pl.n, done); pl.q != nil {
			return mem - qb
		}
	}
	return mem
}

// countWithin counts part p of w's plan holding at most the plan's cap of
// halves at once: a part that holds more is counted as its sub-parts
// ([plan.subparts]), with one more outer column a side, and so on while
// columns are left; past them, by the columns its halves' outer rows
// take ([worker.countByRows]; c.tooBig if even that is too much). The
// sub-parts of a part split its boards, so their sum is its count
// whatever the memory.
func (w *worker) countWithin(p part, stop *atomic.Bool) count {
	c := w.count(p, stop)
	pl := w.pl
	if !c.tooBig {
		return c
	}
	if pl.q != nil || pl.exact {
		// A column set too big for the cap: more outer columns cannot
		// shrink it, rows can, on searched halves.
		searched := *pl
		searched.q, searched.exact = nil, false
		w.pl = &searched
		defer func() { w.pl = pl }()
		return w.countWithin(p, stop)
	}
	if 2*(pl.k+1) > pl.n-1 {
		return w.countByRows(p, anyRows, anyRows, 0, stop)
	}
	sub := &plan{n: pl.n, h: pl.h, k: pl.k + 1, cap: pl.cap, geo: pl.geo, simd: pl.simd}
	w.pl = sub
	defer func() { w.pl = pl }()
	var sum count
	for _, q := range pl.subparts(p, sub) {
		d := w.countWithin(q, stop)
		if d.tooBig || stop.Load() {
			return d
		}
		sum.add(d)
	}
	return sum
}

// rowSplits is the most rows of a half that [worker.countByRows] splits
// a part by: each divides its halves by about h, and multiplies the
// pieces by h^2.
const rowSplits = 2

// countByRows counts the boards of part p whose halves' rows take the
// columns of top and bottom, too many halves to hold at once, as the
// pieces of them with the queen of row r of each half in each column it
// may take: about 1/h of each side's halves at a time, and where a piece
// is still too big, split again by row r+1, up to rowSplits rows. Each
// side is enumerated once for each piece of the other (h times a row),
// which costs little beside matching them.
func (w *worker) countByRows(p part, top, bottom rows, r int, stop *atomic.Bool) count {
	pl := w.pl
	if r >= min(rowSplits, pl.h) {
		return count{tooBig: true}
	}
	outer, mine, inner := pl.sides(p)
	var used [2]uint32 // the columns of the rows above r, one each
	for i := range r {
		used[0] |= top[i]
		used[1] |= bottom[i]
	}
	var sum count
	for a := (inner | mine) & top[r] &^ used[0]; a != 0; a &= a - 1 {
		for b := (inner | outer&^mine) & bottom[r] &^ used[1]; b != 0; b &= b - 1 {
			t, u := top, bottom
			t[r], u[r] = a&-a, b&-b
			d := w.countRows(p, &t, &u, stop)
			if d.tooBig {
				d = w.countByRows(p, t, u, r+1, stop)
			}
			if d.tooBig || stop.Load() {
				return d
			}
			sum.add(d)
		}
	}
	return sum
}

// sides returns the outer columns of part p, those of them its top half
// takes, and its inner columns (shared, not outer), which either half may
// take.
func (pl *plan) sides(p part) (outer, mine, inner uint32) {
	outer, mine = pl.columns(p.mid, p.outer)
	return outer, mine, pl.shared(p.mid) &^ outer
}

// columns returns the outer columns of pl's parts with the middle queen
// in column mid, and of them those that the pattern outer gives the top
// half (see [part]).
func (pl *plan) columns(mid int, outer uint32) (all, top uint32) {
	var pos [MaxN]int // the shared columns, lowest first
	m := 0
	for a := pl.shared(mid); a != 0; a &= a - 1 {
		pos[m] = bits.TrailingZeros32(a)
		m++
	}
	for i := range pl.k {
		lo, hi := uint32(1)<<uint(pos[i]), uint32(1)<<uint(pos[m-pl.k+i])
		all |= lo | hi
		if outer>>uint(i)&1 != 0 {
			top |= lo
		}
		if outer>>uint(pl.k+i)&1 != 0 {
			top |= hi
		}
	}
	return all, top
}

// pattern returns the pattern of pl's parts with the middle queen in
// column mid whose top half takes the outer columns top: the inverse of
// columns.
func (pl *plan) pattern(mid int, top uint32) uint32 {
	var p uint32
	for i := range 2 * pl.k {
		if _, t := pl.columns(mid, 1<<uint(i)); top&t != 0 {
			p |= 1 << uint(i)
		}
	}
	return p
}

// subparts returns the parts of plan sub (pl with one more outer column
// a side) that split part p of pl, each with p's weight: the top half
// takes p's outer columns and any of the two that sub adds; and where p
// has the middle queen in any inner column of pl, it is in an inner
// column of sub or in either of those two.
func (pl *plan) subparts(p part, sub *plan) []part {
	mids := []int{p.mid}
	if p.mid == innerMids {
		mids = append(mids, pl.k, pl.n-1-pl.k)
	}
	had, top := pl.columns(p.mid, p.outer)
	var out []part
	for _, mid := range mids {
		all, _ := sub.columns(mid, 0)
		added := all &^ had
		for ext := added; ; ext = (ext - 1) & added {
			out = append(out, part{mid: mid, outer: sub.pattern(mid, top|ext), weight: p.weight})
			if ext == 0 {
				break
			}
		}
	}
	return out
}
