package shard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/board"
)

// constellationPrint is the fingerprint of shard s of Scheme covering
// pieces.
func constellationPrint(s Spec, pieces []backtrack.Subproblem) string {
	r := Result{Scheme: Scheme, Pieces: pieces}
	return fingerprint(s, r.keys())
}

// runJoin runs every shard of n split k ways with the join and returns
// their lines.
func runJoin(t *testing.T, n, k int) [][]byte {
	t.Helper()
	var lines [][]byte
	for i := range k {
		r, err := Run(context.Background(), Spec{N: n, Index: i, Shards: k, Version: "test", Scheme: JoinScheme}, Options{Threads: 2, Engine: EngineJoin})
		if err != nil {
			t.Fatalf("Run(n=%d, %d/%d, join): %v", n, i, k, err)
		}
		lines = append(lines, r.AppendLine(nil))
	}
	return lines
}

// TestJoinMergeKnown runs every join shard of n = 1..12 for several K,
// passes each through its line, merges them in a random order and checks
// the sums against the published counts; each piece is covered once.
func TestJoinMergeKnown(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for _, k := range []int{1, 2, 5, 64} {
			t.Run(fmt.Sprintf("n=%d/K=%d", n, k), func(t *testing.T) {
				lines := runJoin(t, n, k)
				if !bytes.Contains(lines[0], []byte(`"scheme":"join-parts-3","engine":"join",`)) {
					t.Fatalf("a join line does not name its scheme and engine: %s", lines[0])
				}
				rand.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
				rs, err := parseAll(lines)
				if err != nil {
					t.Fatal(err)
				}
				sum, err := Merge(rs)
				want, _ := board.Known(n)
				if err != nil || sum.Total != From64(want.Total) || sum.Unique != From64(want.Unique) {
					t.Fatalf("merge = %d solutions (%d unique), %v; want %d (%d)", sum.Total, sum.Unique, err, want.Total, want.Unique)
				}
				all, _ := join.Pieces(n)
				seen := map[join.Piece]int{}
				for _, r := range rs {
					if len(r.Pieces) != 0 {
						t.Fatalf("a join line holds constellations: %v", r.Pieces)
					}
					for _, p := range r.JoinPieces {
						seen[p]++
					}
				}
				if sum.Parts != len(all) || len(seen) != len(all) {
					t.Fatalf("%d pieces in the split, %d seen; join.Pieces has %d", sum.Parts, len(seen), len(all))
				}
				for p, c := range seen {
					if c != 1 {
						t.Fatalf("piece %v covered %d times", p, c)
					}
				}
				if _, err := Verify(context.Background(), rs, 1000, 1); err != nil {
					t.Fatalf("Verify of honest join lines: %v", err)
				}
			})
		}
	}
}

// TestJoinRefuses: a forged join line is refused by Parse or caught by
// Verify, join and constellation lines of one count do not merge, and
// lines whose engine and scheme disagree are refused.
func TestJoinRefuses(t *testing.T) {
	const n = 10
	lines := runJoin(t, n, 3)
	rs, err := parseAll(lines)
	if err != nil {
		t.Fatal(err)
	}
	// A consistently doubled tally passes Parse and Merge's checks of
	// form; the recount catches it.
	forged, err := Parse(doubled(t, lines[1]))
	if err != nil {
		t.Fatalf("Parse of a consistent forgery: %v", err)
	}
	bad := []Result{rs[0], forged, rs[2]}
	if _, err := Verify(context.Background(), bad, 1000, 1); !errors.Is(err, ErrVerify) || !strings.Contains(err.Error(), "engine join") {
		t.Errorf("Verify of a forged join line: %v; want ErrVerify naming engine join", err)
	}
	// A tally no piece can have, a piece of no split, a weight changed.
	r := rs[1]
	edits := map[string]func(r *Result){
		"tally":  func(r *Result) { r.Tallies[0].Total24 += 24 },
		"piece":  func(r *Result) { r.JoinPieces[0].Outer = 1 << 30 },
		"weight": func(r *Result) { r.JoinPieces[0].Weight = 3 },
		"scheme": func(r *Result) { r.Scheme = Scheme },
		"engine": func(r *Result) { r.Engine = EngineConstellations },
	}
	for name, edit := range edits {
		c := r
		c.JoinPieces = append([]join.Piece(nil), r.JoinPieces...)
		c.Tallies = append([]backtrack.Tally(nil), r.Tallies...)
		edit(&c)
		c.Sums, _ = SumTallies(c.Tallies)
		c.Fingerprint = fingerprint(c.Spec(), c.keys())
		if _, err := Parse(c.AppendLine(nil)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Parse of a join line with its %s edited: %v; want ErrCorrupt", name, err)
		}
	}
	// Mixed with the constellations' shards of the same count.
	cons, err := parseAll(runAll(t, n, 3, "test"))
	if err != nil {
		t.Fatal(err)
	}
	for _, mixed := range [][]Result{{rs[0], cons[1], rs[2]}, {cons[0], rs[1], cons[2]}} {
		_, err := Merge(mixed)
		if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "different pieces") || !strings.Contains(err.Error(), "engine join with scheme join-parts-3") {
			t.Errorf("merge of join and constellation lines: %v; want ErrMismatch saying they split the count differently", err)
		}
	}
	// Run refuses an engine of the other scheme, and a Counter for join
	// pieces.
	s := Spec{N: n, Shards: 1, Version: "test", Scheme: JoinScheme}
	if _, err := Run(context.Background(), s, Options{}); !errors.Is(err, ErrShard) {
		t.Errorf("Run of join pieces with the constellation engine: %v; want ErrShard", err)
	}
	if _, err := Run(context.Background(), Spec{N: n, Shards: 1}, Options{Engine: EngineJoin}); !errors.Is(err, ErrShard) {
		t.Errorf("Run of constellations with the join engine: %v; want ErrShard", err)
	}
	if _, err := Run(context.Background(), Spec{N: join.MaxN + 1, Shards: 1, Scheme: JoinScheme}, Options{Engine: EngineJoin}); !errors.Is(err, ErrShard) {
		t.Errorf("Run of join pieces past join.MaxN: %v; want ErrShard", err)
	}
	if _, _, err := s.Pieces(); !errors.Is(err, ErrShard) {
		t.Errorf("Spec.Pieces of a join spec: %v; want ErrShard", err)
	}
	if _, _, err := (Spec{N: n, Shards: 1}).JoinPieces(); !errors.Is(err, ErrShard) {
		t.Errorf("Spec.JoinPieces of a constellation spec: %v; want ErrShard", err)
	}
}

// TestJoinCheckpointResume stops a join shard after a few pieces and
// resumes it from its checkpoint to the published count.
func TestJoinCheckpointResume(t *testing.T) {
	const n = 13
	want, _ := board.Known(n)
	path := filepath.Join(t.TempDir(), "ck.ckpt")
	s := Spec{N: n, Shards: 1, Version: "v", Scheme: JoinScheme}
	cp, err := OpenCheckpoint(path, s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = Run(ctx, s, Options{Threads: 1, Engine: EngineJoin, OnPiece: func(p Piece) error {
		err := cp.Record(p)
		if len(cp.Done()) == 5 {
			cancel()
		}
		return err
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run cancelled: %v, want context.Canceled", err)
	}
	if err := cp.Flush(); err != nil {
		t.Fatal(err)
	}
	cp.Close()
	// The constellations' checkpoint of the same shard is other work.
	if _, err := OpenCheckpoint(path, Spec{N: n, Shards: 1, Version: "v"}); !errors.Is(err, ErrCheckpoint) {
		t.Errorf("a join checkpoint opened for constellations: %v; want ErrCheckpoint", err)
	}
	cp, err = OpenCheckpoint(path, s)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	done := len(cp.Done())
	covered, parts, _ := s.Covered()
	if done < 5 || done >= parts || covered != parts {
		t.Fatalf("the checkpoint holds %d of %d pieces (%d covered)", done, parts, covered)
	}
	counted := 0
	res, err := Run(context.Background(), s, Options{Engine: EngineJoin, Done: cp.Done(), OnPiece: func(p Piece) error { counted++; return cp.Record(p) }})
	if err != nil || res.Total24 != From64(24*want.Total) || res.Unique24 != From64(24*want.Unique) {
		t.Fatalf("resumed Run: %v/24 (%v/24 unique), %v; want %d (%d)", res.Total24, res.Unique24, err, want.Total, want.Unique)
	}
	if counted != parts-done {
		t.Errorf("resumed Run counted %d pieces, want %d", counted, parts-done)
	}
	if err := cp.Flush(); err != nil {
		t.Fatal(err)
	}
	if p, err := ReadProgress([]string{path}); err != nil || p.Done != parts || p.Parts != parts || p.Work != 1 {
		t.Errorf("ReadProgress of the finished join checkpoint: %+v, %v; want %d of %d pieces, all the work", p, err, parts, parts)
	}
}
