package backtrack

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

// TestFixedByTurns checks the symmetric piece against the definition: the
// solutions of the textbook search that a half or a quarter turn maps to
// themselves.
func TestFixedByTurns(t *testing.T) {
	for n := 1; n <= 11; n++ {
		var want180, want90 uint64
		for s := range testutil.Values(t, All(context.Background(), n, Options{})) {
			if slices.Equal(board.Rot180.Apply(s), s) {
				want180++
			}
			if slices.Equal(board.Rot90.Apply(s), s) {
				want90++
			}
		}
		var stop atomic.Bool
		f180, f90, _ := fixedByTurns(n, &stop)
		if f180 != want180 || f90 != want90 {
			t.Errorf("n=%d: fixedByTurns = %d, %d; the textbook search finds %d, %d", n, f180, f90, want180, want90)
		}
	}
}

// TestConstellations checks the split against the definition: every
// solution's four border queens are an image of exactly one piece, every
// piece is the smallest of its images, and its weight is the number of
// its distinct images.
func TestConstellations(t *testing.T) {
	for n := 1; n <= 10; n++ {
		sps, err := Subproblems(n)
		if err != nil || !sps[len(sps)-1].Symmetric() {
			t.Fatalf("Subproblems(%d) = ..., %v; want Symmetric last", n, err)
		}
		sps = sps[:len(sps)-1]
		owner := map[Subproblem]Subproblem{} // constellation -> the piece it is an image of
		for _, sp := range sps {
			if !sp.canonical(n) {
				t.Errorf("n=%d: piece %v is not the smallest of its images", n, sp)
			}
			ims := sp.images(n)
			var distinct []Subproblem
			for _, im := range ims {
				if !slices.Contains(distinct, im) {
					distinct = append(distinct, im)
				}
				if o, ok := owner[im]; ok && o != sp {
					t.Errorf("n=%d: %v is an image of pieces %v and %v", n, im, o, sp)
				}
				owner[im] = sp
			}
			if sp.weight(n) != uint64(len(distinct)) {
				t.Errorf("n=%d: piece %v weighs %d, has %d distinct images", n, sp, sp.weight(n), len(distinct))
			}
		}
		for s := range testutil.Values(t, All(context.Background(), n, Options{})) {
			c := Subproblem{Top: s[0], Bottom: s[n-1], Left: slices.Index(s, 0), Right: slices.Index(s, n-1)}
			if _, ok := owner[c]; !ok {
				t.Errorf("n=%d: solution %v has constellation %v, an image of no piece", n, s, c)
			}
		}
	}
}

// TestSolverWide checks the rotated diagonals on the widest boards, where
// a bit leaving the board wraps furthest: the completions of a solution
// with some rows emptied, counted by Count and by the textbook search.
func TestSolverWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{20, 27, 31, 32} {
		s, _, err := First(context.Background(), n, Options{Strategy: Heuristic})
		if err != nil {
			t.Fatal(err)
		}
		for trial := range 3 {
			empty := rng.Perm(n)[:10+trial]
			var place []board.Queen
			for r, c := range s {
				if !slices.Contains(empty, r) {
					place = append(place, board.Queen{Row: r, Col: c})
				}
			}
			var want uint64
			for sol := range testutil.Values(t, All(context.Background(), n, Options{Place: place})) {
				if !board.Valid(sol) {
					t.Fatalf("n=%d: the textbook search gave %v", n, sol)
				}
				want++
			}
			got, err := Count(context.Background(), n, CountOptions{Place: place, Threads: 2})
			if err != nil || got.Total != want || want == 0 {
				t.Errorf("n=%d, rows %v empty: Count = %d, %v; the textbook search finds %d", n, empty, got.Total, err, want)
			}
		}
	}
}

// TestSubproblemCountBad checks that a piece of a board out of range is an
// error and a constellation not in the split counts nothing.
func TestSubproblemCountBad(t *testing.T) {
	for _, n := range []int{0, 33, 64} {
		if _, err := (Subproblem{Top: 1, Bottom: 2, Left: 3, Right: 4}).Count(context.Background(), n); !errors.Is(err, board.ErrSize) {
			t.Errorf("n=%d: error %v, want %v", n, err, board.ErrSize)
		}
	}
	for _, sp := range []Subproblem{{0, 0, 0, 0, 0, 0}, {9, 1, 1, 1, 0, 0}, {1, 1, 1, 1, 0, 0}, {-2, 3, 3, 3, 0, 0}} {
		if tl, err := sp.Count(context.Background(), 8); err != nil || tl != (Tally{}) {
			t.Errorf("%v on 8×8: %+v, %v; want nothing", sp, tl, err)
		}
	}
}
