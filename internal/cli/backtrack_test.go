package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
)

// TestBacktrackCLI checks the command's answers against the published
// counts and board.Valid, for every mode.
func TestBacktrackCLI(t *testing.T) {
	for n := 1; n <= 10; n++ {
		want, _ := board.Known(n)
		stdout, _, code := runCLI(t, "", "backtrack", "-n", fmt.Sprint(n), "--count", "--unique")
		if code != 0 || stdout != fmt.Sprintf("%s (%d unique)\n", solutionsText(want.Total), want.Unique) {
			t.Errorf("backtrack -n %d --count --unique: %q, exit %d", n, stdout, code)
		}
		for _, extra := range [][]string{{"--all"}, {"--all", "--strategy", "heuristic"}, {"--all", "--unique"}} {
			args := append([]string{"backtrack", "-n", fmt.Sprint(n), "--format", "perm"}, extra...)
			stdout, _, code = runCLI(t, "", args...)
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
		stdout, _, code := runCLI(t, "", "backtrack", "-n", fmt.Sprint(n), "--format", "perm")
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
	if _, stderr, code := runCLI(t, "", "backtrack", "-n", "8", "--all", "--format", "perm", "-o", path); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil || strings.Count(string(data), "\n") != 92 {
		t.Errorf("-o %s: %d lines, %v; want 92", path, strings.Count(string(data), "\n"), err)
	}
	missing := filepath.Join(dir, "missing", "out.txt")
	if _, _, code := runCLI(t, "", "backtrack", "-n", "8", "-o", missing); code != 2 {
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
		stdout, stderr, code := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(stdout, "724") || !strings.Contains(stderr, "simd=go") && !strings.Contains(stderr, `"simd":"go"`) {
			t.Errorf("QUEENS_SIMD=go queens %v: exit %d, %q, %q; want 724 and simd go in the stats", args, code, stdout, stderr)
		}
	}
	for _, bad := range []string{"sse4", "AVX2", "avx512x"} {
		t.Setenv("QUEENS_SIMD", bad)
		for _, engine := range []string{"join", "auto", "constellations"} {
			stdout, stderr, code := runCLI(t, "", "backtrack", "-n", "10", "--count", "--engine", engine)
			if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "queens: ") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "QUEENS_SIMD") {
				t.Errorf("QUEENS_SIMD=%s --engine %s: exit %d, %q, %q; want one line naming QUEENS_SIMD, exit 2", bad, engine, code, stdout, stderr)
			}
		}
	}
}
