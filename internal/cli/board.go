package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/urfave/cli/v2"
)

func boardCommand() *cli.Command { return newBoardCommand(runBoard) }

// newBoardCommand returns the board command; its action reads the flags
// into boardOptions and hands them to run (tests pass their own).
func newBoardCommand(run func(ctx context.Context, o boardOptions, stdout io.Writer) error) *cli.Command {
	return &cli.Command{
		Name:      "board",
		Usage:     "draw the queens given with --place, no search: a partial board, its attack counts",
		UsageText: "queens board -n N [--place R:C ...] [--format board|matrix|coords|attacks|json|fen|svg|png] [--attacks] [--numbers] [-o FILE]",
		Description: `Draws the queens given with --place (1-based ROW:COL, repeatable) and nothing else:
no search fills the other rows. --format attacks writes for every square the number
of queens that attack it (0 free, Q a queen), the board of the classic applets:

    $ queens board -n 4 --place 2:2 --format attacks
     1  1  1  0
     1 -1  1  1
     1  1  1  0
     0  1  0  1

The queens may attack each other (the counts show it) but not share a row. --format
svg or png draws the picture; --attacks shades the attacked squares and --numbers
writes the counts in them. --format perm needs a queen in every row.`,
		Flags: []cli.Flag{
			cmdutil.SizeFlag(), cmdutil.PlaceFlag(),
			cmdutil.FormatFlag("board", "matrix", "coords", "attacks", "json", "fen", "perm", "svg", "png"),
			cmdutil.AttacksFlag(), cmdutil.NumbersFlag(), cmdutil.OutFlag(),
		},
		Action: func(c *cli.Context) error {
			o := boardOptions{SolutionFlags: cmdutil.ReadSolutionFlags(c)}
			if err := o.check(); err != nil {
				return err
			}
			return run(c.Context, o, c.App.Writer)
		},
	}
}

// boardOptions are the flags of queens board.
type boardOptions struct {
	cmdutil.SolutionFlags

	// Set by check: the board drawn, -1 in a row without a queen.
	board board.Solution
}

// Check checks the options (usage errors, exit status 2) and places the
// queens on the board.
func (o *boardOptions) check() error {
	if len(o.Args) > 0 {
		return cmdutil.Usagef("board: unexpected argument %q", o.Args[0])
	}
	if err := cmdutil.CheckBoardSize(o.N, o.NSet, cmdutil.MaxBoardN); err != nil {
		return err
	}
	qs, err := board.ParseQueens(o.Place)
	if err != nil {
		return cmdutil.UsageErr(err)
	}
	n := o.N
	s := make(board.Solution, n)
	for i := range s {
		s[i] = -1
	}
	for _, q := range qs {
		if q.Row >= n || q.Col >= n {
			return cmdutil.Usagef("--place %s is off the %dx%d board", q, n, n)
		}
		if s[q.Row] >= 0 && s[q.Row] != q.Col {
			return cmdutil.Usagef("--place %s and %s share a row: a board here holds one queen per row", board.Queen{Row: q.Row, Col: s[q.Row]}, q)
		}
		s[q.Row] = q.Col
	}
	if o.Format, err = cmdutil.ParseSolutionFormat(o.FormatName); err != nil {
		return cmdutil.UsageErr(err)
	}
	if o.Format == board.FormatPerm && len(s.PlacedQueens()) < n {
		return cmdutil.Usagef("--format perm needs a queen in every row (%d of %d placed): use coords", len(s.PlacedQueens()), n)
	}
	if cmdutil.IsPicture(o.Format) && n > draw.MaxN {
		return cmdutil.Usagef("--format %s draws boards up to n = %d", o.Format, draw.MaxN)
	}
	o.board = s
	return nil
}

// runBoard draws the board.
func runBoard(ctx context.Context, o boardOptions, stdout io.Writer) error {
	so, err := cmdutil.OpenSolutions(ctx, stdout, o.SolutionFlags, o.N, nil) // every queen is given: none drawn apart
	if err != nil {
		return err
	}
	sw := &cmdutil.SolutionWriter{W: so, Format: o.Format, Image: so.Image, Dir: so.Dir}
	if err := sw.Write(o.board); err != nil {
		return so.Output.Finish(fmt.Errorf("board: %w", err))
	}
	return so.Output.Finish(nil)
}
