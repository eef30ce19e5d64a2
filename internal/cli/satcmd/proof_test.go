package satcmd_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

// fakeCaDiCaL2 writes, in a directory of its own, a program named
// cadical that takes CaDiCaL 2's "--lrat" as CaDiCaL 2 does (this
// machine's CaDiCaL 1.5 has no --lrat): it solves with the real cadical,
// then writes the proof of an UNSATISFIABLE answer as binary LRAT, or
// text LRAT with --no-binary (the DRAT proof converted by this test
// binary, see TestMain). It returns the
// program's path.
func fakeCaDiCaL2(t *testing.T) string {
	t.Helper()
	clitest.Need(t, "cadical")
	real, _ := exec.LookPath("cadical")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "cadical")
	script := `#!/bin/sh
# cadical [-q] --lrat CNF PROOF: CaDiCaL 2's binary LRAT, made from CaDiCaL 1's DRAT.
lrat=0; cnf=; proof=; args=; text=
for a; do
	case $a in
	--lrat) lrat=1 ;;
	--no-binary) text=text ;;
	-*) args="$args $a" ;;
	*) if [ -z "$cnf" ]; then cnf=$a; else proof=$a; fi ;;
	esac
done
[ $lrat = 1 ] || { echo "c fake cadical: want --lrat"; exit 1; }
[ -n "$proof" ] || exec ` + real + ` $args "$cnf" # queens probing its output: no proof asked for
` + real + ` $args --no-binary "$cnf" "$proof.drat"
rc=$?
if [ $rc = 20 ]; then
	QUEENS_TEST_TO_LRAT=1 ` + exe + ` "$cnf" "$proof.drat" "$proof" $text || exit 1
fi
rm -f "$proof.drat"
exit $rc
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestProofBinaryLRAT (issue 43 item 3): sat --proof --solver 'cadical -q
// --lrat' checks CaDiCaL 2's binary LRAT proofs: a count certified
// complete, a no-solution answer certified (in the competition format
// too), and a proof doctored in one byte rejected.
func TestProofBinaryLRAT(t *testing.T) {
	solver := fakeCaDiCaL2(t) + " -q --lrat"
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stats  string // the proofs checked
	}{
		{[]string{"-n", "6", "--count", "--format", "json"}, 0, `{"n":6,"total":4,"verified":true`, `"proofs":1`},
		{[]string{"-n", "3"}, 0, "no solution\n", "proofs=1 "},
		{[]string{"-n", "8", "--place", "1:1", "--place", "2:3", "--format", "competition"}, 20, "s UNSATISFIABLE\n", "proofs=1 "},
	} {
		args := append([]string{"sat", "--stats", "--proof", "--solver", solver}, tc.args...)
		stdout, stderr, code := clitest.Run(t, "", args...)
		if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stats) {
			t.Errorf("sat %v: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stats)
		}
		t.Setenv("QUEENS_TEST_LRAT_BREAK", "1")
		stdout, stderr, code = clitest.Run(t, "", args...)
		if code != 1 || !strings.Contains(stderr, "UNSAT proof rejected") || !strings.Contains(stderr, "binary LRAT") {
			t.Errorf("sat %v, the proof's last step left out: exit %d, stdout %q, stderr %q; want 1, rejected as binary LRAT", tc.args, code, stdout, stderr)
		}
		os.Unsetenv("QUEENS_TEST_LRAT_BREAK")
	}
	// Text LRAT, the CNF and the proof where the command says ({cnf},
	// {proof}).
	stdout, stderr, code := clitest.Run(t, "", "sat", "-n", "6", "--count", "--stats", "--proof", "--solver", fakeCaDiCaL2(t)+" --lrat --no-binary {cnf} {proof}")
	if code != 0 || stdout != "4 solutions\n" || !strings.Contains(stderr, "proofs=1 ") {
		t.Errorf("text LRAT, {cnf} {proof}: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
