package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/gpu"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/shard"
)

// TestBacktrackCLI checks the command's answers against the published
// counts and board.Valid, for every mode.
func TestBacktrackCLI(t *testing.T) {
	for n := 1; n <= 10; n++ {
		want, _ := board.Known(n)
		stdout, _, code := clitest.Run(t, "", "backtrack", "-n", fmt.Sprint(n), "--count", "--unique")
		if code != 0 || stdout != fmt.Sprintf("%s (%d unique)\n", cmdutil.SolutionsText(want.Total), want.Unique) {
			t.Errorf("backtrack -n %d --count --unique: %q, exit %d", n, stdout, code)
		}
		for _, extra := range [][]string{{"--all"}, {"--all", "--strategy", "heuristic"}, {"--all", "--unique"}} {
			args := append([]string{"backtrack", "-n", fmt.Sprint(n), "--format", "perm"}, extra...)
			stdout, _, code = clitest.Run(t, "", args...)
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if want.Total == 0 {
				if code != 0 || stdout != "no solution\n" {
					t.Errorf("queens %v: %q, exit %d", args, stdout, code)
				}
				continue
			}
			seen := map[string]bool{}
			for _, line := range lines {
				s, err := board.Parse(board.FormatPerm, line)
				if err != nil || !board.Valid(s) || seen[line] {
					t.Fatalf("queens %v: bad or repeated solution %q (%v)", args, line, err)
				}
				seen[line] = true
			}
			wantLines := want.Total
			if extra[len(extra)-1] == "--unique" {
				wantLines = want.Unique
			}
			if code != 0 || uint64(len(lines)) != wantLines {
				t.Errorf("queens %v: %d solutions, exit %d; want %d", args, len(lines), code, wantLines)
			}
		}
	}
	// The first solution of large boards (heuristic strategy).
	for _, n := range []int{25, 100, 1000} {
		stdout, _, code := clitest.Run(t, "", "backtrack", "-n", fmt.Sprint(n), "--format", "perm")
		s, err := board.Parse(board.FormatPerm, strings.TrimSpace(stdout))
		if code != 0 || err != nil || !board.Valid(s) || len(s) != n {
			t.Errorf("backtrack -n %d: exit %d, %v, valid %v", n, code, err, board.Valid(s))
		}
	}
}

// TestBacktrackOutputFile checks -o: the file appears with the answer, and
// a missing directory is a usage error that leaves no file behind.
func TestBacktrackOutputFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "q8.txt")
	if _, stderr, code := clitest.Run(t, "", "backtrack", "-n", "8", "--all", "--format", "perm", "-o", path); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil || strings.Count(string(data), "\n") != 92 {
		t.Errorf("-o %s: %d lines, %v; want 92", path, strings.Count(string(data), "\n"), err)
	}
	missing := filepath.Join(dir, "missing", "out.txt")
	if _, _, code := clitest.Run(t, "", "backtrack", "-n", "8", "-o", missing); code != 2 {
		t.Errorf("-o into a missing directory: exit %d, want 2", code)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left in %s: %v", dir, entries)
	}
	if _, err := os.Stat(filepath.Dir(missing)); err == nil {
		t.Errorf("the missing directory was created")
	}
}

// TestSIMDEnv checks QUEENS_SIMD: the portable path named in --stats
// (text and JSON), and a path that is unknown or that no CPU under the
// best one has refused in one line, exit 2, whatever the engine.
func TestSIMDEnv(t *testing.T) {
	t.Setenv("QUEENS_SIMD", "go")
	for _, args := range [][]string{
		{"backtrack", "-n", "10", "--count", "--stats"},
		{"backtrack", "-n", "10", "--count", "--stats", "--format", "json"},
	} {
		stdout, stderr, code := clitest.Run(t, "", args...)
		if code != 0 || !strings.Contains(stdout, "724") || !strings.Contains(stderr, "simd=go") && !strings.Contains(stderr, `"simd":"go"`) {
			t.Errorf("QUEENS_SIMD=go queens %v: exit %d, %q, %q; want 724 and simd go in the stats", args, code, stdout, stderr)
		}
	}
	for _, bad := range []string{"sse4", "AVX2", "avx512x"} {
		t.Setenv("QUEENS_SIMD", bad)
		for _, engine := range []string{"join", "auto", "constellations"} {
			stdout, stderr, code := clitest.Run(t, "", "backtrack", "-n", "10", "--count", "--engine", engine)
			if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "queens: ") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "QUEENS_SIMD") {
				t.Errorf("QUEENS_SIMD=%s --engine %s: exit %d, %q, %q; want one line naming QUEENS_SIMD, exit 2", bad, engine, code, stdout, stderr)
			}
		}
	}
}

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
