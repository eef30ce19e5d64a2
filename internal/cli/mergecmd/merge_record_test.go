package mergecmd_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/internal/cli"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/cli/mergecmd"
	"github.com/queens-dev/queens/shard"
)

// TestMergeVerifyStrength checks merge --verify's seed and probabilities:
// the seed is random unless given, and printed; --verify P% recounts the
// least K that catches the forger with probability P; --forged names the
// forger; bad values are usage errors.
func TestMergeVerifyStrength(t *testing.T) {
	in := strings.Join(clitest.ShardLines(t, 10, 4), "")
	seedOf := regexp.MustCompile(`\(--seed (\d+)\)`)
	var seeds []string
	for range 2 {
		stdout, stderr, code := clitest.Run(t, in, "merge", "--verify", "5", "-")
		m := seedOf.FindStringSubmatch(stdout)
		if code != 0 || m == nil || !strings.Contains(stdout, "recounted 5 of 273 pieces") {
			t.Fatalf("merge --verify 5: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
		seeds = append(seeds, m[1])
	}
	if seeds[0] == seeds[1] {
		t.Errorf("two merges without --seed drew the same seed %s", seeds[0])
	}
	want := fmt.Sprintf("a worker that forged 1 piece would have been caught with probability %s\n"+
		"a worker that forged 1%% of the pieces (2) would have been caught with probability %s\n",
		mergecmd.Percent(shard.Detection(273, 1, 5)), mergecmd.Percent(shard.Detection(273, 2, 5)))
	if stdout, _, _ := clitest.Run(t, in, "merge", "--verify", "5", "--seed", "7", "-"); !strings.Contains(stdout, "(--seed 7): all agree\n"+want) {
		t.Errorf("merge --verify 5 --seed 7: stdout %q; want the seed and %q", stdout, want)
	}
	k, _ := shard.PiecesFor(273, 3, 0.9)
	want = fmt.Sprintf("recounted %d of 273 pieces drawn at random (--seed 1): all agree\na worker that forged 3 pieces would have been caught with probability %s\n",
		k, mergecmd.Percent(shard.Detection(273, 3, k)))
	if stdout, stderr, code := clitest.Run(t, in, "merge", "--verify", "90%", "--forged", "3", "--seed", "1", "-"); code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("merge --verify 90%% --forged 3: exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, want)
	}
	for _, args := range [][]string{{"--verify", "100%"}, {"--verify", "0%"}, {"--verify", "x"}, {"--verify", "-1"}, {"--forged", "0"}, {"--forged", "200%"}} {
		if _, stderr, code := clitest.Run(t, in, append(append([]string{"merge"}, args...), "-")...); code != 2 || strings.Count(stderr, "\n") != 1 {
			t.Errorf("merge %v: exit %d, stderr %q; want 2 and one line", args, code, stderr)
		}
	}
}

// TestMergeRecordCLI writes a record with --record and checks it with
// --check-record, against the same lines (given in another order) and
// against other lines.
func TestMergeRecordCLI(t *testing.T) {
	dir := t.TempDir()
	lines := clitest.ShardLines(t, 9, 3)
	var files []string
	for i, l := range lines {
		f := filepath.Join(dir, fmt.Sprintf("%d.jsonl", i))
		os.WriteFile(f, []byte(l), 0o644)
		files = append(files, f)
	}
	rec := filepath.Join(dir, "merged.json")
	stdout, stderr, code := clitest.Run(t, "", append([]string{"merge", "--verify", "4", "--seed", "3", "--record", rec}, files...)...)
	if code != 0 || !strings.HasPrefix(stdout, "352 solutions (46 unique)\n") {
		t.Fatalf("merge --record: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	data, err := os.ReadFile(rec)
	if err != nil || !strings.Contains(string(data), `"verify":4,"seed":3,"recounted":[{"shard":`) {
		t.Fatalf("record %q, %v", data, err)
	}
	reversed := []string{files[2], files[0], files[1]}
	stdout, stderr, code = clitest.Run(t, "", append([]string{"merge", "--check-record", rec, "--seed", "11"}, reversed...)...)
	if code != 0 || stdout != "record "+rec+" checks: 352 solutions (46 unique) of n = 9 from 3 lines of 3 shards; recounted the same 4 pieces (--seed 3): all agree\n"+
		"recounted 16 more pieces drawn at random (--recount 16 --seed 11; a split's whole constellations) with the plain search, which shares no counting code with any engine: all agree\n"+
		"not checked: merged_by "+cmdutil.Version()+" (the version that merged: no line gives it)\n" {
		t.Errorf("merge --check-record: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// Shard 1 run again elsewhere: the same count, but not the lines of the record.
	r, _ := shard.Parse([]byte(lines[1]))
	r.Host = "elsewhere"
	os.WriteFile(files[1], r.AppendLine(nil), 0o644)
	if _, stderr, code := clitest.Run(t, "", append([]string{"merge", "--check-record", rec}, files...)...); code != 1 || !strings.Contains(stderr, "the record has shard 1 line") {
		t.Errorf("merge --check-record with another line: exit %d, stderr %q; want 1 naming shard 1", code, stderr)
	}
	os.WriteFile(rec, []byte(strings.Replace(string(data), `"total":"352"`, `"total":"353"`, 1)), 0o644)
	if _, stderr, code := clitest.Run(t, "", append([]string{"merge", "--check-record", rec}, files...)...); code != 1 || !strings.Contains(stderr, "checksum does not match") {
		t.Errorf("merge --check-record of a changed record: exit %d, stderr %q", code, stderr)
	}
}

// TestMergeBeyondTable counts an empty shard of n = 28 (more shards than
// pieces), and merges a line of n = 28 whose sums pass 2^64 (made by a
// counter that gives each piece 8 × 10^15 solutions, a tally any piece
// can have): the count is exact, and merge says no count is published.
func TestMergeBeyondTable(t *testing.T) {
	stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", "28", "--count", "--shard", "50000/1048576", "--json")
	if code != 0 || !strings.Contains(stdout, `"n":28,"shard":50000,"shards":1048576,`) || !strings.Contains(stdout, `"covered":0,`) {
		t.Fatalf("an empty shard of n = 28: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	fake := func(ctx context.Context, n int, pieces []backtrack.Subproblem, done func(int, backtrack.Tally) error) error {
		for i, p := range pieces {
			var tl backtrack.Tally
			if !p.Symmetric() {
				tl = backtrack.Tally{Total24: 24 * 8e15, Unique24: 24 * 1e15}
			}
			if err := done(i, tl); err != nil {
				return err
			}
		}
		return nil
	}
	r, err := shard.Run(context.Background(), shard.Spec{N: 28, Shards: 1, Version: cmdutil.Version()}, shard.Options{Counter: fake})
	if err != nil {
		t.Fatal(err)
	}
	total := new(big.Int).Mul(big.NewInt(8e15), big.NewInt(int64(len(r.Pieces)-1)))
	want := fmt.Sprintf("%v solutions (%v unique)\nno count is published for n = 28: nothing checked this count but its lines", total, new(big.Int).Div(total, big.NewInt(8)))
	if total.IsUint64() {
		t.Fatalf("%v does not pass 2^64", total)
	}
	stdout, stderr, code = clitest.Run(t, string(r.AppendLine(nil)), "merge", "-")
	if code != 0 || !strings.HasPrefix(stdout, want) {
		t.Errorf("merge of n = 28: exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, want)
	}
	stdout, _, _ = clitest.Run(t, string(r.AppendLine(nil)), "merge", "--format", "json", "-")
	if !strings.HasPrefix(stdout, fmt.Sprintf(`{"n":28,"total":%v,`, total)) || !strings.Contains(stdout, `"published":"unknown"`) {
		t.Errorf("merge --format json of n = 28: %q", stdout)
	}
}

// TestMergeProgressCLI reads the parts directory of a count in the
// middle: shards 0 and 1 finished, shard 2 with a checkpoint and no line
// yet, shard 3 not started.
func TestMergeProgressCLI(t *testing.T) {
	dir := t.TempDir()
	for i := range 3 {
		args := []string{"backtrack", "-n", "10", "--count", "--shard", fmt.Sprintf("%d/4", i), "--json",
			"--checkpoint", filepath.Join(dir, fmt.Sprintf("%d.ckpt", i))}
		out, status := filepath.Join(dir, fmt.Sprintf("%d.jsonl", i)), 0
		if i == 2 {
			// Its line not written: the checkpoint stays (a written
			// line removes it).
			if _, err := os.Stat("/dev/full"); err != nil {
				t.Skip("no /dev/full here")
			}
			out, status = "/dev/full", 1
		}
		args = append(args, "-o", out)
		if _, stderr, code := clitest.Run(t, "", args...); code != status {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	stdout, stderr, code := clitest.Run(t, "", "merge", "--progress", dir)
	for _, want := range []string{"n=10: ", " of 273 pieces done (", "% of the work; ", "shards: 2 of 4 finished, 1 running, 0 stale, 1 not started\n", "not started: shards 3 (0-based)\n"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("merge --progress: exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, want)
		}
	}
	stdout, _, _ = clitest.Run(t, "", "merge", "--progress", "--stale", "1ns", "--format", "json", dir)
	if !strings.Contains(stdout, `"finished":2,"running":0,"stale":[2],"missing":[3]}`) {
		t.Errorf("merge --progress --stale 1ns --format json: %q", stdout)
	}
	if _, stderr, code := clitest.Run(t, "", "merge", "--progress", t.TempDir()); code != 1 || !strings.Contains(stderr, "no shard results") {
		t.Errorf("merge --progress of an empty directory: exit %d, stderr %q", code, stderr)
	}
}

// TestMergeMissingJSON checks that merge --format json prints a JSON
// error object on stdout for missing shards, with exit status 1 as in
// text.
func TestMergeMissingJSON(t *testing.T) {
	lines := clitest.ShardLines(t, 8, 4)
	stdout, stderr, code := clitest.Run(t, lines[0]+lines[3], "merge", "--format", "json", "-")
	var v struct {
		Error        string
		N, Shards    int
		MissingCount int `json:"missing_count"`
		Missing      string
	}
	if err := json.Unmarshal([]byte(stdout), &v); code != 1 || err != nil || v.N != 8 || v.Shards != 4 || v.MissingCount != 2 || v.Missing != "1,2" ||
		!strings.Contains(v.Error, "missing shard") || !strings.Contains(stderr, "resubmit them") {
		t.Errorf("merge --format json of 2 of 4 shards: exit %d, stdout %q (%v), stderr %q", code, stdout, err, stderr)
	}
}

// TestMergeHostEscaped checks that a shard's host field reaches the
// terminal escaped: merge --stats names the slow shards' hosts, and a
// Check of a record names the host of a line that differs.
func TestMergeHostEscaped(t *testing.T) {
	lines := clitest.ShardLines(t, 8, 2)
	r, _ := shard.Parse([]byte(lines[1]))
	r.Host = "\x1b[2J\u202enode"
	in := lines[0] + string(r.AppendLine(nil))
	_, stderr, code := clitest.Run(t, in, "merge", "--stats", "-")
	if code != 0 || strings.ContainsAny(stderr, "\x1b\u202e") || !strings.Contains(stderr, `"\x1b[2J\u202enode"`) {
		t.Errorf("merge --stats of a hostile host: exit %d, stderr %q", code, stderr)
	}
}

// TestMergeRecordNotInput checks that --record naming one of merge's
// inputs, by the same name, a symbolic link, a hard link, stdin or the
// directory read, is refused before anything is written: the lines are
// left as they were (at n = 28 they are core-years).
func TestMergeRecordNotInput(t *testing.T) {
	dir := t.TempDir()
	lines := strings.Join(clitest.ShardLines(t, 8, 2), "")
	p := filepath.Join(dir, "p.jsonl")
	if err := os.WriteFile(p, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	sym, hard := filepath.Join(dir, "sym.jsonl"), filepath.Join(dir, "hard.jsonl")
	if err := os.Symlink("p.jsonl", sym); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Link(p, hard); err != nil {
		t.Skip("no hard links here:", err)
	}
	stdin := func(t *testing.T) func() {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		old := os.Stdin
		os.Stdin = f
		return func() { os.Stdin = old; f.Close() }
	}
	for _, c := range []struct {
		name   string
		args   []string
		stdin  bool
		record string
	}{
		{"same name", []string{p}, false, p},
		{"symbolic link", []string{sym}, false, p},
		{"record through a link", []string{p}, false, sym},
		{"hard link", []string{hard}, false, p},
		{"second input", []string{sym, p}, false, hard},
		{"stdin", []string{"-"}, true, p},
		{"directory", []string{dir}, false, filepath.Join(dir, "new.jsonl")},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.stdin {
				defer stdin(t)()
			}
			args := append([]string{"merge", "--record", c.record}, c.args...)
			if c.name == "directory" {
				if err := os.WriteFile(c.record, []byte(lines), 0o644); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(c.record)
			}
			var errb strings.Builder
			code := cli.Run(append([]string{"queens"}, args...), io.Discard, &errb)
			stderr := errb.String()
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--record") {
				t.Errorf("%v: exit %d, stderr %q; want 2 and a refusal naming --record", args, code, stderr)
			}
			if got, err := os.ReadFile(p); err != nil || string(got) != lines {
				t.Errorf("%v: the lines were changed: %q, %v", args, got, err)
			}
		})
	}
	// A record elsewhere is written, and checks.
	rec := filepath.Join(t.TempDir(), "rec.json")
	if _, stderr, code := clitest.Run(t, "", "merge", "--record", rec, dir); code != 0 {
		t.Fatalf("merge --record elsewhere: exit %d, stderr %q", code, stderr)
	}
	if stdout, stderr, code := clitest.Run(t, "", "merge", "--check-record", rec, dir); code != 0 || !strings.Contains(stdout, "checks") {
		t.Errorf("merge --check-record: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestMergeRecordInputs checks what merge does with a record among its
// inputs: --record with --check-record or --confirm is a usage error
// before anything runs; a directory's records and other files are
// skipped by name (only *.jsonl, plain or compressed, are read); a
// record named as a line input, or named *.jsonl in a directory, is
// refused with a message that says what it is.
func TestMergeRecordInputs(t *testing.T) {
	dir := t.TempDir()
	lines := clitest.ShardLines(t, 8, 2)
	os.WriteFile(filepath.Join(dir, "0.jsonl"), []byte(lines[0]), 0o644)
	os.WriteFile(filepath.Join(dir, "1.jsonl.gz"), clitest.Compressed(t, "gz", []byte(lines[1])), 0o644)
	rec := filepath.Join(dir, "merged.json")
	if stdout, stderr, code := clitest.Run(t, "", "merge", "--record", rec, dir); code != 0 || !strings.HasPrefix(stdout, "92 solutions") {
		t.Fatalf("merge --record of a directory with a compressed line: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not lines\n"), 0o644)
	if stdout, stderr, code := clitest.Run(t, "", "merge", dir); code != 0 || !strings.HasPrefix(stdout, "92 solutions") {
		t.Errorf("merge of a directory holding its record merged.json: exit %d, stdout %q, stderr %q; want the record skipped", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "again.json")
	for _, args := range [][]string{{"--check-record", rec, "--record", out, dir}, {"--record", out, "--confirm", rec, rec, dir}} {
		_, stderr, code := clitest.Run(t, "", append([]string{"merge"}, args...)...)
		if _, err := os.Stat(out); code != 2 || !strings.Contains(stderr, "--record with") || err == nil {
			t.Errorf("merge %v: exit %d, stderr %q, record written: %v; want a usage error (2) and no record", args, code, stderr, err == nil)
		}
	}
	want := "a merge record, not shard lines: give it to --check-record or --confirm"
	if _, stderr, code := clitest.Run(t, "", "merge", rec, filepath.Join(dir, "0.jsonl")); code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("merge of a record named as an input: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
	data, _ := os.ReadFile(rec)
	os.WriteFile(filepath.Join(dir, "rec.jsonl"), data, 0o644)
	if _, stderr, code := clitest.Run(t, "", "merge", dir); code != 2 || !strings.Contains(stderr, "rec.jsonl:1: "+want) {
		t.Errorf("merge of a directory with a record named rec.jsonl: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
}
