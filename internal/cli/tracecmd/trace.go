package tracecmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/urfave/cli/v2"
)

// traceUsage is the usage text of trace: its synopsis, and what its
// steps and flags show.
var traceUsage = "queens trace -n N [--place R:C ...] [--all] [--strategy S] [--order rows|columns] [--narrate steps|agents]\n" +
	"       [--boards [--grid]] [--stack] [--no-rejects] [--max-steps K] [--delay D] [--gif FILE] [--format text|json]\n\n" +
	"Each line is one step of the real backtracker (by default rows top to bottom, columns\n" +
	"left to right; squares are always ROW:COL, 1-based, as --place writes them):\n" +
	"  try R:C  place             the square is free: a queen goes there\n" +
	"  try R:C  rejected: ...     a queen already on the board attacks it\n" +
	"  dead end at row R          no square of row R is free\n" +
	"  backtrack to row R: ...    the queen of row R is taken away; row R goes on\n" +
	"  solution #K: ...           every row has a queen\n" +
	"A diagonal runs from the top left down to the bottom right (row - column the same along\n" +
	"it), an anti-diagonal from the bottom left up to the top right (row + column the same).\n" +
	"--strategy iterative traces the same search without recursion (the same steps); cells\n" +
	"tries the cells of the whole board in reading order, any free cell after the last queen\n" +
	"(\"dead end: every cell after 3:5 is attacked\"; n <= 10); generate places queens without\n" +
	"looking, one per row and column, and tests each complete placement (\"place 2:2 (not\n" +
	"tested yet)\", \"test 1:1 2:2 3:3 4:4 fails: 2:2 is on the diagonal of 1:1\"; n <= 10);\n" +
	"scan is cells as the course text writes it, every free cell of the whole board at every\n" +
	"level, so it finds each solution n! times (n <= 8; docs/learn.md says what that teaches).\n" +
	"--order columns fills the columns left to right, trying rows top to bottom, as the\n" +
	"textbook's figures, the agents' text and the tutorial's 0/1 matrix do: the dead ends and\n" +
	"backtracks then name columns (\"dead end at column 6\").\n" +
	"--narrate agents tells the same steps as the object-oriented formulation does: queen K\n" +
	"lives in column K and asks queen K-1 to advance when it finds no safe row (\"queen 6\n" +
	"finds no safe row and asks queen 5 to advance\"); it implies --order columns unless\n" +
	"--order rows is given (queen K then lives in row K).\n" +
	fmt.Sprintf("Boards up to n = %d, as the page's. The search stops at the first solution (every\n", cmdutil.MaxTraceN) +
	fmt.Sprintf("board up to n = %d gets there: n = 16 after 174445 steps), or with --all at the end of\n", cmdutil.TraceFirstN) +
	fmt.Sprintf("the search; --all, and any trace above n = %d, stops after %d steps unless\n", cmdutil.TraceFirstN, cmdutil.TraceAllSteps) +
	"--max-steps says otherwise (0: no limit), and says so.\n" +
	"--boards draws the board after every step, with the legend: Q a queen, P a pre-placed\n" +
	"one, * the queen just placed, x a rejected square (a whole line at a dead end), - a\n" +
	"square some queen attacks, . a free square.\n" +
	"--gif draws the board before the search, then every step as a frame captioned with its\n" +
	"number and what happened (in the agents' words with --narrate agents), with a legend: the\n" +
	"search's queens black, pre-placed queens blue, attacked squares grey, the new queen on\n" +
	"yellow with, in one picture as the textbook's figure has them, black dots on the squares\n" +
	"of its line rejected before it and blue dots on the squares it newly attacks, rejected\n" +
	"squares and a dead end's squares red, the square a backtrack empties with a grey\n" +
	"outline of its queen (generate shades no attacked square: it never looks at the board);\n" +
	"dead ends held twice as long, solutions six\n" +
	fmt.Sprintf("times; at most %d frames. Without --delay the frames share about 45 seconds (4\n", cmdutil.MaxGIFSteps) +
	"to 50 hundredths of a second each: n = 8 to its first solution lasts 43 seconds).\n" +
	"--stack shows after every step the search's stack: the recursive calls still running,\n" +
	"outermost first, each with its line and the square it is on (\"calls: row 1 at 1:1 > row\n" +
	"2 at 2:3\"; cells: its levels, \"queen 2 at 2:3\"), or for --strategy iterative its\n" +
	"explicit stack, each level with the next square it will try (\"stack: row 1 next 1:2 |\n" +
	"row 2 next 2:4\"): the same search, kept two ways. In JSON: \"stack\", [row, col] pairs.\n" +
	"--grid draws the boards of --boards as the cells program's grid: 0 FREE, 1 QUEEN, 2 THREAT.\n" +
	"--no-rejects leaves the rejected tries out of the text and the GIF (the steps keep their\n" +
	"numbers; the GIF still dots them on the next queen's frame): only the places, dead ends,\n" +
	"backtracks and solutions. At a class's pace: --no-rejects --delay 1s."

// Command returns queens trace.
func Command() *cli.Command { return newTraceCommand(runTrace) }

// newTraceCommand returns the trace command; its action reads the flags
// into traceOptions, checks them into a traceConfig and hands it to run
// (tests pass their own).
func newTraceCommand(run func(ctx context.Context, cfg traceConfig, stdout io.Writer) error) *cli.Command {
	return &cli.Command{
		Name:      "trace",
		Usage:     "show the backtracking search step by step (text, boards, an animated GIF)",
		UsageText: traceUsage,
		Flags: []cli.Flag{
			cmdutil.SizeFlag(), cmdutil.PlaceFlag(),
			&cli.BoolFlag{Name: "all", Usage: "trace the whole search, not just up to the first solution"},
			&cli.StringFlag{Name: "order", Value: "rows", Usage: "fill `O`: rows (top to bottom) or columns (left to right, as the textbook's figures)"},
			&cli.StringFlag{Name: "strategy", Value: "lex", Usage: "the search `S`: lex, iterative, cells, generate or scan (see above)"},
			&cli.StringFlag{Name: "narrate", Value: "steps", Usage: "tell the search as `S`: steps (try, place, backtrack) or agents (queen K asks queen K-1 to advance)"},
			&cli.BoolFlag{Name: "boards", Usage: "draw the board after every step"},
			&cli.BoolFlag{Name: "grid", Usage: "with --boards, draw each board as the course text's cells grid: 0 FREE, 1 QUEEN, 2 THREAT"},
			&cli.BoolFlag{Name: "stack", Usage: "show the search's stack after every step: the recursive calls, or iterative's explicit stack"},
			&cli.BoolFlag{Name: "no-rejects", Usage: "leave out the rejected tries (text and GIF)"},
			&cli.IntFlag{Name: "max-steps", DefaultText: fmt.Sprintf("none; %d with --all or above n = %d", cmdutil.TraceAllSteps, cmdutil.TraceFirstN), Usage: "stop after `K` steps (0: no limit)"},
			&cli.DurationFlag{Name: "delay", DefaultText: "none", Action: cmdutil.DurationRange("delay", 0, cmdutil.MaxDelay),
				Usage: "in a terminal, wait `D` between steps and redraw in place (an animation); with --gif, the time per frame (otherwise about 45s for the whole GIF); at most 655.35s"},
			&cli.StringFlag{Name: "gif", Usage: "also write the search as an animated GIF to `FILE`"},
			cmdutil.FormatFlag("text", "json"),
		},
		Action: func(c *cli.Context) error {
			cfg, err := traceFlags(c).check()
			if err != nil {
				return err
			}
			return run(c.Context, cfg, c.App.Writer)
		},
	}
}

// errStopTrace ends the search once --max-steps is reached, errEnoughFrames
// the count of the frames of --gif.
var (
	errStopTrace    = errors.New("trace: enough steps")
	errEnoughFrames = errors.New("trace: too many frames")
)

// traceRun is what one trace does: the search and which steps it shows.
type traceRun struct {
	n         int
	placed    []board.Queen
	order     backtrack.Order
	strategy  backtrack.Strategy
	all       bool
	maxSteps  int // 0: no limit
	noRejects bool
}

// run runs the search and calls show with every step and its number
// (hidden set for the rejected tries with noRejects) until maxSteps
// steps were taken or show returns false. It returns the steps taken, the counts of
// each kind, whether maxSteps stopped it, and the search's error.
func (tr traceRun) run(ctx context.Context, show func(number int, st backtrack.Step, hidden bool) bool) (steps int, kinds [backtrack.NumStepKinds]int, stopped bool, err error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	nr := backtrack.Narrator{Order: tr.order, Strategy: tr.strategy}
	quit := false
	step := func(st backtrack.Step) {
		// Ctx ended (Ctrl-C): the search notices only every few thousand
		// nodes, and shows nothing more meanwhile.
		if quit || ctx.Err() != nil {
			return
		}
		if tr.maxSteps > 0 && steps >= tr.maxSteps {
			cancel(errStopTrace)
			quit = true
			return
		}
		steps++
		kinds[st.Kind]++
		if !show(steps, st, tr.noRejects && st.Kind == backtrack.StepReject) {
			cancel(errEnoughFrames)
			quit = true
		}
	}
	opt := backtrack.Options{Place: tr.placed, Strategy: tr.strategy, Order: tr.order, Observe: func(e backtrack.Event) {
		for _, st := range nr.Event(e) {
			step(st)
		}
	}}
	_, err = backtrack.Search(ctx, tr.n, opt, func(board.Solution) bool { return tr.all && !quit })
	if !quit {
		for _, st := range nr.End(tr.n, tr.placed) {
			step(st)
		}
	}
	cause := context.Cause(ctx)
	if errors.Is(cause, errStopTrace) || errors.Is(cause, errEnoughFrames) {
		err = nil
	}
	return steps, kinds, errors.Is(cause, errStopTrace), err
}

// traceConfig is what the flags of trace ask for, checked.
type traceConfig struct {
	traceRun
	format       string
	agents       bool
	boards       bool // a board after every step (--boards, or an animation)
	stack        bool // the stack after every step
	grid         bool // the boards as the cells program's 0/1/2 grid (--grid)
	animate      bool // redraw in place in the terminal, waiting delay between steps (set by runTrace)
	defaultLimit bool // --all stops at traceAllSteps, as --max-steps was not given
	delay        time.Duration
	gif          string // --gif FILE
}

// traceOptions are the flags and arguments of trace as given.
type traceOptions struct {
	args                            []string
	n                               int
	nSet                            bool
	place                           []string
	all, boards, grid, stack        bool
	noRejects                       bool
	orderName, strategyName, format string
	orderSet                        bool
	narrate                         string
	maxSteps                        int
	maxStepsSet                     bool
	delay                           time.Duration
	gif                             string
}

// traceFlags reads trace's flags: the one place that looks them up by
// name.
func traceFlags(c *cli.Context) traceOptions {
	return traceOptions{
		args: c.Args().Slice(), n: c.Int("n"), nSet: c.IsSet("n"), place: c.StringSlice("place"),
		all: c.Bool("all"), boards: c.Bool("boards"), grid: c.Bool("grid"), stack: c.Bool("stack"), noRejects: c.Bool("no-rejects"),
		orderName: c.String("order"), orderSet: c.IsSet("order"), strategyName: c.String("strategy"), format: c.String("format"),
		narrate: c.String("narrate"), maxSteps: c.Int("max-steps"), maxStepsSet: c.IsSet("max-steps"),
		delay: c.Duration("delay"), gif: c.String("gif"),
	}
}

// Check checks the options (usage errors, exit status 2) and resolves
// them into what the trace does.
func (o traceOptions) check() (traceConfig, error) {
	var cfg traceConfig
	if len(o.args) > 0 {
		return cfg, cmdutil.Usagef("trace: unexpected argument %q", o.args[0])
	}
	strategy, err := traceStrategy(o.strategyName)
	if err != nil {
		return cfg, err
	}
	if err := cmdutil.CheckBoardSize(o.n, o.nSet, cmdutil.MaxTraceN); err != nil {
		return cfg, err
	}
	if err := cmdutil.StrategyLimit(strategy, o.n); err != nil {
		return cfg, err
	}
	placed, err := cmdutil.ParsePlacements(o.place, o.n)
	if err != nil {
		return cfg, err
	}
	cfg = traceConfig{format: o.format, delay: o.delay, stack: o.stack, grid: o.grid, boards: o.boards, gif: o.gif}
	if cfg.agents, err = o.checkNarrate(strategy); err != nil {
		return cfg, err
	}
	order, err := backtrack.ParseOrder(o.orderName)
	if err != nil {
		return cfg, cmdutil.UsageErr(fmt.Errorf("--order: %w", err))
	}
	if cfg.agents && !o.orderSet {
		order = backtrack.Columns // the agents of the textbook live in columns
	}
	maxSteps := o.maxSteps
	if maxSteps < 0 || o.delay < 0 {
		return cfg, cmdutil.Usagef("--max-steps and --delay cannot be negative")
	}
	cfg.defaultLimit = !o.maxStepsSet && (o.all || o.n > cmdutil.TraceFirstN)
	if cfg.defaultLimit {
		maxSteps = cmdutil.TraceAllSteps
	}
	cfg.traceRun = traceRun{n: o.n, placed: placed, order: order, strategy: strategy, all: o.all, maxSteps: maxSteps, noRejects: o.noRejects}
	if cfg.grid && !o.boards {
		return cfg, cmdutil.Usagef("--grid draws the boards as the cells program's grid: with --boards")
	}
	return cfg, nil
}

// checkNarrate checks --format and --narrate, and whether the agents
// tell strategy's steps: it returns whether they do.
func (o traceOptions) checkNarrate(strategy backtrack.Strategy) (agents bool, err error) {
	if o.format != "text" && o.format != "json" {
		return false, cmdutil.Usagef("--format %q: want text or json", o.format)
	}
	if o.boards && o.format == "json" {
		return false, cmdutil.Usagef("--boards draws text boards: not with --format json")
	}
	switch o.narrate {
	case "steps":
		return false, nil
	case "agents":
	default:
		return false, cmdutil.Usagef("--narrate %q: want steps or agents", o.narrate)
	}
	if o.format == "json" {
		return false, cmdutil.Usagef("--narrate agents tells the steps in words: not with --format json")
	}
	if err := backtrack.AgentsTell(strategy); err != nil {
		return false, cmdutil.Usagef("--narrate agents with --strategy %s: %v", strategy, err)
	}
	return true, nil
}

// traceStrategy reads --strategy of trace: the strategies that trace
// (auto is lex, as every board trace takes is small).
func traceStrategy(name string) (backtrack.Strategy, error) {
	s, err := backtrack.ParseStrategy(name)
	if err != nil {
		return s, cmdutil.UsageErr(err)
	}
	if s == backtrack.Heuristic {
		return s, cmdutil.Usagef("--strategy heuristic is for big boards: trace lex, iterative, cells, generate or scan")
	}
	return s.Resolve(1), nil
}

// openGIF creates the --gif writer, nil without --gif: it counts the
// frames first (refusing too many) to pick the delay unless --delay
// gives one.
func (cfg traceConfig) openGIF(ctx context.Context) (*draw.TraceGIF, *cmdutil.Output, error) {
	path := cfg.gif
	if path == "" {
		return nil, nil, nil
	}
	if path == "-" {
		return nil, nil, cmdutil.Usagef("--gif needs a file name (stdout has the trace)")
	}
	weight, err := cfg.checkFrames(ctx)
	if err != nil {
		return nil, nil, err
	}
	out, err := cmdutil.OpenOutputContext(ctx, path, nil)
	if err != nil {
		return nil, nil, err
	}
	anim := draw.NewTraceGIF(out, cfg.n, cfg.placed)
	anim.Delay = draw.DefaultDelay(weight)
	if cfg.delay > 0 {
		anim.Delay = min(max(2, int(cfg.delay/(10*time.Millisecond))), maxGIFDelay)
	}
	if err := anim.Start(); err != nil {
		out.Abort()
		return nil, nil, err
	}
	return anim, out, nil
}

// maxGIFDelay is the longest delay a GIF frame can hold, in hundredths
// of a second.
const maxGIFDelay = 65535

// show returns the function that shows each step: a line (text or JSON),
// a board with --boards, a frame with --gif. It keeps the first write
// error in *werr and stops the trace with it.
func (cfg traceConfig) show(ctx context.Context, stdout io.Writer, anim *draw.TraceGIF, werr *error) func(number int, st backtrack.Step, hidden bool) bool {
	var buf []byte
	return func(number int, st backtrack.Step, hidden bool) bool {
		if hidden {
			if anim != nil {
				anim.Skip(frameOf(number, st, false))
			}
			return true
		}
		buf = buf[:0]
		if !cfg.stack {
			st.Stack = nil
		}
		if cfg.animate {
			buf = append(buf, "\x1b[H\x1b[2J"...) // redraw in place
		}
		switch {
		case cfg.format == "json":
			buf = st.AppendJSON(buf, number)
		case cfg.agents:
			buf = fmt.Appendf(buf, "%4d  %s\n", number, st.AgentText())
		default:
			buf = fmt.Appendf(buf, "%4d  %s\n", number, st.Text())
		}
		if cfg.stack && cfg.format != "json" {
			buf = fmt.Appendf(buf, "      %s\n", st.StackText())
		}
		if cfg.boards {
			f := frameOf(number, st, false)
			f.Grid = cfg.grid
			buf = draw.AppendTextBoard(buf, f, cfg.placed)
			if cfg.animate {
				buf = append(buf, cfg.legend()...)
			}
		}
		if _, *werr = stdout.Write(buf); *werr == nil && anim != nil {
			*werr = anim.Add(frameOf(number, st, cfg.agents))
		}
		if cfg.animate {
			sleep(ctx, cfg.delay)
		}
		return *werr == nil
	}
}

// runTrace runs the trace cfg describes, on stdout (animated in place
// when stdout is a terminal and --delay is given).
func runTrace(ctx context.Context, cfg traceConfig, stdout io.Writer) error {
	cfg.animate = cfg.delay > 0 && cfg.format == "text" && cmdutil.IsTerminal(stdout)
	cfg.boards = cfg.boards || cfg.animate
	anim, gifOut, err := cfg.openGIF(ctx)
	if err != nil {
		return err
	}
	if gifOut != nil {
		defer gifOut.Abort() // after a successful Commit there is nothing left to remove
	}
	if cfg.boards && !cfg.animate {
		if _, err := fmt.Fprint(stdout, cfg.legend()); err != nil {
			return err
		}
	}
	var werr error
	steps, kinds, stopped, err := cfg.run(ctx, cfg.show(ctx, stdout, anim, &werr))
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted after %s: %w", cmdutil.Plural(steps, "step"), err)
	}
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if err := cfg.writeSummary(stdout, steps, kinds, stopped); err != nil {
		return err
	}
	if anim == nil {
		return nil
	}
	if err := anim.Close(); err != nil {
		return err
	}
	return gifOut.Commit()
}

// writeSummary writes the last line of a trace: the counts of the steps
// taken, which for a whole search are the backtracker's statistics
// (Nodes, Backtracks, Solutions), as the tests check.
func (cfg traceConfig) writeSummary(w io.Writer, steps int, kinds [backtrack.NumStepKinds]int, stopped bool) error {
	places, backs, sols := kinds[backtrack.StepPlace], kinds[backtrack.StepBacktrack], kinds[backtrack.StepSolution]
	tests := 0 // Generate's tested placements: the failed ones and the solutions
	if cfg.strategy == backtrack.Generate {
		tests = kinds[backtrack.StepFail] + sols
	}
	if cfg.format == "json" {
		var orderName, strategyName string
		if cfg.order == backtrack.Columns {
			orderName = cfg.order.String()
		}
		if cfg.strategy != backtrack.Lex {
			strategyName = cfg.strategy.String()
		}
		return cmdutil.WriteJSONLine(w, struct {
			N          int    `json:"n"`
			Steps      int    `json:"steps"`
			Places     int    `json:"places"`
			Backtracks int    `json:"backtracks"`
			Solutions  int    `json:"solutions"`
			Tests      int    `json:"tests,omitempty"`
			Stopped    bool   `json:"stopped"`
			Order      string `json:"order,omitempty"`
			Strategy   string `json:"strategy,omitempty"`
		}{cfg.n, steps, places, backs, sols, tests, stopped, orderName, strategyName})
	}
	summary := fmt.Sprintf("%s: %s placed, %s, %s", cmdutil.Plural(steps, "step"),
		cmdutil.Plural(places, "queen"), cmdutil.Plural(backs, "backtrack"), cmdutil.Plural(sols, "solution"))
	if cfg.strategy == backtrack.Generate {
		summary += fmt.Sprintf(", %s tested", cmdutil.Plural(tests, "placement"))
	}
	if stopped {
		why := " (--max-steps)"
		if cfg.defaultLimit {
			why = fmt.Sprintf(" (the limit of --all; the whole search of n = %d is longer: --max-steps 0 traces it all)", cfg.n)
			if !cfg.all {
				why = fmt.Sprintf(" (the step limit above n = %d; the search for the first solution of n = %d is longer: --max-steps 0 traces it all)", cmdutil.TraceFirstN, cfg.n)
			}
		}
		summary = "stopped after " + strings.Replace(summary, ":", why+":", 1)
	}
	_, err := fmt.Fprintln(w, summary)
	return err
}

// checkFrames refuses a --gif of more than maxGIFSteps frames before
// anything is drawn, and returns the frames' total [draw.Weight] (the
// start frame's included) for the default delay: it runs the search once
// without drawing (milliseconds: the longest trace to a first solution,
// N = 16, takes 174445 steps).
func (tr traceRun) checkFrames(ctx context.Context) (int, error) {
	frames, last, weight := 0, 0, draw.Weight(draw.FrameStart)
	_, _, _, err := tr.run(ctx, func(number int, st backtrack.Step, hidden bool) bool {
		if hidden {
			return true
		}
		frames, last = frames+1, number
		weight += draw.Weight(frameKinds[st.Kind])
		return frames <= cmdutil.MaxGIFSteps
	})
	if err != nil {
		return 0, err
	}
	if frames > cmdutil.MaxGIFSteps {
		hint := " or --no-rejects"
		if tr.noRejects {
			hint = ""
		}
		return 0, cmdutil.Usagef("--gif draws at most %d frames, and this trace has more (frame %d is step %d, and the search goes on): bound it with --max-steps K%s", cmdutil.MaxGIFSteps, frames, last, hint)
	}
	return weight, nil
}

// legend is the key printed above the boards.
func (cfg traceConfig) legend() string {
	if cfg.grid {
		return draw.GridLegend
	}
	return draw.TextLegend
}

// frameKinds are the kinds of frame of the kinds of step.
var frameKinds = [backtrack.NumStepKinds]draw.FrameKind{
	backtrack.StepPlace: draw.FramePlace, backtrack.StepReject: draw.FrameReject, backtrack.StepDeadEnd: draw.FrameDeadEnd,
	backtrack.StepBacktrack: draw.FrameBacktrack, backtrack.StepSolution: draw.FrameSolution, backtrack.StepFail: draw.FrameFail,
}

// frameOf is the step st, numbered number, as the pictures draw it,
// captioned in the agents' words if agents.
func frameOf(number int, st backtrack.Step, agents bool) draw.Frame {
	return draw.Frame{
		Kind: frameKinds[st.Kind], Square: board.Queen{Row: st.Row, Col: st.Col}, Other: st.Attacker,
		Dead: st.DeadSquares(), Queens: st.Queens, Caption: st.Caption(number, agents),
		Untested: st.Strategy == backtrack.Generate,
	}
}

// sleep waits for d or until ctx ends, whichever comes first.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
