package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/gpu"
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
only with join shards.`, backtrack.AutoLexMax, backtrack.CellsMaxN, backtrack.GenerateMaxN, maxFirstN, maxLexFirstN, maxAllN, maxCountN, backtrack.CountMaxN, join.MaxN)

func backtrackCommand() *cli.Command { return newBacktrackCommand(runBacktrack) }

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
			sizeFlag(), allFlag(), countFlag(), limitFlag(),
			uniqueFlag(),
			placeFlag(), formatFlag(solutionFormats...), attacksFlag(), numbersFlag(), outFlag(), statsFlag(), threadsFlag(), timeoutFlag(),
			&cli.StringFlag{Name: "strategy", Value: "auto", Usage: "search order `S`: auto, lex, heuristic, iterative, cells or generate (see below)"},
			&cli.StringFlag{Name: "order", Value: "rows", Usage: "fill `O`: rows (one queen per row) or columns (one per column, as the textbook's figures)"},
			shardFlag(), shardCountFlag(), shardBaseFlag(), splitFlag(), checkpointFlag(), progressEveryFlag(), jsonFlag(), gpuFlag(), gpuKernelFlag(), engineFlag(), memoryFlag(),
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
	solutionFlags
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
		solutionFlags: readSolutionFlags(c),
		strategyName:  c.String("strategy"), strategySet: c.IsSet("strategy"), orderName: c.String("order"),
		shard: c.String("shard"), shardSet: c.IsSet("shard"), shardCount: c.Int("shard-count"), shardCountSet: c.IsSet("shard-count"),
		shardBase: c.Int("shard-base"), shardBaseSet: c.IsSet("shard-base"), split: c.String("split"), splitSet: c.IsSet("split"),
		checkpoint: c.String("checkpoint"), progressEvery: c.Duration("progress-every"), json: c.Bool("json"),
		gpuKernel: c.String("gpu-kernel"), gpuKernelSet: c.IsSet("gpu-kernel"),
		engine: c.String("engine"), engineSet: c.IsSet("engine"), memory: c.String("memory"), memorySet: c.IsSet("memory"),
	}
	if g, ok := c.Generic("gpu").(*gpuMode); ok && g != nil {
		o.gpu = *g
	}
	return o
}

// check checks the options (usage errors, exit status 2) and resolves
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
	if o.threads < 1 {
		return usagef("--threads must be at least 1, not %d", o.threads)
	}
	if err := checkpointApart(o.checkpoint, o.output); err != nil {
		return err
	}
	if err := o.checkOutput(o.format, o.n); err != nil {
		return err
	}
	if o.design, err = checkGPU(o.gpu, o.gpuKernel, o.gpuKernelSet, o.count, len(o.place) > 0); err != nil {
		return err
	}
	if (o.engineSet || o.memorySet) && !o.count {
		return usagef("--engine and --memory are for --count")
	}
	return o.checkShard()
}

// checkSearch checks the arguments, the modes and the search's flags
// (--strategy, --order) against each other.
func (o *backtrackOptions) checkSearch() error {
	var err error
	if o.unique, o.args, err = uniqueArgs(o.unique, o.args); err != nil {
		return err
	}
	if len(o.args) > 0 {
		return usagef("backtrack: unexpected argument %q", o.args[0])
	}
	if err := exclusiveFlags(flagOn{"all", o.all}, flagOn{"count", o.count}, flagOn{"limit", o.limitSet}); err != nil {
		return err
	}
	if o.limit < 0 {
		return usagef("--limit must be at least 0, not %d", o.limit)
	}
	if o.strategy, err = backtrack.ParseStrategy(o.strategyName); err != nil {
		return usageErr(err)
	}
	if o.strategy == backtrack.Scan {
		return usagef("--strategy scan finds each solution n! times (once per order of its queens), a lesson to trace, not a way to list or count: queens trace --strategy scan, or --strategy cells here")
	}
	if o.order, err = backtrack.ParseOrder(o.orderName); err != nil {
		return usageErr(fmt.Errorf("--order: %w", err))
	}
	switch {
	case o.unique.rotations && o.pieces():
		return usagef("--unique=rotations is not for sharded counts: merge counts classes under all 8 symmetries (the rotation classes are twice as many for n > 1)")
	case o.count && o.pieces() && (o.strategySet || o.order != backtrack.Rows):
		return usagef("--strategy and --order do not apply to sharded counts (the bitboard counter splits the work)")
	case o.splitSet && !o.pieces():
		return usagef("--split splits the pieces of --shard and --checkpoint: add one of them")
	}
	o.format, err = parseSolutionFormat(o.formatName)
	return usageErr(err)
}

// checkSize checks -n against the limit of the mode and strategy, and
// the pre-placed queens against the board.
func (o *backtrackOptions) checkSize() error {
	maxN, mode := backtrackLimit(o.count, o.sharded(), o.all || o.unique.on, o.strategy == backtrack.Lex)
	if o.n > maxN {
		return usagef("-n %d is too large for %s (at most %d)", o.n, mode, maxN)
	}
	if err := checkBoardSize(o.n, o.nSet, maxN); err != nil {
		return err
	}
	if err := strategyLimit(o.strategy, o.n); err != nil {
		return err
	}
	var err error
	o.placed, err = parsePlacements(o.place, o.n)
	return err
}

// runBacktrack runs the search, or the count, the options describe.
func runBacktrack(parent context.Context, o backtrackOptions, stdout, stderr io.Writer) error {
	ctx, cancel := timeoutContext(parent, o.timeout)
	defer cancel()
	out, err := openSolutions(parent, stdout, o.solutionFlags, o.n, o.placed)
	if err != nil {
		return err
	}
	onGPU, err := useGPU(o.gpu, o.stats, stderr)
	if err == nil && o.count {
		err = o.runCount(ctx, out, stderr, onGPU)
	} else if err == nil {
		err = o.search(ctx, out, stderr)
	}
	return out.finish(err)
}

// runCount runs --count with the engine it resolves: the half-board join,
// the GPU, the backtracker's own search or the constellation counter.
func (o *backtrackOptions) runCount(ctx context.Context, out *solutionOutput, stderr io.Writer, onGPU bool) error {
	engine, err := o.countEngine(onGPU)
	switch {
	case err != nil:
		return err
	case engine == shard.EngineJoin && o.pieces():
		defer limitHeap(0)()
		return o.countPieces(ctx, out, stderr, nil, shard.EngineJoin)
	case engine == shard.EngineJoin:
		return o.joinCount(ctx, out, stderr)
	case onGPU && (o.strategySet && o.strategy != backtrack.Auto || o.order != backtrack.Rows || o.unique.rotations):
		return usagef("--gpu runs the bitboard counter: not with --strategy, --order or --unique=rotations")
	case onGPU:
		return o.countPieces(ctx, out, stderr, gpuCounter(o.design), shard.EngineGPU)
	case o.strategySet && o.strategy != backtrack.Auto || o.order != backtrack.Rows || o.unique.on && len(o.placed) > 0:
		return o.searchCount(ctx, out, stderr)
	case o.pieces():
		return o.countPieces(ctx, out, stderr, nil, "")
	}
	return o.constellationCount(ctx, out, stderr)
}

// search prints the first solution, --limit K or --all.
func (o *backtrackOptions) search(ctx context.Context, out *solutionOutput, stderr io.Writer) error {
	strategy := o.strategy
	if o.unique.on && strategy == backtrack.Auto {
		// The canonical solutions come early in lex order, rarely in the
		// heuristic's (see backtrack.Auto).
		strategy = backtrack.Lex
	}
	opt := backtrack.Options{Place: o.placed, Strategy: strategy, Order: o.order, Unique: o.unique.on, Rotations: o.unique.rotations}
	if o.unique.on && len(o.placed) > 0 {
		uniqueNote(stderr, board.Stabilizer(o.n, o.placed, o.unique.rotations))
	}
	limit := o.limit
	if !o.all && !o.limitSet {
		limit = 1
	}
	var stats backtrack.Stats
	var serr error
	seq := func(yield func(board.Solution, error) bool) {
		stats, serr = backtrack.Search(ctx, o.n, opt, func(s board.Solution) bool { return yield(s, nil) })
	}
	var bar *progress
	if !opt.Rotations { // the bar knows the published counts under all 8 symmetries
		seq, bar = counted(out.stdout, stderr, o.output, seq, o.n, o.placed, opt.Unique, limit)
	}
	written, err := writeSolutions(out, o.format, o.n, seq, limit)
	bar.Done()
	if err == nil {
		err = timeoutErr(ctx, serr)
	}
	if o.stats {
		out.Flush() // the results first, then the statistics about them
		all := append([]stat{{"n", o.n}, {"algorithm", "backtrack"}, {"strategy", strategy.Resolve(o.n).String()}, {"order", o.order.String()},
			{"nodes", stats.Nodes}, {"backtracks", stats.Backtracks}, {"solutions", stats.Solutions},
			{"printed", written}}, generateStats(strategy, o.n, stats)...)
		writeStats(stderr, o.format, append(all, stat{"seconds", stats.Elapsed})...)
	}
	return err
}

// constellationCount runs --count with the constellation counter.
func (o *backtrackOptions) constellationCount(ctx context.Context, out *solutionOutput, stderr io.Writer) error {
	parts, stop := countProgress(stderr, o.progressEvery, o.n)
	res, err := backtrack.Count(ctx, o.n, backtrack.CountOptions{Threads: o.threads, Unique: o.unique.on, Place: o.placed, Progress: parts})
	stop()
	return o.finishCount(ctx, out, stderr, engineCount{
		engine: shard.EngineConstellations, total: res.Total, unique: res.Unique, rotations: res.Rotations,
		done: res.Done, parts: res.Parts, elapsed: res.Elapsed, work: []stat{{"nodes", res.Nodes}},
	}, err)
}

// engineCount is what a counting engine found, for finishCount.
type engineCount struct {
	engine                   string
	total, unique, rotations uint64
	done, parts              int
	elapsed                  time.Duration
	work                     []stat // the engine's own work figures, for --stats
}

// finishCount reports a count of either engine: how far it got when err
// stopped it, else the count and, with --stats, its statistics.
func (o *backtrackOptions) finishCount(ctx context.Context, out *solutionOutput, stderr io.Writer, r engineCount, err error) error {
	if err != nil {
		return stoppedErr(ctx, fmt.Sprintf("after %d of %d parts (%s in the parts finished, %v)",
			r.done, r.parts, plural(int(r.total), "solution"), r.elapsed.Round(time.Millisecond)), err)
	}
	if err := writeUniqueCount(out, o.format, o.n, r.total, o.unique, r.unique, r.rotations); err != nil || !o.stats {
		return err
	}
	out.Flush() // the count first, then the statistics about it
	stats := []stat{{"n", o.n}, {"algorithm", "counter"}, {"engine", r.engine}, {"solutions", r.total}}
	stats = append(stats, r.work...)
	stats = append(stats, stat{"parts", r.done}, stat{"threads", o.threads}, stat{"seconds", r.elapsed})
	return writeStats(stderr, o.format, stats...)
}

// stoppedErr says how far a count cut short got (far, e.g. "after 3 of 92
// parts"), in the one line run prints: stopped by --timeout is a failed
// run (exit 1), a signal an interruption (run makes it 130), anything
// else the error itself.
func stoppedErr(ctx context.Context, far string, err error) error {
	switch ctx.Err() {
	case context.DeadlineExceeded:
		return failf("stopped by --timeout %s", far)
	case nil:
		return fmt.Errorf("count stopped %s: %w", far, err)
	}
	return fmt.Errorf("interrupted %s: %w", far, ctx.Err())
}

// timeoutErr turns a search ended by --timeout into a failed run (exit 1);
// other errors pass through (Ctrl-C becomes 130 in run).
func timeoutErr(ctx context.Context, err error) error {
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return failf("stopped by --timeout: %v", err)
	}
	return err
}

// writeUniqueCount writes a count as --unique asks: writeCount's "T
// solutions (U unique)" for the classes under all 8 symmetries, and for
// --unique=rotations "T solutions (R unique up to rotation)", in JSON
// {"n":N,"total":T,"unique":R,"symmetry":"rotations"}.
func writeUniqueCount(w io.Writer, format board.Format, n int, total uint64, mode uniqueMode, unique, rotations uint64) error {
	switch {
	case !mode.on:
		return writeCount(w, format, n, total, nil, nil)
	case !mode.rotations:
		return writeCount(w, format, n, total, &unique, nil)
	case format == board.FormatJSON:
		return writeJSONLine(w, struct {
			N        int    `json:"n"`
			Total    uint64 `json:"total"`
			Unique   uint64 `json:"unique"`
			Symmetry string `json:"symmetry"`
		}{n, total, rotations, "rotations"})
	}
	_, err := fmt.Fprintf(w, "%s (%d unique up to rotation)\n", solutionsText(total), rotations)
	return err
}

// searchCount runs --count with --strategy lex or heuristic (or --order
// columns): the backtracker itself counts the solutions it finds, one by
// one, as the textbook algorithm does; with --unique it counts the
// canonical ones too.
func (o *backtrackOptions) searchCount(ctx context.Context, out *solutionOutput, stderr io.Writer) error {
	mode := o.unique // every solution is counted; the canonical ones besides
	opt := backtrack.Options{Place: o.placed, Strategy: o.strategy, Order: o.order, Rotations: mode.rotations}
	group := board.Stabilizer(o.n, opt.Place, mode.rotations)
	if mode.on && len(opt.Place) > 0 {
		uniqueNote(stderr, group)
	}
	var unique uint64
	stats, err := backtrack.Search(ctx, o.n, opt, func(s board.Solution) bool {
		if mode.on && board.IsCanonicalUnder(s, group) {
			unique++
		}
		return true
	})
	if err != nil {
		return stoppedErr(ctx, fmt.Sprintf("after %s (%s placed, %v)", plural(int(stats.Solutions), "solution"), plural(int(stats.Nodes), "queen"), stats.Elapsed.Round(time.Millisecond)), err)
	}
	if err := writeUniqueCount(out, o.format, o.n, stats.Solutions, mode, unique, unique); err != nil || !o.stats {
		return err
	}
	out.Flush() // the count first, then the statistics about it
	all := append([]stat{{"n", o.n}, {"algorithm", "backtrack"}, {"strategy", opt.Strategy.Resolve(o.n).String()},
		{"order", opt.Order.String()}, {"solutions", stats.Solutions}, {"nodes", stats.Nodes}, {"backtracks", stats.Backtracks}},
		generateStats(opt.Strategy, o.n, stats)...)
	return writeStats(stderr, o.format, append(all, stat{"threads", 1}, stat{"seconds", stats.Elapsed})...)
}

// strategyLimit refuses a board too large for --strategy cells, scan or
// generate, saying how much work the next size would be.
func strategyLimit(s backtrack.Strategy, n int) error {
	if s != backtrack.Cells && s != backtrack.Scan && s != backtrack.Generate || n <= s.MaxN() {
		return nil // the others' limits are -n's (boardSize)
	}
	_, perms := backtrack.SearchSpace(s.MaxN() + 1)
	if s == backtrack.Scan {
		return usagef("-n %d is too large for --strategy scan (at most %d): it finds each solution n! times, 92 x 8! = 3709440 for n = 8; cells, which scans only after its last queen, takes up to n = %d", n, s.MaxN(), backtrack.CellsMaxN)
	}
	if s == backtrack.Generate {
		return usagef("-n %d is too large for --strategy generate (at most %d): it tests every permutation, %d! = %v for n = %d, and more beyond; lex and iterative, which prune, take larger boards", n, s.MaxN(), s.MaxN()+1, perms, s.MaxN()+1)
	}
	return usagef("-n %d is too large for --strategy cells (at most %d): it places 7535368 queens for every solution of n = 10 and 66807233 for n = 11; lex and iterative, by rows, take larger boards", n, s.MaxN())
}

// generateStats are the statistics --strategy generate adds: the
// placements it tested, and the two spaces generate-and-test can run
// through, the n! permutations and the C(n², n) placements of n queens.
func generateStats(s backtrack.Strategy, n int, stats backtrack.Stats) []stat {
	if s != backtrack.Generate {
		return nil
	}
	placements, perms := backtrack.SearchSpace(n)
	return []stat{{"tested", stats.Candidates}, {"permutations", perms}, {"placements", placements}}
}
