package cli

import (
	"fmt"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
	"github.com/urfave/cli/v2"
)

func boardCommand() *cli.Command {
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
		Action: boardAction,
	}
}

func boardAction(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("board: unexpected argument %q", c.Args().First())
	}
	n, err := boardSize(c, maxBoardN)
	if err != nil {
		return err
	}
	qs, err := board.ParseQueens(c.StringSlice("place"))
	if err != nil {
		return usageErr(err)
	}
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
	format, err := solutionFormat(c)
	if err != nil {
		return err
	}
	if format == board.FormatPerm && len(s.PlacedQueens()) < n {
		return usagef("--format perm needs a queen in every row (%d of %d placed): use coords", len(s.PlacedQueens()), n)
	}
	if isPicture(format) && n > draw.MaxN {
		return usagef("--format %s draws boards up to n = %d", format, draw.MaxN)
	}
	so, err := openSolutions(c.Context, c.App.Writer, readSolutionFlags(c), n, nil) // every queen is given: none drawn apart
	if err != nil {
		return err
	}
	sw := &solutionWriter{w: so, format: format, image: so.image, dir: so.dir}
	if err := sw.Write(s); err != nil {
		return so.output.finish(fmt.Errorf("board: %w", err))
	}
	return so.output.finish(nil)
}
