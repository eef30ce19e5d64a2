package join

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/queens-dev/queens/internal/testutil"
)

// TestQuarters checks the sizes quarterBytes gives against the tables
// built (h = 9 takes a fifth of a second, not with -short; h = 10 two
// seconds and 47 MiB, not under the race detector either); TestSplits
// counts with them.
func TestQuarters(t *testing.T) {
	for h := 0; h <= quarterMaxN/2; h++ {
		if h > 8 && testing.Short() || h > 9 && testutil.Race {
			break
		}
		q := newQuarters(h, nil)
		if got := int64(len(q.ds)-2) / 6; got != quarterPlacements[h] || h > 0 && q.bytes != quarterBytes(2*h) || q.bytes != quarterBytes(2*h+1) {
			t.Errorf("h=%d: %d placements, %d bytes; quarterPlacements says %d, quarterBytes %d", h, got, q.bytes, quarterPlacements[h], quarterBytes(2*h))
		}
	}
	if quarterBytes(quarterMaxN+1) != 0 || quarterBytes(0) != 0 {
		t.Errorf("quarterBytes past its range: %d, %d", quarterBytes(quarterMaxN+1), quarterBytes(0))
	}
}

// TestQuartersLarge counts small pieces of n = 20 and 21 (whose tables
// TestQuarters does not count with) with halves built from quarter boards
// and from tables of exact columns (which must find the same solutions
// and halves and test the same pairs), and with searched halves, which
// must find the same solutions (and,
// but for the middle queen in any inner column, which the two count
// apart, as many halves):
// for each kind of middle queen (none; any inner column; an outer
// column), the smallest pieces of that kind until three have solutions.
// About 2 s and 147 MiB: not with -short nor under the race detector.
func TestQuartersLarge(t *testing.T) {
	if testing.Short() || testutil.Race {
		t.Skip("-short or -race: quarter tables of 92 and 147 MiB")
	}
	var stop atomic.Bool
	kind := func(p Piece) int { return min(p.Middle, 0) } // NoMiddle, InnerMiddle or 0: a column
	for _, n := range []int{20, 21} {
		ps, err := Pieces(n)
		if err != nil {
			t.Fatal(err)
		}
		q := quartersFor(n, nil)
		kinds := []int{NoMiddle}
		if n%2 == 1 {
			kinds = []int{InnerMiddle, 0}
		}
		for _, k := range kinds {
			found, tried := 0, 0
			// The smallest pieces are last, before the symmetric piece.
			for i := len(ps) - 2; i >= 0 && found < 3 && tried < 50; i-- {
				p := ps[i]
				if kind(p) != k {
					continue
				}
				tried++
				var c [3]count
				for j := range c {
					pl := newPlan(n, pieceColumns(n))
					pl.q, pl.exact = []*quarters{nil, q, nil}[j], j == 2
					c[j] = pl.newWorker().countWithin(part{mid: p.Middle, outer: p.Outer, weight: p.Weight}, &stop)
				}
				if c[0].total != c[1].total || c[1] != c[2] || k != InnerMiddle && c[0].halves != c[1].halves || c[0].tooBig || c[1].tooBig {
					t.Fatalf("n=%d piece %v: searched %+v, from quarters %+v, from exact columns %+v", n, p, c[0], c[1], c[2])
				}
				if c[0].total > 0 {
					found++
				}
			}
			if found < 3 {
				t.Fatalf("n=%d: %d of %d pieces of middle kind %d have solutions, want 3", n, found, tried, k)
			}
		}
	}
}

// TestQuartersCancel stops the quarter tables of n = 21 before they are
// built: newQuarters gives up, and Count, whose context is done, returns
// its error without tables (their search polls the context; building them
// takes a second).
func TestQuartersCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if q := newQuarters(10, ctx.Done()); q != nil {
		t.Fatalf("newQuarters after its done channel closed: tables of %d bytes", q.bytes)
	}
	res, err := Count(ctx, 21, Options{Threads: 2})
	if !errors.Is(err, context.Canceled) || res.Done != 0 || res.Total != 0 {
		t.Fatalf("Count(21) on a cancelled context: %+v, %v", res, err)
	}
	ps, err := Pieces(21)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ps[0].CountWith(ctx, 21, Options{Threads: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("piece %v of n = 21 on a cancelled context: %v", ps[0], err)
	}
}
