package backtrack

import (
	"context"
	"errors"
	"testing"
)

// TestSubpartsAddUp checks that the sub-parts of every constellation of
// n = 8..13 add up to the count of the whole constellation (tallies and
// nodes), for several numbers of parts, and that the sums over all pieces
// are the published counts.
func TestSubpartsAddUp(t *testing.T) {
	want := map[int]uint64{8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712}
	for n := 8; n <= 13; n++ {
		sps, err := Subproblems(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, parts := range []int{1, 2, 7, 64} {
			var total24 uint64
			split := 0
			for _, sp := range sps {
				whole, err := sp.Count(context.Background(), n)
				if err != nil {
					t.Fatal(err)
				}
				if sp.Symmetric() {
					if sp.Split(parts) != nil {
						t.Fatalf("the symmetric piece splits")
					}
					continue
				}
				var sum Tally
				nonzero := 0
				for _, p := range sp.Split(parts) {
					tl, err := p.Count(context.Background(), n)
					if err != nil {
						t.Fatalf("%v: %v", p, err)
					}
					if err := p.CheckTally(n, tl); err != nil {
						t.Fatalf("%v: %v", p, err)
					}
					if tl.Total24 > 0 {
						nonzero++
					}
					sum.Total24 += tl.Total24
					sum.Unique24 += tl.Unique24
					sum.Nodes += tl.Nodes
				}
				if sum != whole {
					t.Fatalf("n=%d %v in %d parts: %+v, whole %+v", n, sp, parts, sum, whole)
				}
				if nonzero > 1 {
					split++
				}
				total24 += sum.Total24
			}
			if total24 != 24*want[n] {
				t.Errorf("n=%d, %d parts: %d/24 solutions, want %d", n, parts, total24, want[n])
			}
			if parts > 1 && n >= 12 && split == 0 {
				t.Errorf("n=%d, %d parts: no constellation's count spread over its parts", n, parts)
			}
		}
	}
}

// TestSubpartBad checks that sub-parts out of range are refused, by
// Count and CheckTally.
func TestSubpartBad(t *testing.T) {
	c := Subproblem{Top: 0, Bottom: 2, Left: 0, Right: 5}
	for _, sp := range []Subproblem{
		{Top: c.Top, Bottom: c.Bottom, Left: c.Left, Right: c.Right, Part: 1},
		{Top: c.Top, Bottom: c.Bottom, Left: c.Left, Right: c.Right, Part: 3, Parts: 3},
		{Top: c.Top, Bottom: c.Bottom, Left: c.Left, Right: c.Right, Part: -1, Parts: 3},
		{Top: c.Top, Bottom: c.Bottom, Left: c.Left, Right: c.Right, Parts: MaxParts + 1},
		{Top: -1, Bottom: -1, Left: -1, Right: -1, Parts: 2},
	} {
		if _, err := sp.Count(context.Background(), 10); !errors.Is(err, ErrSubpart) {
			t.Errorf("count %v: %v, want %v", sp, err, ErrSubpart)
		}
		if err := sp.CheckTally(10, Tally{}); !errors.Is(err, ErrSubpart) {
			t.Errorf("check tally %v: %v, want %v", sp, err, ErrSubpart)
		}
	}
	if c.Split(0) != nil || c.Split(MaxParts+1) != nil {
		t.Errorf("split into 0 or too many parts")
	}
	if got := c.Split(3)[2].String(); got != "0:2:0:5#2/3" {
		t.Errorf("sub-part named %q", got)
	}
}
