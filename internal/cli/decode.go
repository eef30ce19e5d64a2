package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/external"
	"github.com/urfave/cli/v2"
)

func decodeCommand() *cli.Command {
	return &cli.Command{
		Name:      "decode",
		Usage:     "read a SAT solver's output, draw and verify the board",
		UsageText: "queens decode -n N [--cnf FILE [--proof PROOF]] [--format F] [FILE|-]",
		Description: "Reads a solver's answer to the CNF of \"queens dimacs -n N\" from FILE or stdin: SAT\n" +
			"competition output (s SATISFIABLE, v ... 0 lines), minisat's result file (SAT, then the\n" +
			"model) or a bare list of literals; a model that lists only its true literals is read with\n" +
			"the others false. Draws the board of the true variables 1..N*N and checks it: one queen in\n" +
			"every row and column, none on a shared diagonal. With --cnf it also checks that the model\n" +
			"satisfies every clause of that DIMACS file, whose \"c n\" line (if any) must say N.\n\n" +
			"An UNSATISFIABLE answer is not taken on trust. With --proof PROOF (and --cnf) the DRAT\n" +
			"proof must refute the CNF; without FILE, decode checks the proof alone. Otherwise a\n" +
			"referee that uses no SAT solver checks it: the explicit construction (every n >= 4 has\n" +
			"solutions) or the backtracker, for the queens pre-placed in the --cnf file's \"c placed\"\n" +
			"line. A checked answer prints \"no solution\" (exit status 0). An invalid model, a refuted\n" +
			"UNSATISFIABLE or a proof that does not check exits with status 1 and says why; unreadable\n" +
			"output, a model for a smaller board or a --cnf for another n exits with status 2.\n" +
			fmt.Sprintf("Limit: n <= %d.", decodeMax),
		Flags: []cli.Flag{sizeFlag(),
			&cli.StringFlag{Name: "cnf", Usage: "also check the answer against the DIMACS CNF in `FILE`"},
			&cli.StringFlag{Name: "proof", Usage: "check the DRAT proof in `PROOF` (text or binary) of an UNSATISFIABLE answer to --cnf"},
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
	proofPath := c.String("proof")
	if proofPath != "" && c.String("cnf") == "" {
		return usagef("decode: --proof needs --cnf, the formula the proof refutes")
	}
	if proofPath != "" && proofChecker == nil {
		return usagef("decode: --proof: this build of queens has no proof checker")
	}
	var cnf *encode.CNF
	var place []board.Queen
	if path := c.String("cnf"); path != "" {
		if cnf, err = readCNF(path); err != nil {
			return err
		}
		cnfN, cnfPlace, err := cnfInstance(path)
		if err != nil {
			return err
		}
		if cnfN > 0 && cnfN != n {
			return usagef("decode: %s is the CNF of n = %d (its \"c n\" line), not of -n %d", path, cnfN, n)
		}
		if err := board.CheckPlacement(n, cnfPlace); err != nil {
			return usagef("decode: %s: \"c placed\" line: %v", path, err)
		}
		place = cnfPlace
	}
	w := c.App.Writer
	res := &external.Result{Status: external.Unsatisfiable} // --proof alone: the proof is the claim
	if proofPath == "" || c.NArg() == 1 {
		var in io.Reader = os.Stdin
		if path := c.Args().First(); path != "" && path != "-" {
			f, err := openInput(path)
			if err != nil {
				return usagef("decode: %v", unwrapPath(err))
			}
			defer f.Close()
			in = f
		} else if in, err = decompress(in); err != nil {
			return usagef("decode: stdin: %v", err)
		}
		if res, err = external.ReadResult(in); err != nil {
			return usagef("decode: %v", err)
		}
	}
	switch res.Status {
	case external.Unsatisfiable:
		if proofPath != "" {
			if err := checkProofFile(c.Context, cnf, proofPath, c.String("cnf")); err != nil {
				return err
			}
			return writeNone(w, format, n)
		}
		ref := &referee{ctx: c.Context, cmd: "decode", solver: "the solver", n: n, place: place}
		if err := ref.check(0); err != nil {
			return err
		}
		if err := writeNone(w, format, n); err != nil {
			return err
		}
		ref.warn(c.App.ErrWriter)
		return nil
	case external.Unknown:
		return failf("decode: the solver gave no answer (UNKNOWN)")
	}
	if proofPath != "" {
		return usagef("decode: --proof checks an UNSATISFIABLE answer, but this one is SATISFIABLE")
	}
	vars := n * n
	if cnf != nil {
		vars = max(vars, cnf.Vars)
	}
	model := res.Full(vars)
	sol, err := encode.Decode(n, model)
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
	if !sol.Contains(place) {
		return failf("decode: invalid model: a queen pre-placed in %s is missing", c.String("cnf"))
	}
	if cnf != nil {
		if ok, i := cnf.Satisfies(model); !ok {
			return failf("decode: not a model of %s: clause %d %v is false", c.String("cnf"), i+1, cnf.Clauses[i])
		}
	}
	return nil
}

// checkProofFile checks the DRAT proof in path against cnf (read from
// cnfPath): exit status 1 naming the first lemma that fails.
func checkProofFile(ctx context.Context, cnf *encode.CNF, path, cnfPath string) error {
	f, err := openInput(path)
	if err != nil {
		return usagef("decode: --proof: %v", unwrapPath(err))
	}
	defer f.Close()
	if err := proofChecker(ctx, cnf, f); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return failf("decode: the proof %s does not refute %s: %v", path, cnfPath, err)
	}
	return nil
}

// cnfInstance reads the instance a queens DIMACS file describes in its
// header comments: n from "c n N" (0 if there is none, as in a CNF from
// elsewhere) and the pre-placed queens from "c placed R:C ..." ("none":
// no queens).
func cnfInstance(path string) (n int, place []board.Queen, err error) {
	f, err := openInput(path)
	if err != nil {
		return 0, nil, usagef("read %s: %v", path, unwrapPath(err))
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "p ") {
			break
		}
		if rest, ok := strings.CutPrefix(line, "c n "); ok {
			if n, err = strconv.Atoi(strings.TrimSpace(rest)); err != nil || n < 1 {
				return 0, nil, usagef("read %s: bad \"c n\" line %q", path, line)
			}
		}
		if rest, ok := strings.CutPrefix(line, "c placed "); ok && strings.TrimSpace(rest) != "none" {
			if place, err = board.ParseQueens(strings.Fields(rest)); err != nil {
				return 0, nil, usagef("read %s: \"c placed\" line: %v", path, err)
			}
		}
	}
	return n, place, nil
}

// readCNF reads a DIMACS file; a bad file is an input error.
func readCNF(path string) (*encode.CNF, error) {
	f, err := openInput(path)
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
