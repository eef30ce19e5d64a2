package shard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
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

// TestJoinUnitsResume counts one piece of n = 20 (where a piece is counted
// a column set at a time) on two threads, stops it after 40 of its units,
// and resumes it from the checkpoint, which holds the units finished: the
// second run counts only the others, and the tally is the piece's as
// join.Piece.CountWith counts it whole.
func TestJoinUnitsResume(t *testing.T) {
	if testutil.Race {
		t.Skip("a piece of n = 20 takes a minute under the race detector")
	}
	const n, index = UnitMinN, 300
	s := Spec{N: n, Shards: 513, Index: index, Version: "v", Scheme: JoinScheme}
	ps, _, err := s.JoinPieces()
	if err != nil || len(ps) != 1 {
		t.Fatalf("shard %v: pieces %v, %v; want one", s, ps, err)
	}
	units, err := ps[0].Units(n)
	if err != nil || units < 100 {
		t.Fatalf("piece %v: %d units, %v; want at least 100", ps[0], units, err)
	}
	want, err := ps[0].CountWith(context.Background(), n, join.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ck.ckpt")
	cp, err := OpenCheckpoint(path, s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	recorded := 0
	_, err = Run(ctx, s, Options{Threads: 2, Engine: EngineJoin,
		OnPiece: func(p Piece) error { t.Errorf("piece %v finished after %d units", p, recorded); return nil },
		OnUnit: func(p Piece) error {
			if !p.Unit() {
				t.Errorf("OnUnit got %v, not a unit", p)
			}
			if recorded++; recorded == 40 {
				cancel()
			}
			return cp.Record(p)
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run cancelled: %v, want context.Canceled", err)
	}
	if err := cp.Flush(); err != nil {
		t.Fatal(err)
	}
	cp.Close()
	if cp, err = OpenCheckpoint(path, s); err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	done := cp.Done()
	if len(done) < 40 || len(done) >= units || cp.Saved() != 0 {
		t.Fatalf("the checkpoint holds %d units (%d whole pieces), want 40 to %d units", len(done), cp.Saved(), units-1)
	}
	counted, finished := 0, 0
	res, err := Run(context.Background(), s, Options{Threads: 2, Engine: EngineJoin, Done: done,
		OnUnit:  func(p Piece) error { counted++; return cp.Record(p) },
		OnPiece: func(p Piece) error { finished++; return cp.Record(p) }})
	if err != nil || res.Tallies[0] != want {
		t.Fatalf("resumed Run: %+v, %v; want %+v", res.Tallies, err, want)
	}
	if finished != 1 || counted != units-len(done)-1 {
		t.Errorf("resumed Run: %d units and %d pieces, want %d and 1", counted, finished, units-len(done)-1)
	}
	if err := cp.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := cp.Done(); len(got) != 1 || got[0].Unit() || cp.Saved() != 1 {
		t.Errorf("the finished checkpoint holds %v, want the whole piece alone", got)
	}
}

// TestCheckpointUnitsRefused: a checkpoint whose unit lines name a unit
// past the piece's, a negative one, one twice, a unit after its whole
// piece, or a unit of a piece below UnitMinN, is refused (ErrCheckpoint),
// checksum recomputed or not.
func TestCheckpointUnitsRefused(t *testing.T) {
	s := Spec{N: UnitMinN, Shards: 513, Index: 300, Version: "v", Scheme: JoinScheme}
	ps, _, _ := s.JoinPieces()
	units, _ := ps[0].Units(s.N)
	form := fmt.Sprint(ps[0].Ints())
	form = strings.ReplaceAll(strings.Trim(form, "[]"), " ", ",")
	tally := `"total24":0,"unique24":0,"nodes":0`
	unit := func(u int) string { return fmt.Sprintf(`{"piece":[%s],"unit":%d,%s}`, form, u, tally) }
	whole := fmt.Sprintf(`{"piece":[%s],%s}`, form, tally)
	small := Spec{N: 16, Shards: 1, Version: "v", Scheme: JoinScheme}
	sps, _, _ := small.JoinPieces()
	smallForm := strings.ReplaceAll(strings.Trim(fmt.Sprint(sps[0].Ints()), "[]"), " ", ",")
	for _, c := range []struct {
		name  string
		spec  Spec
		lines []string
	}{
		{"past the units", s, []string{unit(units)}},
		{"negative", s, []string{unit(-1)}},
		{"twice", s, []string{unit(3), unit(3)}},
		{"after the whole piece", s, []string{whole, unit(3)}},
		{"whole after units", s, []string{unit(3), whole}},
		{"below UnitMinN", small, []string{fmt.Sprintf(`{"piece":[%s],"unit":0,%s}`, smallForm, tally)}},
	} {
		pieces, _, _ := c.spec.keys()
		body := string(headerOf(c.spec, pieces)) + "\n" + strings.Join(c.lines, "\n") + "\n"
		path := filepath.Join(t.TempDir(), "ck.ckpt")
		if err := os.WriteFile(path, resignCheckpoint([]byte(body+"{}\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		if cp, err := OpenCheckpoint(path, c.spec); !errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s: OpenCheckpoint: %v, want ErrCheckpoint", c.name, err)
			if err == nil {
				cp.Close()
			}
		}
	}
	// A well-formed one opens, its unit reported as one.
	pieces, _, _ := s.keys()
	path := filepath.Join(t.TempDir(), "ck.ckpt")
	os.WriteFile(path, resignCheckpoint([]byte(string(headerOf(s, pieces))+"\n"+unit(units-1)+"\n{}\n")), 0o644)
	cp, err := OpenCheckpoint(path, s)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if d := cp.Done(); len(d) != 1 || !d[0].Unit() || !strings.HasSuffix(d[0].String(), fmt.Sprintf(" unit %d", units-1)) {
		t.Errorf("the unit line read as %v", d)
	}
}
