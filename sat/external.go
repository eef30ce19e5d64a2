package sat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
// stdout. Exit statuses 0, 10 and 20 are accepted.
//
// Every model is checked against the CNF and the board before it is
// returned. A missing program wraps [ErrSolverNotFound]; a failing run
// [ErrSolverFailed]; a run stopped by ctx returns ctx's error, after the
// process has been killed and reaped.
func NewExternal(cnf *encode.CNF, command string) (*Solver, error) {
	if err := checkCNF(cnf); err != nil {
		return nil, err
	}
	argv := strings.Fields(command)
	if len(argv) == 0 {
		return nil, fmt.Errorf("%w: empty command", ErrSolverNotFound)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %w", ErrSolverNotFound, argv[0], errors.Unwrap(err))
	}
	argv[0] = path
	base := filepath.Base(path)
	ext := &external{
		argv:       argv,
		resultFile: strings.HasPrefix(base, "minisat") || strings.HasPrefix(base, "glucose"),
	}
	return &Solver{cnf: cnf, ext: ext, stats: Stats{Vars: cnf.Vars, Clauses: len(cnf.Clauses)}}, nil
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
	cmd := exec.CommandContext(ctx, x.argv[0], args...)
	var stdout bytes.Buffer
	stderr := &tailBuffer{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	cmd.WaitDelay = killGrace
	runErr := cmd.Run() // Run always waits: the process is reaped
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	name := filepath.Base(x.argv[0])
	code := cmd.ProcessState.ExitCode()
	if runErr != nil && code != 10 && code != 20 {
		why := runErr.Error()
		if last := stderr.lastLine(); last != "" {
			why += ": " + last
		}
		return nil, fmt.Errorf("%w: %s: %s", ErrSolverFailed, name, why)
	}
	output := stdout.Bytes()
	if x.resultFile {
		if output, err = os.ReadFile(out); err != nil {
			return nil, fmt.Errorf("%w: %s wrote no result file (exit status %d)", ErrSolverFailed, name, code)
		}
	}
	res, err := ReadResult(bytes.NewReader(output))
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
		return nil, fmt.Errorf("%w: %s: the model falsifies clause %d %v", ErrSolverFailed, name, i+1, withBlocks.Clauses[i])
	}
	sol, err := encode.Decode(cnf.N, res.Model)
	if err == nil {
		err = sol.Check()
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSolverFailed, name, err)
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

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) lastLine() string {
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
