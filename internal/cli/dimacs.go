package cli

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/board"

	"github.com/queens-dev/queens/encode"
	"github.com/urfave/cli/v2"
)

func dimacsCommand() *cli.Command {
	return &cli.Command{
		Name:      "dimacs",
		Usage:     "write the puzzle as a DIMACS CNF for any SAT solver",
		UsageText: "queens dimacs -n N [--encoding E] [--place R:C ...] [-o FILE|-]",
		Description: "Writes the CNF: a c header (generator, n, encoding, pre-placed queens, variable map),\n" +
			"one \"p cnf V C\" line, one clause per line ending in 0. The queen at ROW:COL (1-based) is\n" +
			"variable (ROW-1)*N + COL; auxiliary variables of seq and commander follow the N*N board\n" +
			"variables. The same flags always give the same bytes.\n\n" +
			fmt.Sprintf("Limits: n <= %d with pairwise (auto: n <= 40), n <= %d with seq or commander.",
				encode.MaxN("pairwise"), encode.MaxN("commander")),
		Flags:  []cli.Flag{sizeFlag(), encodingFlag(), placeFlag(), outFlag()},
		Action: runDimacs,
	}
}

func runDimacs(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("dimacs: unexpected argument %q", c.Args().First())
	}
	name, err := encode.Resolve(encode.Encoding(c.String("encoding")), max(c.Int("n"), 1))
	if err != nil {
		return usageErr(err)
	}
	n, err := boardSize(c, encode.MaxN(name))
	if err != nil {
		return err
	}
	placed, err := placements(c, n)
	if err != nil {
		return err
	}
	out, err := openOutput(c.String("output"), c.App.Writer)
	if err != nil {
		return err
	}
	cnf, err := encodeQueens(c.Context, n, name, placed)
	if err != nil {
		out.Abort()
		return err
	}
	w := &ctxWriter{ctx: c.Context, w: out}
	err = encode.WriteDIMACS(w, cnf)
	if c.Context.Err() != nil {
		err = fmt.Errorf("interrupted after writing %d of the CNF's bytes%s: %w", w.written, out.notWritten(), c.Context.Err())
	}
	return out.finish(err)
}

// encodeQueens is [encode.Queens] that returns when ctx is done: encoding
// a large board takes seconds (n = 200 pairwise, 13 million clauses) and
// cannot be stopped half-way, so an interrupted run returns at once and
// leaves the encoder to the exit. Errors of encode.Queens are input
// errors.
func encodeQueens(ctx context.Context, n int, name encode.Encoding, placed []board.Queen) (*encode.CNF, error) {
	type result struct {
		cnf *encode.CNF
		err error
	}
	done := make(chan result, 1)
	go func() {
		cnf, err := encode.Queens(n, name, placed)
		done <- result{cnf, err}
	}()
	select {
	case r := <-done:
		return r.cnf, usageErr(r.err)
	case <-ctx.Done():
		return nil, fmt.Errorf("interrupted while encoding n = %d: %w", n, ctx.Err())
	}
}
