package gpu

import (
	"context"
	"fmt"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
)

// cpuPieces counts every piece of an n×n board with backtrack's own
// counter, the independent check of the per-piece tallies.
func cpuPieces(t *testing.T, n int) ([]backtrack.Subproblem, []backtrack.Tally) {
	t.Helper()
	sps, err := backtrack.Subproblems(n)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]backtrack.Tally, len(sps))
	for i, sp := range sps {
		if want[i], err = sp.Count(context.Background(), n); err != nil {
			t.Fatalf("%v.Count(%d): %v", sp, n, err)
		}
	}
	return sps, want
}

// samePieces fails t unless got and want agree on every piece's
// solutions (Nodes differ: the kernel does not count its queens).
func samePieces(t *testing.T, n int, sps []backtrack.Subproblem, got, want []backtrack.Tally) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("n=%d: %d pieces, want %d", n, len(got), len(want))
	}
	bad := 0
	for i := range want {
		if got[i].Total24 != want[i].Total24 || got[i].Unique24 != want[i].Unique24 {
			if bad++; bad <= 5 {
				t.Errorf("n=%d piece %v: total24 %d unique24 %d, want %d %d", n, sps[i],
					got[i].Total24, got[i].Unique24, want[i].Total24, want[i].Unique24)
			}
		}
	}
}

func TestReferenceKnown(t *testing.T) {
	for n := 1; n <= 13; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			want, _ := board.Known(n)
			got, err := Reference(context.Background(), n, Options{})
			if err != nil {
				t.Fatalf("Reference(%d): %v", n, err)
			}
			if got.Total != want.Total || got.Unique != want.Unique {
				t.Errorf("Reference(%d) = %d (%d unique), want %d (%d unique)", n, got.Total, got.Unique, want.Total, want.Unique)
			}
		})
	}
}

// TestReferencePieces compares every piece with backtrack's counter, for
// the default split and for splits into more and fewer, larger tasks, with
// the twins of both kernels.
func TestReferencePieces(t *testing.T) {
	for n := 4; n <= 13; n++ {
		sps, want := cpuPieces(t, n)
		for _, c := range []struct {
			rows   int
			design Design
		}{{0, DesignTask}, {3, DesignTask}, {5, DesignTask}, {8, DesignTask}, {MaxRows, DesignTask}, {0, DesignLoop}, {3, DesignLoop}, {MaxRows, DesignLoop}} {
			t.Run(fmt.Sprintf("n=%d/rows=%d/%v", n, c.rows, c.design), func(t *testing.T) {
				got, err := Reference(context.Background(), n, Options{Rows: c.rows, Batch: 1000, Design: c.design})
				if err != nil {
					t.Fatalf("Reference(%d): %v", n, err)
				}
				samePieces(t, n, sps, got.Pieces, want)
			})
		}
	}
}
