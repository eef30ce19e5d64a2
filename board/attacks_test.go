package board_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

// attackedBy counts, square by square, the queens that attack it by the
// definition (same row, column or diagonal), independently of Attacks.
func attackedBy(n int, qs []board.Queen, row, col int) int {
	k := 0
	seen := map[board.Queen]bool{}
	for _, q := range qs {
		if seen[q] || q.Row < 0 || q.Row >= n || q.Col < 0 || q.Col >= n {
			continue
		}
		seen[q] = true
		if q.Row == row && q.Col == col {
			return -1
		}
		dr, dc := q.Row-row, q.Col-col
		if dr == 0 || dc == 0 || dr == dc || dr == -dc {
			k++
		}
	}
	return k
}

func TestAttacksCountsByDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 1 + rng.IntN(9)
		var qs []board.Queen
		for range rng.IntN(2 * n) {
			qs = append(qs, board.Queen{Row: rng.IntN(n+1) - 1, Col: rng.IntN(n)}) // some off the board
		}
		got := board.Attacks(n, qs)
		for row := range n {
			for col := range n {
				if want := attackedBy(n, qs, row, col); got[row*n+col] != want {
					t.Fatalf("trial %d: Attacks(%d, %v)[%d:%d] = %d, want %d", trial, n, qs, row+1, col+1, got[row*n+col], want)
				}
			}
		}
	}
}

func TestAttacksOfASolution(t *testing.T) {
	// In a solution no queen attacks another, and every empty square of
	// an n×n board is attacked (a free one would take an n+1st queen).
	for _, s := range testutil.Solutions(8, nil) {
		for i, v := range board.Attacks(8, s.Queens()) {
			if (s[i/8] == i%8) != (v == -1) || v == 0 {
				t.Fatalf("%v: square %d has %d", s, i, v)
			}
		}
	}
}

func TestAppendAttacks(t *testing.T) {
	b, err := board.Append(nil, board.Solution{-1, 1, -1, -1}, board.FormatAttacks)
	if err != nil {
		t.Fatal(err)
	}
	want := " 1  1  1  0\n 1  Q  1  1\n 1  1  1  0\n 0  1  0  1\n"
	if string(b) != want {
		t.Errorf("attacks of 2:2 on 4x4:\n%s\nwant\n%s", b, want)
	}
	// Wide counts widen every column.
	s := make(board.Solution, 12)
	for i := range s {
		s[i] = -1
	}
	b, _ = board.Append(nil, s, board.FormatAttacks)
	if string(b[:6]) != " 0  0 " {
		t.Errorf("empty board starts %q", b[:4])
	}
	if _, err := board.ParseFormat("attacks"); err == nil {
		t.Error("ParseFormat accepts attacks, which Parse cannot read")
	}
}

func TestPartialAppend(t *testing.T) {
	s := board.Solution{-1, 2, -1, 0}
	for f, want := range map[board.Format]string{
		board.FormatCoords: "2:3 4:1\n",
		board.FormatMatrix: "0 0 0 0\n0 0 1 0\n0 0 0 0\n1 0 0 0\n",
	} {
		b, err := board.Append(nil, s, f)
		if err != nil || string(b) != want {
			t.Errorf("Append(%v, %s) = %q, %v; want %q", s, f, b, err, want)
		}
	}
}

func TestConflicts(t *testing.T) {
	qs := []board.Queen{{0, 0}, {0, 3}, {3, 3}, {2, 1}, {0, 0}}
	got := fmt.Sprint(errs(board.Conflicts(qs)))
	want := "[queens at 1:1 and 1:4 share a row queens at 1:1 and 4:4 share a diagonal queens at 1:4 and 4:4 share a column queens at 1:4 and 3:2 share an anti-diagonal]"
	if got != want {
		t.Errorf("Conflicts(%v) = %s\nwant %s", qs, got, want)
	}
	for _, s := range testutil.Solutions(6, nil) {
		if c := board.Conflicts(s.Queens()); c != nil {
			t.Errorf("solution %v has conflicts %v", s, c)
		}
	}
}

func errs(cs []board.Conflict) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Error())
	}
	return out
}

func TestRotationClassesBruteForce(t *testing.T) {
	// The number of classes under the four rotations, counted by building
	// the orbits by hand; n = 8 has the well-known 24.
	for n := 1; n <= 9; n++ {
		sols := testutil.Solutions(n, nil)
		canon := uint64(0)
		for _, s := range sols {
			if board.IsCanonicalRotation(s) {
				canon++
			}
			if !board.CanonicalRotation(s).Equal(board.CanonicalRotation(testutil.QuarterTurn(s))) {
				t.Fatalf("n=%d: %v and its quarter turn have different representatives", n, s)
			}
		}
		classes := testutil.RotationClasses(sols)
		if canon != classes {
			t.Errorf("n=%d: %d canonical under rotations, want %d classes", n, canon, classes)
		}
		if n == 8 && classes != 24 {
			t.Errorf("n=8: %d classes under rotations, want 24", classes)
		}
	}
}
