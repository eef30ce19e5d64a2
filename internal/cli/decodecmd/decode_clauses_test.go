package decodecmd_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

// edit writes to dir/name the CNF text with every match of the regexp
// old replaced by repl, more clauses appended and the "p cnf" line
// fixed to the clauses it then has.
func edit(t *testing.T, dir, name, text, old, repl string, more ...string) string {
	t.Helper()
	text = regexp.MustCompile(old).ReplaceAllString(text, repl) + strings.Join(more, "")
	clauses := 0
	for _, line := range strings.Split(text, "\n") {
		if line != "" && line[0] != 'c' && line[0] != 'p' {
			clauses++
		}
	}
	p := regexp.MustCompile(`(?m)^p cnf (\d+) \d+$`)
	text = p.ReplaceAllString(text, "p cnf ${1} "+strconv.Itoa(clauses))
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDecodeDecidesFromClauses: what a --cnf file is comes from its
// clauses, not its header. A header that lies about the encoding or the
// symmetry breaking, or a clause repeated, still leaves the file the
// queens instance, so a liar's UNSATISFIABLE is refuted (exit 1), a true
// one confirmed; a file that differs (a clause removed) is no instance,
// and a model of its own clauses that gini finds refutes the UNSAT.
func TestDecodeDecidesFromClauses(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) string {
		out, _, code := clitest.Run(t, "", args...)
		if code != 0 {
			t.Fatalf("queens %v: exit %d", args, code)
		}
		return out
	}
	plain := run("dimacs", "-n", "8")
	sym := run("dimacs", "-n", "8", "--break-symmetry")
	placed := run("dimacs", "-n", "8", "--place", "1:1")
	unsat := run("dimacs", "-n", "8", "--place", "1:1", "--place", "2:3")
	seq := run("dimacs", "-n", "8", "--encoding", "seq")
	model := "s SATISFIABLE\nv " + strings.Trim(fmt.Sprint(encode.Model(board.Solution{0, 4, 7, 5, 2, 6, 1, 3})), "[]") + " 0\n"

	encLie := edit(t, dir, "q8-enc.cnf", plain, `(?m)^c encoding pairwise$`, "c encoding seq")
	seqLie := edit(t, dir, "q8-seq-lie.cnf", seq, `(?m)^c encoding seq$`, "c encoding pairwise")
	symLie := edit(t, dir, "q8-nosym.cnf", sym, `(?m)^c symmetry .*\n`, "")
	symClaim := edit(t, dir, "q8-symclaim.cnf", plain, `(?m)^(c placed .*)$`, "${1}\nc symmetry lex-leader rot90 rot180 rot270 mirror-cols mirror-rows transpose anti-transpose")
	dup := edit(t, dir, "dupcl.cnf", placed, `$^`, "", "-1 -2 0\n")
	dupUnsat := edit(t, dir, "dup-unsat.cnf", unsat, `$^`, "", "-1 -2 0\n", "-1 -2 0\n")
	less := edit(t, dir, "less.cnf", placed, `(?m)^-1 -2 0\n`, "")
	for _, tc := range []struct {
		name, in string
		args     []string
		code     int
		stdout   string // a line stdout must have
		stderr   string // what stderr must say
	}{
		{"encoding line lies", "s UNSATISFIABLE\n", []string{"--cnf", encLie}, 1, "", "but an explicit construction gives a solution"},
		{"encoding line lies, seq file", "s UNSATISFIABLE\n", []string{"--cnf", seqLie}, 1, "", "but an explicit construction gives a solution"},
		{"symmetry line removed", "s UNSATISFIABLE\n", []string{"--cnf", symLie}, 1, "", "but an explicit construction gives a solution"},
		{"symmetry line added", "s UNSATISFIABLE\n", []string{"--cnf", symClaim}, 1, "", "but an explicit construction gives a solution"},
		{"encoding line lies, a model", model, []string{"--format", "perm", "--cnf", encLie}, 0, "1 5 8 6 3 7 2 4",
			`q8-enc.cnf: its "c encoding" line says seq, but its clauses are pairwise: decided from the clauses`},
		{"symmetry line removed, a model", model, []string{"--format", "perm", "--cnf", symLie}, 1, "", "not a model of"},
		{"a clause repeated", "s UNSATISFIABLE\n", []string{"--cnf", dup}, 1, "", "but the backtracker gives a solution"},
		{"a clause repeated, true UNSAT", "s UNSATISFIABLE\n", []string{"--format", "json", "--cnf", dupUnsat}, 0,
			`{"n":8,"total":0,"verified":true,"verified_by":"backtracker"}`, "dup-unsat.cnf: it repeats 2 clauses more than queens writes, compared as a set"},
		{"a clause removed", "s UNSATISFIABLE\n", []string{"--cnf", less}, 1, "",
			"the solver answered UNSATISFIABLE of " + less + ", but gini finds a model of it, checked against each of its 744 clauses"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := clitest.Run(t, tc.in, append([]string{"decode", "-n", "8"}, tc.args...)...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
			if tc.code != 0 && (strings.Contains(stdout, "no solution") || strings.Contains(stdout, `"total":0`)) {
				t.Errorf("no solution asserted about the board:\n%s", stdout)
			}
		})
	}
}

// TestDecodeModelAndInputs: a model must stay within the variables of
// the --cnf file; --cnf - reads the CNF from stdin (the answer then from
// FILE); a formula beyond the proof checker's limit is an input error
// (exit 2) that states the limit, not a failed check.
func TestDecodeModelAndInputs(t *testing.T) {
	dir := t.TempDir()
	cnf, _, _ := clitest.Run(t, "", "dimacs", "-n", "8")
	q8 := filepath.Join(dir, "q8.cnf")
	os.WriteFile(q8, []byte(cnf), 0o644)
	lits := strings.Trim(fmt.Sprint(encode.Model(board.Solution{0, 4, 7, 5, 2, 6, 1, 3})), "[]")
	wide := filepath.Join(dir, "wide.txt")
	os.WriteFile(wide, []byte("s SATISFIABLE\nv "+lits+" 10000 0\n"), 0o644)
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("s SATISFIABLE\nv "+lits+" 0\n"), 0o644)
	huge := filepath.Join(dir, "huge.cnf")
	os.WriteFile(huge, []byte("p cnf 2147483646 2\n1 2147483646 0\n-1 0\n"), 0o644)
	empty := filepath.Join(dir, "empty.drat")
	os.WriteFile(empty, nil, 0o644)
	answer := filepath.Join(dir, "unsat")
	os.WriteFile(answer, []byte("s UNSATISFIABLE\n"), 0o644)
	for _, tc := range []struct {
		name, in string
		args     []string
		code     int
		stdout   string
		stderr   string
	}{
		{"literal beyond the p line", "", []string{"-n", "8", "--cnf", q8, wide}, 1, "",
			`queens: decode: not a model of ` + q8 + `: its literal 10000 is beyond the 64 variables of its "p cnf" line`},
		{"--cnf - from stdin", cnf, []string{"-n", "8", "--format", "perm", "--cnf", "-", good}, 0, "1 5 8 6 3 7 2 4", ""},
		{"--cnf - and a wide model", cnf, []string{"-n", "8", "--cnf", "-", wide}, 1, "", "not a model of stdin: its literal 10000"},
		{"--cnf - and the answer both stdin", cnf, []string{"-n", "8", "--cnf", "-"}, 2, "", "cannot come from there too"},
		{"--cnf - and the answer - both stdin", cnf, []string{"-n", "8", "--cnf", "-", "-"}, 2, "", "cannot come from there too"},
		{"checker limit", "", []string{"-n", "2", "--cnf", huge, "--proof", empty, answer}, 2, "",
			"huge.cnf has 2147483646 variables, beyond the proof checker's limit of 1073741823"},
		{"huge file, its own model refutes", "", []string{"-n", "2", "--cnf", huge, answer}, 1, "", "gini finds a model of it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := clitest.Run(t, tc.in, append([]string{"decode"}, tc.args...)...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}
