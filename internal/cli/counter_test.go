package cli

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

func TestCompareCounters(t *testing.T) {
	liar := clitest.CounterScript("liar.sh")
	stdout, stderr, code := clitest.Run(t, "", "compare", "-n", "6-8", "--engines", "backtrack", "--counter", liar)
	if code != 1 || !strings.Contains(stdout, "problem: counter:"+liar+": 745 solutions, published 92") ||
		!strings.Contains(stdout, "backtrack found 92") {
		t.Errorf("compare --counter liar: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, stderr, code = clitest.Run(t, "", "compare", "-n", "9", "--place", "1:2", "--engines", "backtrack", "--counter", liar)
	if code != 1 || !strings.Contains(stdout, "backtrack found 30") {
		t.Errorf("compare --counter liar --place: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := clitest.Run(t, "", "compare", "-n", "8", "--counter", "no-such-counter-xyz"); code != 2 {
		t.Errorf("compare --counter missing: exit %d, want 2: %s", code, stderr)
	}
	if _, err := exec.LookPath("clasp"); err != nil {
		t.Skip("clasp not installed (apt-get install clasp)")
	}
	for _, args := range [][]string{
		{"-n", "1-9", "--encoding", "pairwise,seq"},
		{"-n", "8", "--place", "2:5"},
	} {
		args = append([]string{"compare", "--engines", "backtrack", "--counter", "clasp --parse-ext --project -n 0 -q", "--counter", clitest.CounterScript("sharpsat-style.sh")}, args...)
		stdout, stderr, code := clitest.Run(t, "", args...)
		if code != 0 || !strings.Contains(stdout, "agree:") {
			t.Errorf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
}
