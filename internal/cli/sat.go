package cli

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"strings"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
	"github.com/queens-dev/queens/sat/external"
	"github.com/urfave/cli/v2"
)

func encodingFlag() cli.Flag {
	return &cli.StringFlag{Name: "encoding", Value: string(encode.Auto),
		Usage: "at-most-one encoding `E`: " + encodingNames() + " or auto (pairwise for small n, commander for large)"}
}

func satCommand() *cli.Command {
	return &cli.Command{
		Name:  "sat",
		Usage: "solve, enumerate or count as SAT: gini in process, or any DIMACS solver",
		UsageText: "queens sat -n N [--all|--count|--limit K] [--place R:C ...] [--encoding E] [--solver CMD [--proof] [--solver-output WHERE]] [--timeout D] [--format F] [-o FILE] [--stats]\n" +
			"queens sat -n N --count --counter CMD [--place R:C ...] [--encoding E] [--timeout D]",
		Description: "Encodes the puzzle as CNF and solves it with gini, or with --solver CMD (a DIMACS\n" +
			"solver and its arguments, split as a shell splits words but without a shell, e.g.\n" +
			"'cadical -q' or 'clasp --heuristic=Vsids,92'; minisat, picosat, cryptominisat5, clasp\n" +
			"and kissat work as they are: whether a solver prints its answer or writes it to a result\n" +
			"file is found by probing, or said with --solver-output). With gini, --all, --count and --limit split the board into\n" +
			"cubes (every placement of the top rows), solve only the cubes that are not larger than\n" +
			"their mirror image (without --place), and share them among --threads workers, each with\n" +
			"gini instances of its own; within a cube, each solution is excluded by a blocking clause\n" +
			"over its queens before the next solve. The order of the solutions does not depend on\n" +
			"--threads. An external solver gets the whole CNF with a blocking clause per solution.\n" +
			"For one solution on a large board (n >= 50), a random greedy pass (fixed seed) places\n" +
			"queens in the top seven eighths of the rows and gini completes them: it gets only the free\n" +
			"squares of the rows left (at n = 1000 some 17000 variables, not the board's 3 million). If\n" +
			"that has no completion, it retries with half of them; then with the whole board loaded,\n" +
			"the seed as assumptions halved down to none, so \"no solution\" is still a proof. Every\n" +
			"solution is checked as a board.\n\n" +
			fmt.Sprintf("Limits: n <= %d for the first solution with pairwise, %d with seq or commander (auto\n"+
				"picks commander above n = 40); n <= %d with --all, --count or --limit; n <= %d with --solver.\n",
				encode.MaxN("pairwise"), encode.MaxN("commander"), satMaxAll, satMaxExternal) +
			"Every answer is checked. A model must satisfy the CNF and be a valid board; an external\n" +
			"solver's exit status must match its answer (10 SATISFIABLE, 20 UNSATISFIABLE); its output\n" +
			fmt.Sprintf("may not exceed %d MiB. Every UNSATISFIABLE answer (no solution, or the end of an\n", external.DefaultMaxOutput>>20) +
			"enumeration) is checked by a referee that uses no SAT solver: the explicit construction\n" +
			"or the published counts without --place, the backtracker with it (it counts completions\n" +
			fmt.Sprintf("up to n = %d). With --proof the solver also writes a DRAT proof of each UNSATISFIABLE\n", compare.RefereeCountMax) +
			"answer, which queens checks: a count is then certified complete. A claim the referee\n" +
			"contradicts, or a proof that does not check, fails the run (exit status 1); a claim\n" +
			"neither can check is printed with \"queens: unverified: ...\" on stderr.\n\n" +
			"--count --counter CMD counts with an external model counter instead: the instance is\n" +
			"written in the model counting format (\"c t mc\"; \"c t pmc\" with \"c p show\" and clasp's\n" +
			"\"c project\" for the encodings with free auxiliary variables) to a temporary file, named\n" +
			"as CMD's last argument. Its count is read from \"s mc N\", \"s pmc N\", \"c s exact arb int N\",\n" +
			"\"s N\", clasp's \"Models : N\" or a number on a line of its own; it must exit with status 0,\n" +
			"10, 20 (count 0) or 30 (clasp), and the referee checks the count as above. Debian packages\n" +
			"no #SAT counter: 'clasp -n 0 -q' counts the exact encodings (pairwise, commander),\n" +
			"'clasp --parse-ext --project -n 0 -q' all of them.\n\n" +
			"A run stopped by --timeout, or a failing solver, exits with status 1.",
		Flags: []cli.Flag{sizeFlag(), allFlag(), countFlag(), limitFlag(), uniqueFlag(), placeFlag(), encodingFlag(), threadsFlag(),
			&cli.StringFlag{Name: "solver", Usage: "external DIMACS solver `CMD` with its arguments, shell-style quoting (default: gini, in process)"},
			&cli.StringFlag{Name: "counter", Usage: "with --count: count with the external model counter `CMD` (sharpSAT, d4, ganak or clasp style) on the model counting format"},
			proofFlag(), solverOutputFlag(),
			timeoutFlag(), formatFlag(solutionFormats...), attacksFlag(), numbersFlag(), outFlag(), statsFlag()},
		Action: runSat,
	}
}

func runSat(c *cli.Context) error {
	unique, args, err := uniqueOf(c)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("sat: unexpected argument %q", args[0])
	}
	if err := exclusive(c, "all", "count", "limit"); err != nil {
		return err
	}
	if c.Int("limit") < 0 {
		return usagef("--limit must be at least 0")
	}
	if c.Int("threads") < 1 {
		return usagef("--threads must be at least 1")
	}
	format, err := solutionFormat(c)
	if err != nil {
		return err
	}
	name, err := encode.Resolve(encode.Encoding(c.String("encoding")), resolveSize(c))
	if err != nil {
		return usageErr(err)
	}
	limit := encode.MaxN(name)
	enumerate := c.Bool("all") || c.Bool("count") || c.IsSet("limit")
	if enumerate {
		limit = min(limit, satMaxAll)
	}
	if c.IsSet("solver") {
		limit = min(limit, satMaxExternal)
	}
	n, err := boardSize(c, limit)
	if err != nil {
		return err
	}
	placed, err := placements(c, n)
	if err != nil {
		return err
	}
	if c.IsSet("counter") {
		return runCounter(c, n, name, placed, unique)
	}
	if !c.IsSet("solver") && (c.Bool("proof") || c.IsSet("solver-output")) {
		return usagef("--proof and --solver-output go with --solver")
	}
	// The symmetry-breaking clauses are for all 8 symmetries: the classes
	// under the rotations are picked from every solution instead.
	var rot *rotationClasses
	if unique.rotations {
		rot, unique = newRotationClasses(c, n, placed), uniqueMode{}
	}
	var ext external.External
	who := "gini"
	if c.IsSet("solver") {
		// Before the encoding, which takes seconds on a large board.
		if ext, err = externalSolver(c, c.String("solver")); err != nil {
			return err
		}
		argv, _ := external.SplitCommand(ext.Command)
		who = filepath.Base(argv[0])
	}
	e, err := encode.NewEncoder(n, encode.Options{Encoding: name, Place: placed, Symmetry: unique.on})
	if err != nil {
		return usageErr(err)
	}
	if unique.on && len(placed) > 0 {
		fmt.Fprintf(c.App.ErrWriter, "queens: note: --unique with --place breaks only the symmetries that keep the placed queens in place: %s\n", symmetryNames(e.Symmetries()))
	}
	// --timeout covers everything from here: encoding and loading a
	// large board take seconds, as long as the solve itself.
	ctx, cancel := timeoutContext(c)
	defer cancel()
	out, err := openSolutions(c, n, placed)
	if err != nil {
		return err
	}
	out.slow = true // each solution a solve, or a solver run
	// A progress bar only for --count: a stream of solutions on the same
	// terminal would tear it.
	var bar *progress
	if c.Bool("count") {
		bar = newProgress(c.App.ErrWriter, 0, fmt.Sprintf("sat n=%d", n))
	}
	solver, err := sat.Detach(ctx, func() (engine, error) {
		if !enumerate && !c.IsSet("solver") {
			// One solution: no CNF in memory (a large board's first
			// solution completes the residual of a greedy seed, or gini is
			// loaded straight from the encoder's stream), with a fixed
			// seed, so that the same flags print the same board.
			x, err := sat.NewEncoded(ctx, e, 1)
			return sequential{x}, err
		}
		cnf, err := e.CNF(ctx)
		if err != nil {
			return nil, err
		}
		if c.IsSet("solver") {
			x, err := ext.New(cnf)
			return externalEngine{x}, err
		}
		return sat.NewParallel(cnf, sat.Options{Threads: c.Int("threads"), Progress: bar.Parts, NoSymmetry: unique.on})
	})
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("interrupted while encoding and loading n = %d: %w", n, err)
		} else {
			err = solverError(err)
		}
		out.Abort() // nothing written yet
		return satError(err, c.Duration("timeout"))
	}
	// gini takes seconds to notice a stop on a large board: the run
	// returns at once and leaves it to the exit (sat.DetachSeq); finished
	// says when its statistics can be read.
	finished := func() bool { return true }
	ref := &referee{ctx: ctx, cmd: "sat", solver: who, n: n, place: placed, count: enumerate, unique: unique.on,
		certified: func() bool { return solver.Stats().Proofs > 0 }}
	switch {
	case c.Bool("count") && rot != nil:
		err = rot.count(ctx, out, format, solver.All(ctx), ref)
		bar.Done()
	case c.Bool("count") && unique.on:
		// One solution per class: the total is the sum of the classes'
		// sizes under the symmetries broken.
		group := append([]board.Transform{board.Identity}, e.Symmetries()...)
		var classes, total uint64
		for s, serr := range solver.All(ctx) {
			if err = serr; err != nil {
				break
			}
			classes++
			total += uint64(board.OrbitSizeUnder(s, group))
		}
		bar.Done()
		if err == nil {
			err = ref.check(classes)
		}
		if err == nil {
			err = writeCount(out, format, n, total, &classes)
		}
	case c.Bool("count"):
		var total uint64
		total, err = solver.Count(ctx)
		bar.Done()
		if err == nil {
			err = ref.check(total)
		}
		if err == nil {
			err = writeCount(out, format, n, total, nil)
		}
	default:
		max := c.Int("limit")
		if !enumerate {
			max = 1
		}
		all := solver.All(ctx)
		if !c.IsSet("solver") {
			// Not an external solver: it must be killed and its files
			// removed before the exit, which its stop does.
			all, finished = sat.DetachSeq(ctx, all)
		}
		seq, bar := counted(c, rot.filter(ref.stream(all)), n, placed, unique.on, max)
		_, err = writeSolutions(out, format, n, seq, max)
		bar.Done()
	}
	if c.Bool("stats") && finished() {
		out.Flush() // the results first, then the statistics about them
		st := solver.Stats()
		writeStats(c.App.ErrWriter, format, stat{"n", n}, stat{"encoding", name}, stat{"vars", st.Vars},
			stat{"clauses", st.Clauses}, stat{"cubes", st.Cubes}, stat{"solves", st.Solves},
			stat{"solutions", st.Solutions}, stat{"proofs", st.Proofs}, stat{"seconds", st.Elapsed})
	}
	err = out.finish(satError(err, c.Duration("timeout")))
	if err == nil {
		ref.warn(c.App.ErrWriter)
	}
	return err
}

// engine is what runSat needs of a [sat.Solver] (first solution,
// external solver) or a [sat.Parallel] (gini enumeration).
type engine interface {
	All(ctx context.Context) iter.Seq2[board.Solution, error]
	Count(ctx context.Context) (uint64, error)
	Stats() sat.Stats
}

// sequential is a [sat.Solver] as an engine: one solver, each solution
// blocked once found.
type sequential struct{ *sat.Solver }

func (s sequential) All(ctx context.Context) iter.Seq2[board.Solution, error] {
	return s.Remaining(ctx)
}

// externalEngine is an [external.Solver] as an engine.
type externalEngine struct{ *external.Solver }

func (s externalEngine) Stats() sat.Stats {
	st := s.Solver.Stats()
	return sat.Stats{Vars: st.Vars, Clauses: st.Clauses, Solves: st.Solves, Solutions: st.Solutions,
		Blocking: st.Blocking, Proofs: st.Proofs, Elapsed: st.Elapsed}
}

// satError maps the errors of a solve to the documented exit statuses.
func satError(err error, timeout interface{ String() string }) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return failf("sat: no answer within --timeout %s", timeout)
	case errors.Is(err, context.Canceled), errors.As(err, new(*exitError)):
		return err
	}
	var e *exitError
	if errors.As(err, &e) {
		return err
	}
	return failf("%v", err)
}

// encodingNames lists the encodings for help texts.
func encodingNames() string {
	var names []string
	for _, enc := range encode.Encodings() {
		names = append(names, string(enc))
	}
	return strings.Join(names, ", ")
}

// symmetryNames lists the symmetries for a message ("none" for none).
func symmetryNames(ts []board.Transform) string {
	if len(ts) == 0 {
		return "none"
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.String()
	}
	return strings.Join(names, ", ")
}
