package backtrackcmd

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/gpu"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/shard"
)

// TestBacktrackFlags checks how backtrack reads and checks its flags,
// without running the command: the options check resolves, and the
// usage errors (exit status 2) that stop a run before it starts.
func TestBacktrackFlags(t *testing.T) {
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "")
	type want struct {
		strategy           backtrack.Strategy
		format             board.Format
		unique             cmdutil.UniqueMode
		placed             int
		shardIndex, shards int
		split              int
		design             gpu.Design
	}
	for _, tc := range []struct {
		args []string
		want want
		err  string
	}{
		{[]string{"-n", "8"}, want{format: board.FormatBoard}, ""},
		{[]string{"-n", "8", "--all", "--strategy", "lex", "--format", "perm", "--place", "1:1"}, want{strategy: backtrack.Lex, format: board.FormatPerm, placed: 1}, ""},
		{[]string{"-n", "8", "--all", "--unique", "rotations"}, want{format: board.FormatBoard, unique: cmdutil.UniqueMode{On: true, Rotations: true}}, ""},
		{[]string{"-n", "8", "--count", "--shard", "1/4"}, want{format: board.FormatBoard, shardIndex: 1, shards: 4}, ""},
		{[]string{"-n", "8", "--count", "--json", "--shard", "3", "--shard-count", "4", "--shard-base", "1"}, want{format: board.FormatJSON, shardIndex: 2, shards: 4}, ""},
		{[]string{"-n", "20", "--count", "--checkpoint", "c.ckpt", "--split", "auto"}, want{format: board.FormatBoard, split: shard.AutoSplit(20)}, ""},
		{[]string{"-n", "8", "--count", "--gpu=auto", "--gpu-kernel", "loop"}, want{format: board.FormatBoard, design: gpu.DesignLoop}, ""},
		{nil, want{}, "missing -n N"},
		{[]string{"-n", "8", "extra"}, want{}, `unexpected argument "extra"`},
		{[]string{"-n", "8", "--unique", "rotations", "-o", "x"}, want{}, "write --unique=rotations"},
		{[]string{"-n", "8", "--all", "--count"}, want{}, "--all and --count cannot be used together"},
		{[]string{"-n", "8", "--strategy", "scan"}, want{}, "--strategy scan finds each solution"},
		{[]string{"-n", "8", "--order", "diagonal"}, want{}, "--order"},
		{[]string{"-n", "8", "--shard", "1/4"}, want{}, "--shard needs --count"},
		{[]string{"-n", "8", "--count", "--split", "4", "--place", "1:1"}, want{}, "--split cannot be combined with --place"},
		{[]string{"-n", "8", "--count", "--split", "4"}, want{}, "--split splits the pieces"},
		{[]string{"-n", "8", "--count", "--shard", "0/2", "--split", "1"}, want{}, "--split: want auto, 0 or 2"},
		{[]string{"-n", "8", "--count", "--json", "--format", "perm"}, want{}, "--json and --format perm"},
		{[]string{"-n", "8", "--count", "--shard", "0/2", "--format", "perm"}, want{}, "--shard prints a JSON line"},
		{[]string{"-n", "8", "--count", "--shard", "4/4"}, want{}, "not one of the 4 shards"},
		{[]string{"-n", "8", "--count", "--shard", "1/4", "--shard-count", "3"}, want{}, "disagree"},
		{[]string{"-n", "8", "--count", "--shard-count", "3"}, want{}, "no shard index"},
		{[]string{"-n", "8", "--count", "--checkpoint", "c", "--strategy", "lex"}, want{}, "do not apply to sharded counts"},
		{[]string{"-n", "8", "--count", "--checkpoint", "c", "--unique=rotations"}, want{}, "not for sharded counts"},
		{[]string{"-n", "8", "--count", "--checkpoint", "q", "-o", "q"}, want{}, "would replace the checkpoint"},
		{[]string{"-n", "28", "--all"}, want{}, "-n 28 is too large for --all"},
		{[]string{"-n", "8", "--place", "9:1"}, want{}, "9:1"},
		{[]string{"-n", "8", "--attacks"}, want{}, "--attacks needs --format svg or png"},
		{[]string{"-n", "8", "--gpu"}, want{}, "--gpu counts: add --count"},
		{[]string{"-n", "8", "--count", "--gpu-kernel", "loop"}, want{}, "add --gpu"},
		{[]string{"-n", "8", "--count", "--gpu", "--place", "1:1"}, want{}, "cannot be combined with --place"},
		{[]string{"-n", "8", "--engine", "join"}, want{}, "--engine and --memory are for --count"},
	} {
		var got *backtrackOptions
		err := clitest.RunCommand(t, newBacktrackCommand(func(_ context.Context, o backtrackOptions, _, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "backtrack", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil {
			t.Errorf("backtrack %s: %v, ran %v", what, err, got != nil)
			continue
		}
		g := want{got.strategy, got.Format, got.Unique, len(got.Placed), got.shardIndex, got.shards, got.splitParts, got.design}
		if g != tc.want {
			t.Errorf("backtrack %s: %+v, want %+v", what, g, tc.want)
		}
	}
}

// TestMemoryBound: the bound --memory's message names is a value it
// takes (1PiB was refused "at most 1PiB").
func TestMemoryBound(t *testing.T) {
	for _, v := range []string{"1PiB", "1P", "1PB", "1024TiB", "1125899906842624"} {
		if got, err := parseMemory(v); err != nil || got != 1<<50 {
			t.Errorf("parseMemory(%q) = %d, %v; want 2^50", v, got, err)
		}
	}
	for _, v := range []string{"2PiB", "1025TiB", "1125899906842625", "1EiB"} {
		if _, err := parseMemory(v); err == nil || !strings.Contains(err.Error(), "at most 1PiB") {
			t.Errorf("parseMemory(%q) = %v; want at most 1PiB", v, err)
		}
	}
}

// TestMemorySensible: from n = 20 a --memory below join.SensibleMemory
// (which would cost the count more than 3 times its CPU) is a usage
// error naming the least value worth giving, which is itself taken; below
// n = 20 any limit from join.MinMemory is.
func TestMemorySensible(t *testing.T) {
	for _, c := range []struct {
		n, threads int
		memory     string
		ok         bool
	}{
		{20, 1, "1MiB", false}, {20, 1, "64MiB", false}, {20, 1, "65MiB", true}, {20, 1, "256MiB", true},
		{21, 2, "16MiB", false}, {22, 1, "16MiB", false}, {22, 1, "43MiB", true}, {28, 4, "1GiB", false},
		{19, 1, "1MiB", true}, {14, 2, "1MiB", true},
	} {
		o := backtrackOptions{memory: c.memory, memorySet: true}
		o.N, o.Threads = c.n, c.threads
		mem, err := o.joinMemory()
		least := join.SensibleMemory(c.n, c.threads)
		if c.ok != (err == nil) {
			t.Errorf("n=%d, %d threads, --memory %s: %d, %v; want accepted %v (the least sensible %dMiB)", c.n, c.threads, c.memory, mem, err, c.ok, least>>20)
			continue
		}
		if err == nil {
			continue
		}
		if cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), fmt.Sprintf("give at least %dMiB", least>>20)) {
			t.Errorf("n=%d --memory %s: %v (exit %d); want a usage error naming %dMiB", c.n, c.memory, err, cmdutil.ExitCode(err), least>>20)
		}
		o.memory = fmt.Sprintf("%dMiB", least>>20)
		if _, err := o.joinMemory(); err != nil {
			t.Errorf("n=%d: the value the message names, %s, is refused: %v", c.n, o.memory, err)
		}
	}
}

// TestLimitHeapZero: limitHeap(0) leaves the runtime's soft memory limit
// as it is (a sharded join count called it so, and with a limit of 0 the
// collector ran without end: 485 collections for 2 in a shard of n = 20,
// 1.4 times its CPU); limitHeap(mem) lowers it to join.HeapLimit(mem) and
// its restore puts it back.
func TestLimitHeapZero(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	restore := limitHeap(0)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limitHeap(0) set the limit to %d (was %d)", got, before)
	}
	restore()
	restore = limitHeap(256 << 20)
	if got := debug.SetMemoryLimit(-1); got != min(before, join.HeapLimit(256<<20)) {
		t.Errorf("limitHeap(256MiB) set %d, want %d", got, join.HeapLimit(256<<20))
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("after restore the limit is %d, want %d", got, before)
	}
}

// TestJoinLimitMessage: a board too large for --count --engine join is
// refused naming the join's limits (27 whole, join.MaxN with --shard),
// not the constellation counter's 32 with --shard, which the join refuses
// (issue 42 item 6); past join.MaxN a shard is refused at join.MaxN.
func TestJoinLimitMessage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-n", "30", "--count", "--engine", "join"}, fmt.Sprintf("with --shard: N <= %d) (at most %d)", join.MaxN, cmdutil.MaxCountN)},
		{[]string{"-n", fmt.Sprint(join.MaxN + 1), "--count", "--engine", "join", "--shard", "0/2"}, fmt.Sprintf("too large for --count --shard --engine join (at most %d)", join.MaxN)},
		{[]string{"-n", "30", "--count"}, "(--count --shard: N <= 32) (at most 27)"},
	} {
		ran := false
		err := clitest.RunCommand(t, newBacktrackCommand(func(context.Context, backtrackOptions, io.Writer, io.Writer) error {
			ran = true
			return nil
		}), c.args...)
		if ran || err == nil || cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "join") && strings.Contains(err.Error(), "N <= 32") {
			t.Errorf("backtrack %s: %v; want a usage error with %q", strings.Join(c.args, " "), err, c.want)
		}
	}
}
