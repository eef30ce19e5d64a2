//go:build unix

package external_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/testutil"
	"github.com/queens-dev/queens/sat/external"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"cadical -q", []string{"cadical", "-q"}},
		{"  clasp --heuristic=Vsids,92  ", []string{"clasp", "--heuristic=Vsids,92"}},
		{"'/opt/my solver/cadical' -q", []string{"/opt/my solver/cadical", "-q"}},
		{`a "b \"c\" \$x \n" d\ e`, []string{"a", `b "c" $x \n`, "d e"}},
		{`x '' ""`, []string{"x", "", ""}},
		{`a'b'"c"d`, []string{"abcd"}},
		{"$HOME *.cnf ; rm -rf /", []string{"$HOME", "*.cnf", ";", "rm", "-rf", "/"}},
		{"a\\\nb", []string{"ab"}},
		{"", nil},
	}
	for _, tt := range tests {
		got, err := external.SplitCommand(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"'open", `"open`, `end\`, `"a\"`} {
		if got, err := external.SplitCommand(bad); !errors.Is(err, external.ErrQuote) {
			t.Errorf("SplitCommand(%q) = %q, %v; want ErrQuote", bad, got, err)
		}
	}
}

// FuzzSplitCommand: QuoteCommand's output splits back into the words.
func FuzzSplitCommand(f *testing.F) {
	f.Add("cadical", "-q", "it's")
	f.Add("a b", `"c"`, `\`)
	f.Fuzz(func(t *testing.T, a, b, c string) {
		words := []string{a, b, c}
		got, err := external.SplitCommand(external.QuoteCommand(words))
		if err != nil || !slices.Equal(got, words) {
			t.Fatalf("SplitCommand(QuoteCommand(%q)) = %q, %v", words, got, err)
		}
		external.SplitCommand(a) // never panics
	})
}

func TestProofArgs(t *testing.T) {
	tests := []struct {
		argv        []string
		words, post []string
	}{
		{[]string{"/usr/bin/cadical", "-q"}, []string{"/usr/bin/cadical", "-q"}, []string{"P"}},
		{[]string{"kissat"}, []string{"kissat"}, []string{"P"}},
		{[]string{"cryptominisat5", "--verb", "0"}, []string{"cryptominisat5", "--verb", "0"}, []string{"P"}},
		{[]string{"picosat.trace"}, []string{"picosat.trace", "-R", "P"}, nil},
		{[]string{"glucose"}, []string{"glucose", "-certified", "-certified-output=P"}, nil},
		{[]string{"my", "--drat={proof}"}, []string{"my", "--drat=P"}, nil},
	}
	for _, tt := range tests {
		words, post, err := external.ProofArgs(tt.argv, "P")
		if err != nil || !slices.Equal(words, tt.words) || !slices.Equal(post, tt.post) {
			t.Errorf("ProofArgs(%q) = %q, %q, %v; want %q, %q", tt.argv, words, post, err, tt.words, tt.post)
		}
	}
	for _, argv := range [][]string{{"picosat"}, {"minisat"}, {"clasp"}} {
		if _, _, err := external.ProofArgs(argv, "P"); !errors.Is(err, external.ErrNoProof) {
			t.Errorf("ProofArgs(%q) = %v, want ErrNoProof", argv, err)
		}
	}
	cnf, _ := encode.Queens(4, "pairwise", nil)
	if _, err := (external.External{Command: "sh", Proof: testutil.CheckRUP}).New(cnf); !errors.Is(err, external.ErrNoProof) {
		t.Errorf("External{sh, Proof}.New = %v, want ErrNoProof", err)
	}
}

// model4 is the first solution of n = 4 as SAT-competition v lines.
const model4 = "v -1 2 -3 -4 -5 -6 -7 8 9 -10 -11 -12 -13 -14 15 -16 0"

// TestExternalExitStatus: the exit status must match the answer.
func TestExternalExitStatus(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"model, exit 20", "echo 's SATISFIABLE'; echo '" + model4 + "'; exit 20", "answered SATISFIABLE but exited with status 20"},
		{"UNSAT, exit 10", "echo 's UNSATISFIABLE'; exit 10", "answered UNSATISFIABLE but exited with status 10"},
		{"model, exit 0", "echo 's SATISFIABLE'; echo '" + model4 + "'; exit 0", "answered SATISFIABLE but exited with status 0"},
		{"UNSAT, exit 0", "echo 's UNSATISFIABLE'", "answered UNSATISFIABLE but exited with status 0"},
	}
	cnf, _ := encode.Queens(4, "pairwise", nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := external.External{Command: script(t, tt.body), Output: external.OutputStdout}.New(cnf)
			if err != nil {
				t.Fatal(err)
			}
			if sol, err := s.Next(context.Background()); !errors.Is(err, external.ErrSolverFailed) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Next = %v, %v; want %q", sol, err, tt.want)
			}
		})
	}
}

// TestExternalTrueOnly: a model that lists only its true literals is read
// with the others false.
func TestExternalTrueOnly(t *testing.T) {
	cnf, _ := encode.Queens(4, "seq", nil)
	s, err := external.New(cnf, script(t, "echo 's SATISFIABLE'; echo 'v 2 8 9 15 0'; exit 10"))
	if err != nil {
		t.Fatal(err)
	}
	// The seq encoding's auxiliary variables are all false here: the
	// model may or may not satisfy the CNF, but it must be read as the
	// board 2 4 1 3 either way.
	sol, err := s.Next(context.Background())
	if err != nil && !strings.Contains(err.Error(), "its queens: 1:2 2:4 3:1 4:3") {
		t.Fatalf("Next = %v, %v", sol, err)
	}
	cnf, _ = encode.Queens(4, "pairwise", nil)
	s, _ = external.New(cnf, script(t, "echo 's SATISFIABLE'; echo 'v 2 8 9 15 0'; exit 10"))
	if sol, err := s.Next(context.Background()); err != nil || !sol.Equal(board.Solution{1, 3, 0, 2}) {
		t.Errorf("Next = %v, %v; want [1 3 0 2]", sol, err)
	}
}

// TestExternalProbe: where a solver writes its answer is found by probing,
// not by its name.
func TestExternalProbe(t *testing.T) {
	fileSolver := `if [ -z "$2" ]; then echo 'Solving...'; exit 10; fi
printf 'SAT\n' > "$2"; case "$(grep -c . "$1")" in 4) echo '1 -2 0' >> "$2";; *) echo '` + model4[2:] + `' >> "$2";; esac; exit 10`
	stdoutSolver := `echo 's SATISFIABLE'; case "$(grep -c . "$1")" in 4) echo 'v 1 -2 0';; *) echo '` + model4 + `';; esac; exit 10`
	tests := []struct {
		name, command string
		want          external.OutputMode
	}{
		{"file", script(t, fileSolver), external.OutputFile},
		{"stdout", script(t, stdoutSolver), external.OutputStdout},
		{"renamed minisat", "", external.OutputFile},
	}
	if path, err := exec.LookPath("minisat"); err == nil {
		link := filepath.Join(t.TempDir(), "mysolver")
		os.Symlink(path, link)
		tests[2].command = link
	}
	cnf, _ := encode.Queens(4, "pairwise", nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.command == "" {
				t.Skip("minisat not installed")
			}
			x := external.External{Command: tt.command}
			if err := x.Probe(context.Background()); err != nil || x.Output != tt.want {
				t.Fatalf("Probe: %v, %v; want %v", x.Output, err, tt.want)
			}
			s, err := x.New(cnf)
			if err != nil {
				t.Fatal(err)
			}
			if sol, err := s.Next(context.Background()); err != nil || !board.Valid(sol) {
				t.Errorf("Next = %v, %v", sol, err)
			}
		})
	}
	x := external.External{Command: script(t, "echo hello; exit 10")}
	if err := x.Probe(context.Background()); !errors.Is(err, external.ErrSolverFailed) || !strings.Contains(err.Error(), "cannot tell where it writes its answer") {
		t.Errorf("Probe of a solver without an answer: %v", err)
	}
}

// TestExternalOutputLimit: a solver that writes without end is killed at
// the output limit, and the run fails saying so.
func TestExternalOutputLimit(t *testing.T) {
	cnf, _ := encode.Queens(4, "pairwise", nil)
	s, err := external.External{Command: script(t, "echo 's SATISFIABLE'; while :; do echo 'c chatter chatter chatter'; done"),
		Output: external.OutputStdout, MaxOutput: 1 << 20}.New(cnf)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := s.Next(ctx); !errors.Is(err, external.ErrSolverFailed) || !strings.Contains(err.Error(), "over the limit of 1048576 bytes") {
		t.Errorf("Next: %v; want the output limit", err)
	}
}

// TestExternalSetsid: a solver's child that leaves the process group in a
// session of its own (setsid) is killed all the same.
func TestExternalSetsid(t *testing.T) {
	for _, prog := range []string{"setsid", "sleep"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("no %s", prog)
		}
	}
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc: only the process group is killed")
	}
	cnf, _ := encode.Queens(4, "pairwise", nil)
	for _, tt := range []struct {
		name, body string
		timeout    bool
	}{
		{"exits", "setsid sleep 60 >/dev/null 2>&1 & echo $! > PIDFILE; echo 's UNSATISFIABLE'; exit 20", false},
		{"exits, grandchild", "setsid sh -c 'sleep 60 & echo $! > PIDFILE; wait' >/dev/null 2>&1 & while [ ! -s PIDFILE ]; do sleep 0.05; done; echo 's UNSATISFIABLE'; exit 20", false},
		{"timeout", "setsid sleep 60 & echo $! > PIDFILE; sleep 60", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			s, err := external.External{Command: script(t, strings.ReplaceAll(tt.body, "PIDFILE", pidFile)), Output: external.OutputStdout}.New(cnf)
			if err != nil {
				t.Fatal(err)
			}
			deadline := time.Minute
			if tt.timeout {
				deadline = 1500 * time.Millisecond
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			s.Next(ctx)
			data, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatalf("the script did not start its child: %v", err)
			}
			var pid int
			fmt.Sscan(string(data), &pid)
			for deadline := time.Now().Add(10 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					exec.Command("kill", "-9", fmt.Sprint(pid)).Run()
					t.Fatalf("the solver's escaped child %d outlived it", pid)
				}
			}
		})
	}
}

// uncompletable returns two queens on the n×n board, in the top two
// rows, that no solution has.
func uncompletable(t *testing.T, n int) []board.Queen {
	t.Helper()
	for a := range n {
		for b := range n {
			q := []board.Queen{{Row: 0, Col: a}, {Row: 1, Col: b}}
			if board.CheckPlacement(n, q) != nil {
				continue
			}
			if total, _ := testutil.Count(n, q); total == 0 {
				return q
			}
		}
	}
	t.Fatalf("every placement of n = %d has a completion", n)
	return nil
}

// TestExternalProofs: with a proof checker, every UNSAT answer of cadical
// comes with a proof that checks: n = 3, a pre-placed queen without
// completion at n = 8, and the last solve of the n = 6 enumeration.
func TestExternalProofs(t *testing.T) {
	if _, err := exec.LookPath("cadical"); err != nil {
		t.Skip("cadical not installed (apt-get install cadical)")
	}
	for _, tc := range []struct {
		n     int
		place []board.Queen
		want  uint64
	}{{3, nil, 0}, {8, uncompletable(t, 8), 0}, {6, nil, 4}, {8, []board.Queen{{Row: 0, Col: 0}}, 4}} {
		for _, command := range []string{"cadical -q", "picosat.trace"} {
			if _, err := exec.LookPath(strings.Fields(command)[0]); err != nil {
				continue
			}
			cnf, err := encode.Queens(tc.n, "pairwise", tc.place)
			if err != nil {
				t.Fatal(err)
			}
			s, err := external.External{Command: command, Proof: testutil.CheckRUP}.New(cnf)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Count(context.Background())
			if err != nil || got != tc.want || s.Stats().Proofs != 1 {
				t.Errorf("%s n=%d place %v: %d solutions, %d proofs, %v; want %d and 1 proof", command, tc.n, tc.place, got, s.Stats().Proofs, err, tc.want)
			}
		}
	}
}

// TestExternalBadProofs: an UNSAT answer whose proof is missing,
// truncated, or a proof of another formula is rejected.
func TestExternalBadProofs(t *testing.T) {
	cadical, err := exec.LookPath("cadical")
	if err != nil {
		t.Skip("cadical not installed (apt-get install cadical)")
	}
	dir := t.TempDir()
	q3 := filepath.Join(dir, "q3.cnf")
	c3, _ := encode.Queens(3, "pairwise", nil)
	f, _ := os.Create(q3)
	encode.WriteDIMACS(f, c3)
	f.Close()
	// The solver is called as SCRIPT CNF PROOF ({proof} placeholder).
	tests := []struct {
		name, body, want string
		place            []board.Queen
	}{
		{"no proof", "echo 's UNSATISFIABLE'; exit 20", "wrote no proof", nil},
		{"empty proof", ": > \"$2\"; echo 's UNSATISFIABLE'; exit 20", "does not derive the empty clause", nil},
		{"truncated", cadical + " -q --no-binary \"$1\" \"$2.full\"; head -n 3 \"$2.full\" > \"$2\"; exit 20",
			"does not derive the empty clause", uncompletable(t, 8)},
		{"other formula", cadical + " -q " + q3 + " \"$2\" >/dev/null; echo 's UNSATISFIABLE'; exit 20", "is not RUP",
			[]board.Queen{{Row: 0, Col: 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cnf, _ := encode.Queens(8, "pairwise", tt.place)
			s, err := external.External{Command: script(t, "set -- \"$2\" \"$1\"\n"+tt.body) + " {proof}", Output: external.OutputStdout, Proof: testutil.CheckRUP}.New(cnf)
			if err != nil {
				t.Fatal(err)
			}
			n, err := s.Count(context.Background())
			if !errors.Is(err, external.ErrProof) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("after %d solutions: %v; want ErrProof, %q", n, err, tt.want)
			}
		})
	}
}

// TestCNFPlaceholder: {cnf} puts the CNF's name where the command takes
// it, here before the proof's for a solver that takes the proof first;
// without it the name goes last. The solver's answers, proofs and the
// count of n = 6 are checked as any other's.
func TestCNFPlaceholder(t *testing.T) {
	cadical, err := exec.LookPath("cadical")
	if err != nil {
		t.Skip("cadical not installed (apt-get install cadical)")
	}
	// The script takes the CNF after -i and the proof last; it refuses
	// a -i without a CNF file after it.
	solver := script(t, `[ $# = 3 ] && [ "$1" = -i ] && grep -q '^p cnf' "$2" || { echo "c usage: -i CNF PROOF, not $*"; exit 1; }
exec `+cadical+` -q --no-binary "$2" "$3"`)
	cnf, _ := encode.Queens(6, "pairwise", nil)
	for _, tt := range []struct {
		command string
		ok      bool
	}{
		{solver + " -i {cnf} {proof}", true},
		{solver + " -i {proof}", false}, // the CNF appended last, the proof after -i
	} {
		s, err := external.External{Command: tt.command, Output: external.OutputStdout, Proof: testutil.CheckRUP}.New(cnf)
		if err != nil {
			t.Fatal(err)
		}
		n, err := s.Count(context.Background())
		if tt.ok && (err != nil || n != 4) {
			t.Errorf("%s: %d solutions, %v; want 4", tt.command, n, err)
		}
		if !tt.ok && err == nil {
			t.Errorf("%s: %d solutions, no error; want the script's refusal", tt.command, n)
		}
	}
	// A counter too: {cnf} then a word of its own.
	counter := script(t, `[ "$2" = last ] || exit 1
exec clasp -n 0 -q "$1"`)
	if _, err := exec.LookPath("clasp"); err == nil {
		path := filepath.Join(t.TempDir(), "q6.cnf")
		var buf bytes.Buffer
		encode.DIMACS{ModelCounting: true}.Write(&buf, cnf)
		os.WriteFile(path, buf.Bytes(), 0o644)
		if got, err := (external.Counter{Command: counter + " {cnf} last"}).Count(context.Background(), path); err != nil || got != 4 {
			t.Errorf("counter with {cnf}: %d, %v; want 4", got, err)
		}
	}
}
