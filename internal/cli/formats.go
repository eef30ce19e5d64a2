package cli

import (
	"fmt"
	"strings"

	"github.com/queens-dev/queens/board"
	"github.com/urfave/cli/v2"
)

// The formats a solution is written in (--format), and the flags that go
// with the pictures.

// solutionFormats are the --format values of the commands that print
// solutions.
var solutionFormats = []string{"board", "matrix", "coords", "perm", "json", "svg", "png", "fen", "attacks"}

// parseSolutionFormat accepts the text formats of board.ParseFormat, the
// pictures (svg, png) and fen.
func parseSolutionFormat(name string) (board.Format, error) {
	switch f := board.Format(name); f {
	case board.FormatSVG, board.FormatPNG, board.FormatFEN, board.FormatAttacks:
		return f, nil
	}
	f, err := board.ParseFormat(name)
	if err != nil {
		err = fmt.Errorf("%w (want %s)", err, strings.Join(solutionFormats, ", "))
	}
	return f, err
}

// isPicture reports whether f draws a picture (one solution per file).
func isPicture(f board.Format) bool { return f == board.FormatSVG || f == board.FormatPNG }

// attacksFlag is --attacks of the commands that draw pictures.
func attacksFlag() cli.Flag {
	return &cli.BoolFlag{Name: "attacks", Usage: "with --format svg or png, shade the squares the queens attack"}
}

// numbersFlag is --numbers of the commands that draw pictures.
func numbersFlag() cli.Flag {
	return &cli.BoolFlag{Name: "numbers", Usage: "with --format svg or png, write in every empty square how many queens attack it"}
}
