package decodecmd_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestDecodeTrust: decode checks UNSATISFIABLE answers by proof or by the
// referee, reads models of true literals only, and refuses a --cnf of
// another n.
func TestDecodeTrust(t *testing.T) {
	dir := t.TempDir()
	q4 := clitest.WriteDimacs(t, dir, "4")
	stdout, stderr, code := clitest.Run(t, "v 2 8 9 15 0\n", "decode", "-n", "4", "--cnf", q4, "--format", "perm")
	if code != 0 || stdout != "2 4 1 3\n" {
		t.Errorf("true literals only: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	_, stderr, code = clitest.Run(t, "v 2 8 9 15 0\n", "decode", "-n", "5", "--cnf", q4)
	if code != 2 || !strings.Contains(stderr, `is the CNF of n = 4 (its "c n" line), not of -n 5`) {
		t.Errorf("--cnf of another n: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = clitest.Run(t, "", "decode", "-n", "4", "--proof", q4)
	if code != 2 || !strings.Contains(stderr, "--proof needs --cnf") {
		t.Errorf("--proof without --cnf: exit %d, stderr %q", code, stderr)
	}
	// A completion that exists only on the board, not in the CNF's
	// placement: the referee reads "c placed".
	none := clitest.WriteDimacs(t, dir, "8", "--place", "1:1", "--place", "2:3")
	stdout, stderr, code = clitest.Run(t, "s UNSATISFIABLE\n", "decode", "-n", "8", "--cnf", none)
	if code != 0 || stdout != "no solution\n" || stderr != "" {
		t.Errorf("true UNSAT with --cnf: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	clitest.Need(t, "cadical")
	proof := filepath.Join(dir, "proof.drat")
	cmd := exec.Command("cadical", "-q", none, proof)
	if cmd.Run(); cmd.ProcessState.ExitCode() != 20 {
		t.Fatalf("cadical: exit %d", cmd.ProcessState.ExitCode())
	}
	stdout, stderr, code = clitest.Run(t, "", "decode", "-n", "8", "--cnf", none, "--proof", proof)
	if code != 0 || stdout != "no solution\n" {
		t.Errorf("decode --proof: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, stderr, code = clitest.Run(t, "s UNSATISFIABLE\n", "decode", "-n", "8", "--cnf", none, "--proof", proof, "-")
	if code != 0 || stdout != "no solution\n" {
		t.Errorf("decode --proof -: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// The same proof against a formula it does not refute.
	some := clitest.WriteDimacs(t, dir, "8", "--place", "1:1")
	_, stderr, code = clitest.Run(t, "", "decode", "-n", "8", "--cnf", some, "--proof", proof)
	if code != 1 || !strings.Contains(stderr, "does not refute") || !strings.Contains(stderr, "lemma") {
		t.Errorf("decode --proof of another CNF: exit %d, stderr %q", code, stderr)
	}
	clitest.OneLine(t, stderr)
	// A truncated proof, cut inside a lemma: malformed (exit status 2,
	// as for any syntax error).
	data, _ := os.ReadFile(proof)
	os.WriteFile(proof, data[:len(data)/2], 0o644)
	_, stderr, code = clitest.Run(t, "", "decode", "-n", "8", "--cnf", none, "--proof", proof)
	if code != 2 || !strings.Contains(stderr, "malformed") {
		t.Errorf("decode --proof, truncated: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = clitest.Run(t, "s SATISFIABLE\nv 1 0\n", "decode", "-n", "8", "--cnf", none, "--proof", proof, "-")
	if code != 2 || !strings.Contains(stderr, "this one is SATISFIABLE") {
		t.Errorf("decode --proof of a SAT answer: exit %d, stderr %q", code, stderr)
	}
}
