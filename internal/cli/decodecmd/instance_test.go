package decodecmd_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

// cadicalProof solves the CNF at path with cadical, which must answer
// UNSATISFIABLE, and returns the path of its DRAT proof (text).
func cadicalProof(t *testing.T, path string) string {
	t.Helper()
	clitest.Need(t, "cadical")
	proof := path + ".drat"
	out, err := exec.Command("cadical", "-q", "--no-binary", path, proof).CombinedOutput()
	if code := exitStatusOf(err); code != 20 {
		t.Fatalf("cadical %s: exit %d, want 20 (UNSATISFIABLE)\n%s", path, code, out)
	}
	return proof
}

func exitStatusOf(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// doctored returns the n = 8 CNF of queens with the unit clauses -1 ..
// -8 appended (no queen in the first row) and the "p cnf" line fixed,
// the header's description unchanged: unsatisfiable, but not the n = 8
// puzzle.
func doctored(t *testing.T, dir string) string {
	t.Helper()
	cnf, err := encode.Queens(8, encode.Pairwise, nil)
	if err != nil {
		t.Fatal(err)
	}
	for v := 1; v <= 8; v++ {
		cnf.Clauses = append(cnf.Clauses, []int{-v})
	}
	var b strings.Builder
	if err := encode.WriteDIMACS(&b, cnf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "q8-doctored.cnf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDecodeInstance: decode establishes what instance the --cnf file is
// before it believes anything about the board. A doctored CNF with its
// real proof, an unrelated CNF with its real proof and a lying header are
// each caught; the exact instance is still believed.
func TestDecodeInstance(t *testing.T) {
	dir := t.TempDir()
	bad := doctored(t, dir)
	php := filepath.Join(dir, "php-3-2.cnf") // 3 pigeons, 2 holes
	os.WriteFile(php, []byte("p cnf 6 9\n1 2 0\n3 4 0\n5 6 0\n-1 -3 0\n-1 -5 0\n-3 -5 0\n-2 -4 0\n-2 -6 0\n-4 -6 0\n"), 0o644)
	lying := filepath.Join(dir, "q8-lying.cnf")
	plain, _, _ := clitest.Run(t, "", "dimacs", "-n", "8")
	os.WriteFile(lying, []byte(strings.Replace(plain, "c placed none\n", "c placed 1:1 2:3\n", 1)), 0o644)
	model := "s SATISFIABLE\nv " + strings.Trim(fmt.Sprint(encode.Model(board.Solution{0, 4, 7, 5, 2, 6, 1, 3})), "[]") + " 0\n"
	exact := clitest.WriteDimacs(t, dir, "8", "--place", "1:1", "--place", "2:3")

	for _, tc := range []struct {
		name   string
		in     string
		args   []string
		proofs string // a CNF to prove with cadical, passed as --proof
		code   int
		stdout string // a line stdout must have
		stderr string // what stderr must say
	}{
		{"doctored CNF with its real proof", "", []string{"decode", "-n", "8", "--cnf", bad}, bad, 3,
			"unsatisfiable, but not the queens instance", "not exactly an n = 8 queens instance: nothing is said about the board; the proof refutes the file, not the board"},
		{"doctored CNF, no proof", "s UNSATISFIABLE\n", []string{"decode", "-n", "8", "--cnf", bad}, "", 3,
			"unsatisfiable, but not the queens instance", "no proof was checked"},
		{"doctored CNF, JSON", "s UNSATISFIABLE\n", []string{"decode", "-n", "8", "--format", "json", "--cnf", bad}, "", 3,
			`{"n":8,"instance":false,"satisfiable":false,"verified":false}`, "queens: unverified: "},
		{"unrelated CNF as -n 10 with its proof", "", []string{"decode", "-n", "10", "--cnf", php}, php, 3,
			"unsatisfiable, but not the queens instance", "(it has no queens header)"},
		{"lying header, UNSAT", "s UNSATISFIABLE\n", []string{"decode", "-n", "8", "--cnf", lying}, "", 1,
			"", "but an explicit construction gives a solution"},
		{"lying header, a model of the file", model, []string{"decode", "-n", "8", "--format", "perm", "--cnf", lying}, "", 0,
			"1 5 8 6 3 7 2 4", `its "c placed" line says 1:1 2:3, but its clauses place none: decided from the clauses`},
		{"exact, UNSAT with its proof", "", []string{"decode", "-n", "8", "--format", "json", "--cnf", exact}, exact, 0,
			`{"n":8,"total":0,"verified":true,"verified_by":"backtracker"}`, ""},
		{"exact, UNSAT without a proof", "s UNSATISFIABLE\n", []string{"decode", "-n", "8", "--format", "json", "--cnf", exact}, "", 0,
			`{"n":8,"total":0,"verified":true,"verified_by":"backtracker"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.proofs != "" {
				args = append(args, "--proof", cadicalProof(t, tc.proofs))
			}
			stdout, stderr, code := clitest.Run(t, tc.in, args...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
			if tc.code != 0 && strings.Contains(stdout, "no solution") || strings.Contains(stdout, `"total":0`) && tc.code != 0 {
				t.Errorf("no solution asserted about the board:\n%s", stdout)
			}
		})
	}
}

// TestDecodeReadsOnce: the --cnf file is read exactly once, so a named
// FIFO works (it would block forever on a second open) and gives the
// verdict a regular file gives.
func TestDecodeReadsOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "cnf.fifo")
	if err := clitest.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	cnf, _, _ := clitest.Run(t, "", "dimacs", "-n", "8", "--place", "1:1", "--place", "2:3")
	writes := make(chan error, 1)
	go func() { // one writer: a second open by decode would block forever
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			_, err = f.WriteString(cnf)
			f.Close()
		}
		writes <- err
	}()
	done := make(chan struct{})
	var stdout, stderr string
	var code int
	go func() {
		defer close(done)
		stdout, stderr, code = clitest.Run(t, "s UNSATISFIABLE\n", "decode", "-n", "8", "--cnf", fifo)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("decode --cnf FIFO hangs: it opens the file twice")
	}
	if code != 0 || stdout != "no solution\n" {
		t.Errorf("decode --cnf FIFO: exit %d, stdout %q, stderr %q; want 0 and no solution", code, stdout, stderr)
	}
	if err := <-writes; err != nil {
		t.Error(err)
	}
}

// TestDecodePictures: decode draws the board in every format its help
// lists, the pictures and FEN included.
func TestDecodePictures(t *testing.T) {
	model := "s SATISFIABLE\nv " + strings.Trim(fmt.Sprint(encode.Model(board.Solution{0, 4, 7, 5, 2, 6, 1, 3})), "[]") + " 0\n"
	for _, tc := range []struct{ format, prefix string }{
		{"svg", "<svg"},
		{"png", "\x89PNG"},
		{"fen", "Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4"},
	} {
		stdout, stderr, code := clitest.Run(t, model, "decode", "-n", "8", "--format", tc.format)
		if code != 0 || !strings.HasPrefix(strings.TrimPrefix(stdout, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"), tc.prefix) {
			t.Errorf("decode --format %s: exit %d, stderr %q, stdout starts %q", tc.format, code, stderr, stdout[:min(len(stdout), 40)])
		}
	}
	if _, stderr, code := clitest.Run(t, "s SATISFIABLE\nv 1 0\n", "decode", "-n", "1", "--format", "fen"); code != 2 {
		t.Errorf("decode -n 1 --format fen: exit %d, %q; want 2", code, stderr)
	}
}

// TestDecodeStopsAtBeyond: with --cnf, an answer is read against the
// variables of its "p cnf" line and judged at the first literal beyond
// them (exit 1, the message of a model checked whole), not read to its
// end: here the answer's writer never closes its FIFO, and decode still
// answers.
func TestDecodeStopsAtBeyond(t *testing.T) {
	dir := t.TempDir()
	cnf := filepath.Join(dir, "q4.cnf")
	text, _, _ := clitest.Run(t, "", "dimacs", "-n", "4")
	if err := os.WriteFile(cnf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "answer.fifo")
	if err := clitest.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	release := make(chan struct{})
	defer close(release)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.WriteString("s SATISFIABLE\nv -1 2 -3 17 ")
		<-release // the rest never comes
	}()
	done := make(chan struct{})
	var stderr string
	var code int
	go func() {
		defer close(done)
		_, stderr, code = clitest.Run(t, "", "decode", "-n", "4", "--cnf", cnf, fifo)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("decode reads past a literal beyond the CNF's variables")
	}
	want := `queens: decode: not a model of ` + cnf + `: its literal 17 is beyond the 16 variables of its "p cnf" line`
	if code != 1 || strings.TrimSpace(stderr) != want {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
}
