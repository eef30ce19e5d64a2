package decodecmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestDecodeDegenerateCNF (issue 42 item 3): an empty clause is a clause
// on the command line too. A --cnf file that holds one is unsatisfiable:
// an UNSATISFIABLE answer about it is not refuted (exit status 3 with -n:
// the file is no queens instance, so nothing is said about the board),
// and the proofs drat-trim verifies of it (the empty proof, the empty
// clause) check. A file without clauses is satisfiable: its UNSATISFIABLE
// is refuted (exit status 1), and no proof refutes it.
func TestDecodeDegenerateCNF(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return writeFile(t, dir, name, text) }
	proofs := map[string]string{"empty proof": write("empty.drat", ""), "the empty clause": write("zero.drat", "0\n"),
		"a deletion, then the empty clause": write("del.drat", "d 1 2 0\n0\n")}
	answer := write("unsat.txt", "s UNSATISFIABLE\n")
	for _, tc := range []struct {
		name, cnf string
		unsat     bool
		empty     string // the empty clause it names
	}{
		{"only the empty clause (CaDiCaL's false.cnf)", "p cnf 0 1\n0\n", true, "clause 1"},
		{"only empty clauses", "p cnf 0 3\n0\n0\n0\n", true, "clause 1"},
		{"an empty clause among others", "p cnf 3 3\n1 2 0\n0\n-3 0\n", true, "clause 2"},
		{"an empty clause last", "p cnf 3 3\n1 2 0\n-3 0\n0\n", true, "clause 3"},
		{"variables declared and unused, an empty clause", "p cnf 9 1\n0\n", true, "clause 1"},
		{"p cnf 0 0", "p cnf 0 0\n", false, ""},
		{"variables declared, no clauses", "p cnf 5 0\n", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cnf := write("f.cnf", tc.cnf)
			stdout, stderr, code := clitest.Run(t, "s UNSATISFIABLE\n", "decode", "-n", "1", "--cnf", cnf)
			switch {
			case tc.unsat && (code != 3 || !strings.Contains(stdout, "unsatisfiable, but not the queens instance") ||
				!strings.Contains(stderr, tc.empty+" is empty")):
				t.Errorf("UNSATISFIABLE: exit %d, stdout %q, stderr %q; want 3, the file's %s named empty", code, stdout, stderr, tc.empty)
			case !tc.unsat && (code != 1 || !strings.Contains(stderr, "gini finds a model of it")):
				t.Errorf("UNSATISFIABLE of a satisfiable file: exit %d, stderr %q; want 1, refuted", code, stderr)
			}
			for name, proof := range proofs {
				for _, args := range [][]string{{proof}, {proof, answer}} {
					stdout, stderr, code := clitest.Run(t, "", append([]string{"decode", "-n", "1", "--cnf", cnf, "--proof"}, args...)...)
					switch {
					case tc.unsat && (code != 3 || !strings.Contains(stderr, "the proof refutes the file, not the board")):
						t.Errorf("%s %v: exit %d, stdout %q, stderr %q; want 3, the proof checked", name, args, code, stdout, stderr)
					case !tc.unsat && (code != 1 || !strings.Contains(stderr, "does not refute")):
						t.Errorf("%s %v of a satisfiable file: exit %d, stderr %q; want 1", name, args, code, stderr)
					}
				}
			}
		})
	}
}

// writeFile writes text to dir/name and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
