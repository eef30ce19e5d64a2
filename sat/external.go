package sat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
)

// ErrSolverNotFound is wrapped by [NewExternal]'s error when the command
// is empty or its program cannot be found.
var ErrSolverNotFound = errors.New("SAT solver not found")

// ErrSolverFailed is wrapped by the error of a run of an external solver
// that crashed, exited with an unexpected status, printed output
// [ReadResult] cannot read, gave no answer, or answered with a model that
// is not a model of the CNF.
var ErrSolverFailed = errors.New("SAT solver failed")

// external runs a DIMACS solver command, once per solution.
type external struct {
	argv       []string
	resultFile bool    // minisat style: solver IN OUT, the answer in OUT
	blocked    [][]int // blocking clauses of the solutions found so far
}

// NewExternal returns a Solver that runs the DIMACS solver command (a
// program and its arguments, split at spaces, e.g. "cadical -q") on cnf,
// which must have N set. Each solve writes the CNF, with a blocking clause
// per solution found so far, to a temporary file and runs the command
// with the file's name appended. minisat and glucose (recognised by
// name) also get the name of a result file to write; the others must
// print SAT-competition output or a bare model (see [ReadResult]) on
// stdout. Exit statuses 0, 10 (SAT), 20 (UNSAT) and 30 (clasp: SAT, and the
// search space exhausted, as when the formula has exactly one model) are
// accepted.
//
// Every model is checked against the CNF and the board before it is
// returned. A missing program wraps [ErrSolverNotFound]; a failing run
// [ErrSolverFailed]; a run stopped by ctx returns ctx's error, after the
// process has been killed and reaped. On Unix the command runs in a
// process group of its own, which is killed when the command ends or is
// stopped, so that no child it started outlives it.
func NewExternal(cnf *encode.CNF, command string) (*Solver, error) {
	if err := checkCNF(cnf); err != nil {
		return nil, err
	}
	argv, err := solverArgv(command)
	if err != nil {
		return nil, err
	}
	path := argv[0]
	base := filepath.Base(path)
	ext := &external{
		argv:       argv,
		resultFile: strings.HasPrefix(base, "minisat") || strings.HasPrefix(base, "glucose"),
	}
	return &Solver{cnf: cnf, ext: ext, stats: Stats{Vars: cnf.Vars, Clauses: len(cnf.Clauses)}}, nil
}

// LookSolver checks that command (a program and its arguments, as for
// [NewExternal]) names a program that can be run: found on PATH or by its
// path, and executable. Its error wraps [ErrSolverNotFound].
func LookSolver(command string) error {
	_, err := solverArgv(command)
	return err
}

// solverArgv splits command at spaces and resolves its program.
func solverArgv(command string) ([]string, error) {
	argv := strings.Fields(command)
	if len(argv) == 0 {
		return nil, fmt.Errorf("%w: empty command", ErrSolverNotFound)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %w", ErrSolverNotFound, argv[0], errors.Unwrap(err))
	}
	argv[0] = path
	return argv, nil
}

// killGrace is how long a killed solver may keep its output pipes open.
const killGrace = time.Second

func (x *external) next(ctx context.Context, cnf *encode.CNF) (board.Solution, error) {
	dir, err := os.MkdirTemp("", "queens-sat-")
	if err != nil {
		return nil, fmt.Errorf("run SAT solver: %w", err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.cnf")
	withBlocks := *cnf
	withBlocks.Clauses = append(cnf.Clauses[:len(cnf.Clauses):len(cnf.Clauses)], x.blocked...)
	if err := writeFile(in, &withBlocks); err != nil {
		return nil, fmt.Errorf("run SAT solver: %w", err)
	}
	args := append(x.argv[1:len(x.argv):len(x.argv)], in)
	out := filepath.Join(dir, "out.txt")
	if x.resultFile {
		args = append(args, out)
	}
	// stdout and stderr go to files, not pipes: Run then returns when the
	// solver exits, even if a child it left behind still holds them.
	stdout, err := os.Create(filepath.Join(dir, "stdout.txt"))
	if err != nil {
		return nil, fmt.Errorf("run SAT solver: %w", err)
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(dir, "stderr.txt"))
	if err != nil {
		return nil, fmt.Errorf("run SAT solver: %w", err)
	}
	defer stderr.Close()
	cmd := exec.CommandContext(ctx, x.argv[0], args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = killGrace
	ownGroup(cmd)
	runErr := cmd.Run() // Run always waits: the process is reaped
	// The solver is gone; children it left behind (a wrapper script's
	// solver, a forked helper) go with its process group.
	killGroup(cmd)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	name := filepath.Base(x.argv[0])
	code := cmd.ProcessState.ExitCode()
	if runErr != nil && code != 10 && code != 20 && code != 30 {
		why := runErr.Error()
		if last := lastLine(stderr); last != "" {
			why += ": " + last
		}
		return nil, fmt.Errorf("%w: %s: %s", ErrSolverFailed, name, why)
	}
	output := stdout
	if x.resultFile {
		if output, err = os.Open(out); err != nil {
			return nil, fmt.Errorf("%w: %s wrote no result file (exit status %d)", ErrSolverFailed, name, code)
		}
		defer output.Close()
	} else if _, err := stdout.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("run SAT solver: %w", err)
	}
	res, err := ReadResult(output)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSolverFailed, name, err)
	}
	switch res.Status {
	case Unsatisfiable:
		return nil, nil
	case Unknown:
		return nil, fmt.Errorf("%w: %s answered UNKNOWN", ErrSolverFailed, name)
	}
	if ok, i := withBlocks.Satisfies(res.Model); !ok {
		return nil, fmt.Errorf("%w: %s: the model falsifies clause %d %v (its queens: %s)",
			ErrSolverFailed, name, i+1, withBlocks.Clauses[i], modelQueens(cnf.N, res.Model))
	}
	sol, err := encode.Decode(cnf.N, res.Model)
	if err == nil {
		err = sol.Check()
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w (its queens: %s)", ErrSolverFailed, name, err, modelQueens(cnf.N, res.Model))
	}
	block := make([]int, cnf.N)
	for row, col := range sol {
		block[row] = -encode.Var(cnf.N, row, col)
	}
	x.blocked = append(x.blocked, block)
	return sol, nil
}

func writeFile(path string, cnf *encode.CNF) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = encode.WriteDIMACS(f, cnf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// lastLine returns the last line of the last 4 KiB of f (a solver's
// stderr), which usually says why it failed.
func lastLine(f *os.File) string {
	const tail = 4 << 10
	buf := make([]byte, tail)
	size, _ := f.Seek(0, io.SeekEnd)
	n, _ := f.ReadAt(buf, max(size-tail, 0))
	lines := strings.Split(strings.TrimSpace(string(buf[:n])), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// modelQueens lists the squares a model puts queens on, 1-based R:C, so
// that an error about a bad model shows the model.
func modelQueens(n int, model []int) string {
	var b strings.Builder
	for _, lit := range model {
		if lit > 0 && lit <= n*n {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%d:%d", (lit-1)/n+1, (lit-1)%n+1)
		}
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}
