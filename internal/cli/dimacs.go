package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/urfave/cli/v2"
)

func dimacsCommand() *cli.Command { return newDimacsCommand(runDimacs) }

// newDimacsCommand returns the dimacs command; its action reads the flags
// into dimacsOptions and hands them to run (tests pass their own).
func newDimacsCommand(run func(ctx context.Context, o dimacsOptions, stdout, stderr io.Writer) error) *cli.Command {
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
		Flags: []cli.Flag{cmdutil.SizeFlag(), cmdutil.EncodingFlag(), cmdutil.PlaceFlag(),
			cmdutil.IntFlag("random-place", 0, 0, board.MaxN, "pre-place `K` random non-attacking queens (a completion instance)"),
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "the seed `S` of --random-place"},
			&cli.BoolFlag{Name: "mc", Usage: "model counting competition format (c t mc)"},
			&cli.BoolFlag{Name: "break-symmetry", Usage: "lex-leader clauses: one model per class of solutions"},
			cmdutil.OutFlag()},
		Action: func(c *cli.Context) error {
			o := dimacsFlags(c)
			if err := o.check(); err != nil {
				return err
			}
			return run(c.Context, o, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// dimacsOptions are the flags of queens dimacs: read once (dimacsFlags),
// then checked and resolved (check).
type dimacsOptions struct {
	args          []string // none allowed
	n             int
	nSet          bool // -n given
	encoding      encode.Encoding
	place         []string // --place R:C
	randomPlace   int      // --random-place K; 0 with randomSet false: none
	randomSet     bool
	seed          uint64
	seedSet       bool
	mc            bool
	breakSymmetry bool
	output        string

	// Set by check.
	placed []board.Queen
}

// dimacsFlags reads dimacs's flags: the one place that looks them up by
// name.
func dimacsFlags(c *cli.Context) dimacsOptions {
	return dimacsOptions{
		args: c.Args().Slice(), n: c.Int("n"), nSet: c.IsSet("n"), encoding: encode.Encoding(c.String("encoding")),
		place:       c.StringSlice("place"),
		randomPlace: c.Int("random-place"), randomSet: c.IsSet("random-place"),
		seed: c.Uint64("seed"), seedSet: c.IsSet("seed"),
		mc: c.Bool("mc"), breakSymmetry: c.Bool("break-symmetry"), output: c.String("output"),
	}
}

// Check checks the options (usage errors, exit status 2) and resolves
// the encoding and the pre-placed queens (--place, or --random-place's).
func (o *dimacsOptions) check() error {
	if len(o.args) > 0 {
		return cmdutil.Usagef("dimacs: unexpected argument %q", o.args[0])
	}
	size := o.n
	if size < 1 {
		size = board.MaxN // as resolveSize: the size error states the limit
	}
	var err error
	if o.encoding, err = encode.Resolve(o.encoding, size); err != nil {
		return cmdutil.UsageErr(err)
	}
	if !o.nSet {
		return cmdutil.Usagef("missing -n N, the board size")
	}
	if err := board.CheckSize(o.n, encode.MaxN(o.encoding)); err != nil {
		return cmdutil.UsageErr(err)
	}
	if o.placed, err = board.ParseQueens(o.place); err == nil {
		err = board.CheckPlacement(o.n, o.placed)
	}
	if err != nil {
		return cmdutil.UsageErr(err)
	}
	switch {
	case o.seedSet && !o.randomSet:
		return cmdutil.Usagef("--seed goes with --random-place")
	case !o.randomSet:
		return nil
	case len(o.placed) > 0:
		return cmdutil.Usagef("--random-place and --place exclude each other")
	case o.randomPlace > o.n:
		return cmdutil.Usagef("--random-place %d: at most n = %d queens", o.randomPlace, o.n)
	}
	o.placed, err = encode.RandomPlacement(o.n, o.randomPlace, o.seed)
	return cmdutil.UsageErr(err)
}

// completionBudget bounds the backtracker's search (queens placed) that
// labels a --random-place instance: a bound in nodes, not time, so that
// the same flags give the same bytes on any machine.
const completionBudget = 10_000_000

// runDimacs writes the CNF the options describe.
func runDimacs(ctx context.Context, o dimacsOptions, stdout, stderr io.Writer) error {
	d := encode.DIMACS{Generator: "queens " + cmdutil.Version(), ModelCounting: o.mc}
	if o.randomSet {
		status, err := completionStatus(ctx, o.n, o.placed)
		if err != nil {
			return err
		}
		d.Comments = []string{fmt.Sprintf("random placement of %d queens, seed %d", o.randomPlace, o.seed), status}
	}
	e, err := encode.NewEncoder(o.n, encode.Options{Encoding: o.encoding, Place: o.placed, Symmetry: o.breakSymmetry})
	if err != nil {
		return cmdutil.UsageErr(err)
	}
	if o.breakSymmetry && len(o.placed) > 0 {
		fmt.Fprintf(stderr, "queens: note: --break-symmetry with pre-placed queens breaks only the symmetries that keep them in place: %s\n", cmdutil.SymmetryNames(e.Symmetries()))
	}
	out, err := cmdutil.OpenOutputContext(ctx, o.output, stdout)
	if err != nil {
		return err
	}
	w := &cmdutil.CtxWriter{Ctx: ctx, W: out}
	err = d.WriteEncoder(ctx, w, e)
	if ctx.Err() != nil {
		err = fmt.Errorf("interrupted after writing %d of the CNF's bytes%s: %w", w.Written, out.NotWritten(), ctx.Err())
	}
	return out.Finish(err)
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
