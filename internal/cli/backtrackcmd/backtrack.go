package backtrackcmd

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/gpu"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/shard"
	"github.com/urfave/cli/v2"
)

// backtrackDescription is the help text of backtrack.
var backtrackDescription = fmt.Sprintf(`Without --all, --count or --limit it prints the first solution as a board.

--strategy chooses the search order. lex fills rows top to bottom and tries columns
left to right (solutions come out sorted; --order columns for the texts that fill columns). heuristic fills the
row with the fewest free squares first and tries central columns first; it finds a
first solution of a 1000x1000 board in milliseconds. auto (the default) runs lex for
N <= %d and heuristic above. --count uses the bitboard counter, unless --strategy lex
or heuristic is given: then the backtracker itself counts, solution by solution (the
textbook algorithm, timed with --stats, which names the algorithm that ran).

The textbook algorithms, to compare with --stats (queens compare --strategies -n 4-10
puts them side by side): iterative is lex with an explicit stack, no recursion (the same
steps); cells searches the cells of the whole board (free, queen or threatened; the board
copied per level), any free cell after the last queen, without knowing that each row
needs a queen (N <= %d); generate is naive generate-and-test: every permutation of
the columns, tested once complete (N <= %d; --stats adds the N! permutations it tests
and the C(N*N, N) placements of N queens a test of every placement would face: 40320
and 4426165368 for N = 8, where lex places 2056 queens).

--order columns fills the columns left to right instead of the rows, trying the rows
top to bottom: the order of the textbook figures (solutions come out sorted by the row
of the queen in column 1, then column 2, ...). The solutions are the same.

--unique lists (with --all or --limit) only the canonical solution of each class of
solutions that differ by a rotation or reflection (without them: the first such
solution); with --count it adds the number of such classes. --unique runs lex unless
--strategy says otherwise: in lex order the canonical solutions come early (n = 25: the
first after 48683 queens), in the heuristic's rarely (n = 25: 919951 solutions in 5 s,
none of them canonical). --unique=rotations (or
--unique rotations as the last argument) takes the classes under the four rotations
only, a solution and its mirror image apart: n = 8 has 12 classes, 24 under
rotations. With --place it takes the classes of the completions under the symmetries
that keep the placed queens in place (and says which on stderr): a queen in the corner
1:1 keeps the identity and the transpose (the reflection in the diagonal through it),
so -n 8 --place 1:1 --count --unique gives "4 solutions (2 unique)"; the other
symmetries move a placed queen and map no completion onto another.

Limits: a first solution or --limit K: N <= %d (N <= %d with --strategy lex);
--all, --unique: N <= %d; --count: N <= %d; --count --shard: N <= %d (no count is
published beyond 27: merge --verify checks those), with --engine join N <= %d.

--count --shard and --checkpoint count the constellations (--engine auto keeps
them there); --engine join counts the join's own pieces instead, whose shards merge
only with join shards.`, backtrack.AutoLexMax, backtrack.CellsMaxN, backtrack.GenerateMaxN, cmdutil.MaxFirstN, cmdutil.MaxLexFirstN, cmdutil.MaxAllN, cmdutil.MaxCountN, backtrack.CountMaxN, join.MaxN)

// Command returns queens backtrack.
func Command() *cli.Command { return newBacktrackCommand(runBacktrack) }

// newBacktrackCommand returns the backtrack command; its action reads the
// flags into backtrackOptions and hands them to run (tests pass their
// own).
func newBacktrackCommand(run func(ctx context.Context, o backtrackOptions, stdout, stderr io.Writer) error) *cli.Command {
	return &cli.Command{
		Name:        "backtrack",
		Usage:       "solve, enumerate or count with the native backtracker",
		UsageText:   "queens backtrack -n N [--all | --count | --limit K] [--unique[=rotations]] [--place R:C ...] [--order rows|columns] [--format F] [-o FILE] [--stats]",
		Description: backtrackDescription,
		Flags: []cli.Flag{
			cmdutil.SizeFlag(), cmdutil.AllFlag(), cmdutil.CountFlag(), cmdutil.LimitFlag(),
			cmdutil.UniqueFlag(),
			cmdutil.PlaceFlag(), cmdutil.FormatFlag(cmdutil.SolutionFormats...), cmdutil.AttacksFlag(), cmdutil.NumbersFlag(), cmdutil.OutFlag(), cmdutil.StatsFlag(), cmdutil.ThreadsFlag(), cmdutil.TimeoutFlag(),
			&cli.StringFlag{Name: "strategy", Value: "auto", Usage: "search order `S`: auto, lex, heuristic, iterative, cells or generate (see below)"},
			&cli.StringFlag{Name: "order", Value: "rows", Usage: "fill `O`: rows (one queen per row) or columns (one per column, as the textbook's figures)"},
			shardFlag(), shardCountFlag(), shardBaseFlag(), splitFlag(), checkpointFlag(), progressEveryFlag(), jsonFlag(), gpuFlag(), gpuKernelFlag(), engineFlag(), memoryFlag(), forceFlag(),
		},
		Action: func(c *cli.Context) error {
			o := backtrackFlags(c)
			if err := o.check(); err != nil {
				return err
			}
			return run(c.Context, o, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// backtrackOptions are the flags of queens backtrack: read once
// (backtrackFlags), then checked and resolved (check). What depends on
// the machine (a usable GPU, the join's SIMD) is resolved as the count
// starts.
type backtrackOptions struct {
	cmdutil.SolutionFlags
	strategyName  string
	strategySet   bool
	orderName     string
	shard         string // --shard I[/K]
	shardSet      bool
	shardCount    int
	shardCountSet bool
	shardBase     int
	shardBaseSet  bool
	split         string
	splitSet      bool
	checkpoint    string
	progressEvery time.Duration
	json          bool
	gpu           gpuMode
	gpuKernel     string
	gpuKernelSet  bool
	engine        string
	engineSet     bool
	memory        string
	memorySet     bool
	force         bool // --force: -o may replace another count's shard line

	// Set by check.
	strategy           backtrack.Strategy
	order              backtrack.Order
	design             gpu.Design
	shardIndex, shards int // with sharded: this shard, 0-based, of shards
	splitParts         int // --split's sub-parts per constellation
}

// backtrackFlags reads backtrack's flags: the one place that looks them
// up by name.
func backtrackFlags(c *cli.Context) backtrackOptions {
	o := backtrackOptions{
		SolutionFlags: cmdutil.ReadSolutionFlags(c),
		strategyName:  c.String("strategy"), strategySet: c.IsSet("strategy"), orderName: c.String("order"),
		shard: c.String("shard"), shardSet: c.IsSet("shard"), shardCount: c.Int("shard-count"), shardCountSet: c.IsSet("shard-count"),
		shardBase: c.Int("shard-base"), shardBaseSet: c.IsSet("shard-base"), split: c.String("split"), splitSet: c.IsSet("split"),
		checkpoint: c.String("checkpoint"), progressEvery: c.Duration("progress-every"), json: c.Bool("json"),
		gpuKernel: c.String("gpu-kernel"), gpuKernelSet: c.IsSet("gpu-kernel"),
		engine: c.String("engine"), engineSet: c.IsSet("engine"), memory: c.String("memory"), memorySet: c.IsSet("memory"), force: c.Bool("force"),
	}
	if g, ok := c.Generic("gpu").(*gpuMode); ok && g != nil {
		o.gpu = *g
	}
	return o
}

// Check checks the options (usage errors, exit status 2) and resolves
// the strategy, order, format, pre-placed queens and shard.
func (o *backtrackOptions) check() error {
	err := o.checkCountFlags()
	if err == nil {
		err = o.checkSearch()
	}
	if err == nil {
		err = o.checkSize()
	}
	if err != nil {
		return err
	}
	if o.Threads < 1 {
		return cmdutil.Usagef("--threads must be at least 1, not %d", o.Threads)
	}
	if err := checkpointApart(o.checkpoint, o.Output); err != nil {
		return err
	}
	if err := o.CheckOutput(o.Format, o.N); err != nil {
		return err
	}
	if o.design, err = checkGPU(o.gpu, o.gpuKernel, o.gpuKernelSet, o.Count, len(o.Place) > 0); err != nil {
		return err
	}
	if (o.engineSet || o.memorySet) && !o.Count {
		return cmdutil.Usagef("--engine and --memory are for --count")
	}
	return o.checkShard()
}

// checkSearch checks the arguments, the modes and the search's flags
// (--strategy, --order) against each other.
func (o *backtrackOptions) checkSearch() error {
	var err error
	if o.Unique, o.Args, err = cmdutil.UniqueArgs(o.Unique, o.Args); err != nil {
		return err
	}
	if len(o.Args) > 0 {
		return cmdutil.Usagef("backtrack: unexpected argument %q", o.Args[0])
	}
	if err := cmdutil.ExclusiveFlags(cmdutil.FlagOn{Name: "all", On: o.All}, cmdutil.FlagOn{Name: "count", On: o.Count}, cmdutil.FlagOn{Name: "limit", On: o.LimitSet}); err != nil {
		return err
	}
	if o.Limit < 0 {
		return cmdutil.Usagef("--limit must be at least 0, not %d", o.Limit)
	}
	if o.strategy, err = backtrack.ParseStrategy(o.strategyName); err != nil {
		return cmdutil.UsageErr(err)
	}
	if o.strategy == backtrack.Scan {
		return cmdutil.Usagef("--strategy scan finds each solution n! times (once per order of its queens), a lesson to trace, not a way to list or count: queens trace --strategy scan, or --strategy cells here")
	}
	if o.order, err = backtrack.ParseOrder(o.orderName); err != nil {
		return cmdutil.UsageErr(fmt.Errorf("--order: %w", err))
	}
	switch {
	case o.Unique.Rotations && o.pieces():
		return cmdutil.Usagef("--unique=rotations is not for sharded counts: merge counts classes under all 8 symmetries (the rotation classes are twice as many for n > 1)")
	case o.Count && o.pieces() && (o.strategySet || o.order != backtrack.Rows):
		return cmdutil.Usagef("--strategy and --order do not apply to sharded counts (the bitboard counter splits the work)")
	case o.splitSet && !o.pieces():
		return cmdutil.Usagef("--split splits the pieces of --shard and --checkpoint: add one of them")
	}
	o.Format, err = cmdutil.ParseSolutionFormat(o.FormatName)
	return cmdutil.UsageErr(err)
}

// checkSize checks -n against the limit of the mode and strategy, and
// the pre-placed queens against the board.
func (o *backtrackOptions) checkSize() error {
	maxN, mode := cmdutil.BacktrackLimit(o.Count, o.sharded(), o.All || o.Unique.On, o.strategy == backtrack.Lex)
	if o.Count && o.engine == shard.EngineJoin {
		// The limit of the path that will run: the join's.
		if o.sharded() {
			maxN, mode = join.MaxN, "--count --shard --engine join"
		} else {
			maxN, mode = min(maxN, join.MaxN), fmt.Sprintf("--count --engine join (with --shard: N <= %d)", join.MaxN)
		}
	}
	if o.N > maxN {
		return cmdutil.Usagef("-n %d is too large for %s (at most %d)", o.N, mode, maxN)
	}
	if err := cmdutil.CheckBoardSize(o.N, o.NSet, maxN); err != nil {
		return err
	}
	if err := cmdutil.StrategyLimit(o.strategy, o.N); err != nil {
		return err
	}
	var err error
	o.Placed, err = cmdutil.ParsePlacements(o.Place, o.N)
	return err
}

// runBacktrack runs the search, or the count, the options describe.
func runBacktrack(parent context.Context, o backtrackOptions, stdout, stderr io.Writer) error {
	ctx, cancel := cmdutil.TimeoutContext(parent, o.Timeout)
	defer cancel()
	out, err := cmdutil.OpenSolutions(parent, stdout, o.SolutionFlags, o.N, o.Placed)
	if err != nil {
		return err
	}
	onGPU, err := useGPU(o.gpu, o.Stats, stderr)
	if err == nil && o.Count {
		err = o.runCount(ctx, out, stderr, onGPU)
	} else if err == nil {
		err = o.search(ctx, out, stderr)
	}
	return out.Finish(err)
}

// runCount runs --count with the engine it resolves: the half-board join,
// the GPU, the backtracker's own search or the constellation counter.
func (o *backtrackOptions) runCount(ctx context.Context, out *cmdutil.SolutionOutput, stderr io.Writer, onGPU bool) error {
	engine, err := o.countEngine(onGPU)
	switch {
	case err != nil:
		return err
	case engine == shard.EngineJoin && o.pieces():
		return o.countPieces(ctx, out, stderr, nil, shard.EngineJoin)
	case engine == shard.EngineJoin:
		return o.joinCount(ctx, out, stderr)
	case onGPU && (o.strategySet && o.strategy != backtrack.Auto || o.order != backtrack.Rows || o.Unique.Rotations):
		return cmdutil.Usagef("--gpu runs the bitboard counter: not with --strategy, --order or --unique=rotations")
	case onGPU:
		return o.countPieces(ctx, out, stderr, gpuCounter(o.design), shard.EngineGPU)
	case o.strategySet && o.strategy != backtrack.Auto || o.order != backtrack.Rows || o.Unique.On && len(o.Placed) > 0:
		return o.searchCount(ctx, out, stderr)
	case o.pieces():
		return o.countPieces(ctx, out, stderr, nil, "")
	}
	return o.constellationCount(ctx, out, stderr)
}

// search prints the first solution, --limit K or --all.
func (o *backtrackOptions) search(ctx context.Context, out *cmdutil.SolutionOutput, stderr io.Writer) error {
	strategy := o.strategy
	if o.Unique.On && strategy == backtrack.Auto {
		// The canonical solutions come early in lex order, rarely in the
		// heuristic's (see backtrack.Auto).
		strategy = backtrack.Lex
	}
	opt := backtrack.Options{Place: o.Placed, Strategy: strategy, Order: o.order, Unique: o.Unique.On, Rotations: o.Unique.Rotations}
	if o.Unique.On && len(o.Placed) > 0 {
		cmdutil.UniqueNote(stderr, board.Stabilizer(o.N, o.Placed, o.Unique.Rotations))
	}
	limit := o.Limit
	if !o.All && !o.LimitSet {
		limit = 1
	}
	var stats backtrack.Stats
	var serr error
	seq := func(yield func(board.Solution, error) bool) {
		stats, serr = backtrack.Search(ctx, o.N, opt, func(s board.Solution) bool { return yield(s, nil) })
	}
	var bar *cmdutil.Progress
	if !opt.Rotations { // the bar knows the published counts under all 8 symmetries
		seq, bar = cmdutil.Counted(out.Stdout, stderr, o.Output, seq, o.N, o.Placed, opt.Unique, limit)
	}
	written, err := cmdutil.WriteSolutions(out, o.Format, o.N, seq, limit)
	bar.Done()
	if err == nil {
		err = timeoutErr(ctx, serr)
	}
	if o.Stats {
		out.Flush() // the results first, then the statistics about them
		all := append([]cmdutil.Stat{{Name: "n", Value: o.N}, {Name: "algorithm", Value: "backtrack"}, {Name: "strategy", Value: strategy.Resolve(o.N).String()}, {Name: "order", Value: o.order.String()},
			{Name: "nodes", Value: stats.Nodes}, {Name: "backtracks", Value: stats.Backtracks}, {Name: "solutions", Value: stats.Solutions},
			{Name: "printed", Value: written}}, generateStats(strategy, o.N, stats)...)
		cmdutil.WriteStats(stderr, o.Format, append(all, cmdutil.Stat{Name: "seconds", Value: stats.Elapsed})...)
	}
	return err
}

// constellationCount runs --count with the constellation counter.
func (o *backtrackOptions) constellationCount(ctx context.Context, out *cmdutil.SolutionOutput, stderr io.Writer) error {
	parts, stop := countProgress(stderr, o.progressEvery, o.N)
	res, err := backtrack.Count(ctx, o.N, backtrack.CountOptions{Threads: o.Threads, Unique: o.Unique.On, Place: o.Placed, Progress: parts})
	stop()
	return o.finishCount(ctx, out, stderr, engineCount{
		engine: shard.EngineConstellations, total: res.Total, unique: res.Unique, rotations: res.Rotations,
		done: res.Done, parts: res.Parts, elapsed: res.Elapsed, work: []cmdutil.Stat{{Name: "nodes", Value: res.Nodes}},
	}, err)
}

// engineCount is what a counting engine found, for finishCount.
type engineCount struct {
	engine                   string
	total, unique, rotations uint64
	done, parts              int
	elapsed                  time.Duration
	work                     []cmdutil.Stat // the engine's own work figures, for --stats
}

// finishCount reports a count of either engine: how far it got when err
// stopped it, else the count and, with --stats, its statistics.
func (o *backtrackOptions) finishCount(ctx context.Context, out *cmdutil.SolutionOutput, stderr io.Writer, r engineCount, err error) error {
	if err != nil {
		return stoppedErr(ctx, fmt.Sprintf("after %d of %d parts (%s in the parts finished, %v)",
			r.done, r.parts, cmdutil.Plural(int(r.total), "solution"), r.elapsed.Round(time.Millisecond)), err)
	}
	if err := cmdutil.WriteUniqueCount(out, o.Format, o.N, r.total, o.Unique, r.unique, r.rotations); err != nil || !o.Stats {
		return err
	}
	out.Flush() // the count first, then the statistics about it
	stats := []cmdutil.Stat{{Name: "n", Value: o.N}, {Name: "algorithm", Value: "counter"}, {Name: "engine", Value: r.engine}, {Name: "solutions", Value: r.total}}
	stats = append(stats, r.work...)
	stats = append(stats, cmdutil.Stat{Name: "parts", Value: r.done}, cmdutil.Stat{Name: "threads", Value: o.Threads}, cmdutil.Stat{Name: "seconds", Value: r.elapsed})
	return cmdutil.WriteStats(stderr, o.Format, stats...)
}

// stoppedErr says how far a count cut short got (far, e.g. "after 3 of 92
// parts"), in the one line run prints: stopped by --timeout is a failed
// run (exit 1), a signal an interruption (run makes it 130), anything
// else the error itself.
func stoppedErr(ctx context.Context, far string, err error) error {
	switch ctx.Err() {
	case context.DeadlineExceeded:
		return cmdutil.Failf("stopped by --timeout %s", far)
	case nil:
		return fmt.Errorf("count stopped %s: %w", far, err)
	}
	return fmt.Errorf("interrupted %s: %w", far, ctx.Err())
}

// timeoutErr turns a search ended by --timeout into a failed run (exit 1);
// other errors pass through (Ctrl-C becomes 130 in run).
func timeoutErr(ctx context.Context, err error) error {
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return cmdutil.Failf("stopped by --timeout: %v", err)
	}
	return err
}

// searchCount runs --count with --strategy lex or heuristic (or --order
// columns): the backtracker itself counts the solutions it finds, one by
// one, as the textbook algorithm does; with --unique it counts the
// canonical ones too.
func (o *backtrackOptions) searchCount(ctx context.Context, out *cmdutil.SolutionOutput, stderr io.Writer) error {
	mode := o.Unique // every solution is counted; the canonical ones besides
	opt := backtrack.Options{Place: o.Placed, Strategy: o.strategy, Order: o.order, Rotations: mode.Rotations}
	group := board.Stabilizer(o.N, opt.Place, mode.Rotations)
	if mode.On && len(opt.Place) > 0 {
		cmdutil.UniqueNote(stderr, group)
	}
	var unique uint64
	stats, err := backtrack.Search(ctx, o.N, opt, func(s board.Solution) bool {
		if mode.On && board.IsCanonicalUnder(s, group) {
			unique++
		}
		return true
	})
	if err != nil {
		return stoppedErr(ctx, fmt.Sprintf("after %s (%s placed, %v)", cmdutil.Plural(int(stats.Solutions), "solution"), cmdutil.Plural(int(stats.Nodes), "queen"), stats.Elapsed.Round(time.Millisecond)), err)
	}
	if err := cmdutil.WriteUniqueCount(out, o.Format, o.N, stats.Solutions, mode, unique, unique); err != nil || !o.Stats {
		return err
	}
	out.Flush() // the count first, then the statistics about it
	all := append([]cmdutil.Stat{{Name: "n", Value: o.N}, {Name: "algorithm", Value: "backtrack"}, {Name: "strategy", Value: opt.Strategy.Resolve(o.N).String()},
		{Name: "order", Value: opt.Order.String()}, {Name: "solutions", Value: stats.Solutions}, {Name: "nodes", Value: stats.Nodes}, {Name: "backtracks", Value: stats.Backtracks}},
		generateStats(opt.Strategy, o.N, stats)...)
	return cmdutil.WriteStats(stderr, o.Format, append(all, cmdutil.Stat{Name: "threads", Value: 1}, cmdutil.Stat{Name: "seconds", Value: stats.Elapsed})...)
}

// generateStats are the statistics --strategy generate adds: the
// placements it tested, and the two spaces generate-and-test can run
// through, the n! permutations and the C(n², n) placements of n queens.
func generateStats(s backtrack.Strategy, n int, stats backtrack.Stats) []cmdutil.Stat {
	if s != backtrack.Generate {
		return nil
	}
	placements, perms := backtrack.SearchSpace(n)
	return []cmdutil.Stat{{Name: "tested", Value: stats.Candidates}, {Name: "permutations", Value: perms}, {Name: "placements", Value: placements}}
}
