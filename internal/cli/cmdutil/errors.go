package cmdutil

import (
	"context"
	"errors"
	"fmt"

	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/drat"
	"github.com/queens-dev/queens/sat/external"
)

// MaxMessage bounds the bytes of the one line an error prints.
const MaxMessage = 400

// The exit statuses of queens, as main's package comment documents them.
const (
	ExitOK          = 0   // success, "no solution" included
	exitFailed      = 1   // a failed check, a run stopped by --timeout, a failing solver
	ExitUsage       = 2   // a usage or input error
	ExitUnverified  = 3   // an answer printed that no referee or checked proof confirmed (see referee)
	ExitTempFail    = 75  // this shard cannot run here (EX_TEMPFAIL): its memory, its checkpoint in use; retry it elsewhere
	ExitInterrupted = 130 // stopped by a signal (Ctrl-C, SIGTERM)
)

// ExitError carries an exit status to run.
type ExitError struct {
	Code int
	Err  error
}

// Error returns the message of the error it carries.
func (e *ExitError) Error() string { return e.Err.Error() }

// Unwrap returns the error it carries.
func (e *ExitError) Unwrap() error { return e.Err }

// Status is an exit status that is the answer, not an error: the SAT
// competition's 10 (SATISFIABLE) and 20 (UNSATISFIABLE) of sat --format
// competition, whose answer is on stdout. Run prints no message for it.
type Status int

// The exit statuses of a SAT competition solver's answers.
const (
	StatusSatisfiable   Status = 10
	StatusUnsatisfiable Status = 20
)

// Error says the status, for a caller that prints errors.
func (s Status) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// Usagef returns a usage or input error: exit status 2.
func Usagef(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// UsageErr marks err as a usage or input error: exit status 2.
func UsageErr(err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{Code: ExitUsage, Err: err}
}

// TempFail marks err as "this shard cannot run here, now": exit status
// 75 (EX_TEMPFAIL), which the Slurm and Kubernetes plans retry elsewhere
// (deploy/), where 2 says the input is wrong and fails the task.
func TempFail(err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{Code: ExitTempFail, Err: err}
}

// Failf returns a failed check or run: exit status 1.
func Failf(format string, args ...any) error {
	return &ExitError{Code: exitFailed, Err: fmt.Errorf(format, args...)}
}

// ExitCode maps an error to the documented exit status. It is the one
// Place that does, by the error's type: an ExitError carries its own; a
// stop (Ctrl-C, SIGTERM) is 130; a proof that would need more memory
// than the process may use (drat.ErrMemory) or a join too large for its
// memory (join.ErrMemory) is 2; a solver or counter that failed, or whose
// proof was rejected, is 1 whatever else its error wraps (the model it
// printed is not the user's input); bad input (isInputError) is 2; any
// other failure 1.
func ExitCode(err error) int {
	var e *ExitError
	var st Status
	switch {
	case errors.As(err, &e):
		return e.Code
	case errors.As(err, &st):
		return int(st)
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.Is(err, drat.ErrMemory), errors.Is(err, join.ErrMemory):
		return ExitUsage // a proof (or a join count) too large for this process, whoever wrote it
	case errors.Is(err, external.ErrSolverFailed), errors.Is(err, external.ErrProof), errors.Is(err, external.ErrCounterFailed):
		return exitFailed
	case isInputError(err):
		return ExitUsage
	}
	return exitFailed
}

// isInputError reports whether err is one of the libraries' errors about
// bad input: the board package's (size, pre-placed queens, formats,
// parsing) and a solver command that cannot be run as given (not found,
// an unterminated quote, proofs from a solver that writes none). Commands
// wrap other input errors with UsageErr themselves.
func isInputError(err error) bool {
	var pe *board.ParseError
	return errors.Is(err, board.ErrSize) || errors.Is(err, board.ErrPlacement) ||
		errors.Is(err, board.ErrFormat) || errors.As(err, &pe) ||
		errors.Is(err, external.ErrSolverNotFound) || errors.Is(err, external.ErrQuote) || errors.Is(err, external.ErrNoProof)
}
