package cli

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/urfave/cli/v2"
)

func dimacsCommand() *cli.Command {
	return &cli.Command{
		Name:      "dimacs",
		Usage:     "write the puzzle as a DIMACS CNF for any SAT solver or model counter",
		UsageText: "queens dimacs -n N [--encoding E] [--place R:C ... | --random-place K [--seed S]] [--mc] [--break-symmetry] [-o FILE|-]",
		Description: "Writes the CNF: a c header (generator and queens version, n, encoding, pre-placed queens,\n" +
			"variable map), one \"p cnf V C\" line, one clause per line ending in 0. The queen at ROW:COL\n" +
			"(1-based) is variable (ROW-1)*N + COL; auxiliary variables follow the N*N board variables.\n" +
			"The clauses are written as they are generated: memory does not grow with n. The same\n" +
			"flags always give the same bytes. -o FILE.gz, FILE.xz or FILE.zst writes gzip, xz or zstd\n" +
			"(any case: .GZ too); other compressors' and archives' suffixes (.bz2, .tgz, .zip, ...) are\n" +
			"refused. decode and merge read gzip, xz, zstd and bzip2 input, by its magic bytes.\n\n" +
			"--mc writes the model counting competition format, \"c t mc\": every encoding defines its\n" +
			"auxiliary variables, so the models are exactly the solutions (with --break-symmetry, one\n" +
			"per symmetry class) and no projection is needed. --break-symmetry adds lex-leader clauses\n" +
			"for the 7 symmetries of the board other than the identity: one model per class of\n" +
			"solutions (12 at n = 8);\n" +
			"with pre-placed queens only the symmetries that keep them in place (named on stderr).\n\n" +
			"--random-place K places K non-attacking queens in random rows (the same --seed, the same\n" +
			"queens): an n-Queens Completion instance. The backtracker then decides it, within\n" +
			fmt.Sprintf("%d million nodes, and labels it \"c status sat|unsat (decided by the backtracker in\n", completionBudget/1000000) +
			"NODES nodes)\" or \"c status unknown (...)\".\n\n" +
			fmt.Sprintf("Limits: n <= %d with pairwise (auto: n <= 40), n <= %d with the other encodings.",
				encode.MaxN("pairwise"), encode.MaxN("commander")),
		Flags: []cli.Flag{sizeFlag(), encodingFlag(), placeFlag(),
			intFlag("random-place", 0, 0, board.MaxN, "pre-place `K` random non-attacking queens (a completion instance)"),
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "the seed `S` of --random-place"},
			&cli.BoolFlag{Name: "mc", Usage: "model counting competition format (c t mc)"},
			&cli.BoolFlag{Name: "break-symmetry", Usage: "lex-leader clauses: one model per class of solutions"},
			outFlag()},
		Action: runDimacs,
	}
}

// completionBudget bounds the backtracker's search (queens placed) that
// labels a --random-place instance: a bound in nodes, not time, so that
// the same flags give the same bytes on any machine.
const completionBudget = 10_000_000

func runDimacs(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("dimacs: unexpected argument %q", c.Args().First())
	}
	name, err := encode.Resolve(encode.Encoding(c.String("encoding")), resolveSize(c))
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
	if c.IsSet("seed") && !c.IsSet("random-place") {
		return usagef("--seed goes with --random-place")
	}
	d := encode.DIMACS{Generator: "queens " + version(), ModelCounting: c.Bool("mc")}
	if c.IsSet("random-place") {
		if len(placed) > 0 {
			return usagef("--random-place and --place exclude each other")
		}
		k := c.Int("random-place")
		if k > n {
			return usagef("--random-place %d: at most n = %d queens", k, n)
		}
		if placed, err = encode.RandomPlacement(n, k, c.Uint64("seed")); err != nil {
			return usageErr(err)
		}
		status, err := completionStatus(c.Context, n, placed)
		if err != nil {
			return err
		}
		d.Comments = []string{fmt.Sprintf("random placement of %d queens, seed %d", k, c.Uint64("seed")), status}
	}
	e, err := encode.NewEncoder(n, encode.Options{Encoding: name, Place: placed, Symmetry: c.Bool("break-symmetry")})
	if err != nil {
		return usageErr(err)
	}
	if c.Bool("break-symmetry") && len(placed) > 0 {
		fmt.Fprintf(c.App.ErrWriter, "queens: note: --break-symmetry with pre-placed queens breaks only the symmetries that keep them in place: %s\n", symmetryNames(e.Symmetries()))
	}
	out, err := openOutputContext(c.Context, c.String("output"), c.App.Writer)
	if err != nil {
		return err
	}
	w := &ctxWriter{ctx: c.Context, w: out}
	err = d.WriteEncoder(c.Context, w, e)
	if c.Context.Err() != nil {
		err = fmt.Errorf("interrupted after writing %d of the CNF's bytes%s: %w", w.written, out.notWritten(), c.Context.Err())
	}
	return out.finish(err)
}

// completionStatus decides with the backtracker (Heuristic, at most
// completionBudget queens placed) whether the placed queens extend to a
// solution, and says so as a DIMACS comment: "status sat (...)",
// "status unsat (...)" or "status unknown (...)".
func completionStatus(parent context.Context, n int, placed []board.Queen) (string, error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var nodes uint64
	opt := backtrack.Options{Place: placed, Strategy: backtrack.Heuristic, Observe: func(ev backtrack.Event) {
		if ev.Kind == backtrack.EventPlace {
			if nodes++; nodes == completionBudget {
				cancel()
			}
		}
	}}
	found := false
	st, err := backtrack.Search(ctx, n, opt, func(board.Solution) bool { found = true; return false })
	switch {
	case found:
		return fmt.Sprintf("status sat (decided by the backtracker in %d nodes)", st.Nodes), nil
	case err == nil:
		return fmt.Sprintf("status unsat (decided by the backtracker in %d nodes)", st.Nodes), nil
	case parent.Err() == nil && nodes >= completionBudget:
		return fmt.Sprintf("status unknown (the backtracker did not decide it in %d nodes)", st.Nodes), nil
	}
	return "", fmt.Errorf("interrupted while deciding the completion instance: %w", err)
}
