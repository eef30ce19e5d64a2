package board

import "slices"

// Transform is one of the 8 symmetries of the square (the dihedral group
// D4): four rotations and four reflections. Applied to a solution it gives
// another solution.
type Transform uint8

// The 8 symmetries. Rotations turn the board clockwise.
const (
	Identity      Transform = iota // (r, c) -> (r, c)
	Rot90                          // (r, c) -> (c, n-1-r)
	Rot180                         // (r, c) -> (n-1-r, n-1-c)
	Rot270                         // (r, c) -> (n-1-c, r)
	MirrorCols                     // left-right mirror: (r, c) -> (r, n-1-c)
	MirrorRows                     // top-bottom mirror: (r, c) -> (n-1-r, c)
	Transpose                      // main diagonal: (r, c) -> (c, r)
	AntiTranspose                  // anti-diagonal: (r, c) -> (n-1-c, n-1-r)
)

// Transforms returns the 8 symmetries of the board, Identity first (a
// copy: changing it changes nothing here).
func Transforms() [8]Transform { return transforms }

var transforms = [8]Transform{Identity, Rot90, Rot180, Rot270, MirrorCols, MirrorRows, Transpose, AntiTranspose}

var transformNames = [8]string{"identity", "rot90", "rot180", "rot270", "mirror-cols", "mirror-rows", "transpose", "anti-transpose"}

// String returns the symmetry's name, e.g. "rot90".
func (t Transform) String() string {
	if int(t) < len(transformNames) {
		return transformNames[t]
	}
	return "invalid"
}

// Point maps the square (row, col) of an n×n board.
func (t Transform) Point(n, row, col int) (int, int) {
	m := n - 1
	switch t {
	case Rot90:
		return col, m - row
	case Rot180:
		return m - row, m - col
	case Rot270:
		return m - col, row
	case MirrorCols:
		return row, m - col
	case MirrorRows:
		return m - row, col
	case Transpose:
		return col, row
	case AntiTranspose:
		return m - col, m - row
	}
	return row, col
}

// Apply returns the image of s. Since every transform maps rows to rows or
// rows to columns, the image of a placement with one queen per row and per
// column is again one; for other placements (a column used twice) the
// result is unspecified.
func (t Transform) Apply(s Solution) Solution {
	out := make(Solution, len(s))
	t.apply(out, s)
	return out
}

func (t Transform) apply(dst, s Solution) {
	n := len(s)
	for row, col := range s {
		r, c := t.Point(n, row, col)
		if r >= 0 && r < n {
			dst[r] = c
		}
	}
}

// Then returns the transform that applies t first and u second.
func (t Transform) Then(u Transform) Transform { return compose[u][t] }

// Inverse returns the transform that undoes t.
func (t Transform) Inverse() Transform {
	for _, u := range transforms {
		if t.Then(u) == Identity {
			return u
		}
	}
	panic("board: transform has no inverse")
}

// compose[u][t] is "t then u". It is computed once by following the square
// (0, 1) of a 5×5 board, whose 8 images are all different.
var compose = func() (tab [8][8]Transform) {
	const n = 5
	for _, t := range transforms {
		for _, u := range transforms {
			r, c := t.Point(n, 0, 1)
			r, c = u.Point(n, r, c)
			for _, v := range transforms {
				if a, b := v.Point(n, 0, 1); a == r && b == c {
					tab[u][t] = v
				}
			}
		}
	}
	return tab
}()

// Canonical returns the lexicographically smallest (see [Solution.Less]) of
// the 8 images of s, the representative of its class of solutions that
// differ only by rotation or reflection.
func Canonical(s Solution) Solution { return smallestImage(s, transforms[1:]) }

// IsCanonical reports whether s equals [Canonical](s).
func IsCanonical(s Solution) bool { return noSmallerImage(s, transforms[1:]) }

// smallestImage returns the lexicographically smallest of s and its
// images under ts.
func smallestImage(s Solution, ts []Transform) Solution {
	best := s.Clone()
	img := make(Solution, len(s))
	for _, t := range ts {
		t.apply(img, s)
		if img.Less(best) {
			copy(best, img)
		}
	}
	return best
}

// noSmallerImage reports whether no image of s under ts is smaller than s.
func noSmallerImage(s Solution, ts []Transform) bool {
	img := make(Solution, len(s))
	for _, t := range ts {
		t.apply(img, s)
		if img.Less(s) {
			return false
		}
	}
	return true
}

// OrbitSize returns how many distinct solutions the 8 symmetries make of s:
// 8 for most, 4 for solutions symmetric under a half turn, 2 for those
// symmetric under a quarter turn, 1 for the 1×1 board.
func OrbitSize(s Solution) int {
	img := make(Solution, len(s))
	stabilizer := 0
	for _, t := range transforms {
		t.apply(img, s)
		if img.Equal(s) {
			stabilizer++
		}
	}
	return 8 / stabilizer
}

// OrbitSizeUnder returns how many distinct solutions the transforms of
// group make of s: [OrbitSize] for the 8 symmetries ([Transforms]), and
// for the symmetries an encoding breaks, with [Identity] added, the size
// of the class one solution stands for.
func OrbitSizeUnder(s Solution, group []Transform) int {
	var seen []Solution
	for _, t := range group {
		if img := t.Apply(s); !slices.ContainsFunc(seen, img.Equal) {
			seen = append(seen, img)
		}
	}
	return len(seen)
}

// CanonicalRotation returns the lexicographically smallest of the 4
// rotations of s (Identity, Rot90, Rot180, Rot270): the representative of
// its class of solutions that differ only by a rotation. A reflection
// gives another class: the 8-queens puzzle has 12 classes under
// [Canonical] and 24 under CanonicalRotation.
func CanonicalRotation(s Solution) Solution { return smallestImage(s, transforms[1:4]) }

// IsCanonicalRotation reports whether s equals [CanonicalRotation](s).
func IsCanonicalRotation(s Solution) bool { return noSmallerImage(s, transforms[1:4]) }

// Stabilizer returns the symmetries of the n×n board that map the set of
// queens qs onto itself, Identity first, in the order of [Transforms];
// with rotOnly only the rotations among them. The completions of qs fall
// into classes under these, and under no others: another symmetry moves
// a placed queen, so it maps a completion to a board without it. For no
// queens it is every symmetry (every rotation).
func Stabilizer(n int, qs []Queen, rotOnly bool) []Transform {
	ts := transforms[:]
	if rotOnly {
		ts = transforms[:4]
	}
	on := make(map[Queen]bool, len(qs))
	for _, q := range qs {
		on[q] = true
	}
	var out []Transform
	for _, t := range ts {
		keeps := true
		for q := range on {
			r, c := t.Point(n, q.Row, q.Col)
			if !on[Queen{Row: r, Col: c}] {
				keeps = false
				break
			}
		}
		if keeps {
			out = append(out, t)
		}
	}
	return out
}

// IsCanonicalUnder reports whether s is the lexicographically smallest
// of its images under the symmetries ts (those of a [Stabilizer]): the
// representative of its class. With every symmetry it is [IsCanonical].
func IsCanonicalUnder(s Solution, ts []Transform) bool { return noSmallerImage(s, ts) }
