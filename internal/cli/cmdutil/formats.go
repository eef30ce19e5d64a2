package cmdutil

import (
	"fmt"
	"strings"

	"github.com/queens-dev/queens/board"
	"github.com/urfave/cli/v2"
)

// The formats a solution is written in (--format), and the flags that go
// with the pictures.

// SolutionFormats are the --format values of the commands that print
// solutions.
var SolutionFormats = []string{"board", "matrix", "coords", "perm", "json", "svg", "png", "fen", "attacks"}

// ParseSolutionFormat accepts the text formats of board.ParseFormat, the
// pictures (svg, png) and fen.
func ParseSolutionFormat(name string) (board.Format, error) {
	switch f := board.Format(name); f {
	case board.FormatSVG, board.FormatPNG, board.FormatFEN, board.FormatAttacks:
		return f, nil
	}
	f, err := board.ParseFormat(name)
	if err != nil {
		err = fmt.Errorf("%w (want %s)", err, strings.Join(SolutionFormats, ", "))
	}
	return f, err
}

// IsPicture reports whether f draws a picture (one solution per file).
func IsPicture(f board.Format) bool { return f == board.FormatSVG || f == board.FormatPNG }

// AttacksFlag is --attacks of the commands that draw pictures.
func AttacksFlag() cli.Flag {
	return &cli.BoolFlag{Name: "attacks", Usage: "with --format svg or png, shade the squares the queens attack"}
}

// NumbersFlag is --numbers of the commands that draw pictures.
func NumbersFlag() cli.Flag {
	return &cli.BoolFlag{Name: "numbers", Usage: "with --format svg or png, write in every empty square how many queens attack it"}
}
