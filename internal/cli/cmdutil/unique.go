package cmdutil

import (
	"context"
	"fmt"
	"io"
	"iter"

	"github.com/queens-dev/queens/board"
	"github.com/urfave/cli/v2"
)

// UniqueMode is the value of --unique: off, all 8 symmetries (a bare
// --unique, as the contract has it) or the 4 rotations only
// (--unique=rotations). It is a boolean flag to the flag parser, so that
// a bare --unique takes no argument, and its String is "true" or "false",
// as a boolean flag's.
type UniqueMode struct {
	On        bool
	Rotations bool
	bad       *uniqueModeError // the last value Set refused
}

// uniqueModeError is Set's error for a value that is no mode. The flag
// parser passes on only its text, inside its own "invalid value" message,
// so Set also keeps it in the flag's value, where OnUsageError finds it
// (badUnique) and reports it alone.
type uniqueModeError struct{ value string }

func (e *uniqueModeError) Error() string {
	return fmt.Sprintf("unknown --unique mode %q: want %s", e.value, uniqueModes)
}

// badUnique returns the error of a --unique value of cmd's flags that Set
// refused, or nil.
func badUnique(cmd *cli.Command) error {
	if cmd == nil {
		return nil
	}
	for _, f := range cmd.Flags {
		if g, ok := f.(*cli.GenericFlag); ok {
			if u, ok := g.Value.(*UniqueMode); ok && u.bad != nil {
				return u.bad
			}
		}
	}
	return nil
}

// uniqueModes lists the values --unique= takes, for the error message.
const uniqueModes = "--unique (rotations and reflections), --unique=all (the same) or --unique=rotations"

// Set reads the value of --unique (flag.Value).
func (u *UniqueMode) Set(v string) error {
	switch v {
	case "true", "all", "symmetries":
		*u = UniqueMode{On: true}
	case "false":
		*u = UniqueMode{}
	case "rotations":
		*u = UniqueMode{On: true, Rotations: true}
	default:
		u.bad = &uniqueModeError{v}
		return u.bad
	}
	return nil
}

// String returns "true" when --unique is on (flag.Value).
func (u *UniqueMode) String() string {
	if u != nil && u.On {
		return "true"
	}
	return "false"
}

// IsBoolFlag lets --unique stand alone, like a boolean flag.
func (u *UniqueMode) IsBoolFlag() bool { return true }

// UniqueFlag is --unique of backtrack.
func UniqueFlag() cli.Flag {
	return &cli.GenericFlag{Name: "unique", Value: &UniqueMode{}, DefaultText: "off",
		Usage: "only solutions distinct up to rotation and reflection; --unique=rotations: up to rotation only (see below)"}
}

// UniqueArgs returns the mode of --unique and the arguments left over. A
// mode written after a space (--unique rotations) is left by the flag
// parser as an argument: as the last argument it is taken as the mode,
// anywhere else it is a usage error that says to write
// --unique=rotations.
func UniqueArgs(mode UniqueMode, args []string) (UniqueMode, []string, error) {
	if len(args) > 0 && mode.On && (args[0] == "rotations" || args[0] == "all") {
		if len(args) > 1 {
			return mode, nil, Usagef("write --unique=%s (with =): the flags after %q were not read", args[0], args[0])
		}
		mode.Set(args[0])
		args = nil
	}
	return mode, args, nil
}

// RotationClasses is --unique=rotations of sat: the solver finds every
// solution (no symmetry-breaking clauses), and the canonical one of each
// class under the rotations that keep the pre-placed queens in place
// ([board.Stabilizer]) is kept.
type RotationClasses struct {
	n     int
	group []board.Transform
}

// NewRotationClasses returns the classes of the n×n board's completions
// of placed under its rotations; with pre-placed queens it says on
// stderr which rotations those are.
func NewRotationClasses(stderr io.Writer, n int, placed []board.Queen) *RotationClasses {
	r := &RotationClasses{n: n, group: board.Stabilizer(n, placed, true)}
	if len(placed) > 0 {
		UniqueNote(stderr, r.group)
	}
	return r
}

// UniqueNote says on stderr which symmetries the classes of --unique with
// --place are taken under.
func UniqueNote(stderr io.Writer, group []board.Transform) {
	fmt.Fprintf(stderr, "queens: note: --unique with --place counts the classes under the symmetries that keep the placed queens in place: %s\n", SymmetryNames(group))
}

// Filter passes on the canonical solutions of seq only; a nil r passes
// everything.
func (r *RotationClasses) Filter(seq iter.Seq2[board.Solution, error]) iter.Seq2[board.Solution, error] {
	if r == nil {
		return seq
	}
	return func(yield func(board.Solution, error) bool) {
		for s, err := range seq {
			if err == nil && !board.IsCanonicalUnder(s, r.group) {
				continue
			}
			if !yield(s, err) || err != nil {
				return
			}
		}
	}
}

// Count counts the solutions of seq and their classes, checks the total
// with the referee and writes "T solutions (R unique up to rotation)".
func (r *RotationClasses) Count(ctx context.Context, out io.Writer, format board.Format, seq iter.Seq2[board.Solution, error], ref *Referee) error {
	var total, classes uint64
	for s, err := range seq {
		if err != nil {
			return err
		}
		total++
		if board.IsCanonicalUnder(s, r.group) {
			classes++
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := ref.Check(total); err != nil {
		return err
	}
	return WriteUniqueCount(out, format, r.n, total, UniqueMode{On: true, Rotations: true}, 0, classes)
}
