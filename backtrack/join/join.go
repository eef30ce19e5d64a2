// Package join counts the solutions of the n-queens puzzle by joining
// half boards (meet in the middle), an algorithm independent of the
// constellation counter of package backtrack.
//
// The rows are split into a top and a bottom half of h = n/2 rows each
// (on an odd board the middle row between them holds one queen, tried in
// each column). A placement of h queens on a half is described by its
// columns and by the diagonals it occupies that the other half can reach
// (2(2h-1) of them). A top and a bottom half make a solution exactly when
// their columns are complementary and their diagonals disjoint, so the
// count is a sum, over the column sets of the top half, of the number of
// disjoint pairs of diagonal patterns: see [Count].
package join

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/workers"
)

// MaxN is the largest board [Count] and [Pieces] accept. Its patterns
// are 64-bit words of 2(n-1) bits and its counts 64-bit: n = 27 has
// 2.3·10^17 solutions and n = 28 about 2.6·10^18 (an estimate: 24 times
// it passes 2^64, so [Piece] tallies, a share of it each, are summed in
// 128 bits by package shard). Past n ≈ 21 a whole count takes days: shard
// it ([Pieces]).
const MaxN = 28

// Options configures [Count].
type Options struct {
	Threads int  // worker goroutines; <= 0 means runtime.GOMAXPROCS(0)
	Unique  bool // also count the solutions distinct up to symmetry
	// Memory bounds the bytes the halves of the parts being counted take
	// at once (0: [DefaultMemory]; at least [MinMemory]). A part too
	// large for it is counted in more, smaller parts.
	Memory int64

	// Progress, if not nil, is called with the number of parts finished
	// and in all, about ten times a second while Count runs and once when
	// it returns. It is called from the goroutine that called Count, never
	// concurrently, and should return quickly.
	Progress func(done, parts int)
}

// Result is what [Count] found.
type Result struct {
	Total uint64 // solutions
	// Unique and Rotations (only with Options.Unique) are the classes of
	// solutions under all 8 symmetries and under the 4 rotations.
	Unique, Rotations uint64
	Halves            uint64 // half-board placements enumerated
	Pairs             uint64 // pairs of halves tested (most of the work; those of buckets the keys skip are not)
	Elapsed           time.Duration
	Done, Parts       int    // parts finished / in all (for "how far it got" on cancel)
	SIMD              string // the matcher's path: "avx512", "avx2" or "go" (see [SIMD])
}

// part is one piece of a count: the boards with the middle queen (odd
// n) in column mid and whose top half takes, of the outer columns (the
// k lowest and k highest of the columns the halves share), those of the
// pattern outer: bit i < k for the i-th lowest, bit k+i for the i-th of
// the k highest.
type part struct {
	mid    int // column of the middle-row queen; -1 on an even board, -2 for the symmetric piece, innerMids (below)
	outer  uint32
	weight uint64 // the parts it stands for: its images under the mirrors
}

// innerMids is the mid of the parts of an odd board that take the middle
// queen in every inner column (not among the k lowest or highest): their
// halves are enumerated once for all those columns.
const innerMids = -3

// plan is what every part of an n×n count shares.
type plan struct {
	n, h int
	k    int // outer columns on each side that name a part
	cap  int // the most halves a worker may hold (0: no limit)
	geo  *geometry
	simd simd      // the matchers' path
	q    *quarters // the quarter boards the halves are built from, if any
	// exact, without q, builds them from tables of the exact columns of
	// each column set ([quarters.buildExact]); with neither, the halves
	// are searched.
	exact bool
}

// Count returns the number of solutions of the n-queens puzzle on an n×n
// board, 1 <= n <= [MaxN], and with opt.Unique the number of classes of
// them under the symmetries of the board.
//
// The count is split into parts by the outer columns the top half takes
// (one part of each pair that the top-bottom mirror swaps, weighted 2).
// The left-right mirror is replaced by the long diagonals: turning the
// board over along one long diagonal keeps its queen in its half (top or
// bottom rows) and moves the other long diagonal's queen to the other
// half, so only the solutions whose anti-diagonal queen is not in the top
// half and whose diagonal queen is not in the bottom half are counted,
// each 2 times for each of those two queens it has (see [worker.count]).
// A part enumerates its top halves and its bottom halves once, sorts
// them by column set (up to n = 21, where the tables fit the memory, it
// builds them from quarter boards one column set at a time instead: see
// [quarters]), and for each column set counts the weighted pairs
// whose diagonals are disjoint, 512 at a time with AVX-512 or AVX2 where
// the CPU has it (64 at a time in pure Go elsewhere; see [SIMD]), with
// table lookups and population counts, after sorting both sides by a few
// diagonals that most halves occupy so that most pairs that clash there
// are never tested ([matcher.disjoint]). On an odd board the middle queen in any
// inner column shares one enumeration; in each of the outer columns it
// is a part of its own. Unique counts follow by Burnside's lemma from the
// total and the solutions a half or quarter turn fixes (counted by
// package backtrack's symmetric piece, a few milliseconds).
//
// The parts are shared among opt.Threads goroutines, the largest first;
// each holds the halves of one part at a time, within opt.Memory over
// all. A part that would take more is counted in smaller parts, with more
// outer columns (its sub-parts, as many as it takes), and past the last
// outer columns by the columns of its halves' outer one or two rows. When
// ctx is cancelled Count stops within about a tenth of a second and returns
// ctx.Err() along with the sums over the parts it finished (Done of
// Parts).
//
// Errors wrap [board.ErrSize] for n out of range, [ErrSIMD] for a
// [SIMDEnv] this CPU cannot honour and [ErrMemory] for opt.Memory below
// [MinMemory] (or a board that does not fit even in its smallest pieces).
func Count(ctx context.Context, n int, opt Options) (Result, error) {
	start := time.Now()
	if err := board.CheckSize(n, MaxN); err != nil {
		return Result{}, fmt.Errorf("join count: %w", err)
	}
	if _, err := envSIMD(); err != nil {
		return Result{}, fmt.Errorf("join count: %w", err)
	}
	threads := workers.Threads(opt.Threads, math.MaxInt)
	opt.Threads = threads
	mem := opt.Memory
	if mem == 0 {
		mem = DefaultMemory(n, threads)
	}
	if mem < MinMemory {
		return Result{}, fmt.Errorf("join count: %w: %d bytes, at least %d", ErrMemory, mem, MinMemory)
	}
	// Each worker holds the halves of one part, and counts a part too
	// large for that in smaller ones (worker.countWithin).
	pl := newPlan(n, outerColumns(n))
	pl.cap = halvesCap(pl.useQuarters(ctx.Done(), mem, threads), threads)
	res, err := pl.count(ctx, opt, start)
	if errors.Is(err, errTooBig) {
		return Result{}, fmt.Errorf("join count: %w: -n %d needs more than %d bytes on %d threads", ErrMemory, n, mem, threads)
	}
	return res, err
}

// errTooBig stops a count whose part took more halves than its cap.
var errTooBig = errors.New("part too large")

// outerColumns returns the outer columns a side that name the parts of
// an n×n count: more make more, smaller parts, whose searches waste more
// (4 measured slower than 3 at n = 16 to 18, and 2 at n = 18).
func outerColumns(n int) int { return min(3, n/4) }

// newPlan returns the plan of an n×n count whose parts are named by k
// outer columns on each side (2k <= the columns the halves share).
func newPlan(n, k int) *plan {
	if n%2 == 1 && n > 1 {
		// The middle queen's diagonals are in the halves' patterns but
		// for columns 0 and n-1: those must be outer columns.
		k = max(k, 1)
	}
	s, _ := envSIMD() // the best path where QUEENS_SIMD is bad: Count refuses it first
	return &plan{n: n, h: n / 2, k: k, geo: newGeometry(n), simd: s}
}

// count runs the count of Count, which started at start.
func (pl *plan) count(ctx context.Context, opt Options, start time.Time) (Result, error) {
	n := pl.n
	parts := pl.parts()
	if opt.Unique {
		parts = append(parts, part{mid: -2})
	}
	var (
		tooBig   atomic.Bool
		res      = Result{Parts: len(parts), SIMD: pl.simd.String()}
		unique24 uint64
	)
	// A worker and its sums.
	type sums struct {
		w                       *worker
		sum, u24, halves, pairs uint64
	}
	var err error
	res.Done, err = workers.Run(ctx, len(parts), opt.Threads, opt.Progress, func() *sums { return &sums{w: pl.newWorker()} },
		func(w *sums, i int, stop *atomic.Bool) bool {
			p := parts[i]
			var c count
			if p.mid == -2 {
				c = symmetricPiece(n, stop)
			} else {
				c = w.w.countWithin(p, stop)
			}
			if c.tooBig {
				tooBig.Store(true)
				stop.Store(true)
			}
			if stop.Load() {
				return false // a stopped part is incomplete: leave it out
			}
			w.sum += c.total
			w.u24 += c.unique24
			w.halves += c.halves
			w.pairs += c.pairs
			return true
		},
		func(w *sums) {
			res.Total += w.sum
			unique24 += w.u24
			res.Halves += w.halves
			res.Pairs += w.pairs
		})
	if tooBig.Load() {
		return res, errTooBig
	}
	if err == nil && res.Done < len(parts) {
		err = ctx.Err()
	}
	if opt.Progress != nil {
		opt.Progress(res.Done, len(parts))
	}
	if opt.Unique && err == nil {
		// 3 × the total passes 2^64 from about 6·10^18 solutions.
		hi, lo := bits.Mul64(3, res.Total)
		lo, carry := bits.Add64(lo, unique24, 0)
		res.Unique, _ = bits.Div64(hi+carry, lo, 24)
		res.Rotations = backtrack.RotationClasses(n, res.Unique)
	}
	res.Elapsed = time.Since(start)
	return res, err
}

// count is what one part found.
type count struct {
	total, unique24, halves, pairs uint64
	tooBig                         bool // the part has more halves than the plan's cap
}

// add adds the total, halves and pairs of d, a piece of the same part,
// to c.
func (c *count) add(d count) {
	c.total += d.total
	c.halves += d.halves
	c.pairs += d.pairs
}

// symmetricPiece counts the solutions a half or quarter turn maps to
// themselves, with the constellation counter's piece for them, as 24ths
// of classes (Burnside's lemma: classes = (total + fixed) / 8).
func symmetricPiece(n int, stop *atomic.Bool) count {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if stop.Load() {
					cancel()
					return
				}
			}
		}
	}()
	sym := backtrack.Subproblem{Top: -1, Bottom: -1, Left: -1, Right: -1}
	t, err := sym.Count(ctx, n)
	if err != nil {
		return count{}
	}
	return count{unique24: t.Unique24}
}

// shared returns the columns the two halves share on an n×n board with
// the middle queen in column mid (-1: none).
func (pl *plan) shared(mid int) uint32 {
	u := uint32(1)<<uint(pl.n) - 1
	if mid >= 0 { // innerMids share every column: the inner one the middle queen takes is found in the join
		u &^= 1 << uint(mid)
	}
	return u
}

// parts lists the parts of the count, one for each pair of outer
// patterns that the top-bottom mirror swaps (the top half of one is the
// bottom half of the other, mirrored), the largest first. The left-right
// mirror is not used: the long diagonals stand in for it (see
// [worker.count]).
func (pl *plan) parts() []part {
	mids := []int{-1}
	if pl.n%2 == 1 {
		// The middle queen in an inner column, or in one of the k lowest
		// or the k highest.
		mids[0] = innerMids
		for m := range pl.k {
			mids = append(mids, m, pl.n-1-m)
		}
	}
	type sized struct {
		p    part
		size uint64
	}
	k := pl.k
	all := uint32(1)<<uint(2*k) - 1
	var ps []sized
	for _, mid := range mids {
		for outer := uint32(0); outer <= all; outer++ {
			if w, size := pl.weight(mid, outer); w > 0 {
				ps = append(ps, sized{part{mid, outer, w}, size})
			}
		}
	}
	slices.SortStableFunc(ps, func(a, b sized) int {
		switch {
		case a.size > b.size:
			return -1
		case a.size < b.size:
			return 1
		}
		return 0
	})
	out := make([]part, len(ps))
	for i, p := range ps {
		out[i] = p.p
	}
	return out
}

func binomial(m, k int) uint64 {
	r := uint64(1)
	for i := range k {
		r = r * uint64(m-i) / uint64(i+1)
	}
	return r
}

// worker holds one goroutine's buffers.
type worker struct {
	pl     *plan
	m      *matcher
	halves store
	top    halfSet
	bot    halfSet
	// The halves of joinInner clear of the middle queen.
	xs, ys []uint64
	// countQuarters' buffers: the top halves clear of a middle queen,
	// the patterns of quarters.
	zs []uint64
	pr []quarter
	ex [4]quarters   // tables of exact columns: top left and right, bottom left and right
	rc [2]rightCache // the right quarters decoded, of the top halves and of the bottom ones
	// units, when set, limits countQuarters to the column sets of ranks
	// units[0] to units[1]-1 of a part (see [Piece.CountUnits]).
	units *[2]int
}

// halfSet is the halves of one side of a part, sorted by their inner
// columns (shifted to bit 0): those with the inner columns s are the
// list get(s).
type halfSet struct {
	start []int32
	pats  []uint64
}

func (pl *plan) newWorker() *worker {
	return &worker{pl: pl, m: newMatcher(2*(2*pl.h-1), pl.simd)}
}

// fill sorts the halves of s, whose keys are below 1<<width, into hs
// (the keys of s are left as they are).
func (hs *halfSet) fill(width int, s *store) {
	size := 1<<uint(width) + 1
	if cap(hs.start) < size {
		hs.start = make([]int32, size)
	}
	hs.start = hs.start[:size]
	clear(hs.start)
	start := hs.start
	for b := range s.used {
		for _, k := range s.keys[b] {
			start[k+1]++
		}
	}
	for i := 1; i < size; i++ {
		start[i] += start[i-1]
	}
	total := s.len()
	if cap(hs.pats) < total {
		hs.pats = make([]uint64, total)
	}
	hs.pats = hs.pats[:total]
	next, out := start[:size-1], hs.pats
	for b := range s.used {
		keys, pats := s.keys[b], s.pats[b]
		keys = keys[:len(pats)]
		for i, p := range pats {
			k := keys[i]
			out[next[k]] = p
			next[k]++
		}
	}
	// next overwrote start[0:size-1] with the ends; shift back.
	copy(start[1:], start[:size-1])
	start[0] = 0
}

// get returns the halves whose inner columns are key.
func (hs *halfSet) get(key uint32) []uint64 {
	return hs.pats[hs.start[key]:hs.start[key+1]]
}

// count counts the solutions of part p, giving up early once stop is set.
func (w *worker) count(p part, stop *atomic.Bool) count {
	w.m.stop = stop
	if w.pl.q != nil || w.pl.exact {
		return w.countQuarters(p, stop)
	}
	return w.countRows(p, &anyRows, &anyRows, stop)
}

// rows names, for each row of a half from its outer row (the board's
// first for the top half, its last for the bottom), the columns its queen
// may take.
type rows [maxH]uint32

// anyRows lets every row's queen take any column.
var anyRows = func() (r rows) {
	for i := range r {
		r[i] = ^uint32(0)
	}
	return r
}()

// countRows counts the solutions of part p whose top half's rows take
// columns of top and bottom half's rows columns of bottom.
func (w *worker) countRows(p part, top, bottom *rows, stop *atomic.Bool) count {
	pl, h := w.pl, w.pl.h
	outer, mine, inner := pl.sides(p)
	shift, width := 0, 0
	if inner != 0 {
		shift = bits.TrailingZeros32(inner)
		width = 32 - bits.LeadingZeros32(inner) - shift
	}
	// The long diagonals (see Count): the top half takes no square of
	// the anti-diagonal, (r, n-1-r), and the bottom half none of the
	// diagonal, (n-1-r, n-1-r), which is (r, n-1-r) again in the bottom
	// half's rows mirrored into the top's. A queen on the other two halves
	// of the long diagonals (the top half's diagonal, the bottom half's
	// anti-diagonal) doubles a solution's weight, which the matcher reads
	// from the patterns (matcher.wbits).
	var ban [maxH]uint32
	for r := range h {
		ban[r] = 1 << uint(pl.n-1-r)
		if p.mid >= 0 {
			d := h - r
			ban[r] |= 1<<uint(p.mid) | 1<<uint(p.mid+d) | bitAt(p.mid-d)
		}
	}
	var c count
	var ok bool
	limit := pl.cap
	if limit <= 0 {
		limit = math.MaxInt
	}
	banTop, banBottom := ban, ban
	for r := range h {
		banTop[r] |= ^top[r]
		banBottom[r] |= ^bottom[r]
	}
	ok = pl.geo.halves(inner|mine, mine, shift, &banTop, false, limit, stop, &w.halves)
	if !ok {
		c.tooBig = true
		return c
	}
	tops := w.halves.len()
	c.halves += uint64(tops)
	w.top.fill(width, &w.halves)
	ok = pl.geo.halves(inner|outer&^mine, outer&^mine, shift, &banBottom, true, limit-tops, stop, &w.halves)
	if !ok {
		c.tooBig = true
		return c
	}
	c.halves += uint64(w.halves.len())
	w.bot.fill(width, &w.halves)
	all := inner >> uint(shift)
	var sum uint64
	if p.mid == innerMids {
		sum = w.joinInner(all, shift, &c, stop)
		c.total = p.weight * sum
		return c
	}
	for key := uint32(0); key < 1<<uint(width); key++ {
		if key&^all != 0 {
			continue
		}
		tops := w.top.get(key)
		if len(tops) == 0 {
			continue
		}
		s, pairs := w.m.disjoint(tops, w.bot.get(all&^key))
		sum += s
		c.pairs += pairs
		if stop.Load() {
			return c
		}
	}
	c.total = p.weight * sum
	return c
}

// joinInner joins the halves of a part of an odd board with the middle
// queen in any inner column (all: the inner columns, shifted right by
// shift): the top halves on the inner columns key, with the middle
// queen's diagonals added and those that attack it left out, against the
// bottom halves on the inner columns but key and the middle queen's.
func (w *worker) joinInner(all uint32, shift int, c *count, stop *atomic.Bool) uint64 {
	var sum uint64
	for key := uint32(0); key <= all; key++ {
		if key&^all != 0 {
			continue
		}
		tops := w.top.get(key)
		if len(tops) == 0 {
			continue
		}
		for free := all &^ key; free != 0; free &= free - 1 {
			mb := free & -free
			bots := w.bot.get(all &^ key &^ mb)
			if len(bots) == 0 {
				continue
			}
			// Both clear of the middle queen, which then stands
			// between them: no pattern needs its diagonals.
			z := w.pl.geo.mid[bits.TrailingZeros32(mb)+shift]
			w.xs = clearOf(z, tops, w.xs)
			w.ys = clearOf(z, bots, w.ys)
			s, pairs := w.m.disjoint(w.xs, w.ys)
			sum += s
			c.pairs += pairs
		}
		if stop.Load() {
			return sum
		}
	}
	return sum
}

// clearOf returns in out (emptied first) the patterns of ps that share
// no bit with z.
func clearOf(z uint64, ps, out []uint64) []uint64 {
	out = out[:0]
	for _, p := range ps {
		if p&z == 0 {
			out = append(out, p)
		}
	}
	return out
}

// bitAt returns 1<<c, or 0 when c is negative.
func bitAt(c int) uint32 {
	if c < 0 {
		return 0
	}
	return 1 << uint(c)
}
