package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/drat"
	"github.com/queens-dev/queens/sat/external"
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
	if _, stderr, code := runCLI(t, "", "dimacs", "-n", "100", "--encoding", "pairwise", "-o", cnf); code != 0 {
		t.Fatalf("dimacs: exit %d: %s", code, stderr)
	}
	st, err := os.Stat(cnf)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() <= minMaxInput<<20 {
		t.Fatalf("the CNF is %d bytes, not past %d MiB", st.Size(), minMaxInput)
	}
	if need := st.Size() * memPerInputByte; int64(defaultMaxInput())<<20 < st.Size() {
		t.Skipf("the default --max-input here is %d MiB: this process may use less than the %d bytes the CNF needs", defaultMaxInput(), need)
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
	stdout, stderr, code := runCLI(t, model.String(), "decode", "-n", "100", "--cnf", cnf)
	if code != 0 || !strings.Contains(stdout, "Q") {
		t.Errorf("decode -n 100 --cnf (pairwise, %d bytes): exit %d: %s", st.Size(), code, stderr)
	}
	// The rule: the memory the process may use over memPerInputByte,
	// within its bounds.
	if d := defaultMaxInput(); d < minMaxInput || d > maxInputLimit {
		t.Errorf("default --max-input %d MiB, out of %d..%d", d, minMaxInput, maxInputLimit)
	}
}

// TestProofMemoryExit: a proof that would need more memory than the
// process may use is an input error (exit status 2), whether decode's
// --proof or a solver's.
func TestProofMemoryExit(t *testing.T) {
	for _, err := range []error{
		fmt.Errorf("check DRAT: %w: 9000 MiB", drat.ErrMemory),
		fmt.Errorf("%w: cadical's proof of UNSATISFIABLE: %w", external.ErrProof, drat.ErrMemory),
	} {
		if code := exitCode(err); code != 2 {
			t.Errorf("exitCode(%v) = %d, want 2", err, code)
		}
	}
}
