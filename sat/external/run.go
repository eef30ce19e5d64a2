package external

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"
)

// killGrace is how long a killed solver, and what it left behind, may
// keep its output pipes open.
const killGrace = time.Second

// stderrTail is how much of a solver's stderr is kept: the end, which
// usually says why it failed.
const stderrTail = 4 << 10

// runEnv names the environment variable that marks a solver's processes:
// each run gets a value of its own, inherited by everything the solver
// starts, so that what it leaves behind can be found (see sweep).
const runEnv = "QUEENS_SOLVER_RUN"

var runSeq atomic.Uint64

// solverRun is what one run of a solver left: its exit, its stdout (at
// most maxOut bytes) and the end of its stderr.
type solverRun struct {
	name     string
	state    *os.ProcessState
	stdout   []byte
	stderr   string // the last line of stderr
	code     int    // exit status; -1 if killed by a signal
	overflow bool   // stdout went over maxOut; the solver was killed
	maxOut   int64
}

// exited reports whether the solver ended on its own with one of the exit
// statuses a solver that answered may have: 0, 10, 20 or 30.
func (r *solverRun) exited() bool {
	if r.overflow || r.state == nil || !r.state.Exited() {
		return false
	}
	switch r.code {
	case 0, 10, 20, 30:
		return true
	}
	return false
}

// failure says why a run that did not exit() failed.
func (r *solverRun) failure() error {
	var why string
	switch {
	case r.overflow:
		return fmt.Errorf("its output is over the limit of %d bytes (killed)", r.maxOut)
	case r.state == nil:
		why = "did not run"
	default:
		why = r.state.String() // "exit status 1", "signal: killed"
	}
	if r.stderr != "" {
		why += ": " + r.stderr
	}
	return fmt.Errorf("%s", why)
}

// runSolver runs a solver to its end, its stdout kept up to maxOut bytes
// (past that the solver is killed) and the end of its stderr. The solver
// runs in a process group of its own, marked by a runEnv value of its
// own; once it has exited (or ctx ended), the group and every process
// that carries the mark are killed. It returns ctx's error if ctx ended,
// and an error wrapping [ErrSolverFailed] if the solver could not be
// started.
func runSolver(ctx context.Context, path string, args []string, maxOut int64) (*solverRun, error) {
	r := &solverRun{name: baseName(path), maxOut: maxOut, code: -1}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("run SAT solver: %w", err)
	}
	defer outR.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		outW.Close()
		return nil, fmt.Errorf("run SAT solver: %w", err)
	}
	defer errR.Close()
	token := fmt.Sprintf("%d.%d", os.Getpid(), runSeq.Add(1))
	cmd := exec.CommandContext(ctx, path, args...)
	// The write ends are files: the solver writes into the pipes itself,
	// and Wait returns when it exits, even if a child it left behind
	// still holds them.
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.Env = append(os.Environ(), runEnv+"="+token)
	cmd.WaitDelay = killGrace
	ownGroup(cmd)
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSolverFailed, r.name, err)
	}
	var out bytes.Buffer
	outDone := make(chan struct{})
	go func() {
		defer close(outDone)
		io.Copy(&out, io.LimitReader(outR, maxOut+1))
		if int64(out.Len()) > maxOut {
			r.overflow = true
			killGroup(cmd)
			cmd.Process.Kill()
		}
	}()
	var tail tailBuffer
	errDone := make(chan struct{})
	go func() {
		defer close(errDone)
		io.Copy(&tail, errR)
	}()
	cmd.Wait() // always waits: the solver is reaped
	// The solver is gone; what it left behind goes with its process
	// group, or, if it left the group, by its mark.
	killGroup(cmd)
	sweep(runEnv + "=" + token)
	timer := time.NewTimer(killGrace)
	defer timer.Stop()
	for _, done := range []chan struct{}{outDone, errDone} {
		select {
		case <-done:
		case <-timer.C:
			// Something the sweep could not reach holds a pipe: stop
			// reading it.
			outR.Close()
			errR.Close()
			<-done
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.state = cmd.ProcessState
	r.code = cmd.ProcessState.ExitCode()
	r.stdout = out.Bytes()
	if int64(len(r.stdout)) > maxOut {
		r.stdout = r.stdout[:maxOut]
	}
	r.stderr = tail.lastLine()
	return r, nil
}

// tailBuffer keeps the last stderrTail bytes written to it.
type tailBuffer struct{ buf []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*stderrTail {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-stderrTail:]...)
	}
	return len(p), nil
}

// lastLine returns the last non-empty line kept.
func (t *tailBuffer) lastLine() string {
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if len(last) > 200 {
		last = last[:200] + "..."
	}
	return last
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}
