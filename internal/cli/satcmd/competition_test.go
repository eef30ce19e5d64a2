package satcmd_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// competitionModel reads a SAT competition answer: "s SATISFIABLE" then
// "v" lines of at most 78 bytes ending in 0, and returns the model; it
// fails the test on anything else.
func competitionModel(t *testing.T, out string) []int {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "s SATISFIABLE" || len(lines) < 2 {
		t.Fatalf("answer %q: want s SATISFIABLE and v lines", out)
	}
	for i, l := range lines[1:] {
		words := strings.Fields(l)
		if len(words) < 2 || words[0] != "v" || len(l) > 78 || (words[len(words)-1] == "0") != (i == len(lines)-2) {
			t.Fatalf("line %q of %q: want v lines of at most 78 bytes, the last ending in 0", l, out)
		}
	}
	return vLiterals(t, out)
}

// TestCompetitionFormat (issue 43 item 1): sat --format competition
// answers as a competition solver: the model of every variable of the
// CNF queens dimacs writes with the same flags, in order, which satisfies
// each of its clauses and which decode accepts (exit status 10), or
// "s UNSATISFIABLE" (20), never 0.
func TestCompetitionFormat(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"-n", "1"}, {"-n", "4"}, {"-n", "8"}, {"-n", "8", "--encoding", "seq"}, {"-n", "8", "--encoding", "commander"},
		{"-n", "9", "--encoding", "totalizer", "--place", "1:1"}, {"-n", "60"}, {"-n", "12", "--encoding", "binary"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdout, stderr, code := clitest.Run(t, "", append([]string{"sat", "--format", "competition"}, args...)...)
			if code != 10 || stderr != "" {
				t.Fatalf("exit %d, stderr %q; want 10 and nothing", code, stderr)
			}
			model := competitionModel(t, stdout)
			cnfPath := clitest.WriteDimacs(t, dir, args[1], args[2:]...)
			f, _ := os.Open(cnfPath)
			cnf, err := encode.ReadDIMACS(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			if len(model) != cnf.Vars {
				t.Fatalf("%d literals, want the CNF's %d variables", len(model), cnf.Vars)
			}
			for i, lit := range model {
				if lit != i+1 && lit != -(i+1) {
					t.Fatalf("literal %d in place %d", lit, i+1)
				}
			}
			if ok, c := cnf.Satisfies(model); !ok {
				t.Errorf("clause %d %v is false", c+1, cnf.Clauses[c])
			}
			n := args[1]
			if _, stderr, code := clitest.Run(t, stdout, "decode", "-n", n, "--cnf", cnfPath); code != 0 {
				t.Errorf("decode of the answer: exit %d, %s", code, stderr)
			}
		})
	}
	for _, args := range [][]string{{"-n", "2"}, {"-n", "3"}, {"-n", "8", "--place", "1:1", "--place", "2:3"}, {"-n", "8", "--place", "1:1", "--place", "2:3", "--encoding", "ladder"}} {
		stdout, stderr, code := clitest.Run(t, "", append([]string{"sat", "--format", "competition"}, args...)...)
		if code != 20 || stdout != "s UNSATISFIABLE\n" || stderr != "" {
			t.Errorf("sat %v: exit %d, stdout %q, stderr %q; want 20, s UNSATISFIABLE", args, code, stdout, stderr)
		}
	}
	// -o FILE: the answer in the file, the status the same.
	out := filepath.Join(dir, "answer.txt")
	stdout, _, code := clitest.Run(t, "", "sat", "-n", "5", "--format", "competition", "-o", out)
	if data, _ := os.ReadFile(out); code != 10 || stdout != "" || !strings.HasPrefix(string(data), "s SATISFIABLE\nv ") {
		t.Errorf("-o: exit %d, stdout %q, file %q", code, stdout, data)
	}
}

// TestCompetitionSolver: with --solver the solver's own model is passed
// through once checked (the same literals as the solver prints run by
// hand on the same CNF, auxiliary variables included); its
// UNSATISFIABLE, checked by the referee or a proof, is 20; a liar's is
// refuted (exit status 1, nothing on stdout), one nobody can check is
// printed and exits 3; a timeout says s UNKNOWN and exits 1.
func TestCompetitionSolver(t *testing.T) {
	clitest.Need(t, "cadical")
	dir := t.TempDir()
	for _, enc := range []string{"pairwise", "seq", "product"} {
		cnf := clitest.WriteDimacs(t, dir, "10", "--encoding", enc)
		own, _ := exec.Command("cadical", "-q", cnf).Output()
		stdout, stderr, code := clitest.Run(t, "", "sat", "-n", "10", "--encoding", enc, "--solver", "cadical -q", "--format", "competition")
		if code != 10 {
			t.Fatalf("%s: exit %d, %s", enc, code, stderr)
		}
		mine := competitionModel(t, stdout)
		theirs := vLiterals(t, string(own))
		if !slices.Equal(mine, theirs) {
			t.Errorf("%s: the model differs from cadical's own:\n%v\n%v", enc, mine, theirs)
		}
	}
	if _, err := exec.LookPath("minisat"); err == nil {
		stdout, stderr, code := clitest.Run(t, "", "sat", "-n", "7", "--solver", "minisat", "--format", "competition")
		if code != 10 || len(competitionModel(t, stdout)) != 49 {
			t.Errorf("minisat: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	}
	stdout, stderr, code := clitest.Run(t, "", "sat", "-n", "3", "--solver", "cadical -q", "--proof", "--format", "competition")
	if code != 20 || stdout != "s UNSATISFIABLE\n" {
		t.Errorf("--proof: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, stderr, code = clitest.Run(t, "", "sat", "-n", "8", "--solver", clitest.Solvers+"always-unsat.sh", "--format", "competition")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "explicit construction gives a solution") {
		t.Errorf("a liar: exit %d, stdout %q, stderr %q; want 1, refuted", code, stdout, stderr)
	}
	clitest.OneLine(t, stderr)
	defer func(d time.Duration) { cmdutil.RefereeTime = d }(cmdutil.RefereeTime)
	cmdutil.RefereeTime = time.Millisecond // what is tested: a referee without time to decide
	place, _ := encode.RandomPlacement(150, 111, 3)
	args := []string{"sat", "-n", "150", "--solver", clitest.Solvers + "always-unsat.sh", "--format", "competition"}
	for _, q := range place {
		args = append(args, "--place", q.String())
	}
	stdout, stderr, code = clitest.Run(t, "", args...)
	if code != 3 || stdout != "s UNSATISFIABLE\n" || !strings.HasPrefix(stderr, "queens: unverified: ") {
		t.Errorf("unverified: exit %d, stdout %q, stderr %q; want 3", code, stdout, stderr)
	}
	// What is tested is the deadline: n = 1000 takes far longer to encode.
	stdout, stderr, code = clitest.Run(t, "", "sat", "-n", "1000", "--timeout", "1ms", "--format", "competition")
	if code != 1 || stdout != "s UNKNOWN\n" || !strings.Contains(stderr, "no answer within --timeout 1ms") {
		t.Errorf("--timeout: exit %d, stdout %q, stderr %q; want 1, s UNKNOWN", code, stdout, stderr)
	}
}

// vLiterals returns the literals of the "v" lines of a solver's output,
// its final 0 left out.
func vLiterals(t *testing.T, out string) []int {
	t.Helper()
	var lits []int
	for _, l := range strings.Split(out, "\n") {
		words := strings.Fields(l)
		if len(words) == 0 || words[0] != "v" {
			continue
		}
		for _, w := range words[1:] {
			lit, err := strconv.Atoi(w)
			if err != nil {
				t.Fatalf("solver line %q: %v", l, err)
			}
			if lit != 0 {
				lits = append(lits, lit)
			}
		}
	}
	return lits
}
