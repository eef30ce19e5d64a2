package compare_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/encode"
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

// TestRefereeCheck: the verdicts and refutations of the library referee,
// one claim of each kind.
func TestRefereeCheck(t *testing.T) {
	ctx := context.Background()
	p11 := []board.Queen{{Row: 0, Col: 0}}
	for _, tc := range []struct {
		name  string
		r     compare.Referee
		claim compare.Claim
		by    compare.Method
		why   compare.Reason
		err   string // the refutation, "" if none
	}{
		{"none, n = 8", compare.Referee{N: 8}, compare.Claim{}, 0, 0, "an explicit construction gives a solution: [6 1 5 2 8 3 7 4]"},
		{"none, n = 3", compare.Referee{N: 3}, compare.Claim{}, compare.Published, 0, ""},
		{"none, n = 8, 1:1 2:3", compare.Referee{N: 8, Place: []board.Queen{{Row: 0, Col: 0}, {Row: 1, Col: 2}}}, compare.Claim{}, compare.Backtracker, 0, ""},
		{"none, n = 8, 1:1", compare.Referee{N: 8, Place: p11}, compare.Claim{}, 0, 0, "the backtracker gives a solution: [1 5 8 6 3 7 2 4]"},
		{"92, n = 8", compare.Referee{N: 8}, compare.Claim{Solutions: 92}, compare.Published, 0, ""},
		{"91, n = 8", compare.Referee{N: 8}, compare.Claim{Solutions: 91}, 0, 0, "the published count is 92"},
		{"4, n = 8, 1:1", compare.Referee{N: 8, Place: p11}, compare.Claim{Solutions: 4}, compare.Backtracker, 0, ""},
		{"2, n = 8, 1:1", compare.Referee{N: 8, Place: p11}, compare.Claim{Solutions: 2}, 0, 0, "the backtracker counts 4"},
		{"12 classes, n = 8", compare.Referee{N: 8}, compare.Claim{Solutions: 12, Classes: true, Total: 92}, compare.Published, 0, ""},
		{"11 classes, n = 8", compare.Referee{N: 8}, compare.Claim{Solutions: 11, Classes: true, Total: 88}, 0, 0, "the published count of classes is 12"},
		// A liar's "2 solutions (1 unique)" for n = 8 with 1:1: the
		// total is refereed, 4.
		{"1 class, n = 8, 1:1", compare.Referee{N: 8, Place: p11}, compare.Claim{Solutions: 1, Classes: true, Total: 2}, 0, 0, "the backtracker counts 4"},
		{"2 classes, n = 8, 1:1", compare.Referee{N: 8, Place: p11}, compare.Claim{Solutions: 2, Classes: true, Total: 4}, compare.Backtracker, 0, ""},
		{"5, n = 20, 1:1", compare.Referee{N: 20, Place: p11}, compare.Claim{Solutions: 5}, compare.Unverified, compare.CountLimit, ""},
		{"5, n = 20, 1:1, proved", compare.Referee{N: 20, Place: p11}, compare.Claim{Solutions: 5, Proved: true}, compare.Proof, 0, ""},
		{"5, n = 28", compare.Referee{N: 28}, compare.Claim{Solutions: 5}, compare.Unverified, compare.TableLimit, ""},
		{"5 classes, n = 20, 1:1", compare.Referee{N: 20, Place: p11}, compare.Claim{Solutions: 5, Classes: true, Total: 10}, compare.Unverified, compare.CountLimit, ""},
	} {
		v, err := tc.r.Check(ctx, tc.claim)
		var ref *compare.Refutation
		switch {
		case tc.err != "" && (!errors.As(err, &ref) || err.Error() != tc.err):
			t.Errorf("%s: %+v, %v; want the refutation %q", tc.name, v, err, tc.err)
		case tc.err == "" && (err != nil || v.By != tc.by || v.Why != tc.why || v.Verified() != (tc.by != compare.Unverified)):
			t.Errorf("%s: %+v, %v; want by %v, why %v", tc.name, v, err, tc.by, tc.why)
		}
	}
	if _, err := (compare.Referee{N: 8, Place: []board.Queen{{Row: 0, Col: 0}, {Row: 1, Col: 1}}}).Check(ctx, compare.Claim{}); err == nil || errors.As(err, new(*compare.Refutation)) {
		t.Errorf("attacking queens: %v, want an input error", err)
	}
}

// TestRefereeWitness: where the backtracker cannot decide within the
// budget, a model gini finds refutes a claim of no solution. The
// completion instance of "queens dimacs -n 150 --random-place 111 --seed
// 3" has solutions; the backtracker finds none in seconds, gini one in
// well under a second.
func TestRefereeWitness(t *testing.T) {
	place, err := encode.RandomPlacement(150, 111, 3)
	if err != nil {
		t.Fatal(err)
	}
	// 2 s is plenty here; a slower machine (or -race) gets more.
	for _, budget := range []time.Duration{2 * time.Second, 10 * time.Second} {
		var v compare.Verdict
		if v, err = (compare.Referee{N: 150, Place: place, Budget: budget}).Check(context.Background(), compare.Claim{}); err != nil || v.Why != compare.OverBudget {
			break
		}
	}
	var ref *compare.Refutation
	if !errors.As(err, &ref) || ref.By != compare.Witness || !board.Valid(ref.Witness) || !ref.Witness.Contains(place) {
		t.Fatalf("no solution at n = 150 with 111 queens: %v, want gini's witness", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if f, _ := compare.Exists(ctx, 150, place); f.Decided {
		t.Log("the backtracker decided it within half a second here: the witness was not needed")
	}
}

// TestMethodNames: the names are the "verified_by" values of the JSON.
func TestMethodNames(t *testing.T) {
	want := []string{"unverified", "proof", "construction", "published", "backtracker", "witness"}
	for i, w := range want {
		if got := compare.Method(i).String(); got != w {
			t.Errorf("Method(%d) = %q, want %q", i, got, w)
		}
		if b, err := compare.Method(i).MarshalText(); err != nil || string(b) != w {
			t.Errorf("Method(%d).MarshalText = %q, %v", i, b, err)
		}
	}
}
