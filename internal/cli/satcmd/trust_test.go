package satcmd_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// TestRefereeLiars: the lies the referee of the third pass catches: an
// UNSATISFIABLE that only gini's witness refutes (the backtracker cannot
// decide it within its budget), and a --unique --count --place total;
// and a claim nobody can check exits 3 with "verified": false.
func TestRefereeLiars(t *testing.T) {
	place, err := encode.RandomPlacement(150, 111, 3)
	if err != nil {
		t.Fatal(err)
	}
	witness := []string{"sat", "-n", "150", "--solver", clitest.Solvers + "always-unsat.sh"}
	for _, q := range place {
		witness = append(witness, "--place", q.String())
	}
	defer func(d time.Duration) { cmdutil.RefereeTime = d }(cmdutil.RefereeTime)
	for _, tc := range []struct {
		name   string
		needs  []string
		budget time.Duration // the referee's, for each of its searches
		args   []string
		code   int
		stdout string
		stderr string
	}{
		// The backtracker gives up within 5 s; gini finds one in well
		// under that (0.4 s here, time to spare on a busy machine).
		{"UNSAT a witness refutes", []string{"sh"}, 5 * time.Second, witness, 1, "",
			"always-unsat.sh answered UNSATISFIABLE (no solution), but gini finds a solution, checked as a board: ["},
		// Neither decides in a millisecond: the answer is printed, not
		// believed.
		{"UNSAT nobody decides", []string{"sh"}, time.Millisecond, append(witness, "--format", "json"), 3,
			`{"n":150,"total":0,"verified":false}`, "queens: unverified: always-unsat.sh answered UNSATISFIABLE (no solution) on n = 150 with --place "},
		{"--unique --count --place total", []string{"sh", "cadical"}, cmdutil.RefereeTime, []string{"sat", "-n", "8", "--place", "1:1", "--unique", "--count", "--solver", clitest.Solvers + "unsat-after.sh 1"}, 1, "",
			"unsat-after.sh found 1 solutions (2 in all), then answered UNSATISFIABLE, but the backtracker counts 4: a solver bug"},
		{"verified count", []string{"sh", "cadical"}, cmdutil.RefereeTime, []string{"sat", "-n", "8", "--place", "1:1", "--count", "--format", "json", "--solver", "cadical -q"}, 0,
			`{"n":8,"total":4,"verified":true,"verified_by":"backtracker"}`, ""},
		{"verified no solution", []string{"sh", "cadical"}, cmdutil.RefereeTime, []string{"sat", "-n", "8", "--place", "1:1", "--place", "2:3", "--format", "json", "--solver", "cadical -q"}, 0,
			`{"n":8,"total":0,"verified":true,"verified_by":"backtracker"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clitest.Need(t, tc.needs...)
			cmdutil.RefereeTime = tc.budget
			stdout, stderr, code := clitest.Run(t, "", tc.args...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
			if lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n"); tc.code != 0 && !strings.HasPrefix(lines[len(lines)-1], "queens: ") {
				t.Errorf("stderr does not end with a queens: line: %q", stderr)
			}
		})
	}
}

// TestLiars: every lie a solver can tell about an UNSATISFIABLE answer, a
// Count or its exit status fails the run (exit status 1) with a one-line
// reason.
func TestLiars(t *testing.T) {
	dir := t.TempDir()
	q8 := filepath.Join(dir, "q8-uncompletable.cnf")
	stdout, _, _ := clitest.Run(t, "", "dimacs", "-n", "8", "--place", "1:1", "--place", "2:3")
	os.WriteFile(q8, []byte(stdout), 0o644)
	tests := []struct {
		name  string
		needs []string
		in    string
		args  []string
		want  string
	}{
		{"always UNSAT, --place", nil, "", []string{"sat", "-n", "8", "--place", "1:1", "--solver", clitest.Solvers + "always-unsat.sh"},
			"always-unsat.sh answered UNSATISFIABLE (no solution), but the backtracker gives a solution: [1 5 8 6 3 7 2 4]"},
		{"always UNSAT, n = 40", nil, "", []string{"sat", "-n", "40", "--solver", clitest.Solvers + "always-unsat.sh"},
			"answered UNSATISFIABLE (no solution), but an explicit construction gives a solution"},
		{"always UNSAT, --count", nil, "", []string{"sat", "-n", "9", "--count", "--solver", clitest.Solvers + "always-unsat.sh"},
			"answered UNSATISFIABLE (no solution), but the published count is 352"},
		{"UNSAT after 2, --count", []string{"cadical"}, "", []string{"sat", "-n", "8", "--place", "1:1", "--count", "--solver", clitest.Solvers + "unsat-after.sh 2"},
			"unsat-after.sh found 2 solutions, then answered UNSATISFIABLE, but the backtracker counts 4"},
		{"UNSAT after 5, --all", []string{"cadical"}, "", []string{"sat", "-n", "6", "--all", "--solver", clitest.Solvers + "unsat-after.sh 3"},
			"unsat-after.sh found 3 solutions, then answered UNSATISFIABLE, but the published count is 4"},
		{"UNSAT after 3, --limit 5", []string{"cadical"}, "", []string{"sat", "-n", "8", "--limit", "5", "--solver", clitest.Solvers + "unsat-after.sh 3"},
			"found 3 solutions, then answered UNSATISFIABLE, but the published count is 92"},
		{"model, exit 20", []string{"cadical"}, "", []string{"sat", "-n", "8", "--solver", clitest.Solvers + "wrong-exit.sh 20"},
			"wrong-exit.sh answered SATISFIABLE but exited with status 20"},
		{"UNSAT, exit 10", []string{"cadical"}, "", []string{"sat", "-n", "3", "--solver", clitest.Solvers + "wrong-exit.sh 10"},
			"wrong-exit.sh answered UNSATISFIABLE but exited with status 10"},
		{"UNSAT, exit 0", []string{"minisat"}, "", []string{"sat", "-n", "3", "--solver", clitest.Solvers + "wrong-exit.sh 0 minisat", "--solver-output", "file"},
			"answered UNSATISFIABLE but exited with status 0"},
		{"truncated proof", []string{"cadical"}, "", []string{"sat", "-n", "8", "--place", "1:1", "--place", "2:3", "--proof", "--solver", clitest.Solvers + "truncated-proof.sh {proof}"},
			"UNSAT proof rejected: truncated-proof.sh's proof of UNSATISFIABLE (0 blocking clauses)"},
		{"proof of another formula", []string{"cadical"}, "", []string{"sat", "-n", "8", "--place", "1:1", "--proof", "--solver", clitest.Solvers + "other-proof.sh {proof}"},
			"UNSAT proof rejected: other-proof.sh's proof of UNSATISFIABLE (0 blocking clauses): lemma 1"},
		{"decode UNSAT", nil, "s UNSATISFIABLE\n", []string{"decode", "-n", "8"},
			"decode: the solver answered UNSATISFIABLE (no solution), but an explicit construction gives a solution"},
		{"decode UNSAT, --cnf with a completable queen", nil, "s UNSATISFIABLE\n", []string{"decode", "-n", "8", "--cnf", clitest.WriteDimacs(t, dir, "8", "--place", "1:1")},
			"decode: the solver answered UNSATISFIABLE (no solution), but the backtracker gives a solution: [1 5 8 6 3 7 2 4]"},
		{"compare, UNSAT after 2", []string{"cadical"}, "", []string{"compare", "-n", "6", "--engines", "backtrack", "--solver", clitest.Solvers + "unsat-after.sh 2"},
			"compare found"},
		{"compare, --place, UNSAT after 2", []string{"cadical"}, "", []string{"compare", "-n", "8", "--place", "1:1", "--engines", "backtrack", "--solver", clitest.Solvers + "unsat-after.sh 2", "--encoding", "seq"},
			"compare found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clitest.Need(t, append(tt.needs, "sh")...)
			stdout, stderr, code := clitest.Run(t, tt.in, tt.args...)
			if code != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q\nstdout:\n%s", code, stderr, tt.want, stdout)
			}
			clitest.OneLine(t, stderr)
			if strings.Contains(stdout, "no solution") || strings.HasPrefix(tt.args[0], "sat") && strings.Contains(stdout, "solutions") {
				t.Errorf("an unchecked claim reached stdout:\n%s", stdout)
			}
			if tt.args[0] == "compare" && !strings.Contains(stdout, "unsat-after.sh 2") {
				t.Errorf("compare does not name the liar:\n%s", stdout)
			}
		})
	}
}

// TestHonestSolvers: the installed solvers pass every check: a count with
// a pre-placed queen, no solution at n = 3, and one board at n = 30.
func TestHonestSolvers(t *testing.T) {
	for _, solver := range []string{"cadical", "minisat", "picosat", "cryptominisat5", "clasp", "kissat", "clasp --heuristic=Vsids,92"} {
		t.Run(solver, func(t *testing.T) {
			clitest.Need(t, strings.Fields(solver)[0])
			for _, tc := range []struct {
				args []string
				want string
			}{
				{[]string{"-n", "8", "--place", "1:1", "--count"}, "4 solutions\n"},
				{[]string{"-n", "6", "--all", "--format", "perm"}, "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n5 3 1 6 4 2\n"},
				{[]string{"-n", "3"}, "no solution\n"},
				{[]string{"-n", "8", "--place", "1:1", "--place", "2:3"}, "no solution\n"},
			} {
				stdout, stderr, code := clitest.Run(t, "", append([]string{"sat", "--solver", solver}, tc.args...)...)
				if len(tc.args) > 2 && tc.args[2] == "--all" {
					stdout = sortLines(stdout)
				}
				if code != 0 || stdout != tc.want || stderr != "" {
					t.Errorf("sat %v: exit %d, stdout %q, stderr %q; want %q", tc.args, code, stdout, stderr, tc.want)
				}
			}
		})
	}
}

func sortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i := range lines {
		for j := i + 1; j < len(lines); j++ {
			if lines[j] < lines[i] {
				lines[i], lines[j] = lines[j], lines[i]
			}
		}
	}
	return strings.Join(lines, "")
}

// TestProofs: with --proof, every UNSATISFIABLE answer is certified by a
// checked DRAT proof, the one that ends a count too.
func TestProofs(t *testing.T) {
	clitest.SkipShort(t, "checks DRAT proofs of three solvers")
	for _, solver := range []string{"cadical", "picosat.trace", "kissat"} {
		t.Run(solver, func(t *testing.T) {
			clitest.Need(t, solver)
			for _, tc := range []struct {
				args         []string
				want, proofs string
			}{
				{[]string{"-n", "3"}, "no solution\n", "proofs=1"},
				{[]string{"-n", "8", "--count"}, "92 solutions\n", "solves=93 solutions=92 proofs=1"},
				{[]string{"-n", "9", "--place", "1:1", "--place", "2:3", "--count"}, "3 solutions\n", "solves=4 solutions=3 proofs=1"},
				{[]string{"-n", "10", "--place", "1:1", "--place", "2:3", "--place", "3:5"}, "no solution\n", "proofs=1"},
				{[]string{"-n", "30"}, "", "proofs=0"},
			} {
				stdout, stderr, code := clitest.Run(t, "", append([]string{"sat", "--solver", solver, "--proof", "--stats"}, tc.args...)...)
				if code != 0 || tc.want != "" && stdout != tc.want || !strings.Contains(stderr, tc.proofs) {
					t.Errorf("sat %v: exit %d, stdout %q, stderr %q; want %q and %s", tc.args, code, stdout, stderr, tc.want, tc.proofs)
				}
			}
		})
	}
}

// TestSolverFlags: --proof with a solver that writes no DRAT proof, or
// without --solver, a bad quote and a bad --solver-output are usage
// errors; minisat named otherwise is still found to write a result file.
func TestSolverFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sat", "-n", "4", "--proof"}, "--proof and --solver-output go with --solver"},
		{[]string{"sat", "-n", "4", "--solver", "sh", "--proof"}, "writes no DRAT proof"},
		{[]string{"sat", "-n", "4", "--solver", "'sh"}, "unterminated quote"},
		{[]string{"sat", "-n", "4", "--solver", "sh", "--solver-output", "pipe"}, `unknown solver output "pipe"`},
		{[]string{"compare", "-n", "4", "--solver", "sh", "--solver-limit", "99"}, "--solver-limit must be between 0 and 16"},
		{[]string{"compare", "-n", "4", "--solver", "sh", "--encoding", "pairwise,nope"}, `unknown encoding "nope"`},
	} {
		_, stderr, code := clitest.Run(t, "", tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	clitest.Need(t, "minisat")
	path, _ := exec.LookPath("minisat")
	link := filepath.Join(t.TempDir(), "renamed solver")
	os.Symlink(path, link)
	quoted := "'" + link + "' -verb=0"
	stdout, stderr, code := clitest.Run(t, "", "sat", "-n", "8", "--place", "1:1", "--count", "--solver", quoted)
	if code != 0 || stdout != "4 solutions\n" {
		t.Errorf("renamed minisat: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
