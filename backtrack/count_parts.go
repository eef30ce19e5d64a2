package backtrack

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/constellation"
	"github.com/queens-dev/queens/internal/workers"
)

// Subproblem is one independent piece of a full count: a constellation,
// the four queens on the border of the board: the queen in the first row
// stands in column Top, the one in the last row in column Bottom, the one
// in the first column in row Left and the one in the last column in row
// Right (all 0-based; a queen in a corner counts for its row and its
// column). Every solution has exactly one constellation, and the 8
// symmetries of the board map constellations to constellations, so the
// count searches only the constellations that are the smallest (by Top,
// Bottom, Left, Right) of their images and weights each with the number of
// its distinct images.
//
// One more piece ([Subproblem.Symmetric]) counts the solutions that a half or a
// quarter turn maps to themselves: the unique count (the classes of
// solutions) follows from those and the total by Burnside's lemma, with
// no look at each solution.
//
// A constellation too large for one piece of work splits into sub-parts
// ([Subproblem.Split]): with Parts > 0, sp is sub-part Part (0-based) of
// Parts of the constellation, the subtrees of its search at a fixed
// depth numbered in the order of the search, those numbered Part, Part +
// Parts, Part + 2·Parts, ... (see [Subproblem.Count]). The zero Part and
// Parts are the whole constellation.
type Subproblem struct {
	Top, Bottom, Left, Right int
	Part, Parts              int // sub-part Part of Parts; 0 and 0 for the whole constellation
}

// String returns sp as "Top:Bottom:Left:Right", e.g. "1:3:2:5", and a
// sub-part as "Top:Bottom:Left:Right#Part/Parts", e.g. "1:3:2:5#7/64".
func (sp Subproblem) String() string {
	s := fmt.Sprintf("%d:%d:%d:%d", sp.Top, sp.Bottom, sp.Left, sp.Right)
	if sp.Parts != 0 || sp.Part != 0 {
		s += fmt.Sprintf("#%d/%d", sp.Part, sp.Parts)
	}
	return s
}

// c returns the constellation of sp.
func (sp Subproblem) c() constellation.C {
	return constellation.C{Top: sp.Top, Bottom: sp.Bottom, Left: sp.Left, Right: sp.Right}
}

// symmetric is the piece of every count that finds the solutions a half
// or a quarter turn maps to themselves; it adds to the unique count only.
var symmetric = Subproblem{Top: -1, Bottom: -1, Left: -1, Right: -1}

// Symmetric reports whether sp is the piece of every count that finds the
// solutions a half or a quarter turn maps to themselves (written
// "-1:-1:-1:-1"): it adds to the unique count only, by Burnside's lemma.
func (sp Subproblem) Symmetric() bool { return sp == symmetric }

// Subproblems returns the pieces that [Count] splits an n×n count into, in
// a fixed order (the constellations with the most free squares first, then
// the symmetric piece), so that a count can be spread over processes or machines:
// the counts of the pieces add up to the count of the board. It returns an
// error wrapping [board.ErrSize] unless 1 <= n <= [CountMaxN].
func Subproblems(n int) ([]Subproblem, error) {
	if err := board.CheckSize(n, CountMaxN); err != nil {
		return nil, fmt.Errorf("subproblems: %w", err)
	}
	return slices.Clone(splits[n]()), nil
}

// splits holds the pieces of each n, listed on first use.
var splits = func() (f [CountMaxN + 1]func() []Subproblem) {
	for n := range f {
		f[n] = sync.OnceValue(func() []Subproblem { return constellations(n) })
	}
	return f
}()

// constellations lists the pieces of an n×n count for [Subproblems].
func constellations(n int) []Subproblem {
	cs := constellation.List(n)
	out := make([]Subproblem, 0, len(cs)+1)
	for _, c := range cs {
		out = append(out, Subproblem{Top: c.Top, Bottom: c.Bottom, Left: c.Left, Right: c.Right})
	}
	return append(out, symmetric)
}

// queens returns the distinct queens qs[:k] of the constellation sp on an
// n×n board, and whether they are a constellation (see [constellation.C.Queens]).
func (sp Subproblem) queens(n int) (qs [4]board.Queen, k int, ok bool) {
	return sp.c().Queens(n)
}

// images returns the constellations of the 8 images of sp under the
// symmetries of the n×n board, sp itself first.
func (sp Subproblem) images(n int) [8]Subproblem {
	var out [8]Subproblem
	for i, im := range sp.c().Images(n) {
		out[i] = Subproblem{Top: im.Top, Bottom: im.Bottom, Left: im.Left, Right: im.Right}
	}
	return out
}

// canonical reports whether sp is the smallest of its images.
func (sp Subproblem) canonical(n int) bool { return sp.c().Canonical(n) }

// weight returns the number of distinct images of sp: the constellations
// its count stands for.
func (sp Subproblem) weight(n int) uint64 { return sp.c().Weight(n) }

// partCount is what one piece of a count found: 24 × the solutions and 24
// × the classes of solutions up to symmetry it stands for, and the queens
// placed.
type partCount struct {
	total24, unique24, nodes uint64
	overflow                 bool // 24 × the solutions passes 2^64: the tally cannot hold it
}

// count counts the solutions of sp on an n×n board; once stop is set it
// gives up early with a partial count, which the caller discards.
func (sp Subproblem) count(n int, stop *atomic.Bool) partCount {
	if sp == symmetric {
		f180, f90, nodes := fixedByTurns(n, stop)
		fixed := f180 + 2*f90 // by the half turn, and the quarter turns both ways
		if n == 1 {
			fixed = 7 // the lone queen is fixed by the reflections too
		}
		// Burnside: classes = (solutions + the fixed points of the 7
		// other symmetries) / 8, and reflections fix no solution for n > 1.
		return partCount{unique24: 3 * fixed, nodes: nodes}
	}
	qs, k, ok := sp.queens(n)
	if !ok {
		return partCount{}
	}
	s := newSolver(n, stop)
	var raw uint64
	if free, d1, d2, rem := s.placement(qs[:k]...); sp.Parts > 0 {
		raw = s.countPart(free, d1, d2, rem, sp.Part, sp.Parts)
	} else {
		raw = s.count(free, d1, d2, rem)
	}
	w := sp.weight(n)
	if raw > math.MaxUint64/(24*w) {
		return partCount{nodes: s.nodes, overflow: true}
	}
	sols := w * raw
	return partCount{total24: 24 * sols, unique24: 3 * sols, nodes: s.nodes}
}

// ErrTallyOverflow is returned (wrapped) by [Subproblem.Count] for a piece
// whose 24ths pass 2^64, which a [Tally] cannot hold (by the growth of
// the counts, possible for the largest pieces from about n = 31): an
// error, never a sum that wrapped around.
var ErrTallyOverflow = errors.New("the piece's tally passes 2^64")

// Tally is what one or more subproblems found, in 24ths: each solution a
// constellation stands for adds 1/8 of a class to the unique count, and
// only whole boards are sure to add up to whole numbers. Divide the sums
// over all subproblems by 24.
type Tally struct {
	Total24  uint64 // 24 × the solutions
	Unique24 uint64 // 24 × the solutions distinct up to symmetry
	Nodes    uint64 // queens placed by the search
}

// Count counts the solutions of the subproblem sp of an n×n board (one of
// [Subproblems](n); other constellations count 0). It returns ctx.Err()
// and a zero Tally if ctx is cancelled first, and an error wrapping
// [board.ErrSize] unless 1 <= n <= [CountMaxN].
func (sp Subproblem) Count(ctx context.Context, n int) (Tally, error) {
	if err := board.CheckSize(n, CountMaxN); err != nil {
		return Tally{}, fmt.Errorf("count piece %v: %w", sp, err)
	}
	if err := sp.checkPart(); err != nil {
		return Tally{}, fmt.Errorf("count piece: %w", err)
	}
	var stop atomic.Bool
	defer workers.StopOnDone(ctx, &stop)()
	w := sp.count(n, &stop)
	if err := ctx.Err(); err != nil && stop.Load() {
		return Tally{}, err
	}
	if w.overflow {
		return Tally{}, fmt.Errorf("count piece %v of n = %d: %w", sp, n, ErrTallyOverflow)
	}
	return Tally{w.total24, w.unique24, w.nodes}, nil
}

// CheckTally reports, with an error, a tally that sp cannot have on an
// n×n board whatever the search found: a constellation stands for whole
// solutions, each counted once per distinct image of sp (so Total24 is a
// multiple of 24 × that weight) and adding 1/8 of a class (Unique24 is
// Total24 / 8); the symmetric piece adds to the unique count only, in
// steps of 3. It catches edited or damaged tallies that keep their
// checksums; only recounting (see [Subproblem.Count]) proves a tally right.
func (sp Subproblem) CheckTally(n int, t Tally) error {
	if err := board.CheckSize(n, CountMaxN); err != nil {
		return fmt.Errorf("check tally of %v: %w", sp, err)
	}
	if err := sp.checkPart(); err != nil {
		return fmt.Errorf("check tally: %w", err)
	}
	if sp == symmetric {
		if t.Total24 != 0 || t.Unique24%3 != 0 {
			return fmt.Errorf("piece %v adds to the unique count only, in 24ths a multiple of 3: total24 %d, unique24 %d", sp, t.Total24, t.Unique24)
		}
		return nil
	}
	w := 24 * sp.weight(n)
	if t.Total24%w != 0 || t.Total24/8 != t.Unique24 || t.Total24%8 != 0 {
		return fmt.Errorf("piece %v stands for whole solutions times %d images (total24 a multiple of %d, unique24 = total24/8): total24 %d, unique24 %d",
			sp, w/24, w, t.Total24, t.Unique24)
	}
	return nil
}
