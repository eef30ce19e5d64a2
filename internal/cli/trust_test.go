package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestCompareSolvers: compare enumerates external solvers up to
// --solver-limit on each --encoding, with --place too; a command with a
// comma stays one command; a solver that hangs is named under --timeout
// with the rows done so far kept.
func TestCompareSolvers(t *testing.T) {
	clitest.Need(t, "clasp")
	stdout, stderr, code := clitest.Run(t, "", "compare", "-n", "7-8", "--place", "1:2", "--engines", "backtrack",
		"--solver", "clasp --heuristic=Vsids,92", "--encoding", "pairwise,seq", "--solver-limit", "8")
	if code != 0 || stderr != "" || !strings.Contains(stdout, "clasp --heuristic=Vsids,92/seq") || strings.Contains(stdout, "one model") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	if !strings.Contains(stdout, "agree: 6 runs") {
		t.Errorf("want 6 runs (2 sizes, backtrack and 2 encodings):\n%s", stdout)
	}
	stdout, _, code = clitest.Run(t, "", "compare", "-n", "9", "--engines", "backtrack", "--solver", "clasp", "--solver-limit", "8")
	if code != 0 || !strings.Contains(stdout, "clasp (one model)") {
		t.Errorf("above --solver-limit: exit %d, stdout:\n%s", code, stdout)
	}
	dir := t.TempDir()
	hang := filepath.Join(dir, "hang")
	os.WriteFile(hang, []byte("#!/bin/sh\ncase \"$1\" in *probe*) echo 's UNSATISFIABLE'; exit 20;; esac\nsleep 60\n"), 0o755)
	stdout, stderr, code = clitest.Run(t, "", "compare", "-n", "4-5", "--engines", "backtrack,sat/seq", "--solver", hang, "--timeout", "1s")
	if code != 1 || !strings.Contains(stderr, "stopped by --timeout 1s at n = 4 while "+hang+" ran") {
		t.Errorf("hang: exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "sat/seq") || !strings.Contains(stdout, "TIMEOUT") {
		t.Errorf("hang: the rows done are lost:\n%s", stdout)
	}
}
