package backtrack

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/workers"
)

// CountMaxN is the largest board [Count] accepts: its bitboards are 32-bit
// masks with one bit per column.
const CountMaxN = 32

// ErrUniquePlace is returned (wrapped) by [Count] when unique counts are
// asked for together with pre-placed queens: pre-placed queens break the
// symmetry of the board, so "distinct up to symmetry" has no clear meaning.
var ErrUniquePlace = errors.New("unique counts cannot be combined with pre-placed queens")

// CountOptions configures Count.
type CountOptions struct {
	Threads int           // worker goroutines; <= 0 means runtime.GOMAXPROCS(0)
	Unique  bool          // also count solutions distinct up to symmetry (not with Place)
	Place   []board.Queen // pre-placed queens

	// Progress, if not nil, is called with the number of subproblems
	// finished and in all, about ten times a second while Count runs and
	// once when it returns. It is called from the goroutine that called
	// Count, never concurrently, and should return quickly.
	Progress func(done, parts int)
}

// CountResult is what Count found.
type CountResult struct {
	Total, Unique uint64 // Unique only when CountOptions.Unique
	// Rotations (only when CountOptions.Unique) is the number of classes
	// of solutions that differ by a rotation only: see [RotationClasses].
	Rotations   uint64
	Nodes       uint64
	Elapsed     time.Duration
	Done, Parts int // subproblems finished / in all (for "how far it got" on cancel)
}

// Count returns the number of solutions of the n-queens puzzle on an n×n
// board, 1 <= n <= [CountMaxN], and with opt.Unique the number of them that
// are distinct up to rotation and reflection.
//
// Without pre-placed queens the count is split into [Subproblems]: the
// four queens on the board's border (a constellation) in canonical form
// under the 8 symmetries, each completed by a bitboard search of the other
// rows and weighted by the number of constellations it stands for. The
// search fills the row with the fewest free squares next until 8 rows are
// left, then those in a fixed order in a tight loop. Unique counts follow
// from the total by Burnside's lemma and one more small piece that counts
// the solutions a half or quarter turn maps to themselves, so they cost
// next to nothing. With opt.Place the same search completes those queens,
// split on the squares of the row with the fewest.
//
// The subproblems are shared among opt.Threads goroutines. When ctx is
// cancelled Count stops within about a second and returns ctx.Err() along
// with the sums over the subproblems it finished (Done of Parts).
//
// Errors wrap [board.ErrSize] for n out of range, [board.ErrPlacement] for
// pre-placed queens off the board or attacking each other, and
// [ErrUniquePlace]. Pre-placed queens that admit no solution give a count
// of 0, not an error.
func Count(ctx context.Context, n int, opt CountOptions) (CountResult, error) {
	start := time.Now()
	if err := board.CheckSize(n, CountMaxN); err != nil {
		return CountResult{}, fmt.Errorf("count: %w", err)
	}
	if opt.Unique && len(opt.Place) > 0 {
		return CountResult{}, fmt.Errorf("count: %w", ErrUniquePlace)
	}
	if err := board.CheckPlacement(n, opt.Place); err != nil {
		return CountResult{}, fmt.Errorf("count: %w", err)
	}
	var work func(i int, stop *atomic.Bool) partCount
	var parts int
	if len(opt.Place) > 0 {
		firsts := placePieces(n, opt.Place)
		parts = len(firsts)
		work = func(i int, stop *atomic.Bool) partCount {
			s := newSolver(n, stop)
			sols := s.count(s.placement(append(opt.Place[:len(opt.Place):len(opt.Place)], firsts[i]...)...))
			return partCount{total24: 24 * sols, nodes: s.nodes + uint64(len(firsts[i]))}
		}
	} else {
		sps, err := Subproblems(n)
		if err != nil {
			return CountResult{}, fmt.Errorf("count: %w", err)
		}
		parts = len(sps)
		work = func(i int, stop *atomic.Bool) partCount {
			return sps[i].count(n, stop)
		}
	}
	res, err := run(ctx, parts, opt.Threads, opt.Progress, work)
	if !opt.Unique {
		res.Unique = 0
	} else if err == nil {
		res.Rotations = RotationClasses(n, res.Unique)
	}
	res.Elapsed = time.Since(start)
	return res, err
}

// placePieces splits the completions of the queens qs (valid by
// [board.CheckPlacement]) on an n×n board into pieces for the threads: one
// per free square of the empty row the search would fill first, each the
// queen to add there. With no empty row it is one piece that adds nothing; with an
// empty row that has no free square, none (no solution).
func placePieces(n int, qs []board.Queen) [][]board.Queen {
	var stop atomic.Bool
	s := newSolver(n, &stop)
	free, d1, d2, rem := s.placement(qs...)
	if rem == 0 {
		return [][]board.Queen{nil}
	}
	best, avail := s.pick(free, d1, d2, rem)
	var pieces [][]board.Queen
	for a := avail; a != 0; a &= a - 1 {
		pieces = append(pieces, []board.Queen{{Row: best, Col: bits.TrailingZeros64(a)}})
	}
	return pieces
}

// run does parts pieces of work on threads goroutines, handing them out in
// order, and sums the results of the pieces that finished.
func run(ctx context.Context, parts, threads int, progress func(done, parts int), work func(int, *atomic.Bool) partCount) (CountResult, error) {
	// A worker's sums; rem: the 24ths not yet whole.
	type sums struct{ sum, rem partCount }
	res := CountResult{Parts: parts}
	var rest partCount
	done, err := workers.Run(ctx, parts, threads, progress, func() *sums { return new(sums) },
		func(w *sums, i int, stop *atomic.Bool) bool {
			pc := work(i, stop)
			if stop.Load() {
				return false // a stopped piece is incomplete: leave it out
			}
			w.rem.total24 += pc.total24 % 24
			w.rem.unique24 += pc.unique24 % 24
			w.sum.total24 += pc.total24 / 24
			w.sum.unique24 += pc.unique24 / 24
			w.sum.nodes += pc.nodes
			return true
		},
		func(w *sums) {
			res.Total += w.sum.total24
			res.Unique += w.sum.unique24
			res.Nodes += w.sum.nodes
			rest.total24 += w.rem.total24
			rest.unique24 += w.rem.unique24
		})
	res.Done = done
	// Ties split a class of solutions over pieces; the whole count has
	// whole classes only (a stopped count may leave a fraction out).
	res.Total += rest.total24 / 24
	res.Unique += rest.unique24 / 24
	if err == nil && res.Done < parts {
		err = ctx.Err() // cancelled just as the last pieces finished
	}
	if progress != nil {
		progress(res.Done, parts)
	}
	return res, err
}

// RotationClasses returns the number of classes of solutions of the n×n
// board under the four rotations, given the number of classes under all
// eight symmetries (unique, as [Count] returns it). By Burnside's lemma
// the rotation classes number (T + F180 + 2·F90) / 4, where T is the
// number of solutions and F180, F90 those a half or quarter turn maps to
// themselves, and the classes under all 8 symmetries (T + F180 + 2·F90 +
// R) / 8, R the solutions fixed by the four reflections. For n > 1 no
// reflection fixes a solution (a queen fixed by a mirror through the
// middle of the rows or columns would share a column or row with its
// image, and a solution fixed by a diagonal mirror would pair queens (r,
// c) and (c, r), which share an anti-diagonal, or put every queen on the
// main diagonal), so R = 0 and there are exactly twice as many classes
// under the rotations: 24 for n = 8 against 12. The 1×1 board has one.
func RotationClasses(n int, unique uint64) uint64 {
	if n == 1 {
		return unique
	}
	return 2 * unique
}
