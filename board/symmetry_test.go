package board

import "testing"

func TestTransformsFormTheGroup(t *testing.T) {
	// The 4x4 board hides mirror bugs (it is symmetric under a quarter
	// turn); the 5x5 and 8x8 placements are asymmetric.
	boards := []Solution{{1, 3, 0, 2}, {0, 2, 4, 1, 3}, {0, 4, 7, 5, 2, 6, 1, 3}}
	for _, b := range boards {
		for _, t1 := range Transforms {
			if t1.Inverse().Apply(t1.Apply(b)).Equal(b) == false {
				t.Errorf("%v: inverse of %v does not undo it", []int(b), t1)
			}
			for _, t2 := range Transforms {
				want := t2.Apply(t1.Apply(b))
				if got := t1.Then(t2).Apply(b); !got.Equal(want) {
					t.Errorf("%v then %v = %v, applied one by one %v", t1, t2, got, want)
				}
			}
		}
	}
	// Closure, identity, and distinctness: the table is a Latin square.
	for _, a := range Transforms {
		seen := map[Transform]bool{}
		for _, b := range Transforms {
			seen[a.Then(b)] = true
		}
		if len(seen) != 8 || Identity.Then(a) != a || a.Then(Identity) != a {
			t.Errorf("%v: composition row is not a permutation of the group", a)
		}
	}
	// Rotations: four quarter turns are the identity; mirrors are involutions.
	if Rot90.Then(Rot90) != Rot180 || Rot90.Then(Rot180) != Rot270 || Rot270.Then(Rot90) != Identity {
		t.Error("rotations do not compose as quarter turns")
	}
	for _, m := range []Transform{MirrorCols, MirrorRows, Transpose, AntiTranspose, Rot180} {
		if m.Then(m) != Identity {
			t.Errorf("%v is not an involution", m)
		}
	}
}

func TestTransformsPreserveValidity(t *testing.T) {
	for _, s := range bruteSolutions(8) {
		for _, tr := range Transforms {
			img := tr.Apply(s)
			if !Valid(img) {
				t.Fatalf("%v of %v = %v is not valid", tr, []int(s), []int(img))
			}
			if !Canonical(img).Equal(Canonical(s)) {
				t.Fatalf("canonical form changes under %v", tr)
			}
		}
	}
}

func TestOrbitSize(t *testing.T) {
	tests := []struct {
		s    Solution
		want int
	}{
		{Solution{0}, 1},
		{Solution{1, 3, 0, 2}, 2}, // symmetric under a quarter turn
		{Solution{3, 0, 2, 4, 1}, 2},
		{Solution{1, 3, 5, 0, 2, 4}, 4}, // symmetric under a half turn
		{Solution{0, 4, 7, 5, 2, 6, 1, 3}, 8},
	}
	for _, tt := range tests {
		if got := OrbitSize(tt.s); got != tt.want {
			t.Errorf("OrbitSize(%v) = %d, want %d", []int(tt.s), got, tt.want)
		}
	}
}

func TestTransformString(t *testing.T) {
	if Rot90.String() != "rot90" || Transform(9).String() != "invalid" {
		t.Error("String gives wrong names")
	}
}
