package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
)

// runSplit runs every shard of n split k ways with m sub-parts per
// constellation and returns their lines.
func runSplit(t *testing.T, n, k, m int) [][]byte {
	t.Helper()
	var lines [][]byte
	for i := range k {
		r, err := Run(context.Background(), Spec{N: n, Index: i, Shards: k, Version: "v", Split: m}, Options{Threads: 2})
		if err != nil {
			t.Fatalf("Run(n=%d, %d/%d, split %d): %v", n, i, k, m, err)
		}
		lines = append(lines, r.AppendLine(nil))
	}
	return lines
}

// TestSplitMergeKnown runs every shard of n = 8..13 in the scheme
// SchemeSplit (m = 2, 7, 64 sub-parts, K = 1, 5, 300 shards), passes each
// result through its line, merges and checks the sums against the
// published counts and the nodes against those of the whole count.
func TestSplitMergeKnown(t *testing.T) {
	top := 13
	if testing.Short() {
		top = 11 // n = 12 and 13 take most of the time
	}
	for n := 8; n <= top; n++ {
		want, _ := board.Known(n)
		whole, err := backtrack.Count(context.Background(), n, backtrack.CountOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cs, _ := backtrack.Subproblems(n)
		for _, m := range []int{2, 7, 64} {
			for _, k := range []int{1, 5, 300} {
				lines := runSplit(t, n, k, m)
				sum, err := parseMerge(lines)
				if err != nil {
					t.Fatalf("n=%d m=%d K=%d: %v", n, m, k, err)
				}
				if sum.Total != From64(want.Total) || sum.Unique != From64(want.Unique) || sum.Nodes != From64(whole.Nodes) {
					t.Errorf("n=%d m=%d K=%d: %v (%v unique, %v nodes), want %d (%d, %d)",
						n, m, k, sum.Total, sum.Unique, sum.Nodes, want.Total, want.Unique, whole.Nodes)
				}
				if parts := (len(cs)-1)*m + 1; sum.Parts != parts {
					t.Errorf("n=%d m=%d: %d pieces, want %d", n, m, sum.Parts, parts)
				}
				if !bytes.Contains(lines[0], []byte(fmt.Sprintf(`"scheme":"round-robin-split","split":%d,`, m))) {
					t.Errorf("line %s: no scheme %s, split %d", lines[0], SchemeSplit, m)
				}
			}
		}
	}
}

// TestSplitPieces checks that the pieces of the shards cover the split
// once each, and that a line of one scheme does not merge with another's.
func TestSplitPieces(t *testing.T) {
	const n, m, k = 10, 5, 7
	cs, _ := backtrack.Subproblems(n)
	seen := map[backtrack.Subproblem]int{}
	for i := range k {
		ps, parts, err := Spec{N: n, Index: i, Shards: k, Split: m}.Pieces()
		if err != nil || parts != (len(cs)-1)*m+1 {
			t.Fatalf("Pieces: %d parts, %v", parts, err)
		}
		for _, p := range ps {
			seen[p]++
		}
	}
	for _, c := range cs {
		ps := c.Split(m)
		if c.Symmetric() {
			ps = []backtrack.Subproblem{c}
		}
		for _, p := range ps {
			if seen[p] != 1 {
				t.Errorf("piece %v in %d shards", p, seen[p])
			}
			delete(seen, p)
		}
	}
	if len(seen) != 0 {
		t.Errorf("pieces not of the split: %v", seen)
	}
	for _, m := range []int{1, -1, backtrack.MaxParts + 1} {
		if _, _, err := (Spec{N: n, Shards: 1, Split: m}).Pieces(); !errors.Is(err, ErrShard) {
			t.Errorf("split %d: %v, want %v", m, err, ErrShard)
		}
	}
	old := runAll(t, n, 2, "v")
	split := runSplit(t, n, 2, m)
	other := runSplit(t, n, 2, m+1)
	for _, lines := range [][][]byte{{old[0], split[1]}, {split[0], other[1]}} {
		if _, err := parseMerge(lines); !errors.Is(err, ErrMismatch) {
			t.Errorf("merge of two splits: %v, want %v", err, ErrMismatch)
		}
	}
}

// resign returns text, a line, with its fields edited by edit and the
// checksum recomputed, as a careless script might: the parser's own
// checks must catch what no run writes.
func resign(t *testing.T, text []byte, edit func(*line)) []byte {
	t.Helper()
	body, err := signedBody(nil, bytes.TrimRight(text, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var l line
	if err := json.Unmarshal(body, &l); err != nil {
		t.Fatal(err)
	}
	edit(&l)
	return appendSigned(nil, l.body())
}

// TestSplitParse checks that a split line reads back as written and that
// the parser refuses sub-parts out of range, pieces of the wrong form and
// a scheme that contradicts the split, even in lines signed again.
func TestSplitParse(t *testing.T) {
	lines := runSplit(t, 9, 3, 4)
	r, err := Parse(lines[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.AppendLine(nil), lines[0]) || r.Split != 4 || r.Scheme != SchemeSplit || r.Pieces[0].Parts != 4 {
		t.Fatalf("round trip: %+v", r)
	}
	for name, edit := range map[string]func(*line){
		"part too big":  func(l *line) { l.Pieces[0][4] = 4 },
		"part negative": func(l *line) { l.Pieces[0][4] = -1 },
		"four numbers":  func(l *line) { l.Pieces[0] = l.Pieces[0][:4] },
		"no split":      func(l *line) { l.Split = 0 },
		"old scheme":    func(l *line) { l.Scheme = Scheme },
		"split of one":  func(l *line) { l.Split = 1 },
		"huge split":    func(l *line) { l.Split = min(1<<40, math.MaxInt) },
	} {
		bad := resign(t, lines[0], edit)
		if _, err := Parse(bad); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want %v", name, err, ErrCorrupt)
		}
	}
	// The old scheme refuses a fifth number.
	old := runAll(t, 9, 3, "v")
	bad := resign(t, old[0], func(l *line) { l.Pieces[0] = append(l.Pieces[0], 0) })
	if _, err := Parse(bad); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "want [top, bottom, left, right]") {
		t.Errorf("old line with a sub-part: %v, want %v", err, ErrCorrupt)
	}
}

// TestSplitCheckpointVerify resumes a split shard from its checkpoint and
// recounts its sub-parts with Verify; a forged sub-part's tally is caught.
func TestSplitCheckpointVerify(t *testing.T) {
	const n, m = 12, 16
	want, _ := board.Known(n)
	s := Spec{N: n, Shards: 1, Version: "v", Split: m}
	path := filepath.Join(t.TempDir(), "ck")
	cp, err := OpenCheckpoint(path, s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	Run(ctx, s, Options{Threads: 1, OnPiece: func(p Piece) error {
		err := cp.Record(p)
		if len(cp.Done()) == 40 {
			cancel()
		}
		return err
	}})
	if err := cp.Flush(); err != nil {
		t.Fatal(err)
	}
	cp.Close()
	if cp, err = OpenCheckpoint(path, s); err != nil || len(cp.Done()) < 40 {
		t.Fatalf("reopen: %v", err)
	}
	defer cp.Close()
	if _, err := OpenCheckpoint(path+"x", s); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenCheckpoint(path, Spec{N: n, Shards: 1, Version: "v", Split: m + 1}); !errors.Is(err, ErrCheckpoint) && !errors.Is(err, ErrLocked) {
		t.Errorf("checkpoint of another split: %v", err)
	}
	counted := 0
	res, err := Run(context.Background(), s, Options{Done: cp.Done(), OnPiece: func(Piece) error { counted++; return nil }})
	if err != nil || res.Total24 != From64(24*want.Total) || res.Unique24 != From64(24*want.Unique) {
		t.Fatalf("resumed: %v/24, %v", res.Total24, err)
	}
	if counted+len(cp.Done()) != res.Parts {
		t.Errorf("resumed run counted %d, %d from the checkpoint, of %d", counted, len(cp.Done()), res.Parts)
	}
	line := res.AppendLine(nil)
	r, _ := Parse(line)
	checked, err := Verify(context.Background(), []Result{r}, 1<<30, 1)
	if err != nil || len(checked) != r.Parts || !strings.Contains(checked[0].Piece, "#") {
		t.Fatalf("Verify: %d of %d, %v", len(checked), r.Parts, err)
	}
	r, _ = Parse(doubled(t, line))
	if _, err := Verify(context.Background(), []Result{r}, 1<<30, 1); !errors.Is(err, ErrVerify) || !strings.Contains(err.Error(), "#") {
		t.Errorf("Verify of a doubled sub-part: %v, want %v naming the sub-part", err, ErrVerify)
	}
}
