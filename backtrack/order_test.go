package backtrack

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

// inverse returns the rows of the queens column by column (1-based, as
// the textbooks write a column-order solution).
func inverse(s board.Solution) []int {
	out := make([]int, len(s))
	for r, c := range s {
		out[c] = r + 1
	}
	return out
}

func TestColumnOrder(t *testing.T) {
	// The textbook's first 8-queens solution, filled column by column:
	// the queen of column 1 on row 1, of column 2 on row 5, ...
	first, _, err := First(context.Background(), 8, Options{Strategy: Lex, Order: Columns})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(inverse(first)); got != "[1 5 8 6 3 7 2 4]" {
		t.Errorf("first solution by columns: rows %s, want [1 5 8 6 3 7 2 4]", got)
	}
	if first.Check() != nil {
		t.Errorf("first solution %v is not valid", first)
	}
	// Every solution once, sorted by the rows of the columns left to
	// right; the same set as brute force.
	for n := 1; n <= 8; n++ {
		var got []board.Solution
		for s, err := range All(context.Background(), n, Options{Strategy: Lex, Order: Columns}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, s)
		}
		if !slices.IsSortedFunc(got, func(a, b board.Solution) int { return slices.Compare(inverse(a), inverse(b)) }) {
			t.Errorf("n=%d: column-order solutions not sorted by columns", n)
		}
		want := testutil.Solutions(n, nil)
		slices.SortFunc(got, func(a, b board.Solution) int { return slices.Compare(a, b) })
		if !slices.EqualFunc(got, want, board.Solution.Equal) {
			t.Errorf("n=%d: %d solutions by columns, brute force %d", n, len(got), len(want))
		}
	}
	// Pre-placed queens and unique classes are on the board itself.
	place := []board.Queen{{Row: 0, Col: 1}, {Row: 4, Col: 2}}
	n := 0
	for s, err := range All(context.Background(), 8, Options{Order: Columns, Place: place}) {
		if err != nil || !s.Contains(place) {
			t.Fatalf("%v %v", s, err)
		}
		n++
	}
	if want := len(testutil.Solutions(8, place)); n != want {
		t.Errorf("%d solutions with %v by columns, want %d", n, place, want)
	}
	for _, rot := range []bool{false, true} {
		k := 0
		for s, err := range All(context.Background(), 8, Options{Order: Columns, Unique: true, Rotations: rot}) {
			if err != nil {
				t.Fatal(err)
			}
			if rot && !board.IsCanonicalRotation(s) || !rot && !board.IsCanonical(s) {
				t.Errorf("%v is not canonical (rotations only: %v)", s, rot)
			}
			k++
		}
		if want := map[bool]int{false: 12, true: 24}[rot]; k != want {
			t.Errorf("unique by columns, rotations only %v: %d, want %d", rot, k, want)
		}
	}
	if _, err := ParseOrder("diagonals"); err == nil {
		t.Error("ParseOrder(diagonals) succeeded")
	}
	if o, err := ParseOrder("columns"); err != nil || o != Columns || o.String() != "columns" {
		t.Errorf("ParseOrder(columns) = %v, %v", o, err)
	}
}

func TestUniqueRotations(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for _, strategy := range []Strategy{Lex, Heuristic} {
			k := 0
			for s, err := range All(context.Background(), n, Options{Strategy: strategy, Unique: true, Rotations: true}) {
				if err != nil {
					t.Fatal(err)
				}
				if !board.IsCanonicalRotation(s) {
					t.Fatalf("n=%d: %v not canonical under rotations", n, s)
				}
				k++
			}
			// Classes under the rotations, from the brute-force solutions.
			want := 0
			for _, s := range testutil.Solutions(n, nil) {
				if slices.Equal(board.CanonicalRotation(s), s) {
					want++
				}
			}
			if k != want {
				t.Errorf("n=%d %v: %d classes under rotations, want %d", n, strategy, k, want)
			}
		}
	}
}

// TestCountRotations checks Count's classes under the rotations against
// brute force: the orbits of the quarter turn, built by hand.
func TestCountRotations(t *testing.T) {
	for n := 1; n <= 10; n++ {
		classes := testutil.RotationClasses(testutil.Solutions(n, nil))
		got, err := Count(context.Background(), n, CountOptions{Unique: true, Threads: 2})
		if err != nil || got.Rotations != classes {
			t.Errorf("Count(%d).Rotations = %d, %v; brute force %d", n, got.Rotations, err, classes)
		}
		if n == 8 && got.Rotations != 24 {
			t.Errorf("n=8: %d classes under rotations, want 24", got.Rotations)
		}
	}
}
