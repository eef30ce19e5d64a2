package mergecmd_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/shard"
)

// TestJoinShardMergeCLI counts n = 8..12 in join shards for several K
// through the CLI, merges them to the published counts and recounts every
// piece with the join (merge --verify).
func TestJoinShardMergeCLI(t *testing.T) {
	for n := 8; n <= 12; n++ {
		for _, k := range []int{1, 3, 16} {
			lines := clitest.ShardLines(t, n, k, "--engine", "join", "--threads", "2")
			if !strings.Contains(lines[0], `"scheme":"join-parts-3","engine":"join",`) {
				t.Fatalf("n=%d K=%d: a join shard line does not name its scheme and engine: %s", n, k, lines[0])
			}
			stdout, stderr, code := clitest.Run(t, strings.Join(lines, ""), "merge", "--verify", "1000", "-")
			want, _ := board.Known(n)
			wantOut := fmt.Sprintf("%s (%d unique)\nmatches the published count for n = %d\n", cmdutil.SolutionsText(want.Total), want.Unique, n)
			if code != 0 || !strings.HasPrefix(stdout, wantOut) || !strings.Contains(stdout, "all agree") {
				t.Errorf("n=%d K=%d: merge --verify: exit %d, stdout %q, stderr %q; want %q and all agree", n, k, code, stdout, stderr, wantOut)
			}
		}
	}
}

// TestJoinShardRefusedCLI: a forged join line is caught by merge --verify
// (its recount by the join), a join and a constellation shard of one
// Count do not merge, and --engine auto shards constellations.
func TestJoinShardRefusedCLI(t *testing.T) {
	lines := clitest.ShardLines(t, 10, 3, "--engine", "join")
	// Two pieces' tallies swapped: every tally is one its piece can have
	// and the sums are the true ones, so only a recount catches it.
	whole := clitest.ShardLines(t, 10, 1, "--engine", "join")[0]
	forged := swappedLine(t, whole)
	_, stderr, code := clitest.Run(t, forged, "merge", "-")
	if code != 0 {
		t.Fatalf("merge of the swapped line without --verify: exit %d, stderr %q; want it to pass", code, stderr)
	}
	stdout, stderr, code := clitest.Run(t, forged, "merge", "--verify", "1000", "-")
	if code != 1 || !strings.Contains(stderr, "recount disagrees") || !strings.Contains(stderr, "(engine join)") {
		t.Errorf("merge --verify of a forged join line: exit %d, stdout %q, stderr %q; want exit 1 and the recount by the join", code, stdout, stderr)
	}
	cons := clitest.ShardLines(t, 10, 3, "--engine", "auto")
	if !strings.Contains(cons[0], `"scheme":"round-robin","engine":"constellations",`) {
		t.Errorf("--engine auto --shard did not count constellations: %s", cons[0])
	}
	mixed := []string{lines[0], cons[1], lines[2]}
	stdout, stderr, code = clitest.Run(t, strings.Join(mixed, ""), "merge", "-")
	if code != 1 || !strings.Contains(stderr, "split the count into different pieces") {
		t.Errorf("merge of join and constellation shards: exit %d, stdout %q, stderr %q; want exit 1 naming the different pieces", code, stdout, stderr)
	}
	for _, args := range [][]string{
		{"backtrack", "-n", "12", "--count", "--engine", "join", "--shard", "0/2", "--memory", "1KiB"},
		{"backtrack", "-n", "12", "--count", "--engine", "join", "--shard", "0/2", "--memory", "99999999999TiB"},
		{"backtrack", "-n", "12", "--count", "--shard", "0/2", "--memory", "64MiB"},
		{"backtrack", "-n", "29", "--count", "--engine", "join", "--shard", "0/2"},
	} {
		if _, stderr, code := clitest.Run(t, "", args...); code != 2 || !strings.HasPrefix(stderr, "queens: ") {
			t.Errorf("queens %s: exit %d, stderr %q; want a usage error", strings.Join(args, " "), code, stderr)
		}
	}
}

// TestJoinShardMemoryCLI: --memory goes with join shards and checkpoints,
// and a limit so small that the pieces split changes no tally: the lines
// of n = 13 in 1 MiB on two threads and with the default memory are the
// same but for their times, and merge to the published count. Under
// ulimit -v the default follows the limit.
func TestJoinShardMemoryCLI(t *testing.T) {
	small := clitest.ShardLines(t, 13, 2, "--engine", "join", "--threads", "2", "--memory", "1MiB")
	plain := clitest.ShardLines(t, 13, 2, "--engine", "join", "--threads", "2")
	for i := range small {
		a, err1 := shard.Parse([]byte(small[i]))
		b, err2 := shard.Parse([]byte(plain[i]))
		if err1 != nil || err2 != nil || fmt.Sprint(a.Tallies) != fmt.Sprint(b.Tallies) || fmt.Sprint(a.JoinPieces) != fmt.Sprint(b.JoinPieces) {
			t.Fatalf("shard %d in 1 MiB and by default: %v %v\n%s\n%s", i, err1, err2, small[i], plain[i])
		}
	}
	stdout, stderr, code := clitest.Run(t, strings.Join(small, ""), "merge", "-")
	if code != 0 || !strings.HasPrefix(stdout, "73712 solutions") {
		t.Errorf("merge of the shards in 1 MiB: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	path := filepath.Join(t.TempDir(), "ck")
	stdout, stderr, code = clitest.Run(t, "", "backtrack", "-n", "13", "--count", "--engine", "join", "--memory", "1MiB", "--checkpoint", path)
	if code != 0 || stdout != "73712 solutions\n" {
		t.Errorf("checkpointed count in 1 MiB: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// swappedLine returns a join shard line with the tallies of two pieces of
// the same weight swapped, consistently and with a valid checksum.
func swappedLine(t *testing.T, line string) string {
	t.Helper()
	r, err := shard.Parse([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range r.JoinPieces {
		for j := i + 1; j < len(r.JoinPieces); j++ {
			if r.JoinPieces[j].Weight == p.Weight && r.Tallies[i].Total24 != r.Tallies[j].Total24 {
				r.Tallies[i], r.Tallies[j] = r.Tallies[j], r.Tallies[i]
				return string(r.AppendLine(nil))
			}
		}
	}
	t.Fatal("no two pieces of one weight to swap")
	return ""
}
