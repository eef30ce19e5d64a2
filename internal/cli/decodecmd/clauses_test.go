package decodecmd_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/testutil"
)

// The formula of every assignment of x1 and x2 excluded: unsatisfiable,
// and refuted by the proofs below in each format.
const (
	fourCNF    = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"
	fourDRAT   = "1 0\n0\n"
	fourBinary = "a\x02\x00a\x00"
	fourLRAT   = "5 1 0 1 3 0\n6 0 5 2 4 0\n"
)

// TestDecodeClausesOnly (issue 43 item 2): decode --cnf FILE without -n
// checks the answer against the clauses alone, whatever formula they
// are: a model that satisfies every clause exits 0, one that falsifies a
// clause 1 (naming it), one beyond the "p cnf" line 1; an UNSATISFIABLE
// is confirmed by a proof (any format, which is named) or an empty
// clause, refuted by a model gini finds (1), else printed unverified (3).
func TestDecodeClausesOnly(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return writeFile(t, dir, name, text) }
	q8 := clitest.WriteDimacs(t, dir, "8", "--encoding", "seq")
	q8model := "s SATISFIABLE\nv " + strings.Trim(fmt.Sprint(encode.Model(board.Solution{0, 4, 7, 5, 2, 6, 1, 3})), "[]") + " 0\n"
	competition, _, _ := clitest.Run(t, "", "sat", "-n", "8", "--encoding", "seq", "--format", "competition")
	small := write("small.cnf", "c any formula\np cnf 3 2\n1 -2 0\n2 3 0\n")
	four := write("four.cnf", fourCNF)
	php := write("php.cnf", "p cnf 6 9\n1 2 0\n3 4 0\n5 6 0\n-1 -3 0\n-1 -5 0\n-3 -5 0\n-2 -4 0\n-2 -6 0\n-4 -6 0\n")
	none := write("none.cnf", "p cnf 0 0\n")
	falseCNF := write("false.cnf", "p cnf 0 1\n0\n")
	drat, bin, lrat := write("four.drat", fourDRAT), write("four.bdrat", fourBinary), write("four.lrat", fourLRAT)
	bad := write("bad.drat", "1 0\n")
	unsat := write("unsat.txt", "s UNSATISFIABLE\n")
	for _, tc := range []struct {
		name, in string
		args     []string
		code     int
		stdout   string // what stdout must hold
		stderr   string // what stderr must say
	}{
		{"a queens model, seq (aux variables false)", q8model, []string{"--cnf", q8}, 1, "", "is false"},
		{"sat --format competition's model, seq", competition, []string{"--cnf", q8}, 0, "SATISFIABLE: the model satisfies every clause of " + q8 + " (", ""},
		{"a model of any formula", "s SATISFIABLE\nv 1 -2 3 0\n", []string{"--cnf", small}, 0, "SATISFIABLE: the model satisfies every clause of " + small + " (2)\n", ""},
		{"true literals only", "v 1 3 0\n", []string{"--cnf", small}, 0, "SATISFIABLE", ""},
		{"minisat's result", "SAT\n1 2 -3 0\n", []string{"--cnf", small, "--format", "json"}, 0, `{"satisfiable":true,"clauses":2,"verified":true,"verified_by":"clauses"}`, ""},
		{"a clause falsified", "s SATISFIABLE\nv -1 2 -3 0\n", []string{"--cnf", small}, 1, "", "not a model of " + small + ": its clause 1, 1 -2 0, is false"},
		{"a literal beyond p cnf", "s SATISFIABLE\nv 1 -2 3 4 0\n", []string{"--cnf", small}, 1, "", "its literal 4 is beyond the 3 variables"},
		{"p cnf 0 0, the empty model", "s SATISFIABLE\nv 0\n", []string{"--cnf", none}, 0, "SATISFIABLE", ""},
		{"p cnf 0 0, UNSATISFIABLE refuted", "s UNSATISFIABLE\n", []string{"--cnf", none}, 1, "", "gini finds a model of it"},
		{"the empty clause, UNSATISFIABLE", "s UNSATISFIABLE\n", []string{"--cnf", falseCNF, "--format", "json"}, 0, `{"satisfiable":false,"verified":true,"verified_by":"empty clause"}`, ""},
		{"the empty clause, a model", "s SATISFIABLE\nv 0\n", []string{"--cnf", falseCNF}, 1, "", "its clause 1, 0, is false"},
		{"the empty clause, the empty proof", "", []string{"--cnf", falseCNF, "--proof", write("empty.drat", "")}, 0, "UNSATISFIABLE: the DRAT proof", ""},
		{"UNSATISFIABLE, a model refutes", "s UNSATISFIABLE\n", []string{"--cnf", small}, 1, "", "gini finds a model of it, checked against each of its 2 clauses"},
		{"UNSATISFIABLE, unverified", "s UNSATISFIABLE\n", []string{"--cnf", php}, 3, "UNSATISFIABLE (unverified)\n", "queens: unverified: the solver answered UNSATISFIABLE of " + php},
		{"UNSATISFIABLE, unverified, JSON", "s UNSATISFIABLE\n", []string{"--cnf", php, "--format", "json"}, 3, `{"satisfiable":false,"verified":false}`, "unverified"},
		{"DRAT proof", "", []string{"--cnf", four, "--proof", drat}, 0, "UNSATISFIABLE: the DRAT proof " + drat + " refutes " + four + "\n", ""},
		{"binary DRAT proof, with the answer", "", []string{"--cnf", four, "--proof", bin, unsat}, 0, "the binary DRAT proof", ""},
		{"LRAT proof, JSON", "", []string{"--cnf", four, "--proof", lrat, "--format", "json"}, 0, `{"satisfiable":false,"proof_format":"LRAT","verified":true,"verified_by":"proof"}`, ""},
		{"a proof that does not refute", "", []string{"--cnf", four, "--proof", bad}, 1, "", "does not refute"},
		{"a proof of a satisfiable formula", "", []string{"--cnf", small, "--proof", drat}, 1, "", "does not refute"},
		{"a malformed proof", "", []string{"--cnf", four, "--proof", write("x.drat", "1 x 0\n")}, 2, "", "malformed"},
		{"--proof of a SAT answer", "s SATISFIABLE\nv 1 0\n", []string{"--cnf", four, "--proof", drat, "-"}, 2, "", "this one is SATISFIABLE"},
		{"--proof - (stdin)", fourDRAT, []string{"--cnf", four, "--proof", "-"}, 0, "UNSATISFIABLE: the DRAT proof on stdin refutes " + four, ""},
		{"--proof - binary LRAT", string(testutil.BinaryLRAT(fourLRAT)), []string{"--cnf", four, "--proof", "-", unsat}, 0, "the binary LRAT proof on stdin", ""},
		{"--proof - and the answer -", fourDRAT, []string{"--cnf", four, "--proof", "-", "-"}, 2, "", "cannot come from there too"},
		{"--cnf - and --proof -", fourCNF, []string{"--cnf", "-", "--proof", "-"}, 2, "", "both read stdin"},
		{"DRAT, two clauses a line, the first like an LRAT id", "", []string{"--cnf", write("ids.cnf", "p cnf 8 4\n7 8 0\n-7 8 0\n7 -8 0\n-7 -8 0\n"),
			"--proof", write("ids.drat", "8 0 7 0\n0\n")}, 0, "UNSATISFIABLE: the DRAT proof", ""},
		{"UNKNOWN", "s UNKNOWN\n", []string{"--cnf", small}, 1, "", "no answer (UNKNOWN)"},
		{"--format perm", "v 1 0\n", []string{"--cnf", small, "--format", "perm"}, 2, "", "--format perm draws a board (-n N)"},
		{"neither -n nor --cnf", "v 1 0\n", nil, 2, "", "missing -n N"},
		{"--cnf - and the answer from stdin", "p cnf 1 1\n1 0\n", []string{"--cnf", "-"}, 2, "", "cannot come from there too"},
		{"--cnf - and the answer from FILE", fourCNF, []string{"--cnf", "-", unsat}, 3, "UNSATISFIABLE (unverified)", "of stdin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := clitest.Run(t, tc.in, append([]string{"decode"}, tc.args...)...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
			if code != 0 && code != 3 {
				clitest.OneLine(t, stderr)
			}
		})
	}
}

// TestDecodeClausesHostile: the --cnf, answer and proof files of decode
// without -n keep the input rules: an input past --max-input, a truncated
// CNF, a dangling link, a directory, /dev/zero are one line and exit
// status 2; a link to a file, and a FIFO read once, work.
func TestDecodeClausesHostile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return writeFile(t, dir, name, text) }
	four := write("four.cnf", fourCNF)
	drat := write("four.drat", fourDRAT)
	big := write("big.cnf", "p cnf 2 1\n1 2 0\n"+strings.Repeat("c padding the file past a mebibyte\n", 40000))
	link := filepath.Join(dir, "link.cnf")
	os.Symlink(four, link)
	dangling := filepath.Join(dir, "dangling.cnf")
	os.Symlink(filepath.Join(dir, "nothing"), dangling)
	for _, tc := range []struct {
		name, in string
		args     []string
		code     int
		want     string
	}{
		{"--cnf past --max-input", "v 1 0\n", []string{"--max-input", "1", "--cnf", big}, 2, "over the input limit"},
		{"a truncated CNF", "v 1 0\n", []string{"--cnf", write("cut.cnf", "p cnf 2 2\n1 2 0\n-1")}, 2, "read " + dir},
		{"a CNF short of its clauses", "v 1 0\n", []string{"--cnf", write("short.cnf", "p cnf 2 3\n1 2 0\n")}, 2, "read " + dir},
		{"a dangling link", "v 1 0\n", []string{"--cnf", dangling}, 2, "no such file"},
		{"a directory", "v 1 0\n", []string{"--cnf", dir}, 2, "is a directory"},
		{"--cnf /dev/zero", "v 1 0\n", []string{"--cnf", "/dev/zero"}, 2, "/dev/zero"},
		{"the answer /dev/zero", "", []string{"--cnf", four, "/dev/zero"}, 2, "decode"},
		{"the proof /dev/zero", "", []string{"--cnf", four, "--proof", "/dev/zero"}, 2, "--proof"},
		{"the proof a dangling link", "", []string{"--cnf", four, "--proof", dangling}, 2, "no such file"},
		{"a link to the CNF", "", []string{"--cnf", link, "--proof", drat}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := clitest.Run(t, tc.in, append([]string{"decode"}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q", code, stdout, stderr, tc.code, tc.want)
			}
			if code != 0 {
				clitest.CheckOneLine(t, stderr, tc.want)
			}
		})
	}
	fifo := filepath.Join(dir, "cnf.fifo")
	if err := clitest.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			f.WriteString(fourCNF)
			f.Close()
		}
	}()
	done := make(chan struct{})
	var stdout, stderr string
	var code int
	go func() {
		defer close(done)
		stdout, stderr, code = clitest.Run(t, "", "decode", "--cnf", fifo, "--proof", drat)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute): // not what is tested: a bound for a hang
		t.Fatal("decode --cnf FIFO hangs")
	}
	if code != 0 || !strings.HasPrefix(stdout, "UNSATISFIABLE: the DRAT proof") {
		t.Errorf("--cnf FIFO: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
