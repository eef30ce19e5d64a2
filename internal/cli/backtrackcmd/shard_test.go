package backtrackcmd_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/shard"
)

// TestProgressEvery checks the progress lines a sharded count writes to a
// stderr that is not a terminal (a batch log).
func TestProgressEvery(t *testing.T) {
	_, stderr, code := clitest.Run(t, "", "backtrack", "-n", "15", "--count", "--shard", "0/1", "--json", "--threads", "1", "--progress-every", "20ms")
	if code != 0 || !regexp.MustCompile(`(?m)^queens: progress: n=15 shard 0/1: \d+ of \d+ pieces \(\d+\.\d% of the work\) after \S+, (about \S+ left|estimating)(; last \S+( unit \d+)?)?$`).MatchString(stderr) {
		t.Errorf("--progress-every 20ms: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code := clitest.Run(t, "", "backtrack", "-n", "13", "--count", "--shard", "0/1", "--json", "--progress-every", "0"); code != 0 || stderr != "" {
		t.Errorf("--progress-every 0: stderr %q", stderr)
	}
	// A whole count, without --shard or --checkpoint, logs too (n = 17:
	// the join takes over a second on one thread on every path; n = 16
	// took under 0.15 s with AVX-512, before the first line).
	stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", "17", "--count", "--threads", "1", "--progress-every", "20ms")
	if code != 0 || stdout != "95815104 solutions\n" || !regexp.MustCompile(`(?m)^queens: progress: n=17: \d+ of \d+ pieces \(\d+\.\d% of the work\) after \S+, (about \S+ left|estimating)(; last \S+( unit \d+)?)?$`).MatchString(stderr) {
		t.Errorf("a whole count with --progress-every 20ms: exit %d, stdout %q, stderr %q", code, stdout, stderr)
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
	pieces, err := backtrack.Subproblems(12)
	if err != nil {
		t.Fatal(err)
	}
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
	data := clitest.ReadFile(t, path)
	os.WriteFile(path, []byte(strings.Replace(string(data), `"total24":1`, `"total24":2`, 1)), 0o644)
	// A damaged checkpoint is moved aside, said so, and the shard counted
	// afresh (a resubmission must not fail on it for ever).
	stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", "12", "--count", "--checkpoint", path)
	aside, _ := filepath.Glob(path + ".damaged-*")
	if code != 0 || stdout != "14200 solutions\n" || !strings.Contains(stderr, "checksum does not match") || !strings.Contains(stderr, "counting the shard afresh") || len(aside) != 1 {
		t.Errorf("changed checkpoint: exit %d, stdout %q, stderr %q, moved to %v; want the count, the checkpoint moved aside", code, stdout, stderr, aside)
	}
	if len(aside) == 1 {
		if got, _ := os.ReadFile(aside[0]); !strings.Contains(string(got), `"total24":2`) {
			t.Errorf("the damaged checkpoint moved aside lost its contents: %q", got)
		}
	}
}

// TestCheckpointInUse: a checkpoint another process holds is exit status
// 75 (EX_TEMPFAIL: the shard cannot run here now; the plans retry it),
// not 2, and nothing is written.
func TestCheckpointInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n12.ckpt")
	cp, err := shard.OpenCheckpoint(path, shard.Spec{N: 12, Shards: 1, Version: cmdutil.Version()})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", "12", "--count", "--checkpoint", path, "-o", out)
	if _, err := os.Stat(out); code != 75 || stdout != "" || !strings.Contains(stderr, "checkpoint in use") || err == nil {
		t.Errorf("checkpoint in use: exit %d, stdout %q, stderr %q, -o written %v; want exit 75, nothing written", code, stdout, stderr, err == nil)
	}
}

// TestShardOutputKept: -o onto a file holding another count's shard line
// (another shard, n or engine), or something that is not a line, is
// refused before counting, the file unchanged; --force replaces it, and a
// shard counted again over its own line replaces that.
func TestShardOutputKept(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "0.jsonl")
	if _, stderr, code := clitest.Run(t, "", "backtrack", "-n", "10", "--count", "--shard", "0/2", "-o", first); code != 0 {
		t.Fatalf("first shard: exit %d, %s", code, stderr)
	}
	line, _ := os.ReadFile(first)
	other := filepath.Join(dir, "notes.txt")
	os.WriteFile(other, []byte("my notes\n"), 0o644)
	for _, c := range []struct {
		file string
		args []string
	}{
		{first, []string{"-n", "10", "--shard", "1/2"}},
		{first, []string{"-n", "11", "--shard", "0/2"}},
		{first, []string{"-n", "10", "--shard", "0/2", "--engine", "join"}},
		{other, []string{"-n", "10", "--shard", "0/2"}},
	} {
		before, _ := os.ReadFile(c.file)
		args := append([]string{"backtrack", "--count", "-o", c.file}, c.args...)
		stdout, stderr, code := clitest.Run(t, "", args...)
		after, _ := os.ReadFile(c.file)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "--force to replace it") || !bytes.Equal(before, after) {
			t.Errorf("queens %s: exit %d, stderr %q, file changed %v; want exit 2 naming --force, the file kept", strings.Join(args, " "), code, stderr, !bytes.Equal(before, after))
		}
		args = append(args, "--force")
		if _, stderr, code := clitest.Run(t, "", args...); code != 0 {
			t.Errorf("queens %s: exit %d, %s", strings.Join(args, " "), code, stderr)
		}
		os.WriteFile(first, line, 0o644)
	}
	if _, stderr, code := clitest.Run(t, "", "backtrack", "-n", "10", "--count", "--shard", "0/2", "-o", first); code != 0 {
		t.Errorf("the shard counted again over its own line: exit %d, %s", code, stderr)
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
		// Not there yet reads as empty: wait on.
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
	want := clitest.Known(t, 15)
	if err != nil || string(out) != fmt.Sprintf("%d solutions (%d unique)\n", want.Total, want.Unique) {
		t.Fatalf("resumed count: %q, %v; want %d solutions (%d unique)", out, err, want.Total, want.Unique)
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
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
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
