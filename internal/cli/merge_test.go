package cli

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/shard"
)

func TestShardMergeCLI(t *testing.T) {
	for _, n := range []int{1, 6, 10, 12} {
		for _, k := range []int{1, 2, 7, 64} {
			lines := clitest.ShardLines(t, n, k, "--threads", "2")
			stdout, stderr, code := clitest.Run(t, strings.Join(lines, ""), "merge", "-")
			want, _ := board.Known(n)
			wantOut := fmt.Sprintf("%s (%d unique)\nmatches the published count for n = %d\n", cmdutil.SolutionsText(want.Total), want.Unique, n)
			if code != 0 || stdout != wantOut || stderr != "" {
				t.Errorf("n=%d K=%d: merge: exit %d, stdout %q, stderr %q; want %q", n, k, code, stdout, stderr, wantOut)
			}
		}
	}
}

// TestMergeRefusesCLI checks that merge names each problem, exit status 1.
func TestMergeRefusesCLI(t *testing.T) {
	good := clitest.ShardLines(t, 10, 4)
	n9 := clitest.ShardLines(t, 9, 4)
	k5 := clitest.ShardLines(t, 10, 5)
	tampered := regexp.MustCompile(`"total24":(\d)`).ReplaceAllString(good[1], `"total24":9$1`)
	with := func(i int, l string) []string {
		c := append([]string(nil), good...)
		c[i] = l
		return c
	}
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"missing", good[1:], "missing shard: 1 of 4 shards absent (0-based: 0; a Slurm array numbered from 1 reruns them with --array=1)"},
		{"missing-many", []string{good[2]}, "3 of 4 shards absent (0-based: 0,1,3; a Slurm array numbered from 1 reruns them with --array=1,2,4)"},
		{"duplicate", append(good[:4:4], doubledLine(t, good[3])), "duplicate shard: shard 3 of 4 (stdin:5) disagrees with an earlier line of shard 3"},
		{"tampered", with(1, tampered), "stdin:2: parse shard result"},
		{"mixed-n", with(2, n9[2]), "shards of different work: shard 0 (stdin:1) has n 10, shard 2 (stdin:3) has 9"},
		{"mixed-K", with(2, k5[2]), "shards of different work: shard 0 (stdin:1) has shard count 4, shard 2 (stdin:3) has 5"},
		{"garbage", with(3, "14200 solutions\n"), "stdin:4: parse shard result: not a shard result"},
		{"empty", []string{"\n"}, "missing shard: no shard results"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := strings.Join(c.lines, "")
			if in == good[1] {
				t.Fatal("tampering failed")
			}
			stdout, stderr, code := clitest.Run(t, in, "merge", "-")
			if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "queens: merge: ") || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("merge: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, stdout, stderr, c.want)
			}
		})
	}
	if tampered == good[1] {
		t.Error("the tampered line is not tampered")
	}
}

// TestMergeVerdict checks what merge says of the published table, in text
// and JSON: a true count matches; a count that differs (a forged line with a
// valid checksum, as a buggy build would write) is printed, named and fails
// with exit status 1.
func TestMergeVerdict(t *testing.T) {
	lines := clitest.ShardLines(t, 8, 2)
	forged, err := shard.Parse([]byte(lines[1]))
	if err != nil {
		t.Fatal(err)
	}
	// Count one piece twice, consistently (its tally and the line's sums),
	// as a buggy build would: a piece whose classes are whole numbers, so
	// that the sums stay whole.
	more, moreUnique := uint64(0), uint64(0)
	for i, p := range forged.Tallies {
		if p.Total24 > 0 && p.Unique24%24 == 0 {
			forged.Tallies[i].Total24 *= 2
			forged.Tallies[i].Unique24 *= 2
			forged.Sums, _ = shard.SumTallies(forged.Tallies)
			more, moreUnique = p.Total24/24, p.Unique24/24
			break
		}
	}
	if more == 0 {
		t.Fatal("no piece of shard 1 of n=8 has a whole number of classes to forge")
	}
	bad := []string{lines[0], string(forged.AppendLine(nil))}
	wrong := fmt.Sprintf("%d solutions (%d unique)", 92+more, 12+moreUnique)
	cases := []struct {
		lines  []string
		format string
		out    string
		code   int
	}{
		{lines, "text", "92 solutions (12 unique)\nmatches the published count for n = 8\n", 0},
		{lines, "json", `{"n":8,"total":92,"unique":12,"published":"matches","verified":0,"confirmed":0,"repeated":0}` + "\n", 0},
		{bad, "text", wrong + "\nDIFFERS from the published count for n = 8: 92 solutions (12 unique)\n", 1},
		{bad, "json", fmt.Sprintf(`{"n":8,"total":%d,"unique":%d,"published":"differs","verified":0,"confirmed":0,"repeated":0}`, 92+more, 12+moreUnique) + "\n", 1},
	}
	for _, c := range cases {
		stdout, stderr, code := clitest.Run(t, strings.Join(c.lines, ""), "merge", "--format", c.format, "-")
		if code != c.code || stdout != c.out {
			t.Errorf("merge --format %s: exit %d, stdout %q, stderr %q; want exit %d, stdout %q", c.format, code, stdout, stderr, c.code, c.out)
		}
		if c.code == 1 && stderr != "queens: merge: the count of n = 8 differs from the published one\n" {
			t.Errorf("merge --format %s: stderr %q", c.format, stderr)
		}
	}
}

// TestShardEnv checks where the shard index and count come from.
func TestShardEnv(t *testing.T) {
	cases := []struct {
		env   map[string]string
		args  []string
		shard int // -1: usage error
	}{
		{nil, []string{"--shard", "2/5"}, 2},
		{nil, []string{"--shard", "3/5", "--shard-base", "1"}, 2},
		{nil, []string{"--shard", "2", "--shard-count", "5"}, 2},
		{nil, []string{"--shard", "5/5"}, -1},
		{nil, []string{"--shard", "0/5", "--shard-base", "1"}, -1},
		{nil, []string{"--shard", "2/5", "--shard-count", "4"}, -1},
		{nil, []string{"--shard", "2"}, -1},
		{nil, []string{"--shard", "x/5"}, -1},
		{nil, []string{"--shard", "1/"}, -1},
		{nil, []string{"--shard", "0/0"}, -1},
		{nil, []string{"--shard-count", "5"}, -1},
		{map[string]string{"JOB_COMPLETION_INDEX": "4"}, []string{"--shard-count", "5"}, 4},
		{map[string]string{"JOB_COMPLETION_INDEX": "4"}, []string{"--shard", "1/5"}, 1},
		{map[string]string{"JOB_COMPLETION_INDEX": "5"}, []string{"--shard-count", "5"}, -1},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "5"}, []string{"--shard-count", "5"}, 4},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "5"}, []string{"--shard-count", "5"}, 3},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "5"}, []string{"--shard", "3"}, 3},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1"}, []string{"--shard-count", "5", "--shard-base", "0"}, 3},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, []string{"--shard-count", "5"}, -1},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.env, c.args), func(t *testing.T) {
			for _, name := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT"} {
				t.Setenv(name, c.env[name])
				if _, ok := c.env[name]; !ok {
					os.Unsetenv(name)
				}
			}
			args := append([]string{"backtrack", "-n", "8", "--count", "--json"}, c.args...)
			stdout, stderr, code := clitest.Run(t, "", args...)
			if c.shard < 0 {
				if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "queens: ") {
					t.Errorf("exit %d, stdout %q, stderr %q; want a usage error", code, stdout, stderr)
				}
				return
			}
			if want := fmt.Sprintf(`"shard":%d,"shards":5,`, c.shard); code != 0 || !strings.Contains(stdout, want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %s", code, stdout, stderr, want)
			}
		})
	}
}

// TestCheckpointCLI counts with a checkpoint, counts again from it, and
// refuses a checkpoint of other work or one that was changed.
func TestCheckpointCLI(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n12.ckpt")
	want := "14200 solutions (1787 unique)\n"
	pieces, _ := backtrack.Subproblems(12)
	for i, wantStats := range []string{" resumed=0 ", fmt.Sprintf(" resumed=%d ", len(pieces))} {
		stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", "12", "--count", "--unique", "--checkpoint", path, "--stats")
		if code != 0 || stdout != want || !strings.Contains(stderr, wantStats) {
			t.Errorf("run %d: exit %d, stdout %q, stderr %q; want %q and %s", i+1, code, stdout, stderr, want, wantStats)
		}
	}
	for _, args := range [][]string{
		{"backtrack", "-n", "11", "--count", "--checkpoint", path},
		{"backtrack", "-n", "12", "--count", "--checkpoint", path, "--shard", "0/2"},
	} {
		stdout, stderr, code := clitest.Run(t, "", args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "bad checkpoint") {
			t.Errorf("queens %s: exit %d, stdout %q, stderr %q; want exit 2, bad checkpoint", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), `"total24":1`, `"total24":2`, 1)), 0o644)
	stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", "12", "--count", "--checkpoint", path)
	if code != 2 || stdout != "" || !strings.Contains(stderr, "checksum does not match") {
		t.Errorf("changed checkpoint: exit %d, stdout %q, stderr %q; want exit 2, checksum", code, stdout, stderr)
	}
}

// TestCheckpointInterrupt interrupts a checkpointed count with SIGINT once
// a piece is recorded (exit status 130, pieces kept), then finishes it.
func TestCheckpointInterrupt(t *testing.T) {
	queens := clitest.OnPath(t)
	path := filepath.Join(t.TempDir(), "n15.ckpt")
	args := []string{"backtrack", "-n", "15", "--count", "--unique", "--threads", "1", "--checkpoint", path}
	cmd := exec.Command(queens, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if data, _ := os.ReadFile(path); strings.Count(string(data), "\n") >= 3 {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("interrupted count: %v, stderr %q; want exit status 130", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "run the same command again to continue") {
		t.Errorf("interrupted count: stderr %q does not say how to continue", stderr.String())
	}
	cmd = exec.Command(queens, append(args, "--stats", "--threads", "2")...)
	out, err := cmd.Output()
	want, _ := board.Known(15)
	if err != nil || string(out) != fmt.Sprintf("%d solutions (%d unique)\n", want.Total, want.Unique) {
		t.Fatalf("resumed count: %q, %v; want %d solutions (%d unique)", out, err, want.Total, want.Unique)
	}
}

// TestParallelREADME runs the GNU parallel line of docs/scale.md (the
// README's page on counting at scale) as it stands, and checks its output
// against the page's.
func TestParallelREADME(t *testing.T) {
	clitest.SkipShort(t, "64 processes")
	if _, err := exec.LookPath("parallel"); err != nil {
		t.Skip("GNU parallel is not installed (Debian package parallel); skipping the parallel line of docs/scale.md")
	}
	readme, err := os.ReadFile("../../docs/scale.md")
	if err != nil {
		t.Fatal(err)
	}
	// The command is the line starting "$ parallel", the output what
	// follows up to a blank line.
	var line, want string
	sc := bufio.NewScanner(strings.NewReader(string(readme)))
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(text, "$ parallel "):
			line = strings.TrimPrefix(text, "$ ")
		case line != "" && text == "":
			if want != "" {
				goto found
			}
		case line != "":
			want += text + "\n"
		}
	}
	t.Fatal("no '$ parallel ...' example with output in docs/scale.md")
found:
	clitest.OnPath(t)
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != want {
		t.Fatalf("%s:\n%s(%v)\nwant (docs/scale.md):\n%s", line, out, err, want)
	}
}

// doubledLine returns a shard line with one piece counted twice,
// consistently and with a valid checksum: what a buggy or dishonest worker
// writes, which a second run of the shard or a recount catches.
func doubledLine(t *testing.T, line string) string {
	t.Helper()
	r, err := shard.Parse([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range r.Tallies {
		if p.Total24 > 0 {
			r.Tallies[i].Total24 *= 2
			r.Tallies[i].Unique24 *= 2
			r.Sums, _ = shard.SumTallies(r.Tallies)
			return string(r.AppendLine(nil))
		}
	}
	t.Fatal("no piece with solutions to double")
	return ""
}

// TestMergeVerifyCLI checks merge --verify and the confirmations of
// shards given twice.
func TestMergeVerifyCLI(t *testing.T) {
	good := clitest.ShardLines(t, 10, 4)
	// Shard 2 again on another host: a repeat of the same engine, no
	// confirmation.
	r, err := shard.Parse([]byte(good[2]))
	if err != nil {
		t.Fatal(err)
	}
	r.Host = "another-" + r.Host
	stdout, stderr, code := clitest.Run(t, strings.Join(append(good, string(r.AppendLine(nil))), ""), "merge", "--verify", "1000", "--seed", "1", "-")
	want := "724 solutions (92 unique)\nmatches the published count for n = 10\n" +
		"recounted 273 of 273 pieces drawn at random (--seed 1): all agree\n" +
		"a worker that forged 1 piece would have been caught with probability 100%\n" +
		"a worker that forged 1% of the pieces (2) would have been caught with probability 100%\n" +
		"1 of 4 shards repeated by the same engine with the same result (a repeat, not a confirmation)\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("merge --verify 1000: exit %d, stdout %q, stderr %q; want exit 0, %q", code, stdout, stderr, want)
	}
	// A lying shard whose total still matches nothing published is caught
	// by the recount, naming the shard and where it was read.
	bad := append(slices.Clone(good[:1]), doubledLine(t, good[1]), good[2], good[3])
	stdout, stderr, code = clitest.Run(t, strings.Join(bad, ""), "merge", "--verify", "1000", "-")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "recount disagrees") || !strings.Contains(stderr, "of shard 1 (stdin:2)") {
		t.Errorf("merge --verify of a lying shard: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, stderr, code := clitest.Run(t, good[0], "merge", "--verify", "-1", "-"); code != 2 {
		t.Errorf("merge --verify -1: exit %d, stderr %q; want 2", code, stderr)
	}
}

// TestShardRanges checks that absurd shard numbers are usage errors found
// before any arithmetic or allocation, not overflows or panics.
func TestShardRanges(t *testing.T) {
	for _, args := range [][]string{
		{"--shard", "5/9223372036854775807"},
		{"--shard", "9223372036854775807/4", "--shard-base", "-1"},
		{"--shard", "-9223372036854775808/4", "--shard-base", "9223372036854775807"},
		{"--shard", "1/4", "--shard-base", "-9223372036854775808"},
		{"--shard", "0", "--shard-count", "9223372036854775807"},
		{"--shard", "3/40000000"}, // past shard.MaxShards (2^25)
		{"--shard", "3/0"},
	} {
		stdout, stderr, code := clitest.Run(t, "", append([]string{"backtrack", "-n", "8", "--count"}, args...)...)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "queens: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, code, stdout, stderr)
		}
	}
}

// TestReviewedInputs: inputs a review found mishandled, each now a usage
// error in one line: a checkpoint that is not a regular file (a FIFO would
// block, /dev/zero never end), a directory given to merge, flags written
// after the arguments, a queen given twice to check, and the size limit of
// sat for an n below 1 (that of the encoding auto takes for large boards).
func TestReviewedInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := clitest.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"backtrack", "-n", "8", "--count", "--checkpoint", fifo}, "not a regular file"},
		{[]string{"merge", dir}, "is a directory"},
		{[]string{"merge", "x.jsonl", "--verify", "5"}, "--verify comes after the files"},
		{[]string{"check", "1:1", "2:3", "-n", "4"}, "-n comes after the answer"},
		{[]string{"check", "1:2", "2:4", "3:1", "4:3", "4:3"}, "queen 4:3 given twice"},
		{[]string{"sat", "-n", "0"}, "want 1 <= n <= 2000"},
	} {
		stdout, stderr, code := clitest.Run(t, "", c.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if _, err := os.Stat(fifo + ".lock"); err == nil {
		t.Error("a lock file was made beside the FIFO")
	}
}

// TestCheckpointForged resumes from a checkpoint forged consistently (one
// piece's tally doubled, the checksum recomputed: the file's own checks
// pass): the count is printed and checked against the published table
// like any other, and the run fails naming the checkpoint.
func TestCheckpointForged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n10.ckpt")
	if _, stderr, code := clitest.Run(t, "", "backtrack", "-n", "10", "--count", "--checkpoint", path); code != 0 {
		t.Fatalf("count: exit %d, stderr %q", code, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines = lines[:len(lines)-2] // the checksum and the empty string after it
	for i, l := range lines[1:] {
		var p struct {
			Piece    [4]int `json:"piece"`
			Total24  uint64 `json:"total24"`
			Unique24 uint64 `json:"unique24"`
			Nodes    uint64 `json:"nodes"`
		}
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatal(err)
		}
		if p.Total24 > 0 {
			p.Total24, p.Unique24 = 2*p.Total24, 2*p.Unique24
			b, _ := json.Marshal(p)
			lines[i+1] = string(b) + "\n"
			break
		}
	}
	body := strings.Join(lines, "")
	sum := sha256.Sum256([]byte(body))
	if err := os.WriteFile(path, []byte(body+fmt.Sprintf("{\"checksum\":%q}\n", hex.EncodeToString(sum[:]))), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", "10", "--count", "--checkpoint", path)
	if code != 1 || stdout == "724 solutions\n" || !strings.Contains(stderr, "differs from the published 724") || !strings.Contains(stderr, path) {
		t.Errorf("forged checkpoint: exit %d, stdout %q, stderr %q; want exit 1 naming the published count and the checkpoint", code, stdout, stderr)
	}
}

// TestMergeLongLine: a line longer than a shard line may be (8 MiB of
// NULs, as /dev/zero gives) is an input error naming the limit, one short
// line with the start of the line quoted, exit status 2; a line just
// under the limit is read (and refused as no shard result, exit 1).
func TestMergeLongLine(t *testing.T) {
	stdout, stderr, code := clitest.Run(t, strings.Repeat("\x00", maxShardLine+1), "merge", "-")
	if code != 2 || stdout != "" {
		t.Errorf("exit %d, stdout %q; want exit 2", code, stdout)
	}
	clitest.CheckOneLine(t, stderr, `merge: stdin:1: a line longer than a shard line may be (8 MiB): "\x00\x00`)
	if len(stderr) > 300 {
		t.Errorf("a message of %d bytes", len(stderr))
	}
	_, stderr, code = clitest.Run(t, strings.Repeat("x", maxShardLine-1)+"\n", "merge", "-")
	if code != 1 {
		t.Errorf("a line under the limit: exit %d, want 1: %s", code, stderr)
	}
	clitest.CheckOneLine(t, stderr, "stdin:1: parse shard result: not a shard result")
}

// TestShardCheckpointSpent checks that a shard's checkpoint and lock go
// once its line is written (to a file renamed into place, or to stdout),
// and stay when the line could not be written.
func TestShardCheckpointSpent(t *testing.T) {
	dir := t.TempDir()
	ckpt, line := filepath.Join(dir, "0.ckpt"), filepath.Join(dir, "0.jsonl")
	args := []string{"backtrack", "-n", "9", "--count", "--shard", "0/2", "--json", "--threads", "1", "--checkpoint", ckpt}
	if _, err := os.Stat("/dev/full"); err == nil {
		if _, stderr, code := clitest.Run(t, "", append(args, "-o", "/dev/full")...); code != 1 {
			t.Errorf("a shard written to /dev/full: exit %d, stderr %q; want 1", code, stderr)
		}
		if _, err := os.Stat(ckpt); err != nil {
			t.Errorf("the checkpoint of a shard whose line was not written: %v; want it kept", err)
		}
	}
	if _, stderr, code := clitest.Run(t, "", append(args, "-o", line)...); code != 0 {
		t.Fatalf("shard: exit %d, stderr %q", code, stderr)
	}
	for _, f := range []string{ckpt, ckpt + ".lock"} {
		if _, err := os.Stat(f); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s after the line was written: %v; want it removed", f, err)
		}
	}
	if data, err := os.ReadFile(line); err != nil || !strings.Contains(string(data), `"kind":"queens-shard"`) {
		t.Errorf("the line: %q, %v", data, err)
	}
}

// TestMergeFlags checks how merge reads and checks its flags and
// arguments, without merging: --verify and --forged are read before any
// line is.
func TestMergeFlags(t *testing.T) {
	type want struct {
		k       int
		p       float64
		forgers int
	}
	for _, tc := range []struct {
		args []string
		want want
		err  string
	}{
		{[]string{"a.jsonl"}, want{0, 0, 2}, ""},
		{[]string{"--verify", "5", "--seed", "3", "a.jsonl", "-"}, want{5, 0, 2}, ""},
		{[]string{"--verify", "99%", "--forged", "10", "dir"}, want{0, 0.99, 1}, ""},
		{[]string{"--forged", "2%", "a.jsonl"}, want{0, 0, 1}, ""},
		{[]string{"--check-record", "r.json", "a.jsonl"}, want{}, ""},
		{[]string{"--progress", "parts", "-", "-"}, want{}, ""},
		{nil, want{}, "no input"},
		{[]string{"--format", "xml", "a.jsonl"}, want{}, `--format "xml"`},
		{[]string{"a.jsonl", "--verify", "5"}, want{}, "put the flags first"},
		{[]string{"-", "a.jsonl", "-"}, want{}, "- (stdin) given twice"},
		{[]string{"--verify", "-1", "a.jsonl"}, want{}, "--verify"},
		{[]string{"--verify", "100%", "a.jsonl"}, want{}, "a percentage above 0% and below 100%"},
		{[]string{"--forged", "0", "a.jsonl"}, want{}, "--forged"},
	} {
		var got *mergeOptions
		err := clitest.RunCommand(t, newMergeCommand(func(_ context.Context, o mergeOptions, _ io.Reader, _, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "merge", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil {
			t.Errorf("merge %s: %v, ran %v", what, err, got != nil)
			continue
		}
		if g := (want{got.rc.k, got.rc.p, len(got.rc.forgers)}); g != tc.want {
			t.Errorf("merge %s: --verify read as %+v, want %+v", what, g, tc.want)
		}
	}
}
