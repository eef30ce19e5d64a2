package shard

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
)

// TestPlainCount checks the plain search against both engines: every
// piece of both splits of every board up to n = 11 (and those of n = 12
// and 13 in a sample) has the tally the engine finds, so that a recount
// with the plain search judges a line by arithmetic, whatever its engine
// field says.
func TestPlainCount(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 13; n++ {
		step := 1
		if n > 11 {
			step = 7
		}
		sps, err := backtrack.Subproblems(n)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(sps); i += step {
			want, err := sps[i].Count(ctx, n)
			if err != nil {
				t.Fatal(err)
			}
			got, err := plainCount(ctx, n, key{sp: sps[i]})
			if err != nil || !sameCount(got, want) {
				t.Errorf("n = %d, constellation %v: plain search %+v, %v; the constellations %+v", n, sps[i], got, err, want)
			}
		}
		jps, err := join.Pieces(n)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(jps); i += step {
			want, err := jps[i].Count(ctx, n)
			if err != nil {
				t.Fatal(err)
			}
			got, err := plainCount(ctx, n, key{jp: jps[i], join: true})
			if err != nil || !sameCount(got, want) {
				t.Errorf("n = %d, join piece %v: plain search %+v, %v; the join %+v", n, jps[i], got, err, want)
			}
		}
	}
}

// TestJoinPieceColumns checks the plain search's reading of a join
// piece's outer columns against every piece of every board: each names
// only the outer columns of joinPieceColumns(n), and the patterns of 2k
// bits are those of the pieces.
func TestJoinPieceColumns(t *testing.T) {
	for n := 1; n <= join.MaxN; n++ {
		ps, err := join.Pieces(n)
		if err != nil {
			t.Fatal(err)
		}
		k := joinPieceColumns(n)
		var seen uint32
		for _, p := range ps {
			if p.Middle != join.Symmetric {
				seen |= p.Outer
			}
		}
		// The top bit of 2k is never a piece's (its image, without it, is
		// smaller: that part stands for it), the one below it is, on
		// every board with outer columns and a part.
		if seen>>uint(2*k-1) != 0 || k > 0 && n >= 4 && seen>>uint(2*k-2) == 0 {
			t.Errorf("n = %d: outer columns %d a side, but the pieces' patterns take bits %b", n, k, seen)
		}
	}
}

// TestPlainCountStops checks that the plain search stops when its context
// ends.
func TestPlainCountStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sps, _ := backtrack.Subproblems(16)
	if _, err := plainCount(ctx, 16, key{sp: sps[0]}); err != context.Canceled {
		t.Errorf("plain search with its context ended: %v; want context.Canceled", err)
	}
}

// plainMerge merges lines with a Merger that recounts k pieces (wholes)
// with the plain search.
func plainMerge(t *testing.T, lines [][]byte, k int, seed uint64) ([]Checked, error) {
	t.Helper()
	rs, err := parseAll(lines)
	if err != nil {
		t.Fatal(err)
	}
	m := Merger{Verify: func(int) (int, error) { return k, nil }, Seed: seed, Plain: true}
	for _, r := range rs {
		if err := m.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Sum(); err != nil {
		t.Fatal(err)
	}
	return m.Recount(context.Background(), 2)
}

// TestMergerPlain recounts every piece of a count of each scheme with the
// plain search (of a split, its whole constellations against the sums of
// their sub-parts), and catches a line whose tally was forged (kept
// possible, checksum recomputed) whatever engine it names.
func TestMergerPlain(t *testing.T) {
	var split [][]byte
	for i := range 3 {
		r, err := Run(context.Background(), Spec{N: 9, Index: i, Shards: 3, Version: "test", Split: 3}, Options{Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		split = append(split, r.AppendLine(nil))
	}
	cons := runAll(t, 9, 3, "test")
	subs, _ := backtrack.Subproblems(9)
	jps, _ := join.Pieces(9)
	for _, c := range []struct {
		name   string
		lines  [][]byte
		wholes int
	}{{"constellations", cons, len(subs)}, {"join", runJoin(t, 9, 3), len(jps)}, {"split", split, len(subs)}} {
		checked, err := plainMerge(t, c.lines, 1<<20, 5)
		if err != nil || len(checked) != c.wholes {
			t.Errorf("%s: plain recount of everything: %d checked, %v; want %d", c.name, len(checked), err, c.wholes)
		}
		for _, ch := range checked {
			if strings.Contains(ch.Piece, "#") {
				t.Errorf("%s: a sub-part %s recounted, not its constellation", c.name, ch.Piece)
			}
		}
		if a, _ := plainMerge(t, c.lines, 3, 9); len(a) != 3 {
			t.Errorf("%s: plain recount of 3: %d checked", c.name, len(a))
		}
	}
	for _, engine := range []string{EngineConstellations, EngineGPU} {
		r, err := Parse(cons[1])
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(r.Tallies, func(t backtrack.Tally) bool { return t.Total24 > 0 })
		w := r.Tallies[i].Total24 / 24 / 8 * 8 // keeps the tally one its piece can have: a multiple of 24 × the weight
		if w == 0 {
			w = r.Tallies[i].Total24 / 24
		}
		r.Tallies[i].Total24 += 24 * w
		r.Tallies[i].Unique24 += 3 * w
		r.Sums, _ = SumTallies(r.Tallies)
		r.Engine = engine
		forged := [][]byte{cons[0], r.AppendLine(nil), cons[2]}
		_, err = plainMerge(t, forged, 1<<20, 5)
		want := fmt.Sprintf("piece %v of shard 1", r.Pieces[i])
		if !errors.Is(err, ErrVerify) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "a recount with the plain search") {
			t.Errorf("engine %s, a forged piece: plain recount %v; want ErrVerify naming %q", engine, err, want)
		}
	}
}
