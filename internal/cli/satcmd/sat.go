package satcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/sat"
	"github.com/queens-dev/queens/sat/engine"
	"github.com/queens-dev/queens/sat/external"
	"github.com/urfave/cli/v2"
)

// Command returns queens sat.
func Command() *cli.Command { return newSatCommand(runSat) }

// newSatCommand returns the sat command; its action reads the flags into
// satOptions and hands them to run (tests pass their own).
func newSatCommand(run func(ctx context.Context, o satOptions, stdout, stderr io.Writer) error) *cli.Command {
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
				encode.MaxN("pairwise"), encode.MaxN("commander"), cmdutil.SATMaxAll, cmdutil.SATMaxExternal) +
			"Every answer is checked. A model must satisfy the CNF and be a valid board; an external\n" +
			"solver's exit status must match its answer (10 SATISFIABLE, 20 UNSATISFIABLE); its output\n" +
			fmt.Sprintf("may not exceed %d MiB. Every UNSATISFIABLE answer (no solution, or the end of an\n", external.DefaultMaxOutput>>20) +
			"enumeration) is checked by a referee: the explicit construction or the published counts\n" +
			"without --place, the backtracker with it (it counts completions up to n = " + fmt.Sprint(compare.RefereeCountMax) + ", and\n" +
			"--unique --count is checked on its total), then gini for a model that refutes a claim of\n" +
			"no solution. With --proof the solver also writes a DRAT proof of each UNSATISFIABLE\n" +
			"answer, which queens checks: a count is then certified complete. A claim the referee\n" +
			"contradicts, or a proof that does not check, fails the run (exit status 1); a claim\n" +
			"neither can check is printed, with \"queens: unverified: ...\" on stderr and exit status\n" +
			"3. In JSON, a count or no solution says \"verified\" and \"verified_by\".\n\n" +
			competitionText +
			"--count --counter CMD counts with an external model counter instead: the instance is\n" +
			"written in the model counting format (\"c t mc\": every encoding defines its auxiliary\n" +
			"variables, so its models are exactly the solutions) to a temporary file, named\n" +
			"as CMD's last argument. Its count is read from \"s mc N\", \"s pmc N\", \"c s exact arb int N\",\n" +
			"\"s N\", clasp's \"Models : N\" or a number on a line of its own; it must exit with status 0,\n" +
			"10, 20 (count 0) or 30 (clasp), and the referee checks the count as above. Debian packages\n" +
			"no #SAT counter: 'clasp -n 0 -q' counts every encoding.\n\n" +
			"A run stopped by --timeout, or a failing solver, exits with status 1.",
		Flags: []cli.Flag{cmdutil.SizeFlag(), cmdutil.AllFlag(), cmdutil.CountFlag(), cmdutil.LimitFlag(), cmdutil.UniqueFlag(), cmdutil.PlaceFlag(), cmdutil.EncodingFlag(), cmdutil.ThreadsFlag(),
			&cli.StringFlag{Name: "solver", Usage: "external DIMACS solver `CMD` with its arguments, shell-style quoting (default: gini, in process)"},
			&cli.StringFlag{Name: "counter", Usage: "with --count: count with the external model counter `CMD` (sharpSAT, d4, ganak or clasp style) on the model counting format"},
			cmdutil.ProofFlag(), cmdutil.SolverOutputFlag(),
			cmdutil.TimeoutFlag(), cmdutil.FormatFlag(append(slices.Clip(cmdutil.SolutionFormats), competitionFormat)...), cmdutil.AttacksFlag(), cmdutil.NumbersFlag(), cmdutil.OutFlag(), cmdutil.StatsFlag()},
		Action: func(c *cli.Context) error {
			o := satFlags(c)
			if err := o.check(); err != nil {
				return err
			}
			return run(c.Context, o, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// satOptions are the flags of queens sat: read once (satFlags), then
// checked and resolved (check).
type satOptions struct {
	cmdutil.SolutionFlags
	encodingName    string
	solver          string // --solver CMD
	solverSet       bool
	counter         string // --counter CMD
	counterSet      bool
	proof           bool
	solverOutput    string
	solverOutputSet bool

	// Set by check.
	enc         encode.Encoding
	enumerate   bool // --all, --count or --limit
	competition bool // --format competition
}

// satFlags reads sat's flags: the one place that looks them up by name.
func satFlags(c *cli.Context) satOptions {
	return satOptions{
		SolutionFlags: cmdutil.ReadSolutionFlags(c), encodingName: c.String("encoding"),
		solver: c.String("solver"), solverSet: c.IsSet("solver"), counter: c.String("counter"), counterSet: c.IsSet("counter"),
		proof: c.Bool("proof"), solverOutput: c.String("solver-output"), solverOutputSet: c.IsSet("solver-output"),
	}
}

// Check checks the options (usage errors, exit status 2) and resolves
// the mode, format, encoding and pre-placed queens.
func (o *satOptions) check() error {
	var err error
	if o.Unique, o.Args, err = cmdutil.UniqueArgs(o.Unique, o.Args); err != nil {
		return err
	}
	switch {
	case len(o.Args) > 0 && o.proof:
		// "--proof -" or "--proof FILE": the proof is queens' to ask for
		// and check, not the user's to place.
		return cmdutil.Usagef("sat: --proof takes no file (%q): queens asks the --solver for a proof of each UNSATISFIABLE answer in a temporary file and checks it; "+
			"to keep one, run the solver on queens dimacs' CNF and check its proof with queens decode --cnf CNF --proof PROOF (PROOF - reads stdin)", o.Args[0])
	case len(o.Args) > 0:
		return cmdutil.Usagef("sat: unexpected argument %q", o.Args[0])
	}
	if err := cmdutil.ExclusiveFlags(cmdutil.FlagOn{Name: "all", On: o.All}, cmdutil.FlagOn{Name: "count", On: o.Count}, cmdutil.FlagOn{Name: "limit", On: o.LimitSet}); err != nil {
		return err
	}
	if o.Limit < 0 {
		return cmdutil.Usagef("--limit must be at least 0")
	}
	if o.Threads < 1 {
		return cmdutil.Usagef("--threads must be at least 1")
	}
	o.enumerate = o.All || o.Count || o.LimitSet
	if o.competition = o.FormatName == competitionFormat; o.competition {
		o.Format = board.FormatPerm // unused: the answer has a writer of its own
	} else if o.Format, err = cmdutil.ParseSolutionFormat(o.FormatName); err != nil {
		return cmdutil.UsageErr(fmt.Errorf("%w, competition", err))
	}
	size := o.N
	if size < 1 {
		size = board.MaxN // as resolveSize: the size error states the limit
	}
	if o.enc, err = encode.Resolve(encode.Encoding(o.encodingName), size); err != nil {
		return cmdutil.UsageErr(err)
	}
	if err := cmdutil.CheckBoardSize(o.N, o.NSet, cmdutil.SATLimit(o.enc, o.enumerate, o.solverSet)); err != nil {
		return err
	}
	if o.Placed, err = cmdutil.ParsePlacements(o.Place, o.N); err != nil {
		return err
	}
	switch {
	case o.competition:
		if err := o.checkCompetition(); err != nil {
			return err
		}
	case o.counterSet:
		return o.checkCounter()
	}
	switch {
	case o.counterSet:
		return o.checkCounter()
	case !o.solverSet && (o.proof || o.solverOutputSet):
		return cmdutil.Usagef("--proof and --solver-output go with --solver")
	}
	return nil
}

// runSat solves the instance the options describe, or counts it with
// --counter.
func runSat(parent context.Context, o satOptions, stdout, stderr io.Writer) error {
	switch {
	case o.counterSet:
		return runCounter(parent, o, stdout, stderr)
	case o.competition:
		return runCompetition(parent, o, stdout, stderr)
	}
	r, err := newSatRun(o, stderr)
	if err != nil {
		return err
	}
	// --timeout covers everything from here: encoding and loading a
	// large board take seconds, as long as the solve itself.
	ctx, cancel := cmdutil.TimeoutContext(parent, o.Timeout)
	defer cancel()
	out, err := cmdutil.OpenSolutions(parent, stdout, o.SolutionFlags, r.n, r.placed)
	if err != nil {
		return err
	}
	out.Slow = true // each solution a solve, or a solver run
	// A progress bar only for --count: a stream of solutions on the same
	// terminal would tear it.
	var bar *cmdutil.Progress
	if o.Count {
		bar = cmdutil.NewProgress(stderr, 0, fmt.Sprintf("sat n=%d", r.n))
	}
	solver, err := sat.Detach(ctx, func() (engine.Interface, error) { return r.load(ctx, bar) })
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("interrupted while encoding and loading n = %d: %w", r.n, err)
		}
		out.Abort() // nothing written yet
		return satError(err, o.Timeout)
	}
	ref := &cmdutil.Referee{Ctx: ctx, Cmd: "sat", Solver: r.who, N: r.n, Place: r.placed, Count: r.enumerate, Unique: r.unique.On,
		Group:     append([]board.Transform{board.Identity}, r.e.Symmetries()...),
		Certified: func() bool { return solver.Stats().Proofs > 0 }}
	out.Ref = ref
	finished, err := r.solve(ctx, solver, ref, out, bar)
	if o.Stats && finished() {
		out.Flush() // the results first, then the statistics about them
		r.writeStats(solver.Stats())
	}
	return ref.Unverified(out.Finish(satError(err, o.Timeout)))
}

// solve writes what the run asks of solver: the count, or the
// solutions. finished says when the solver's statistics can be read.
func (r *satRun) solve(ctx context.Context, solver engine.Interface, ref *cmdutil.Referee, out *cmdutil.SolutionOutput, bar *cmdutil.Progress) (finished func() bool, err error) {
	finished = func() bool { return true }
	switch {
	case r.o.Count && r.rot != nil:
		err = r.rot.Count(ctx, out, r.format, solver.All(ctx), ref)
		bar.Done()
		return finished, err
	case r.o.Count:
		err = r.count(ctx, solver, ref, out)
		bar.Done()
		return finished, err
	}
	max := r.o.Limit
	if !r.enumerate {
		max = 1
	}
	all := solver.All(ctx)
	if !r.external {
		// gini takes seconds to notice a stop on a large board: the
		// run returns at once and leaves it to the exit; finished
		// says when its statistics can be read. (An external solver
		// must be killed and its files removed before the exit,
		// which its stop does.)
		all, finished = sat.DetachSeq(ctx, all)
	}
	seq, pbar := cmdutil.Counted(out.Stdout, r.stderr, r.o.Output, r.rot.Filter(ref.Stream(all)), r.n, r.placed, r.unique.On, max)
	_, err = cmdutil.WriteSolutions(out, r.format, r.n, seq, max)
	pbar.Done()
	return finished, err
}

// satRun is one run of the sat command, its flags read and checked.
type satRun struct {
	o         *satOptions
	stderr    io.Writer
	n         int
	enc       encode.Encoding
	placed    []board.Queen
	unique    cmdutil.UniqueMode
	enumerate bool // --all, --count or --limit
	format    board.Format
	who       string            // the solver, for messages
	external  bool              // --solver
	ext       external.External // with --solver
	threads   int               // --threads
	e         *encode.Encoder
	rot       *cmdutil.RotationClasses // --unique=rotations: picked from every solution
}

// newSatRun prepares the run of the checked options o: the external
// Solver (usage errors, exit status 2) and the encoder; it says on stderr
// which symmetries --unique with --place takes.
func newSatRun(o satOptions, stderr io.Writer) (*satRun, error) {
	r := &satRun{o: &o, stderr: stderr, n: o.N, enc: o.enc, placed: o.Placed, unique: o.Unique, who: "gini",
		enumerate: o.enumerate, format: o.Format, external: o.solverSet, threads: o.Threads}
	// The symmetry-breaking clauses are for all 8 symmetries: the classes
	// under the rotations are picked from every solution instead.
	if r.unique.Rotations {
		r.rot, r.unique = cmdutil.NewRotationClasses(stderr, r.n, r.placed), cmdutil.UniqueMode{}
	}
	var err error
	if o.solverSet {
		// Before the encoding, which takes seconds on a large board.
		if r.ext, err = cmdutil.NewExternal(o.solver, o.solverOutput, o.proof); err != nil {
			return nil, err
		}
		argv, _ := external.SplitCommand(r.ext.Command)
		r.who = filepath.Base(argv[0])
	}
	if r.e, err = encode.NewEncoder(r.n, encode.Options{Encoding: r.enc, Place: r.placed, Symmetry: r.unique.On}); err != nil {
		return nil, cmdutil.UsageErr(err)
	}
	if r.unique.On && len(r.placed) > 0 {
		fmt.Fprintf(stderr, "queens: note: --unique with --place breaks only the symmetries that keep the placed queens in place: %s\n", cmdutil.SymmetryNames(r.e.Symmetries()))
	}
	return r, nil
}

// load encodes the instance and loads it into the engine the flags ask
// for: gini for one solution (no CNF in memory), gini's cubes in parallel
// for an enumeration, or the external solver.
func (r *satRun) load(ctx context.Context, bar *cmdutil.Progress) (engine.Interface, error) {
	if !r.enumerate && !r.external {
		// One solution: no CNF in memory (a large board's first solution
		// completes the residual of a greedy seed, or gini is loaded
		// straight from the encoder's stream), with a fixed seed, so that
		// the same flags print the same board.
		x, err := sat.NewEncoded(ctx, r.e, 1)
		return x, err
	}
	cnf, err := r.e.CNF(ctx)
	if err != nil {
		return nil, err
	}
	if r.external {
		x, err := r.ext.New(cnf)
		if err != nil {
			return nil, err // not a nil *external.Solver in the interface
		}
		return x, nil
	}
	return sat.NewParallel(cnf, sat.Options{Threads: r.threads, Progress: bar.Parts, NoSymmetry: r.unique.On})
}

// Count is --count: the total, refereed and written; with --unique the
// total is the sum of the classes' sizes under the symmetries broken,
// and the referee checks both.
func (r *satRun) count(ctx context.Context, solver engine.Interface, ref *cmdutil.Referee, out *cmdutil.SolutionOutput) error {
	var classes, total uint64
	var err error
	if r.unique.On {
		for s, serr := range solver.All(ctx) {
			if err = serr; err != nil {
				return err
			}
			classes++
			total += uint64(board.OrbitSizeUnder(s, ref.Group))
		}
		err = ref.CheckClaim(compare.Claim{Solutions: classes, Count: true, Classes: true, Total: total})
	} else if total, err = solver.Count(ctx); err == nil {
		err = ref.Check(total)
	}
	if err != nil {
		return err
	}
	var unique *uint64
	if r.unique.On {
		unique = &classes
	}
	return cmdutil.WriteCount(out, r.format, r.n, total, unique, ref.Verified())
}

// WriteStats writes --stats to stderr.
func (r *satRun) writeStats(st engine.Stats) {
	cmdutil.WriteStats(r.stderr, r.format, cmdutil.Stat{Name: "n", Value: r.n}, cmdutil.Stat{Name: "encoding", Value: r.enc}, cmdutil.Stat{Name: "vars", Value: st.Vars},
		cmdutil.Stat{Name: "clauses", Value: st.Clauses}, cmdutil.Stat{Name: "cubes", Value: st.Cubes}, cmdutil.Stat{Name: "solves", Value: st.Solves},
		cmdutil.Stat{Name: "solutions", Value: st.Solutions}, cmdutil.Stat{Name: "proofs", Value: st.Proofs}, cmdutil.Stat{Name: "seconds", Value: st.Elapsed})
}

// satError says what a solve that ran out of --timeout got to; the exit
// status of every error is exitCode's.
func satError(err error, timeout interface{ String() string }) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return cmdutil.Failf("sat: no answer within --timeout %s", timeout)
	}
	return err
}
