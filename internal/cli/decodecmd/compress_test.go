package decodecmd_test

import (
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestDecodeCompressed (issue 43 item 6): every input decode reads, the
// answer (a file or stdin), the --cnf file and the proof (a file or
// stdin), may be gzip, xz, zstd or bzip2, told by its magic bytes; the
// checks are those of the plain files.
func TestDecodeCompressed(t *testing.T) {
	dir := t.TempDir()
	q8, _, _ := clitest.Run(t, "", "dimacs", "-n", "8")
	model, _, _ := clitest.Run(t, "", "sat", "-n", "8", "--format", "competition")
	for _, kind := range []string{"gz", "xz", "zst", "bz2"} {
		t.Run(kind, func(t *testing.T) {
			z := func(text string) string { return string(clitest.Compressed(t, kind, []byte(text))) }
			cnf := writeFile(t, dir, "q8.cnf."+kind, z(q8))
			answer := writeFile(t, dir, "answer."+kind, z(model))
			four := writeFile(t, dir, "four.cnf."+kind, z(fourCNF))
			proof := writeFile(t, dir, "four.drat."+kind, z(fourBinary))
			unsat := writeFile(t, dir, "unsat."+kind, z("s UNSATISFIABLE\n"))
			for _, tc := range []struct {
				name, in string
				args     []string
				stdout   string
			}{
				{"the answer on stdin, -n", z(model), []string{"-n", "8", "--cnf", cnf, "--format", "perm"}, " "},
				{"the answer a file, -n", "", []string{"-n", "8", "--cnf", cnf, "--format", "perm", answer}, " "},
				{"the answer on stdin, no -n", z(model), []string{"--cnf", cnf}, "SATISFIABLE: the model satisfies every clause"},
				{"the proof a file", "", []string{"--cnf", four, "--proof", proof, unsat}, "UNSATISFIABLE: the binary DRAT proof"},
				{"the proof on stdin", z(fourDRAT), []string{"--cnf", four, "--proof", "-"}, "UNSATISFIABLE: the DRAT proof on stdin"},
			} {
				stdout, stderr, code := clitest.Run(t, tc.in, append([]string{"decode"}, tc.args...)...)
				if code != 0 || !strings.Contains(stdout, tc.stdout) {
					t.Errorf("%s: exit %d, stdout %q, stderr %q; want 0, %q", tc.name, code, stdout, stderr, tc.stdout)
				}
			}
			// A compressed model that falsifies a clause still does.
			bad := writeFile(t, dir, "bad."+kind, z("s SATISFIABLE\nv 1 2 0\n"))
			if _, stderr, code := clitest.Run(t, "", "decode", "--cnf", cnf, bad); code != 1 || !strings.Contains(stderr, "its clause 2, -1 -2 0, is false") {
				t.Errorf("a bad model: exit %d, stderr %q; want 1", code, stderr)
			}
		})
	}
}
