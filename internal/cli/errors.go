package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/drat"
	"github.com/queens-dev/queens/sat/external"
)

// The exit statuses of queens, as main's package comment documents them.
const (
	exitOK          = 0   // success, "no solution" included
	exitFailed      = 1   // a failed check, a run stopped by --timeout, a failing solver
	exitUsage       = 2   // a usage or input error
	exitUnverified  = 3   // an answer printed that no referee or checked proof confirmed (see referee)
	exitInterrupted = 130 // stopped by a signal (Ctrl-C, SIGTERM)
)

// exitError carries an exit status to run.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usagef returns a usage or input error: exit status 2.
func usagef(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// usageErr marks err as a usage or input error: exit status 2.
func usageErr(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitUsage, err: err}
}

// failf returns a failed check or run: exit status 1.
func failf(format string, args ...any) error {
	return &exitError{code: exitFailed, err: fmt.Errorf(format, args...)}
}

// exitCode maps an error to the documented exit status. It is the one
// place that does, by the error's type: an exitError carries its own; a
// stop (Ctrl-C, SIGTERM) is 130; a proof that would need more memory
// than the process may use (drat.ErrMemory) or a join too large for its
// memory (join.ErrMemory) is 2; a solver or counter that failed, or whose
// proof was rejected, is 1 whatever else its error wraps (the model it
// printed is not the user's input); bad input (isInputError) is 2; any
// other failure 1.
func exitCode(err error) int {
	var e *exitError
	switch {
	case errors.As(err, &e):
		return e.code
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.Is(err, drat.ErrMemory), errors.Is(err, join.ErrMemory):
		return exitUsage // a proof (or a join count) too large for this process, whoever wrote it
	case errors.Is(err, external.ErrSolverFailed), errors.Is(err, external.ErrProof), errors.Is(err, external.ErrCounterFailed):
		return exitFailed
	case isInputError(err):
		return exitUsage
	}
	return exitFailed
}

// isInputError reports whether err is one of the libraries' errors about
// bad input: the board package's (size, pre-placed queens, formats,
// parsing) and a solver command that cannot be run as given (not found,
// an unterminated quote, proofs from a solver that writes none). Commands
// wrap other input errors with usageErr themselves.
func isInputError(err error) bool {
	var pe *board.ParseError
	return errors.Is(err, board.ErrSize) || errors.Is(err, board.ErrPlacement) ||
		errors.Is(err, board.ErrFormat) || errors.As(err, &pe) ||
		errors.Is(err, external.ErrSolverNotFound) || errors.Is(err, external.ErrQuote) || errors.Is(err, external.ErrNoProof)
}
