package boardcmd_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
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
			v, err := strconv.Atoi(f)
			if f == "Q" {
				v, err = -1, nil
			}
			if err != nil {
				t.Fatalf("row %d: %q is neither a number nor Q", r+1, f)
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
	data := clitest.ReadFile(t, svg)
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
