package join

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
)

// TestPiecesSum counts every piece of n = 1..14 and checks the sums
// against the published counts and against Count, and each tally against
// CheckTally.
func TestPiecesSum(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 14; n++ {
		ps, err := Pieces(n)
		if err != nil {
			t.Fatal(err)
		}
		if ps[len(ps)-1].Middle != Symmetric {
			t.Fatalf("n=%d: the last piece is %v, want sym", n, ps[len(ps)-1])
		}
		seen := map[Piece]bool{}
		var total24, unique24 uint64
		for _, p := range ps {
			if seen[p] {
				t.Fatalf("n=%d: piece %v twice", n, p)
			}
			seen[p] = true
			tl, err := p.Count(ctx, n)
			if err != nil {
				t.Fatalf("n=%d piece %v: %v", n, p, err)
			}
			if err := p.CheckTally(n, tl); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			total24 += tl.Total24
			unique24 += tl.Unique24
		}
		want, _ := board.Known(n)
		if total24 != 24*want.Total || unique24 != 24*want.Unique {
			t.Errorf("n=%d: pieces sum to %d/24 solutions, %d/24 unique; want %d, %d", n, total24, unique24, want.Total, want.Unique)
		}
		res, err := Count(ctx, n, Options{Unique: true, Threads: 1})
		if err != nil || 24*res.Total != total24 || 24*res.Unique != unique24 {
			t.Errorf("n=%d: Count found %d (%d unique), %v; the pieces %d/24 (%d/24)", n, res.Total, res.Unique, err, total24, unique24)
		}
	}
}

// TestPiecesFixed checks that the list depends on n alone and that every
// n up to MaxN has pieces (with -short up to 22: from 23 on a list takes
// about a second).
func TestPiecesFixed(t *testing.T) {
	for n := 1; n <= MaxN; n++ {
		if testing.Short() && n > 22 {
			break
		}
		a, err := Pieces(n)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Pieces(n)
		if len(a) < 2 || len(a) != len(b) {
			t.Fatalf("n=%d: %d and %d pieces", n, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("n=%d: piece %d is %v and %v", n, i, a[i], b[i])
			}
		}
	}
	for _, n := range []int{0, -1, MaxN + 1} {
		if _, err := Pieces(n); err == nil {
			t.Errorf("Pieces(%d) took it", n)
		}
	}
}

// TestPieceForms round-trips every piece of a few boards through its text
// and JSON forms and refuses damaged ones.
func TestPieceForms(t *testing.T) {
	for _, n := range []int{8, 9, 16, 17} {
		ps, _ := Pieces(n)
		for _, p := range ps {
			q, err := ParsePiece(p.String())
			if err != nil || q != p {
				t.Fatalf("ParsePiece(%q) = %v, %v", p.String(), q, err)
			}
			b, _ := json.Marshal(p)
			var r Piece
			if err := json.Unmarshal(b, &r); err != nil || r != p {
				t.Fatalf("json %s: %v, %v", b, r, err)
			}
			if err := p.Check(n); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, s := range []string{"", "1:2", "x:1:1", "-:1:-1", "99:1:1", "-:1:z"} {
		if p, err := ParsePiece(s); err == nil {
			t.Errorf("ParsePiece(%q) = %v", s, p)
		}
	}
	for _, b := range []string{`[0,0]`, `[-4,0,1]`, `[0,-1,1]`, `[0,0,0]`, `[0,0,9]`, `[0,4294967296,1]`, `"x"`} {
		var p Piece
		if err := json.Unmarshal([]byte(b), &p); err == nil {
			t.Errorf("json %s read as %v", b, p)
		}
	}
	if err := (Piece{Middle: NoMiddle, Outer: 1 << 20, Weight: 1}).Check(8); err == nil {
		t.Error("a piece of no board passed Check")
	}
	p, _ := Pieces(8)
	if err := p[0].CheckTally(8, backtrack.Tally{Total24: 24*p[0].Weight + 1}); err == nil {
		t.Error("a tally of no whole solutions passed CheckTally")
	}
}

// TestPieceCancel: a cancelled count returns the context's error.
func TestPieceCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ps, _ := Pieces(12)
	for _, p := range []Piece{ps[0], ps[len(ps)-1]} {
		if _, err := p.Count(ctx, 12); err != context.Canceled {
			t.Errorf("piece %v: %v, want context.Canceled", p, err)
		}
	}
}

// TestPieceCheck checks Piece.Check against the list of Pieces for every
// middle, outer pattern (and a few past them) and weight of n = 1 to 13
// and 20 and 21, where the pieces take more outer columns.
func TestPieceCheck(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20, 21} {
		ps, err := Pieces(n)
		if err != nil {
			t.Fatal(err)
		}
		in := map[Piece]bool{}
		for _, p := range ps {
			in[p] = true
		}
		k := pieceColumns(n)
		for mid := InnerMiddle; mid <= n; mid++ {
			for outer := uint32(0); outer < 1<<uint(2*k)+3; outer++ {
				for w := range uint64(4) {
					p := Piece{Middle: mid, Outer: outer, Weight: w}
					if err := p.Check(n); (err == nil) != in[p] {
						t.Fatalf("n=%d: piece %v: Check says %v, Pieces %v", n, p, err, in[p])
					}
				}
			}
		}
	}
}

// TestPieceUnits counts random pieces of n = 4 to 17 in random ranges of
// their units, on random paths of the halves (the quarter table, tables
// of exact columns, a memory limit that fits neither): the ranges must
// add up to the whole piece's tally (pairs included: each unit tests the
// same pairs wherever it is counted), and out-of-range spans are refused.
func TestPieceUnits(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(45, 3))
	for range 60 {
		n := 4 + r.IntN(14)
		ps, err := Pieces(n)
		if err != nil {
			t.Fatal(err)
		}
		p := ps[r.IntN(len(ps))]
		units, err := p.Units(n)
		if err != nil || units < 1 {
			t.Fatalf("n=%d piece %v: %d units, %v", n, p, units, err)
		}
		if c := p.Cost(n); c < uint64(units) {
			t.Errorf("n=%d piece %v: cost %d below its %d units", n, p, c, units)
		}
		opt := Options{Threads: 1, Memory: []int64{0, 4 << 20}[r.IntN(2)]}
		whole, err := p.CountWith(ctx, n, opt)
		if err != nil {
			t.Fatal(err)
		}
		var sum backtrack.Tally
		for from := 0; from < units; {
			to := min(units, from+1+r.IntN(max(1, units/3)))
			tl, err := p.CountUnits(ctx, n, opt, from, to)
			if err != nil {
				t.Fatalf("n=%d piece %v units %d-%d: %v", n, p, from, to, err)
			}
			if err := p.CheckTally(n, tl); err != nil {
				t.Fatalf("n=%d piece %v units %d-%d: %v", n, p, from, to, err)
			}
			sum.Total24 += tl.Total24
			sum.Unique24 += tl.Unique24
			sum.Nodes += tl.Nodes
			from = to
		}
		if sum != whole {
			t.Errorf("n=%d piece %v (%d units): ranges sum to %+v, the whole piece %+v", n, p, units, sum, whole)
		}
		for _, span := range [][2]int{{-1, 1}, {0, units + 1}, {units, units}, {1, 0}} {
			if _, err := p.CountUnits(ctx, n, opt, span[0], span[1]); err == nil {
				t.Errorf("n=%d piece %v: units %d to %d of %d accepted", n, p, span[0], span[1], units)
			}
		}
	}
	if _, err := (Piece{Middle: NoMiddle, Outer: 1 << 20, Weight: 2}).Units(16); err == nil {
		t.Error("Units of a piece not of the board: no error")
	}
}

// TestPieceStops cancels the count of the largest piece of n = 28 (a
// core-hour or so) half a second after it starts: it must return the
// context's error within 5 s of the cancel (the deadline is what the test
// tests: a Slurm or Kubernetes grace is 30 s; the whole piece took 179 s
// to stop when its halves were searched before they were matched).
func TestPieceStops(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the pieces of n = 28 (3 s)")
	}
	ps, err := Pieces(28)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := ps[0].CountWith(ctx, 28, Options{Threads: 1})
		done <- err
	}()
	time.Sleep(500 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != context.Canceled {
			t.Errorf("the cancelled piece: %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the piece still counts 5 s after its context was cancelled")
	}
}
