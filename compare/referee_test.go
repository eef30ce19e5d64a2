package compare_test

import (
	"context"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/internal/testutil"
)

// TestConstruct: the explicit construction is a valid board for every n
// from 4 to 1000 (each residue mod 6 many times over).
func TestConstruct(t *testing.T) {
	for n := 4; n <= 1000; n++ {
		s := compare.Construct(n)
		if len(s) != n || s.Check() != nil {
			t.Fatalf("Construct(%d) = %v: %v", n, s, s.Check())
		}
	}
	if compare.Construct(3) != nil {
		t.Error("Construct(3) is not nil")
	}
}

// TestRefereeSmall checks Exists and Completions against the brute-force
// reference for every placement of one queen, n = 1..7, and of two queens
// at n = 6.
func TestRefereeSmall(t *testing.T) {
	ctx := context.Background()
	check := func(n int, place []board.Queen) {
		t.Helper()
		want, _ := testutil.Count(n, place)
		e, err := compare.Exists(ctx, n, place)
		if err != nil || !e.Decided || e.Exists != (want > 0) || e.Exists && (!e.Witness.Contains(place) || e.Witness.Check() != nil) {
			t.Errorf("Exists(%d, %v) = %+v, %v; want exists %v", n, place, e, err, want > 0)
		}
		c, err := compare.Completions(ctx, n, place)
		if err != nil || !c.Counted || c.Count != want {
			t.Errorf("Completions(%d, %v) = %+v, %v; want %d", n, place, c, err, want)
		}
	}
	for n := 1; n <= 7; n++ {
		check(n, nil)
		for row := range n {
			for col := range n {
				check(n, []board.Queen{{Row: row, Col: col}})
			}
		}
	}
	for a := range 36 {
		for b := a + 1; b < 36; b++ {
			place := []board.Queen{{Row: a / 6, Col: a % 6}, {Row: b / 6, Col: b % 6}}
			if board.CheckPlacement(6, place) == nil {
				check(6, place)
			}
		}
	}
}

// TestRefereeLimits: beyond its limits the referee says it does not
// know, rather than guessing; a count stopped by ctx is unknown too.
func TestRefereeLimits(t *testing.T) {
	ctx := context.Background()
	if v, err := compare.Completions(ctx, 28, nil); err != nil || v.Counted {
		t.Errorf("Completions(28) = %+v, %v; want unknown", v, err)
	}
	place := []board.Queen{{Row: 0, Col: 0}}
	if v, err := compare.Completions(ctx, compare.RefereeCountMax+1, place); err != nil || v.Counted {
		t.Errorf("Completions(%d, place) = %+v, %v; want unknown", compare.RefereeCountMax+1, v, err)
	}
	if v, err := compare.Exists(ctx, 200, nil); err != nil || !v.Decided || !v.Exists || v.Witness.Check() != nil {
		t.Errorf("Exists(200) = %+v, %v", v, err)
	}
	if v, err := compare.Exists(ctx, 200, place); err != nil || !v.Decided || !v.Exists || !v.Witness.Contains(place) {
		t.Errorf("Exists(200, 1:1) = %v, %v", v, err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if v, err := compare.Completions(done, 16, place); err != nil || v.Counted {
		t.Errorf("cancelled Completions = %+v, %v; want unknown", v, err)
	}
	if _, err := compare.Exists(ctx, 8, []board.Queen{{Row: 0, Col: 0}, {Row: 1, Col: 1}}); err == nil {
		t.Error("Exists accepted attacking queens")
	}
}
