package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
	"github.com/urfave/cli/v2"
)

func decodeCommand() *cli.Command {
	return &cli.Command{
		Name:      "decode",
		Usage:     "read a SAT solver's output, draw and verify the board",
		UsageText: "queens decode -n N [--cnf FILE] [--format F] [FILE|-]",
		Description: "Reads a solver's answer to the CNF of \"queens dimacs -n N\" from FILE or stdin: SAT\n" +
			"competition output (s SATISFIABLE, v ... 0 lines), minisat's result file (SAT, then the\n" +
			"model) or a bare list of literals. Draws the board of the true variables 1..N*N and\n" +
			"checks it: one queen in every row and column, none on a shared diagonal. With --cnf it\n" +
			"also checks that the model satisfies every clause of that DIMACS file.\n\n" +
			"An UNSATISFIABLE answer prints \"no solution\" (exit status 0). An invalid model exits\n" +
			"with status 1 and names the conflict; unreadable output or a model for a smaller board\n" +
			fmt.Sprintf("exits with status 2. Limit: n <= %d.", decodeMax),
		Flags: []cli.Flag{sizeFlag(),
			&cli.StringFlag{Name: "cnf", Usage: "also check the model against the DIMACS CNF in `FILE`"},
			formatFlag(solutionFormats...)},
		Action: runDecode,
	}
}

func runDecode(c *cli.Context) error {
	if c.NArg() > 1 {
		return usagef("decode: want at most one FILE, got %d arguments", c.NArg())
	}
	n, err := boardSize(c, decodeMax)
	if err != nil {
		return err
	}
	format, err := solutionFormat(c)
	if err != nil {
		return err
	}
	var cnf *encode.CNF
	if path := c.String("cnf"); path != "" {
		if cnf, err = readCNF(path); err != nil {
			return err
		}
	}
	var in io.Reader = os.Stdin
	if path := c.Args().First(); path != "" && path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return usagef("decode: %v", unwrapPath(err))
		}
		defer f.Close()
		in = f
	}
	res, err := sat.ReadResult(in)
	if err != nil {
		return usagef("decode: %v", err)
	}
	w := c.App.Writer
	switch res.Status {
	case sat.Unsatisfiable:
		return writeNone(w, format, n)
	case sat.Unknown:
		return failf("decode: the solver gave no answer (UNKNOWN)")
	}
	sol, err := encode.Decode(n, res.Model)
	if errors.Is(err, encode.ErrModelSize) {
		return usagef("decode: %v", err)
	}
	if err != nil {
		return failf("decode: invalid model: %v", err)
	}
	if err := board.Write(w, sol, format); err != nil {
		return err
	}
	if err := sol.Check(); err != nil {
		return failf("decode: invalid model: %v", err)
	}
	if cnf != nil {
		if ok, i := cnf.Satisfies(res.Model); !ok {
			return failf("decode: not a model of %s: clause %d %v is false", c.String("cnf"), i+1, cnf.Clauses[i])
		}
	}
	return nil
}

// readCNF reads a DIMACS file; a bad file is an input error.
func readCNF(path string) (*encode.CNF, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("read %s: %v", path, unwrapPath(err))
	}
	defer f.Close()
	cnf, err := encode.ReadDIMACS(f)
	if err != nil {
		return nil, usagef("read %s: %v", path, err)
	}
	return cnf, nil
}
