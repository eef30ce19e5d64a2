package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/testutil"
)

func TestBoardCommand(t *testing.T) {
	out, errs, code := clitest.Run(t, "", "board", "-n", "8", "--place", "4:4", "--format", "attacks")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// Every number is the count of queens sharing a line with the
	// square: here the one queen at 4:4.
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(rows) != 8 {
		t.Fatalf("%d rows:\n%s", len(rows), out)
	}
	for r, line := range rows {
		for c, f := range strings.Fields(line) {
			v, _ := strconv.Atoi(f)
			if f == "Q" {
				v = -1
			}
			want := 0
			switch {
			case r == 3 && c == 3:
				want = -1
			case r == 3 || c == 3 || r-c == 0 || r+c == 6:
				want = 1
			}
			if v != want {
				t.Errorf("%d:%d = %d, want %d", r+1, c+1, v, want)
			}
		}
	}
	// A partial board in the other formats, no search.
	for format, want := range map[string]string{
		"coords": "1:2 4:4\n",
		"json":   `{"n":5,"queens":[1,-1,-1,3,-1]}` + "\n",
		"matrix": "0 1 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 1 0\n0 0 0 0 0\n",
	} {
		out, errs, code := clitest.Run(t, "", "board", "-n", "5", "--place", "1:2", "--place", "4:4", "--format", format)
		if code != 0 || out != want {
			t.Errorf("board --format %s: exit %d %s\n%q, want %q", format, code, errs, out, want)
		}
	}
	// Queens that attack each other are drawn (the counts show it).
	out, _, code = clitest.Run(t, "", "board", "-n", "3", "--place", "1:1", "--place", "2:2", "--format", "attacks")
	if code != 0 || out != " Q  2  2\n 2  Q  1\n 2  1  2\n" {
		t.Errorf("attacking queens: exit %d\n%s", code, out)
	}
	svg := filepath.Join(t.TempDir(), "b.svg")
	if _, errs, code := clitest.Run(t, "", "board", "-n", "6", "--place", "2:3", "--format", "svg", "--numbers", "-o", svg); code != 0 {
		t.Fatalf("svg: exit %d %s", code, errs)
	}
	data, _ := os.ReadFile(svg)
	if got := strings.Count(string(data), "</text>"); got != 12+35 { // 6+6 labels, 35 counts
		t.Errorf("svg has %d texts, want 47", got)
	}
	for _, args := range [][]string{
		{"board", "-n", "4", "--place", "1:1", "--place", "1:3"},
		{"board", "-n", "4", "--place", "5:1"},
		{"board", "-n", "4", "--place", "1:1", "--format", "perm"},
		{"board", "-n", "4", "--numbers"},
		{"board", "-n", "4", "--format", "xml"},
		{"board"},
	} {
		if _, errs, code := clitest.Run(t, "", args...); code != 2 || !strings.HasPrefix(errs, "queens: ") {
			t.Errorf("%v: exit %d, %q; want a usage error", args, code, errs)
		}
	}
}

func TestCheckCommand(t *testing.T) {
	tests := []struct {
		in   string
		args []string
		code int
		want string
	}{
		{"1 5 8 6 3 7 2 4\n", []string{"-n", "8"}, 0, "valid: 8 queens on the 8x8 board, no two attack each other\n"},
		{"", []string{"2", "4", "1", "3"}, 0, "valid: 4 queens"},
		{"", []string{"1:2", "2:4", "3:1", "4:3"}, 0, "valid: 4 queens"},
		{"0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n", nil, 0, "valid: 4 queens"},
		{"    1 2 3 4\n 1  . Q . .\n 2  . . . Q\n 3  Q . . .\n 4  . . Q .\n", nil, 0, "valid: 4 queens"},
		{`{"n":4,"queens":[1,3,0,2]}`, nil, 0, "valid: 4 queens"},
		{"1 5 8 6 3 7 2 5", nil, 1, "invalid: queens at 2:5 and 8:5 share a column\ninvalid: queens at 6:7 and 8:5 share an anti-diagonal\n"},
		{"", []string{"1", "2", "3"}, 1, "invalid: queens at 1:1 and 2:2 share a diagonal\n"},
		{"", []string{"1:1", "1:3", "2:2", "3:3"}, 1, "invalid: queens at 1:1 and 1:3 share a row\n"},
		{"", []string{"2", "4", "1", "3"}, 1, ""}, // with -n 5 below
		{"1 1\n1 1\n", nil, 1, "share a row"},
		{"", []string{"1:2", "2:4"}, 1, "invalid: 2 queens on the 4x4 board: a solution has 4\n"},
	}
	for i, tc := range tests {
		args := append([]string{"check"}, tc.args...)
		if i == 9 {
			args = []string{"check", "-n", "5", "2", "4", "1", "3"}
		}
		out, errs, code := clitest.Run(t, tc.in, args...)
		if code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%v < %q: exit %d, stdout %q, stderr %q; want exit %d and %q", args, tc.in, code, out, errs, tc.code, tc.want)
		}
		if code == 1 && !strings.HasPrefix(errs, "queens: check: not a solution") {
			t.Errorf("%v: stderr %q", args, errs)
		}
	}
	// Many conflicts: the first 20 named, the rest counted; a board full
	// of queens is not searched pair by pair.
	out, _, code := clitest.Run(t, "", "check", "1", "1", "1", "1", "1", "1", "1", "1")
	if code != 1 || !strings.Contains(out, "invalid: and 8 more pairs of queens that attack each other\n") || strings.Count(out, "share a column") != 20 {
		t.Errorf("8 queens in one column: exit %d\n%s", code, out)
	}
	full := strings.Repeat(strings.Repeat("1 ", 300)+"\n", 300)
	out, _, code = clitest.Run(t, full, "check")
	if code != 1 || out != "invalid: 90000 queens on the 300x300 board: a solution has 300\n" {
		t.Errorf("a full board: exit %d %q", code, out)
	}
	for _, in := range []string{"", "1 5 x", "1 9 2", "Q . Q\n. .\n", "1:", "{\"n\":2}", "0 1\n1 0 0\n"} {
		_, errs, code := clitest.Run(t, in, "check")
		if code != 2 || !strings.HasPrefix(errs, "queens: check: ") {
			t.Errorf("check < %q: exit %d, %q; want a usage error", in, code, errs)
		}
	}
	// Every solution of n = 6 is valid, every other permutation is not,
	// as the brute force says.
	valid := map[string]bool{}
	for _, s := range testutil.Solutions(6, nil) {
		b, _ := board.Append(nil, s, board.FormatPerm)
		valid[string(b)] = true
	}
	perm := []int{1, 2, 3, 4, 5, 6}
	var walk func(k int)
	walk = func(k int) {
		if k == len(perm) {
			line := strings.Trim(fmt.Sprint(perm), "[]") + "\n"
			_, _, code := clitest.Run(t, "", append([]string{"check"}, strings.Fields(line)...)...)
			if (code == 0) != valid[line] || (code != 0 && code != 1) {
				t.Fatalf("check %s: exit %d, valid %v", line, code, valid[line])
			}
			return
		}
		for i := k; i < len(perm); i++ {
			perm[k], perm[i] = perm[i], perm[k]
			walk(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	walk(0)
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
	out, _, _ := clitest.Run(t, "", "backtrack", "-n", "8", "--count", "--unique=rotations", "--format", "json")
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
		res, _ := backtrack.Count(t.Context(), n, backtrack.CountOptions{Unique: true})
		if code != 0 || uint64(lines) != res.Rotations {
			t.Errorf("n=%d: exit %d %s, %d listed, %d classes", n, code, errs, lines, res.Rotations)
		}
	}
	// Plain --unique is still rotations and reflections.
	if out, _, _ := clitest.Run(t, "", "backtrack", "-n", "8", "--count", "--unique"); out != "92 solutions (12 unique)\n" {
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
				st, _ := backtrack.Search(t.Context(), n, backtrack.Options{Strategy: backtrack.Lex}, func(board.Solution) bool { return true })
				if stats.Stats.Nodes != st.Nodes {
					t.Errorf("n=%d: %d nodes, the textbook search places %d", n, stats.Stats.Nodes, st.Nodes)
				}
			}
		}
	}
	_, errs, _ := clitest.Run(t, "", "backtrack", "-n", "8", "--count", "--stats")
	if !strings.Contains(errs, "algorithm=counter") {
		t.Errorf("the counter's stats %q do not name it", errs)
	}
	out, _, _ := clitest.Run(t, "", "backtrack", "-n", "8", "--count", "--place", "1:1", "--strategy", "lex")
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
	out, _, _ = clitest.Run(t, "", "backtrack", "-n", "4", "--all")
	if !strings.HasPrefix(out, "solution 1:\n    1 2 3 4\n") || !strings.Contains(out, "\n\nsolution 2:\n") || !strings.HasSuffix(out, "total: 2 solutions\n") {
		t.Errorf("numbered boards:\n%s", out)
	}
	out, _, _ = clitest.Run(t, "", "backtrack", "-n", "1", "--all", "--format", "perm")
	if out != "   1  1\ntotal: 1 solution\n" {
		t.Errorf("n=1: %q", out)
	}
	for _, args := range [][]string{{"backtrack", "-n", "6"}, {"backtrack", "-n", "6", "--all", "--format", "json"}, {"backtrack", "-n", "6", "--count"}} {
		if out, _, _ := clitest.Run(t, "", args...); strings.Contains(out, "total") || strings.Contains(out, "solution 1") {
			t.Errorf("%v numbered: %q", args, out)
		}
	}
	cmdutil.StdoutIsTerminal = old
	if out, _, _ := clitest.Run(t, "", "backtrack", "-n", "6", "--all", "--format", "perm"); strings.Contains(out, "total") {
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
	out, _, _ = clitest.Run(t, "", "backtrack", "-n", "8", "--order", "columns", "--count")
	if out != "92 solutions\n" {
		t.Errorf("count by columns: %q", out)
	}
}

// TestBoardFlags checks how board reads and checks its flags, without
// running the command.
func TestBoardFlags(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		board  board.Solution
		format board.Format
		err    string
	}{
		{[]string{"-n", "4", "--place", "2:2"}, board.Solution{-1, 1, -1, -1}, board.FormatBoard, ""},
		{[]string{"-n", "3", "--place", "1:1", "--place", "1:1", "--format", "attacks"}, board.Solution{0, -1, -1}, board.FormatAttacks, ""},
		{nil, nil, "", "missing -n N"},
		{[]string{"-n", "4", "x"}, nil, "", `unexpected argument "x"`},
		{[]string{"-n", "4", "--place", "5:1"}, nil, "", "off the 4x4 board"},
		{[]string{"-n", "4", "--place", "1:1", "--place", "1:2"}, nil, "", "share a row"},
		{[]string{"-n", "4", "--place", "1:1", "--format", "perm"}, nil, "", "--format perm needs a queen in every row"},
		{[]string{"-n", "4", "--format", "nosuch"}, nil, "", "nosuch"},
	} {
		var got *boardOptions
		err := clitest.RunCommand(t, newBoardCommand(func(_ context.Context, o boardOptions, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "board", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil || !slices.Equal(got.board, tc.board) || got.Format != tc.format {
			t.Errorf("board %s: %+v, %v; want board %v, format %s", what, got, err, tc.board, tc.format)
		}
	}
}
