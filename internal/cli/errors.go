package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/queens-dev/queens/board"
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
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

// usageErr marks err as a usage or input error: exit status 2.
func usageErr(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: 2, err: err}
}

// exitUnverified is the exit status of an answer that was printed but
// that neither a referee nor a checked proof confirmed (see referee).
const exitUnverified = 3

// failf returns a failed check or run: exit status 1.
func failf(format string, args ...any) error {
	return &exitError{code: 1, err: fmt.Errorf(format, args...)}
}

// exitCode maps an error to the documented exit status.
func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	if errors.Is(err, context.Canceled) {
		return 130
	}
	if isInputError(err) {
		return 2
	}
	return 1
}

// isInputError reports whether err is one of the board package's errors
// about bad input (size, pre-placed queens, formats, parsing). Commands wrap
// other input errors with usageErr themselves.
func isInputError(err error) bool {
	var pe *board.ParseError
	return errors.Is(err, board.ErrSize) || errors.Is(err, board.ErrPlacement) ||
		errors.Is(err, board.ErrFormat) || errors.As(err, &pe)
}
