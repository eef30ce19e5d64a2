package board_test

import (
	"slices"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

func TestTransformsFormTheGroup(t *testing.T) {
	// The 4x4 board hides mirror bugs (it is symmetric under a quarter
	// turn); the 5x5 and 8x8 placements are asymmetric.
	boards := []board.Solution{{1, 3, 0, 2}, {0, 2, 4, 1, 3}, {0, 4, 7, 5, 2, 6, 1, 3}}
	for _, b := range boards {
		for _, t1 := range board.Transforms() {
			if t1.Inverse().Apply(t1.Apply(b)).Equal(b) == false {
				t.Errorf("%v: inverse of %v does not undo it", []int(b), t1)
			}
			for _, t2 := range board.Transforms() {
				want := t2.Apply(t1.Apply(b))
				if got := t1.Then(t2).Apply(b); !got.Equal(want) {
					t.Errorf("%v then %v = %v, applied one by one %v", t1, t2, got, want)
				}
			}
		}
	}
	// Closure, identity, and distinctness: the table is a Latin square.
	for _, a := range board.Transforms() {
		seen := map[board.Transform]bool{}
		for _, b := range board.Transforms() {
			seen[a.Then(b)] = true
		}
		if len(seen) != 8 || board.Identity.Then(a) != a || a.Then(board.Identity) != a {
			t.Errorf("%v: composition row is not a permutation of the group", a)
		}
	}
	// Rotations: four quarter turns are the identity; mirrors are involutions.
	if board.Rot90.Then(board.Rot90) != board.Rot180 || board.Rot90.Then(board.Rot180) != board.Rot270 || board.Rot270.Then(board.Rot90) != board.Identity {
		t.Error("rotations do not compose as quarter turns")
	}
	for _, m := range []board.Transform{board.MirrorCols, board.MirrorRows, board.Transpose, board.AntiTranspose, board.Rot180} {
		if m.Then(m) != board.Identity {
			t.Errorf("%v is not an involution", m)
		}
	}
}

func TestTransformsPreserveValidity(t *testing.T) {
	for _, s := range testutil.Solutions(8, nil) {
		for _, tr := range board.Transforms() {
			img := tr.Apply(s)
			if !board.Valid(img) {
				t.Fatalf("%v of %v = %v is not valid", tr, []int(s), []int(img))
			}
			if !board.Canonical(img).Equal(board.Canonical(s)) {
				t.Fatalf("canonical form changes under %v", tr)
			}
		}
	}
}

func TestOrbitSize(t *testing.T) {
	tests := []struct {
		s    board.Solution
		want int
	}{
		{board.Solution{0}, 1},
		{board.Solution{1, 3, 0, 2}, 2}, // symmetric under a quarter turn
		{board.Solution{3, 0, 2, 4, 1}, 2},
		{board.Solution{1, 3, 5, 0, 2, 4}, 4}, // symmetric under a half turn
		{board.Solution{0, 4, 7, 5, 2, 6, 1, 3}, 8},
	}
	for _, tt := range tests {
		if got := board.OrbitSize(tt.s); got != tt.want {
			t.Errorf("OrbitSize(%v) = %d, want %d", []int(tt.s), got, tt.want)
		}
	}
}

func TestTransformString(t *testing.T) {
	if board.Rot90.String() != "rot90" || board.Transform(9).String() != "invalid" {
		t.Error("String gives wrong names")
	}
}

// TestStabilizer checks the symmetries that keep pre-placed queens in
// place, and that the canonical completions under them are as many as
// Burnside's lemma says the classes are: the mean number of completions
// each symmetry fixes.
func TestStabilizer(t *testing.T) {
	all := board.Transforms()
	for _, tc := range []struct {
		n    int
		qs   []board.Queen
		rot  bool
		want []board.Transform
	}{
		{8, nil, false, all[:]},
		{8, nil, true, all[:4]},
		{8, []board.Queen{{Row: 0, Col: 0}}, false, []board.Transform{board.Identity, board.Transpose}},
		{8, []board.Queen{{Row: 0, Col: 0}}, true, []board.Transform{board.Identity}},
		{5, []board.Queen{{Row: 2, Col: 2}}, false, all[:]},
		{5, []board.Queen{{Row: 2, Col: 2}}, true, all[:4]},
		{6, []board.Queen{{Row: 0, Col: 1}, {Row: 5, Col: 4}}, false, []board.Transform{board.Identity, board.Rot180}},
		{7, []board.Queen{{Row: 0, Col: 3}}, false, []board.Transform{board.Identity, board.MirrorCols}},
	} {
		got := board.Stabilizer(tc.n, tc.qs, tc.rot)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Stabilizer(%d, %v, %v) = %v, want %v", tc.n, tc.qs, tc.rot, got, tc.want)
		}
		canon, fixed := 0, 0
		for _, s := range testutil.Solutions(tc.n, tc.qs) {
			if board.IsCanonicalUnder(s, got) {
				canon++
			}
			for _, g := range got {
				if g.Apply(s).Equal(s) {
					fixed++
				}
			}
		}
		if canon == 0 || canon*len(got) != fixed {
			t.Errorf("n=%d %v: %d canonical completions, Burnside %d/%d", tc.n, tc.qs, canon, fixed, len(got))
		}
	}
}

// TestOrbitSizeUnder: under all 8 symmetries it is OrbitSize; under the
// identity alone 1; under a half turn 1 for a solution symmetric under it.
func TestOrbitSizeUnder(t *testing.T) {
	all := board.Transforms()
	for _, s := range []board.Solution{{0}, {1, 3, 0, 2}, {1, 3, 5, 0, 2, 4}, {0, 4, 7, 5, 2, 6, 1, 3}} {
		if got, want := board.OrbitSizeUnder(s, all[:]), board.OrbitSize(s); got != want {
			t.Errorf("OrbitSizeUnder(%v, all 8) = %d, want OrbitSize %d", []int(s), got, want)
		}
		if got := board.OrbitSizeUnder(s, []board.Transform{board.Identity}); got != 1 {
			t.Errorf("OrbitSizeUnder(%v, identity) = %d, want 1", []int(s), got)
		}
	}
	if got := board.OrbitSizeUnder(board.Solution{1, 3, 5, 0, 2, 4}, []board.Transform{board.Identity, board.Rot180}); got != 1 {
		t.Errorf("OrbitSizeUnder(half-turn symmetric, {id, rot180}) = %d, want 1", got)
	}
	if got := board.OrbitSizeUnder(board.Solution{0, 4, 7, 5, 2, 6, 1, 3}, []board.Transform{board.Identity, board.MirrorCols}); got != 2 {
		t.Errorf("OrbitSizeUnder(asymmetric, {id, mirror}) = %d, want 2", got)
	}
}
