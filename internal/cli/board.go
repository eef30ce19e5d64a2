package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
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
			sizeFlag(), placeFlag(),
			formatFlag("board", "matrix", "coords", "attacks", "json", "fen", "perm", "svg", "png"),
			attacksFlag(), numbersFlag(), outFlag(),
		},
		Action: func(c *cli.Context) error {
			o := boardOptions{solutionFlags: readSolutionFlags(c)}
			if err := o.check(); err != nil {
				return err
			}
			return run(c.Context, o, c.App.Writer)
		},
	}
}

// boardOptions are the flags of queens board.
type boardOptions struct {
	solutionFlags

	// Set by check: the board drawn, -1 in a row without a queen.
	board board.Solution
}

// check checks the options (usage errors, exit status 2) and places the
// queens on the board.
func (o *boardOptions) check() error {
	if len(o.args) > 0 {
		return usagef("board: unexpected argument %q", o.args[0])
	}
	if err := checkBoardSize(o.n, o.nSet, maxBoardN); err != nil {
		return err
	}
	qs, err := board.ParseQueens(o.place)
	if err != nil {
		return usageErr(err)
	}
	n := o.n
	s := make(board.Solution, n)
	for i := range s {
		s[i] = -1
	}
	for _, q := range qs {
		if q.Row >= n || q.Col >= n {
			return usagef("--place %s is off the %dx%d board", q, n, n)
		}
		if s[q.Row] >= 0 && s[q.Row] != q.Col {
			return usagef("--place %s and %s share a row: a board here holds one queen per row", board.Queen{Row: q.Row, Col: s[q.Row]}, q)
		}
		s[q.Row] = q.Col
	}
	if o.format, err = parseSolutionFormat(o.formatName); err != nil {
		return usageErr(err)
	}
	if o.format == board.FormatPerm && len(s.PlacedQueens()) < n {
		return usagef("--format perm needs a queen in every row (%d of %d placed): use coords", len(s.PlacedQueens()), n)
	}
	if isPicture(o.format) && n > draw.MaxN {
		return usagef("--format %s draws boards up to n = %d", o.format, draw.MaxN)
	}
	o.board = s
	return nil
}

// runBoard draws the board.
func runBoard(ctx context.Context, o boardOptions, stdout io.Writer) error {
	so, err := openSolutions(ctx, stdout, o.solutionFlags, o.n, nil) // every queen is given: none drawn apart
	if err != nil {
		return err
	}
	sw := &solutionWriter{w: so, format: o.format, image: so.image, dir: so.dir}
	if err := sw.Write(o.board); err != nil {
		return so.output.finish(fmt.Errorf("board: %w", err))
	}
	return so.output.finish(nil)
}
