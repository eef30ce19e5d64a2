package backtrackcmd

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
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
