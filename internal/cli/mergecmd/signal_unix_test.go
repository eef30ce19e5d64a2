//go:build unix

package mergecmd_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/shard"
)

// TestMergeSIGTERMRecount checks that merge stopped by SIGTERM during a
// recount (a piece of n = 24, minutes of a core, by the engine with
// --verify and by the plain search with --check-record) exits within 5 s
// with status 130 (issue 41 item 3).
func TestMergeSIGTERMRecount(t *testing.T) {
	dir := t.TempDir()
	none := func(ctx context.Context, n int, pieces []backtrack.Subproblem, done func(int, backtrack.Tally) error) error {
		for i := range pieces {
			if err := done(i, backtrack.Tally{}); err != nil {
				return err
			}
		}
		return nil
	}
	r, err := shard.Run(context.Background(), shard.Spec{N: 24, Shards: 1, Version: cmdutil.Version()}, shard.Options{Counter: none})
	if err != nil {
		t.Fatal(err)
	}
	lines := filepath.Join(dir, "0.jsonl")
	os.WriteFile(lines, r.AppendLine(nil), 0o644)
	rec := filepath.Join(dir, "rec.json")
	var m shard.Merger
	m.Add(r)
	sum, err := m.Sum()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(rec, m.Record(sum, nil, 0, "test").AppendLine(nil), 0o644)
	for _, args := range [][]string{
		{"merge", "--threads", "1", "--verify", "1", "--seed", "1", lines},
		{"merge", "--threads", "1", "--check-record", rec, "--recount", "1", "--seed", "1", lines},
	} {
		cmd := clitest.Cmd(t, dir, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond) // the line read, the recount under way
		start := time.Now()
		clitest.Kill(cmd.Process.Pid, syscall.SIGTERM)
		clitest.WaitBounded(t, cmd, 5*time.Second, "%v: still running 5 s after SIGTERM", args)
		if code := clitest.ExitStatus(cmd.ProcessState); code != 130 {
			t.Errorf("%v: exit %d after SIGTERM (%v); want 130", args, code, time.Since(start))
		}
	}
}
