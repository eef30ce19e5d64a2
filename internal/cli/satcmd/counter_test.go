package satcmd_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/testutil"
)

func TestSatCounterLiar(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "8"},
		{"-n", "8", "--encoding", "seq"},
		{"-n", "9", "--place", "1:1"}, // the backtracker's count
	} {
		args = append([]string{"sat", "--count", "--counter", clitest.CounterScript("liar.sh")}, args...)
		stdout, stderr, code := clitest.Run(t, "", args...)
		if code != 1 || stdout != "" || !strings.Contains(stderr, "the model counter liar.sh counted") || !strings.Contains(stderr, "counts") && !strings.Contains(stderr, "published count") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 naming both counts", args, code, stdout, stderr)
		}
	}
	for _, tc := range []struct {
		script, msg string
	}{
		{"no-count.sh", "no count in its output"},
		{"unsat-count.sh", "exits with status 20"},
	} {
		_, stderr, code := clitest.Run(t, "", "sat", "-n", "6", "--count", "--counter", clitest.CounterScript(tc.script))
		if code != 1 || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%s: exit %d, stderr %q; want 1 with %q", tc.script, code, stderr, tc.msg)
		}
	}
}

func TestSatCounterUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "8", "--counter", "clasp"},
		{"-n", "8", "--count", "--counter", "clasp", "--unique"},
		{"-n", "8", "--count", "--counter", "clasp", "--solver", "cadical"},
		{"-n", "8", "--count", "--counter", "no-such-counter-xyz"},
		{"-n", "8", "--count", "--counter", "'clasp"},
	} {
		if _, stderr, code := clitest.Run(t, "", append([]string{"sat"}, args...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, stderr)
		}
	}
}

// TestSatCounterHonest counts through the sharpSAT-style script (clasp
// underneath) and clasp itself: the referee agrees, with and without
// pre-placed queens, on every encoding; the brute-force reference gives
// the expected numbers.
func TestSatCounterHonest(t *testing.T) {
	if _, err := exec.LookPath("clasp"); err != nil {
		t.Skip("clasp not installed (apt-get install clasp)")
	}
	for _, tc := range []struct {
		counter string
		n       int
		enc     string
		place   []string
	}{
		{clitest.CounterScript("sharpsat-style.sh"), 8, "pairwise", nil},
		{clitest.CounterScript("sharpsat-style.sh"), 7, "seq", []string{"2:3"}},
		{"clasp --parse-ext --project -n 0 -q", 8, "product", []string{"1:4"}},
		{"clasp -n 0 -q", 6, "commander", nil},
		{"clasp -n 0 -q", 3, "pairwise", nil},
	} {
		args := []string{"sat", "--count", "--counter", tc.counter, "-n", fmt.Sprint(tc.n), "--encoding", tc.enc}
		args, placed := clitest.WithPlace(args, tc.place)
		stdout, stderr, code := clitest.Run(t, "", args...)
		want := cmdutil.SolutionsText(uint64(len(testutil.Solutions(tc.n, placed)))) + "\n"
		if code != 0 || stdout != want || stderr != "" {
			t.Errorf("%v: exit %d, stdout %q (want %q), stderr %q", args, code, stdout, want, stderr)
		}
	}
}
