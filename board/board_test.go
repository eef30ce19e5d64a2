package board

import (
	"errors"
	"testing"
)

// permutations calls f with every permutation of 0..n-1 (Heap's algorithm).
// It is a brute-force source of placements, independent of every solver.
func permutations(n int, f func(Solution)) {
	p := make(Solution, n)
	for i := range p {
		p[i] = i
	}
	c := make([]int, n)
	f(p)
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				p[0], p[i] = p[i], p[0]
			} else {
				p[c[i]], p[i] = p[i], p[c[i]]
			}
			f(p)
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

// validPermutations returns the permutations of n that Valid accepts, filtering all n!
// permutations through Valid.
func validPermutations(n int) []Solution {
	var out []Solution
	permutations(n, func(p Solution) {
		if Valid(p) {
			out = append(out, p.Clone())
		}
	})
	return out
}

func TestValidAgainstPublishedCounts(t *testing.T) {
	for n := 1; n <= 9; n++ {
		sols := validPermutations(n)
		want, _ := Known(n)
		if uint64(len(sols)) != want.Total {
			t.Errorf("brute force n=%d: %d valid permutations, want %d", n, len(sols), want.Total)
		}
		classes := map[string]bool{}
		weighted := 0
		for _, s := range sols {
			classes[Canonical(s).String()] = true
			if IsCanonical(s) {
				weighted += OrbitSize(s)
			}
		}
		if uint64(len(classes)) != want.Unique {
			t.Errorf("n=%d: %d classes, want %d", n, len(classes), want.Unique)
		}
		if weighted != len(sols) {
			t.Errorf("n=%d: canonical solutions weighted by orbit size = %d, want %d", n, weighted, len(sols))
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		s    Solution
		kind string
	}{
		{Solution{1, 3, 0, 2}, ""},
		{Solution{0}, ""},
		{Solution{0, 0}, "column"},
		{Solution{0, 1}, "diagonal"},
		{Solution{1, 0}, "anti-diagonal"},
		{Solution{1, 3, 0, 4}, "off-board"},
		{Solution{1, 3, -1, 2}, "off-board"},
		{Solution{1, 3, 0, 3}, "column"},
		{Solution{2, 0, 3, 1, 4, 5}, "diagonal"},
	}
	for _, tt := range tests {
		err := tt.s.Check()
		var c *Conflict
		switch {
		case tt.kind == "" && err != nil:
			t.Errorf("%v.Check() = %v, want nil", tt.s, err)
		case tt.kind != "" && (!errors.As(err, &c) || c.Kind != tt.kind):
			t.Errorf("%v.Check() = %v, want a %s conflict", []int(tt.s), err, tt.kind)
		}
		if Valid(tt.s) != (tt.kind == "") {
			t.Errorf("Valid(%v) = %v", []int(tt.s), !(tt.kind == ""))
		}
	}
	if Valid(nil) {
		t.Error("Valid(nil) = true, want false")
	}
}

func TestCheckMatchesDefinition(t *testing.T) {
	// Every placement of 5 queens, one per row, any columns: Check must agree
	// with the definition applied square by square.
	const n = 5
	s := make(Solution, n)
	var rec func(row int)
	rec = func(row int) {
		if row == n {
			safe := true
			for r1 := range s {
				for r2 := range s {
					if r1 != r2 && (s[r1] == s[r2] || abs(s[r1]-s[r2]) == abs(r1-r2)) {
						safe = false
					}
				}
			}
			if got := s.Check() == nil; got != safe {
				t.Fatalf("%v: Check says safe=%v, definition says %v", []int(s), got, safe)
			}
			return
		}
		for c := 0; c < n; c++ {
			s[row] = c
			rec(row + 1)
		}
	}
	rec(0)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestCheckSize(t *testing.T) {
	for _, n := range []int{0, -5, 101} {
		if err := CheckSize(n, 100); !errors.Is(err, ErrSize) {
			t.Errorf("CheckSize(%d, 100) = %v, want ErrSize", n, err)
		}
	}
	if err := CheckSize(100, 100); err != nil {
		t.Errorf("CheckSize(100, 100) = %v", err)
	}
}

func TestPublished(t *testing.T) {
	p := Published()
	if len(p) != 27 {
		t.Fatalf("Published() has %d rows, want 27", len(p))
	}
	for i, c := range p {
		if c.N != i+1 || c.Unique > c.Total || c.Total > 8*c.Unique {
			t.Errorf("row %d = %+v: inconsistent", i, c)
		}
	}
	if c, ok := Known(8); !ok || c.Total != 92 || c.Unique != 12 {
		t.Errorf("Known(8) = %+v, %v", c, ok)
	}
	if c, ok := Known(27); !ok || c.Total != 234907967154122528 {
		t.Errorf("Known(27) = %+v, %v", c, ok)
	}
	for _, n := range []int{0, 28} {
		if _, ok := Known(n); ok {
			t.Errorf("Known(%d) ok", n)
		}
	}
}

// TestCompare checks Compare against Less, both ways, on the solutions of
// n = 6 and boards of other sizes.
func TestCompare(t *testing.T) {
	sols := append(validPermutations(6), Solution{0}, Solution{1, 3, 0, 2})
	for _, a := range sols {
		for _, b := range sols {
			want := 0
			switch {
			case a.Less(b):
				want = -1
			case b.Less(a):
				want = 1
			}
			if got := a.Compare(b); got != want || (got == 0) != a.Equal(b) {
				t.Fatalf("%v.Compare(%v) = %d, want %d", a, b, got, want)
			}
		}
	}
}
