package mergecmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/shard"
)

// TestMergePartial is issue 41 item 6: merge --verify P --partial checks
// the lines of a sample (3 of the 8 shards of n = 10, the others never
// counted), each on its own, by recounting its pieces; a line whose
// tally was edited (its sums and checksum recomputed, so that only a
// recount can tell) is reported not verified, exit status 1.
func TestMergePartial(t *testing.T) {
	dir := t.TempDir()
	lines := clitest.ShardLines(t, 10, 8)
	sample := filepath.Join(dir, "sample.jsonl")
	os.WriteFile(sample, []byte(lines[1]+lines[4]+lines[6]), 0o644)
	stdout, stderr, code := clitest.Run(t, "", "merge", "--verify", "all", "--partial", "--seed", "5", sample)
	if code != 0 || strings.Count(stdout, ": verified\n") != 3 || !strings.Contains(stdout, "3 of 3 lines verified (--seed 5)\n") ||
		!strings.Contains(stdout, sample+":2: shard 4 of 8 of n = 10 (constellations): recounted ") {
		t.Errorf("merge --verify all --partial of 3 of 8 shards: exit %d, stdout %q, stderr %q; want each verified", code, stdout, stderr)
	}
	// The missing shards stop a merge; --partial needs none of them.
	if _, stderr, code := clitest.Run(t, "", "merge", sample); code != 1 || !strings.Contains(stderr, "absent") {
		t.Errorf("merge of 3 of 8 shards: exit %d, stderr %q; want 1, shards absent", code, stderr)
	}

	r, err := shard.Parse([]byte(lines[4]))
	if err != nil {
		t.Fatal(err)
	}
	r.Tallies[0].Total24 += 8 * 24 // one class of 8 more: possible, and a whole count
	r.Tallies[0].Unique24 += 24
	r.Sums, _ = shard.SumTallies(r.Tallies)
	edited := filepath.Join(dir, "edited.jsonl")
	os.WriteFile(edited, []byte(lines[1]+string(r.AppendLine(nil))+lines[6]), 0o644)
	if _, err := shard.Parse(r.AppendLine(nil)); err != nil {
		t.Fatalf("the edited line does not parse (%v): the test would prove nothing", err)
	}
	stdout, stderr, code = clitest.Run(t, "", "merge", "--verify", "all", "--partial", edited)
	if code != 1 || strings.Count(stdout, ": verified\n") != 2 || !strings.Contains(stdout, edited+":2: shard 4 of 8 of n = 10 (constellations): recounted 34 of its 34 pieces: NOT verified: recount disagrees: piece ") || !strings.Contains(stdout, "2 of 3 lines verified") {
		t.Errorf("merge --partial with an edited tally: exit %d, stdout %q, stderr %q; want 1, shard 4 not verified", code, stdout, stderr)
	}
	clitest.OneLine(t, stderr)

	// JSON: one object a line, each saying whether it is verified.
	stdout, _, code = clitest.Run(t, "", "merge", "--verify", "50%", "--partial", "--format", "json", "--seed", "2", edited)
	type verdict struct {
		Shard     int  `json:"shard"`
		Pieces    int  `json:"pieces"`
		Recounted int  `json:"recounted"`
		Verified  bool `json:"verified"`
	}
	var got []verdict
	for l := range strings.Lines(stdout) {
		var v verdict
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("merge --partial --format json: %q: %v", l, err)
		}
		got = append(got, v)
	}
	if len(got) != 3 || got[0].Shard != 1 || got[1].Shard != 4 || !got[0].Verified || !got[2].Verified {
		t.Fatalf("merge --partial --format json: %q; want shards 1, 4, 6, the first and last verified", stdout)
	}
	for _, v := range got {
		if want := (v.Pieces + 1) / 2; v.Recounted != want {
			t.Errorf("merge --verify 50%% --partial: shard %d: recounted %d of %d pieces, want %d", v.Shard, v.Recounted, v.Pieces, want)
		}
	}
	// Half the pieces: whether the edited one is drawn depends on the
	// seed, and the exit status says which.
	if got[1].Verified != (code == 0) {
		t.Errorf("merge --verify 50%% --partial: exit %d, shard 4 verified %v: want 0 exactly when verified", code, got[1].Verified)
	}
}

// TestMergePartialRefuses checks --partial's hostile cases: without
// --verify, with a bad one, with the other modes, and with lines that are
// not shard results.
func TestMergePartialRefuses(t *testing.T) {
	dir := t.TempDir()
	lines := clitest.ShardLines(t, 8, 4)
	sample := filepath.Join(dir, "s.jsonl")
	os.WriteFile(sample, []byte(lines[0]), 0o644)
	for _, args := range [][]string{
		{"--partial", sample},
		{"--partial", "--verify", "0", sample},
		{"--partial", "--verify", "-3", sample},
		{"--partial", "--verify", "100%", sample},
		{"--partial", "--verify", "x", sample},
		{"--partial", "--verify", "99999999999999999999", sample},
		{"--partial", "--verify", "all", "--record", filepath.Join(dir, "r.json"), sample},
		{"--partial", "--verify", "all", "--check-record", sample, sample},
		{"--partial", "--verify", "all", "--confirm", sample, sample, sample},
		{"--partial", "--verify", "all", "--progress", dir},
		{"--verify", "all", sample}, // all is --partial's
		{"--partial", "--verify", "all", filepath.Join(dir, "none.jsonl")},
	} {
		_, stderr, code := clitest.Run(t, "", append([]string{"merge"}, args...)...)
		if code != 2 || !strings.HasPrefix(stderr, "queens: ") {
			t.Errorf("merge %q: exit %d, stderr %q; want 2 and a queens: message", args, code, stderr)
		}
		clitest.OneLine(t, stderr)
	}
	cut := lines[0][:len(lines[0])/2] + "\n"
	if _, stderr, code := clitest.Run(t, cut, "merge", "--partial", "--verify", "all", "-"); code != 1 || !strings.Contains(stderr, "stdin:1") {
		t.Errorf("merge --partial of a cut line: exit %d, stderr %q; want 1 naming stdin:1", code, stderr)
	}
}
