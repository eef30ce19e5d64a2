package join

import (
	"context"
	"encoding/json"
	"testing"

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
