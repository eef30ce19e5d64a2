package checkcmd_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/testutil"
)

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
		b, err := board.Append(nil, s, board.FormatPerm)
		if err != nil {
			t.Fatal(err)
		}
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

// TestCheckCount checks the message for a permutation that leaves a
// number out, read against -n: a usage error that says how many numbers
// it has and a solution needs.
func TestCheckCount(t *testing.T) {
	_, errs, code := clitest.Run(t, "", "check", "-n", "8", "1", "5", "8", "6", "3", "7", "2")
	if code != 2 || !strings.Contains(errs, "7 numbers, a solution of n = 8 has 8") {
		t.Errorf("exit %d, %q", code, errs)
	}
}
