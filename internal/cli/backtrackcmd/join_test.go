package backtrackcmd_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/shard"
)

// TestJoinCheckpointCLI resumes a join count from a checkpoint left by an
// interrupted run, to the published count.
func TestJoinCheckpointCLI(t *testing.T) {
	const n = 12
	path := filepath.Join(t.TempDir(), "ck")
	s := shard.Spec{N: n, Shards: 1, Version: cmdutil.Version(), Scheme: shard.JoinScheme}
	cp, err := shard.OpenCheckpoint(path, s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	recorded := 0
	_, err = shard.Run(ctx, s, shard.Options{Threads: 1, Engine: shard.EngineJoin, OnPiece: func(p shard.Piece) error {
		recorded++
		if recorded == 4 {
			cancel()
		}
		return cp.Record(p)
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v; want it cancelled", err)
	}
	if err := cp.Flush(); err != nil {
		t.Fatal(err)
	}
	cp.Close()
	want := clitest.Known(t, n)
	stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", fmt.Sprint(n), "--count", "--unique", "--engine", "join", "--checkpoint", path, "--stats")
	wantOut := fmt.Sprintf("%s (%d unique)\n", cmdutil.SolutionsText(want.Total), want.Unique)
	if code != 0 || stdout != wantOut || !strings.Contains(stderr, fmt.Sprintf(" resumed=%d ", recorded)) || !strings.Contains(stderr, " engine=join ") {
		t.Errorf("resumed join count: exit %d, stdout %q, stderr %q; want %q and resumed=%d", code, stdout, stderr, wantOut, recorded)
	}
	// The constellation counter does not take the join's checkpoint.
	if _, stderr, code := clitest.Run(t, "", "backtrack", "-n", fmt.Sprint(n), "--count", "--checkpoint", path); code != 2 || !strings.Contains(stderr, "bad checkpoint") {
		t.Errorf("a join checkpoint given to the constellation counter: exit %d, stderr %q; want a usage error", code, stderr)
	}
}

// TestJoinMemoryCLI: under ulimit -v 1500000 (of which the Go runtime
// takes much at start) the join's default memory and a --memory past the
// Limit follow it, and count n = 15; a limit that not even the smallest
// pieces fit into (1 MiB shared by 1024 threads at n = 14: 38 halves a
// thread, where n = 13 fits by splitting its parts by rows) is one line
// and exit status 2, never a crash.
func TestJoinMemoryCLI(t *testing.T) {
	dir := t.TempDir()
	exe := clitest.SmallQueens(t, dir)
	for _, args := range [][]string{
		{"backtrack", "-n", "15", "--count", "--engine", "join"},
		{"backtrack", "-n", "15", "--count", "--engine", "join", "--memory", "1024TiB"},
		{"backtrack", "-n", "15", "--count", "--engine", "join", "--memory", "64GiB", "--shard", "0/1", "--json"},
	} {
		cmd := exec.Command("bash", "-c", `ulimit -v 1500000; exec "$0" "$@"`, exe)
		cmd.Args = append(cmd.Args, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), "2279184") {
			t.Errorf("queens %s under ulimit -v 1500000: %v, %q, %s", strings.Join(args, " "), err, out, stderr.String())
		}
	}
	_, stderr, code := clitest.Run(t, "", "backtrack", "-n", "14", "--count", "--engine", "join", "--memory", "1MiB", "--threads", "1024")
	if code != 2 {
		t.Errorf("-n 14 in 1 MiB on 1024 threads: exit %d, stderr %q; want 2", code, stderr)
	}
	clitest.CheckOneLine(t, stderr, "memory limit too small for the half-board join")
}
