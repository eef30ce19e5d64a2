package backtrackcmd_test

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/testutil"
)

// TestBacktrackCLI checks the command's answers against the published
// counts and board.Valid, for every mode.
func TestBacktrackCLI(t *testing.T) {
	for n := 1; n <= 10; n++ {
		want := clitest.Known(t, n)
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
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
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

func TestUniqueRotationsCLI(t *testing.T) {
	for _, args := range [][]string{
		{"backtrack", "-n", "8", "--count", "--unique", "rotations"},
		{"backtrack", "-n", "8", "--count", "--unique=rotations"},
		{"backtrack", "-n", "8", "--count", "--unique=rotations", "--strategy", "lex"},
		{"backtrack", "-n", "8", "--count", "--unique=rotations", "--order", "columns"},
	} {
		out, errs, code := clitest.Run(t, "", args...)
		if code != 0 || out != "92 solutions (24 unique up to rotation)\n" {
			t.Errorf("%v: exit %d %s %q", args, code, errs, out)
		}
	}
	out := clitest.Output(t, "", "backtrack", "-n", "8", "--count", "--unique=rotations", "--format", "json")
	if out != `{"n":8,"total":92,"unique":24,"symmetry":"rotations"}`+"\n" {
		t.Errorf("json: %q", out)
	}
	for n := 1; n <= 9; n++ {
		out, errs, code := clitest.Run(t, "", "backtrack", "-n", fmt.Sprint(n), "--all", "--format", "perm", "--unique=rotations")
		lines := 0
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line == "no solution" {
				break
			}
			s, err := board.Parse(board.FormatPerm, line)
			if err != nil || !board.IsCanonicalRotation(s) || !board.Valid(s) {
				t.Fatalf("n=%d: %q %v", n, line, err)
			}
			lines++
		}
		res, err := backtrack.Count(t.Context(), n, backtrack.CountOptions{Unique: true})
		if err != nil {
			t.Fatal(err)
		}
		if code != 0 || uint64(lines) != res.Rotations {
			t.Errorf("n=%d: exit %d %s, %d listed, %d classes", n, code, errs, lines, res.Rotations)
		}
	}
	// Plain --unique is still rotations and reflections.
	if out := clitest.Output(t, "", "backtrack", "-n", "8", "--count", "--unique"); out != "92 solutions (12 unique)\n" {
		t.Errorf("--unique: %q", out)
	}
	for _, args := range [][]string{
		{"backtrack", "-n", "8", "--count", "--unique=mirrors"},
		{"backtrack", "-n", "8", "--unique", "rotations", "--count"},
		{"backtrack", "-n", "8", "--count", "--unique=rotations", "--shard", "0/2"},
		{"backtrack", "-n", "8", "--order", "diagonal"},
	} {
		if _, errs, code := clitest.Run(t, "", args...); code != 2 || !strings.HasPrefix(errs, "queens: ") || strings.Contains(errs, "boolean") {
			t.Errorf("%v: exit %d, %q; want a usage error", args, code, errs)
		}
	}
}

func TestCountWithStrategy(t *testing.T) {
	for _, strategy := range []string{"lex", "heuristic"} {
		for n := 1; n <= 9; n++ {
			out, errs, code := clitest.Run(t, "", "backtrack", "-n", fmt.Sprint(n), "--count", "--unique", "--strategy", strategy, "--stats", "--format", "json")
			var got struct{ Total, Unique uint64 }
			json.Unmarshal([]byte(out), &got)
			total, unique := testutil.Count(n, nil)
			if code != 0 || got.Total != total || got.Unique != unique {
				t.Errorf("n=%d %s: exit %d, %q; brute force %d (%d unique)", n, strategy, code, out, total, unique)
			}
			var stats struct {
				Stats struct {
					Algorithm, Strategy string
					Nodes               uint64
				}
			}
			if err := json.Unmarshal([]byte(errs), &stats); err != nil || stats.Stats.Algorithm != "backtrack" || stats.Stats.Strategy != strategy {
				t.Errorf("n=%d %s: stats %q", n, strategy, errs)
			}
			if strategy == "lex" {
				st, err := backtrack.Search(t.Context(), n, backtrack.Options{Strategy: backtrack.Lex}, func(board.Solution) bool { return true })
				if err != nil {
					t.Fatal(err)
				}
				if stats.Stats.Nodes != st.Nodes {
					t.Errorf("n=%d: %d nodes, the textbook search places %d", n, stats.Stats.Nodes, st.Nodes)
				}
			}
		}
	}
	_, errs, code := clitest.Run(t, "", "backtrack", "-n", "8", "--count", "--stats")
	if code != 0 || !strings.Contains(errs, "algorithm=counter") {
		t.Errorf("the counter's stats %q do not name it", errs)
	}
	out := clitest.Output(t, "", "backtrack", "-n", "8", "--count", "--place", "1:1", "--strategy", "lex")
	if out != "4 solutions\n" {
		t.Errorf("lex count with --place 1:1: %q", out)
	}
}

// TestNumberedListing pretends stdout is a terminal: the solutions of a
// listing are numbered and the total follows; to a pipe nothing changes.
func TestNumberedListing(t *testing.T) {
	old := cmdutil.StdoutIsTerminal
	cmdutil.StdoutIsTerminal = func(io.Writer) bool { return true }
	defer func() { cmdutil.StdoutIsTerminal = old }()
	out, _, code := clitest.Run(t, "", "backtrack", "-n", "6", "--all", "--format", "perm")
	want := "   1  2 4 6 1 3 5\n   2  3 6 2 5 1 4\n   3  4 1 5 2 6 3\n   4  5 3 1 6 4 2\ntotal: 4 solutions\n"
	if code != 0 || out != want {
		t.Errorf("numbered perm:\n%s\nwant\n%s", out, want)
	}
	out = clitest.Output(t, "", "backtrack", "-n", "4", "--all")
	if !strings.HasPrefix(out, "solution 1:\n    1 2 3 4\n") || !strings.Contains(out, "\n\nsolution 2:\n") || !strings.HasSuffix(out, "total: 2 solutions\n") {
		t.Errorf("numbered boards:\n%s", out)
	}
	out = clitest.Output(t, "", "backtrack", "-n", "1", "--all", "--format", "perm")
	if out != "   1  1\ntotal: 1 solution\n" {
		t.Errorf("n=1: %q", out)
	}
	for _, args := range [][]string{{"backtrack", "-n", "6"}, {"backtrack", "-n", "6", "--all", "--format", "json"}, {"backtrack", "-n", "6", "--count"}} {
		if out := clitest.Output(t, "", args...); strings.Contains(out, "total") || strings.Contains(out, "solution 1") {
			t.Errorf("%v numbered: %q", args, out)
		}
	}
	cmdutil.StdoutIsTerminal = old
	if out := clitest.Output(t, "", "backtrack", "-n", "6", "--all", "--format", "perm"); strings.Contains(out, "total") {
		t.Errorf("numbered to a pipe: %q", out)
	}
}

func TestBacktrackColumnOrder(t *testing.T) {
	out, errs, code := clitest.Run(t, "", "backtrack", "-n", "8", "--order", "columns", "--format", "perm", "--limit", "2")
	// Filled column by column: the queen of column 1 on row 1, of column 2
	// On row 5, ... (the textbook's 1 5 8 6 3 7 2 4, read down the
	// columns); perm prints the column of each row.
	if code != 0 || out != "1 7 5 8 2 4 6 3\n1 7 4 6 8 2 5 3\n" {
		t.Errorf("exit %d %s:\n%s", code, errs, out)
	}
	out = clitest.Output(t, "", "backtrack", "-n", "8", "--order", "columns", "--count")
	if out != "92 solutions\n" {
		t.Errorf("count by columns: %q", out)
	}
}

// TestUniqueLimitBigBoard: --unique --limit 1 above AutoLexMax finds a
// canonical solution (lex order, where they come early), not none.
func TestUniqueLimitBigBoard(t *testing.T) {
	out, errs, code := clitest.Run(t, "", "backtrack", "-n", "25", "--unique", "--limit", "1", "--format", "perm")
	s, err := board.Parse(board.FormatPerm, strings.TrimSpace(out))
	if code != 0 || err != nil || !board.Valid(s) || !board.IsCanonical(s) {
		t.Errorf("exit %d %s: %q is not a canonical solution (%v)", code, errs, out, err)
	}
}
