package cmdutil

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// SetUsageErrors makes flag errors of cmd and its subcommands come back to
// run as usage errors instead of being printed by urfave/cli (subcommands
// do not inherit the App's handler), refuses empty flag values
// (checkEmpty), and reads every integer flag in base 10 (decimalFlag).
func SetUsageErrors(cmd *cli.Command) {
	cmd.OnUsageError = OnUsageError
	if before := cmd.Before; before != nil {
		cmd.Before = func(c *cli.Context) error {
			if err := checkEmpty(c); err != nil {
				return err
			}
			return before(c)
		}
	} else {
		cmd.Before = checkEmpty
	}
	for i, f := range cmd.Flags {
		cmd.Flags[i] = decimalFlag(f)
	}
	for _, sub := range cmd.Subcommands {
		SetUsageErrors(sub)
	}
}

// OnUsageError is the App's and every command's handler of flag errors:
// it returns them as usage errors (exit status 2) for Run to print, in
// place of urfave/cli's help text on stdout.
func OnUsageError(c *cli.Context, err error, isSubcommand bool) error {
	if bad := badUnique(c.Command); bad != nil {
		// Not the flag parser's "invalid value ... for flag": --unique
		// parses like a boolean, and its own error says what it takes.
		err = bad
	}
	if !isSubcommand {
		// A flag before any command (queens -n 8): say that a command
		// comes first.
		err = fmt.Errorf("%w: a command comes first, e.g. queens backtrack -n 8 (queens help lists them)", err)
	}
	return &ExitError{Code: ExitUsage, Err: err}
}
