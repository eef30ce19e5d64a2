package cmdutil_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// TestDefaultMaxInputOwnFiles: queens reads its own files by default
// where the machine has the memory: the pairwise CNF of n = 100 (22.8
// MB, past the old fixed default of 16 MiB) is read by decode --cnf
// without --max-input, and a model of it checks.
func TestDefaultMaxInputOwnFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 23 MB CNF (-short)")
	}
	dir := t.TempDir()
	cnf := filepath.Join(dir, "p100.cnf")
	if _, stderr, code := clitest.Run(t, "", "dimacs", "-n", "100", "--encoding", "pairwise", "-o", cnf); code != 0 {
		t.Fatalf("dimacs: exit %d: %s", code, stderr)
	}
	st, err := os.Stat(cnf)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() <= cmdutil.MinMaxInput<<20 {
		t.Fatalf("the CNF is %d bytes, not past %d MiB", st.Size(), cmdutil.MinMaxInput)
	}
	if need := st.Size() * cmdutil.MemPerInputByte; int64(cmdutil.DefaultMaxInput())<<20 < st.Size() {
		t.Skipf("the default --max-input here is %d MiB: this process may use less than the %d bytes the CNF needs", cmdutil.DefaultMaxInput(), need)
	}
	s, _, err := backtrack.First(context.Background(), 100, backtrack.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var model strings.Builder
	model.WriteString("s SATISFIABLE\nv")
	for r, c := range s {
		fmt.Fprintf(&model, " %d", r*100+c+1)
	}
	model.WriteString(" 0\n")
	stdout, stderr, code := clitest.Run(t, model.String(), "decode", "-n", "100", "--cnf", cnf)
	if code != 0 || !strings.Contains(stdout, "Q") {
		t.Errorf("decode -n 100 --cnf (pairwise, %d bytes): exit %d: %s", st.Size(), code, stderr)
	}
	// The rule: the memory the process may use over memPerInputByte,
	// within its bounds.
	if d := cmdutil.DefaultMaxInput(); d < cmdutil.MinMaxInput || d > cmdutil.MaxInputLimit {
		t.Errorf("default --max-input %d MiB, out of %d..%d", d, cmdutil.MinMaxInput, cmdutil.MaxInputLimit)
	}
}
