package join

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/workers"
)

// The values of Piece.Middle that are not a column.
const (
	NoMiddle    = -1        // an even board: no middle row
	Symmetric   = -2        // the symmetric piece, for the unique count
	InnerMiddle = innerMids // an odd board, the middle queen in any inner column
)

// A Piece is one part of the count of an n×n board as [Pieces] splits it,
// so that the parts can be counted apart (by the shards of package shard)
// and their tallies added up: the boards whose middle-row queen (odd n) is
// in column Middle and whose top half takes, of the outer columns, those
// of the pattern Outer, standing for Weight parts (itself and its image
// under the top-bottom mirror). One more piece, Symmetric, finds the
// solutions that a half or quarter turn maps to themselves, which the
// unique count needs.
//
// Its text form (String) is "MIDDLE:OUTER:WEIGHT", MIDDLE a column, "-"
// for no middle row or "*" for any inner column, or "sym" for the
// symmetric piece; its JSON form is the array [Middle, Outer, Weight].
type Piece struct {
	// Middle is the column of the middle-row queen, or NoMiddle,
	// InnerMiddle or Symmetric.
	Middle int
	// Outer is the outer columns (the k lowest and k highest of the
	// columns the halves share; k is fixed for each n) the top half
	// takes: bit i < k the i-th lowest, bit k+i the i-th of the highest.
	Outer  uint32
	Weight uint64 // the parts the piece stands for; 1 for Symmetric
}

// pieceColumns returns the outer columns a side that name the pieces of
// an n×n board: one more than a count in one process uses up to n = 19
// (never past a quarter of the board), then one more for each size, so
// that the largest pieces grow about 1.3 times a size where the halves
// grow 4.4 times (docs/scale.md), up to 10 on even boards and 8 on odd
// ones, whose pieces are 2k+1 times as many (the middle queen's column):
// at most about 520000 pieces. A piece larger than its share of the
// memory splits itself further ([Piece.CountWith]). It depends on n
// alone, so that every shard of a count finds the same pieces.
func pieceColumns(n int) int {
	if n >= 20 {
		return min(n-15, 10-2*(n%2))
	}
	k := max(outerColumns(n), min(outerColumns(n)+1, n/4))
	if n%2 == 1 && n > 1 {
		k = max(k, 1) // as newPlan has it
	}
	return k
}

// Pieces returns the pieces of the count of an n×n board, 1 <= n <=
// [MaxN], the largest first and the symmetric piece last: always the
// same list for a given n, whatever the machine, its memory or its
// threads. Their tallies ([Piece.Count]) add up to 24 times the number
// of solutions and 24 times the number of classes under the symmetries.
// Errors wrap [board.ErrSize].
func Pieces(n int) ([]Piece, error) {
	if err := board.CheckSize(n, MaxN); err != nil {
		return nil, fmt.Errorf("join pieces: %w", err)
	}
	parts := newPlan(n, pieceColumns(n)).parts()
	ps := make([]Piece, 0, len(parts)+1)
	for _, p := range parts {
		ps = append(ps, Piece{Middle: p.mid, Outer: p.outer, Weight: p.weight})
	}
	return append(ps, Piece{Middle: Symmetric, Weight: 1}), nil
}

// String writes p as "MIDDLE:OUTER:WEIGHT" (see [Piece]).
func (p Piece) String() string {
	mid := strconv.Itoa(p.Middle)
	switch p.Middle {
	case Symmetric:
		return "sym"
	case NoMiddle:
		mid = "-"
	case InnerMiddle:
		mid = "*"
	}
	return fmt.Sprintf("%s:%d:%d", mid, p.Outer, p.Weight)
}

// ParsePiece reads a piece written by [Piece.String]. It checks the form
// only; [Piece.Check] tells whether it is a piece of a board.
func ParsePiece(s string) (Piece, error) {
	if s == "sym" {
		return Piece{Middle: Symmetric, Weight: 1}, nil
	}
	f := strings.Split(s, ":")
	if len(f) != 3 {
		return Piece{}, fmt.Errorf("join piece %q: want MIDDLE:OUTER:WEIGHT or sym", s)
	}
	var p Piece
	switch f[0] {
	case "-":
		p.Middle = NoMiddle
	case "*":
		p.Middle = InnerMiddle
	default:
		m, err := strconv.Atoi(f[0])
		if err != nil || m < 0 || m >= MaxN {
			return Piece{}, fmt.Errorf("join piece %q: the middle column must be -, * or 0 to %d", s, MaxN-1)
		}
		p.Middle = m
	}
	outer, err1 := strconv.ParseUint(f[1], 10, 32)
	weight, err2 := strconv.ParseUint(f[2], 10, 64)
	if err1 != nil || err2 != nil {
		return Piece{}, fmt.Errorf("join piece %q: want whole numbers for OUTER and WEIGHT", s)
	}
	p.Outer, p.Weight = uint32(outer), weight
	return p, nil
}

// MarshalJSON writes p as [Middle, Outer, Weight].
func (p Piece) MarshalJSON() ([]byte, error) {
	return json.Marshal([3]int64{int64(p.Middle), int64(p.Outer), int64(p.Weight)})
}

// UnmarshalJSON reads the array MarshalJSON writes, refusing numbers out
// of range; [Piece.Check] tells whether it is a piece of a board.
func (p *Piece) UnmarshalJSON(b []byte) error {
	var a [3]int64
	if err := json.Unmarshal(b, &a); err != nil {
		return fmt.Errorf("join piece: %w", err)
	}
	q, err := PieceOf(a[:])
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// PieceOf returns the piece whose JSON form is the array a, [Middle, Outer,
// Weight], refusing an array of another length or numbers out of range.
func PieceOf(a []int64) (Piece, error) {
	if len(a) != 3 || a[0] < InnerMiddle || a[0] >= MaxN || a[1] < 0 || a[1] > math.MaxUint32 || a[2] < 1 || a[2] > 8 {
		return Piece{}, fmt.Errorf("join piece %v: want [middle -3 to %d, outer 0 to 2^32-1, weight 1 to 8]", a, MaxN-1)
	}
	return Piece{Middle: int(a[0]), Outer: uint32(a[1]), Weight: uint64(a[2])}, nil
}

// Ints returns the JSON form of p, [Middle, Outer, Weight].
func (p Piece) Ints() []int64 { return []int64{int64(p.Middle), int64(p.Outer), int64(p.Weight)} }

// Check reports, with an error, a piece that is not one of [Pieces](n).
func (p Piece) Check(n int) error {
	if err := board.CheckSize(n, MaxN); err != nil {
		return fmt.Errorf("join piece: %w", err)
	}
	if p.Middle == Symmetric && p.Outer == 0 && p.Weight == 1 {
		return nil
	}
	pl := &plan{n: n, h: n / 2, k: pieceColumns(n)}
	mid := p.Middle == NoMiddle && n%2 == 0 || p.Middle == InnerMiddle && n%2 == 1 ||
		n%2 == 1 && p.Middle >= 0 && p.Middle < n && (p.Middle < pl.k || p.Middle >= n-pl.k)
	if w, _ := pl.weight(p.Middle, p.Outer); !mid || p.Outer>>uint(2*pl.k) != 0 || w == 0 || w != p.Weight {
		return fmt.Errorf("join piece %v is not one of the pieces of n = %d", p, n)
	}
	return nil
}

// weight returns the weight of the part of pl with the middle queen in
// column mid (or NoMiddle, InnerMiddle) and the outer pattern outer, 0
// for none (a pattern that leaves the top half too many or too few inner
// columns, or the image of another part under the top-bottom mirror,
// which that part stands for), and its size: the inner column sets of its
// top half.
func (pl *plan) weight(mid int, outer uint32) (w, size uint64) {
	k := pl.k
	m := bits.OnesCount32(pl.shared(mid))
	inner := pl.h - bits.OnesCount32(outer)
	if inner < 0 || inner > m-2*k || 2*k-bits.OnesCount32(outer) > pl.h {
		return 0, 0
	}
	switch image := (uint32(1)<<uint(2*k) - 1) &^ outer; {
	case image < outer:
		return 0, 0 // counted as image's part
	case image == outer:
		w = 1
	default:
		w = 2
	}
	return w, binomial(m-2*k, inner)
}

// CheckTally reports, with an error, a tally that p cannot have on an
// n×n board whatever the count found (p's weight taken as it is: [Piece.Check]
// tells whether p is a piece of the board): a part stands for whole solutions
// times its weight (Total24 a multiple of 24 × Weight) and adds 1/8 of a
// class for each (Unique24 is Total24 / 8); the symmetric piece adds to
// the unique count only, as [backtrack.Subproblem.CheckTally] says. It
// catches damaged or edited tallies; only a recount proves one right.
func (p Piece) CheckTally(n int, t backtrack.Tally) error {
	if err := board.CheckSize(n, MaxN); err != nil {
		return fmt.Errorf("check tally of join piece %v: %w", p, err)
	}
	if p.Middle == Symmetric {
		return symmetricSubproblem.CheckTally(n, t)
	}
	w := 24 * p.Weight
	if t.Total24%w != 0 || t.Total24%8 != 0 || t.Total24/8 != t.Unique24 {
		return fmt.Errorf("join piece %v stands for whole solutions times %d images (total24 a multiple of %d, unique24 = total24/8): total24 %d, unique24 %d",
			p, p.Weight, w, t.Total24, t.Unique24)
	}
	return nil
}

var symmetricSubproblem = backtrack.Subproblem{Top: -1, Bottom: -1, Left: -1, Right: -1}

// Count counts piece p of an n×n board (one of [Pieces](n)) and returns
// its tally: Total24 is 24 × the solutions it stands for (its weight
// included), Unique24 its share of 24 × the classes under the symmetries
// (Total24/8, and for the symmetric piece 3 × the solutions a half turn
// fixes plus 6 × those a quarter turn fixes), Nodes the pairs of halves
// it matched (its work, not comparable with the constellation counter's
// nodes). It is CountWith with the default Options: the piece holds its
// halves within its share of [DefaultMemory] for GOMAXPROCS pieces at
// once.
func (p Piece) Count(ctx context.Context, n int) (backtrack.Tally, error) {
	return p.CountWith(ctx, n, Options{})
}

// CountWith counts piece p of an n×n board as [Piece.Count] does, one of
// opt.Threads pieces (<= 0: GOMAXPROCS) counted at once within opt.Memory
// bytes (0: [DefaultMemory]): it holds at most its share of the halves
// that fit, and counts itself in smaller parts when it has more, so its
// tally does not depend on the memory. The other Options are not used.
// A piece that does not fit even in its smallest pieces is an error
// wrapping [ErrMemory], as is opt.Memory below [MinMemory]. When ctx ends
// first CountWith returns ctx.Err(). Errors also wrap [board.ErrSize].
func (p Piece) CountWith(ctx context.Context, n int, opt Options) (backtrack.Tally, error) {
	return p.count(ctx, n, opt, nil)
}

// Units returns the units of work of piece p of an n×n board (one of
// [Pieces](n)): the column sets its top half takes, which
// [Piece.CountUnits] counts apart, 1 for the symmetric piece. Errors wrap
// [board.ErrSize] or say p is not a piece of the board.
func (p Piece) Units(n int) (int, error) {
	if err := p.Check(n); err != nil {
		return 0, fmt.Errorf("join piece units: %w", err)
	}
	units, _ := p.units(n)
	return units, nil
}

// units returns the column sets of p (checked) and the joins each makes.
func (p Piece) units(n int) (units int, joins uint64) {
	if p.Middle == Symmetric {
		return 1, 1
	}
	pl := &plan{n: n, h: n / 2, k: pieceColumns(n)} // as Check: sides needs no more
	_, mine, inner := pl.sides(part{mid: p.Middle, outer: p.Outer})
	m, need := bits.OnesCount32(inner), pl.h-bits.OnesCount32(mine)
	if need < 0 || need > m {
		return 1, 1 // no column set: one unit that finds nothing
	}
	joins = 1
	if p.Middle == InnerMiddle {
		joins = uint64(max(1, m-need)) // the inner columns left to the middle queen
	}
	return int(binomial(m, need)), joins
}

// Cost returns the expected cost of piece p of an n×n board (one of
// [Pieces](n), else 0), in joins: its column sets times, where the middle
// queen takes any inner column, the columns left to it; each join matches
// the halves of one column set. It is a weight, not a time: over the
// pieces of n = 18 to 20, the cost of the pieces not yet counted over that
// of those counted predicts the pairs left within 0.77-1.19x once 10 to 60%
// of them are counted (docs/performance.md), where counting pieces
// over-states what is left up to 10 times (the largest come first). The
// symmetric piece costs 1.
func (p Piece) Cost(n int) uint64 {
	if p.Check(n) != nil {
		return 0
	}
	units, joins := p.units(n)
	return uint64(units) * joins
}

// CountUnits counts the units (column sets) from to to-1 of piece p of
// an n×n board, 0 <= from < to <= [Piece.Units], as [Piece.CountWith]
// counts them all: the tallies of the ranges that cover a piece add up to
// its tally. A column set too large for its share of opt.Memory is an
// error wrapping [ErrMemory]: only the whole piece ([Piece.CountWith])
// splits further, by rows.
func (p Piece) CountUnits(ctx context.Context, n int, opt Options, from, to int) (backtrack.Tally, error) {
	units, err := p.Units(n)
	if err != nil {
		return backtrack.Tally{}, fmt.Errorf("count join piece units: %w", err)
	}
	if from < 0 || to > units || from >= to {
		return backtrack.Tally{}, fmt.Errorf("count join piece %v units %d to %d: want 0 <= from < to <= %d", p, from, to, units)
	}
	if from == 0 && to == units {
		return p.count(ctx, n, opt, nil)
	}
	return p.count(ctx, n, opt, &[2]int{from, to})
}

// count counts p, or its units of ranks span[0] to span[1]-1.
func (p Piece) count(ctx context.Context, n int, opt Options, span *[2]int) (backtrack.Tally, error) {
	if err := p.Check(n); err != nil {
		return backtrack.Tally{}, fmt.Errorf("count join piece: %w", err)
	}
	threads := opt.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	mem := opt.Memory
	if mem == 0 {
		mem = DefaultMemory(n, threads)
	}
	if mem < MinMemory {
		return backtrack.Tally{}, fmt.Errorf("count join piece %v of n = %d: %w: %d bytes, at least %d", p, n, ErrMemory, mem, MinMemory)
	}
	var stop atomic.Bool
	defer workers.StopOnDone(ctx, &stop)()
	var c count
	w := pieceWorker(n)
	defer putWorker(n, w)
	w.pl.q = nil
	w.pl.cap = halvesCap(w.pl.useQuarters(ctx.Done(), mem, threads), threads)
	switch {
	case p.Middle == Symmetric:
		c = symmetricPiece(n, &stop)
	case span != nil:
		w.units = span
		c = w.count(part{mid: p.Middle, outer: p.Outer, weight: p.Weight}, &stop)
		w.units = nil
	default:
		c = w.countWithin(part{mid: p.Middle, outer: p.Outer, weight: p.Weight}, &stop)
	}
	if err := ctx.Err(); err != nil {
		return backtrack.Tally{}, err
	}
	if c.tooBig && span != nil {
		return backtrack.Tally{}, fmt.Errorf("count join piece %v of n = %d, units %d to %d: %w: a column set holds more than %d halves (%d bytes on %d threads)", p, n, span[0], span[1], ErrMemory, w.pl.cap, mem, threads)
	}
	if c.tooBig {
		return backtrack.Tally{}, fmt.Errorf("count join piece %v of n = %d: %w: even its smallest pieces (split by columns, then rows) hold more than %d halves (%d bytes on %d threads)", p, n, ErrMemory, w.pl.cap, mem, threads)
	}
	if p.Middle == Symmetric {
		return backtrack.Tally{Unique24: c.unique24}, nil
	}
	if hi, _ := bits.Mul64(24, c.total); hi != 0 {
		return backtrack.Tally{}, fmt.Errorf("count join piece %v of n = %d: 24 × %d solutions passes 2^64", p, n, c.total)
	}
	return backtrack.Tally{Total24: 24 * c.total, Unique24: 3 * c.total, Nodes: c.pairs}, nil
}

// idleWorkers holds, for each n, workers of the pieces' plan whose
// buffers (grown to the largest column set they counted) the next piece
// or unit reuses: a shard counts its pieces, and from n = 20 their units,
// one after another on each thread. A sync.Pool drops them at each
// collection: at n = 20, under the soft memory limit of 0 that sharded
// counts then ran with, that made a shard 2.5 times slower.
var idleWorkers struct {
	sync.Mutex
	byN map[int][]*worker
}

// maxIdle bounds the idle workers kept for each n.
func maxIdle() int { return 2 * runtime.GOMAXPROCS(0) }

// pieceWorker returns a worker for a piece of an n×n board: an idle one,
// or a new one.
func pieceWorker(n int) *worker {
	idleWorkers.Lock()
	defer idleWorkers.Unlock()
	if ws := idleWorkers.byN[n]; len(ws) > 0 {
		w := ws[len(ws)-1]
		idleWorkers.byN[n] = ws[:len(ws)-1]
		return w
	}
	return newPlan(n, pieceColumns(n)).newWorker()
}

// putWorker keeps w, a worker of an n×n board's pieces, for the next.
func putWorker(n int, w *worker) {
	idleWorkers.Lock()
	defer idleWorkers.Unlock()
	if idleWorkers.byN == nil {
		idleWorkers.byN = map[int][]*worker{}
	}
	if len(idleWorkers.byN[n]) < maxIdle() {
		idleWorkers.byN[n] = append(idleWorkers.byN[n], w)
	}
}
