package cli

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strconv"
	"strings"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
	"github.com/urfave/cli/v2"
)

func traceCommand() *cli.Command {
	return &cli.Command{
		Name:  "trace",
		Usage: "show the backtracking search step by step (text, boards, an animated GIF)",
		UsageText: "queens trace -n N [--place R:C ...] [--all] [--order rows|columns] [--narrate steps|agents]\n" +
			"       [--boards] [--no-rejects] [--max-steps K] [--delay D] [--gif FILE] [--format text|json]\n\n" +
			"Each line is one step of the real backtracker (by default rows top to bottom, columns\n" +
			"left to right; squares are always ROW:COL, 1-based, as --place writes them):\n" +
			"  try R:C  place             the square is free: a queen goes there\n" +
			"  try R:C  rejected: ...     a queen already on the board attacks it\n" +
			"  dead end at row R          no square of row R is free\n" +
			"  backtrack to row R: ...    the queen of row R is taken away; row R goes on\n" +
			"  solution #K: ...           every row has a queen\n" +
			"--order columns fills the columns left to right, trying rows top to bottom, as the\n" +
			"textbooks do: the dead ends and backtracks then name columns (\"dead end at column 6\").\n" +
			"--narrate agents tells the same steps as the object-oriented formulation does: queen K\n" +
			"lives in column K and asks queen K-1 to advance when it finds no safe row (\"queen 6\n" +
			"finds no safe row and asks queen 5 to advance\"); it implies --order columns unless\n" +
			"--order rows is given (queen K then lives in row K).\n" +
			"The search stops at the first solution (every board up to the limit gets there: n = 16\n" +
			"after 174445 steps), or with --all at the end of the search; --all stops after\n" +
			fmt.Sprintf("%d steps unless --max-steps says otherwise (0: no limit), and says so.\n", traceAllSteps) +
			"--boards draws the board after every step, with the legend: Q a queen, P a pre-placed\n" +
			"one, * the queen just placed, x a rejected square (a whole line at a dead end), - a\n" +
			"square some queen attacks, . a free square.\n" +
			"--gif draws every step as a frame captioned with its number and what happened: the\n" +
			"attacked squares shaded, the new queen on yellow, rejected squares and dead ends in red,\n" +
			fmt.Sprintf("pre-placed queens in blue, solutions held longer; at most %d frames.\n", maxGIFSteps) +
			"--no-rejects leaves the rejected tries out of the text and the GIF (the steps keep their\n" +
			"numbers): only the places, dead ends, backtracks and solutions.",
		Flags: []cli.Flag{
			sizeFlag(), placeFlag(),
			&cli.BoolFlag{Name: "all", Usage: "trace the whole search, not just up to the first solution"},
			&cli.StringFlag{Name: "order", Value: "rows", Usage: "fill `O`: rows (top to bottom) or columns (left to right, the textbook order)"},
			&cli.StringFlag{Name: "narrate", Value: "steps", Usage: "tell the search as `S`: steps (try, place, backtrack) or agents (queen K asks queen K-1 to advance)"},
			&cli.BoolFlag{Name: "boards", Usage: "draw the board after every step"},
			&cli.BoolFlag{Name: "no-rejects", Usage: "leave out the rejected tries (text and GIF)"},
			&cli.IntFlag{Name: "max-steps", DefaultText: fmt.Sprintf("none; %d with --all", traceAllSteps), Usage: "stop after `K` steps (0: no limit)"},
			&cli.DurationFlag{Name: "delay", DefaultText: "none", Action: durationRange("delay", 0, maxDelay),
				Usage: "in a terminal, wait `D` between steps and redraw in place (an animation); with --gif, the time per frame (otherwise 300ms); at most 655.35s"},
			&cli.StringFlag{Name: "gif", Usage: "also write the search as an animated GIF to `FILE`"},
			formatFlag("text", "json"),
		},
		Action: runTrace,
	}
}

// appendTextBoard draws the placement of a step under its line, labelled
// with the row and column numbers: Q a queen (P a pre-placed one), * the
// square just placed, x a rejected square (the whole line at a dead end),
// - a square some queen attacks, . a free square.
func appendTextBoard(b []byte, st backtrack.Step, placed []board.Queen) []byte {
	n := len(st.Queens)
	const indent = "      "
	// Column labels: one line per digit, like --format board.
	for pow := 10; pow <= n; pow *= 10 {
		b = append(b, indent+"    "...)
		for col := 1; col <= n; col++ {
			if col > 1 {
				b = append(b, ' ')
			}
			if col < pow {
				b = append(b, ' ')
			} else {
				b = append(b, byte('0'+col/pow%10))
			}
		}
		b = append(b, '\n')
	}
	b = append(b, indent+"    "...)
	for col := 1; col <= n; col++ {
		if col > 1 {
			b = append(b, ' ')
		}
		b = append(b, byte('0'+col%10))
	}
	b = append(b, '\n')
	attacks := board.Attacks(n, st.Queens.PlacedQueens())
	deadLine := -1
	if st.Kind == backtrack.StepDeadEnd {
		deadLine = max(st.Row, st.Col)
	}
	for row := range n {
		b = fmt.Appendf(b, "%s%2d  ", indent, row+1)
		for col := range n {
			mark := byte('.')
			switch {
			case deadLine >= 0 && st.Order.Line(row, col) == deadLine,
				st.Kind == backtrack.StepReject && row == st.Row && col == st.Col:
				mark = 'x'
			case st.Kind == backtrack.StepPlace && row == st.Row && col == st.Col:
				mark = '*'
			case st.Queens[row] == col && isPlaced(placed, row, col):
				mark = 'P'
			case st.Queens[row] == col:
				mark = 'Q'
			case attacks[row*n+col] > 0:
				mark = '-'
			}
			if col > 0 {
				b = append(b, ' ')
			}
			b = append(b, mark)
		}
		b = append(b, '\n')
	}
	return append(b, '\n')
}

// boardsLegend is printed once above the boards of --boards.
const boardsLegend = "legend: Q queen, P pre-placed queen, * queen just placed, x rejected, - attacked, . free\n\n"

func isPlaced(qs []board.Queen, row, col int) bool {
	for _, q := range qs {
		if q.Row == row && q.Col == col {
			return true
		}
	}
	return false
}

// stepCaption is the caption of a GIF frame: the step's number and what
// happened, short enough for the picture ("12 place 2:3", "9 dead end
// row 3", "33 solution #1"); step 0 is the board before the search.
func stepCaption(number int, st backtrack.Step) string {
	if number == 0 {
		return "start"
	}
	sq := board.Queen{Row: st.Row, Col: st.Col}
	line, lineNo := "row", st.Row+1
	if st.Order == backtrack.Columns {
		line, lineNo = "column", st.Col+1
	}
	switch st.Kind {
	case backtrack.StepPlace:
		return fmt.Sprintf("%d place %s", number, sq)
	case backtrack.StepReject:
		return fmt.Sprintf("%d reject %s", number, sq)
	case backtrack.StepDeadEnd:
		return fmt.Sprintf("%d dead end %s %d", number, line, lineNo)
	case backtrack.StepBacktrack:
		return fmt.Sprintf("%d backtrack %s", number, sq)
	}
	return fmt.Sprintf("%d solution #%d", number, st.Solution)
}

// frame draws the step as a GIF frame: placed queens, the attacked squares
// shaded, the square tried in yellow (placed) or red (rejected), a dead
// end's line in red, and the caption.
func frame(number int, st backtrack.Step, placed []board.Queen, square int) (*image.Paletted, error) {
	opt := &draw.Options{Square: square, Attacks: true, Place: placed, Caption: stepCaption(number, st)}
	sq := []board.Queen{{Row: st.Row, Col: st.Col}}
	switch st.Kind {
	case backtrack.StepPlace:
		opt.Tried = sq
	case backtrack.StepReject:
		opt.Rejected = sq
	case backtrack.StepDeadEnd:
		for i := range st.Queens {
			if st.Order == backtrack.Columns {
				opt.Rejected = append(opt.Rejected, board.Queen{Row: i, Col: st.Col})
			} else {
				opt.Rejected = append(opt.Rejected, board.Queen{Row: st.Row, Col: i})
			}
		}
	}
	return draw.Image(st.Queens, opt)
}

// gifSquare is the side of a square in the frames of --gif: about 320
// pixels for the board.
func gifSquare(n int) int { return min(40, max(8, 320/n)) }

// traceGIF writes the frames of --gif as they come.
type traceGIF struct {
	w      *draw.GIFWriter
	out    *output
	delay  int // hundredths of a second per ordinary frame
	square int
	placed []board.Queen
	last   *image.Paletted // the whole picture of the last frame
}

// add draws the step; dead ends stay twice as long, solutions six times.
func (g *traceGIF) add(number int, st backtrack.Step) error {
	img, err := frame(number, st, g.placed, g.square)
	if err != nil {
		return err
	}
	delay := g.delay
	switch st.Kind {
	case backtrack.StepDeadEnd:
		delay *= 2
	case backtrack.StepSolution:
		delay *= 6
	}
	// A GIF delay is 16 bits: longer ones would wrap round to short.
	delay = min(delay, maxGIFDelay)
	part := img
	if g.last == nil {
		if g.w, err = draw.NewGIFWriter(g.out, img.Rect.Dx(), img.Rect.Dy()); err != nil {
			return err
		}
	} else {
		// Only the squares that changed: a step changes a few, so the
		// GIF stays small.
		part = draw.Diff(g.last, img)
	}
	g.last = img
	return g.w.Add(part, delay)
}

// maxGIFDelay is the longest delay a GIF frame can hold, in hundredths
// of a second.
const maxGIFDelay = 65535

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
	all       bool
	maxSteps  int // 0: no limit
	noRejects bool
}

// run runs the search and calls show with every step and its number
// (rejected tries left out with noRejects) until maxSteps steps were
// taken or show returns false. It returns the steps taken, the counts of
// each kind, whether maxSteps stopped it, and the search's error.
func (tr traceRun) run(ctx context.Context, show func(number int, st backtrack.Step) bool) (steps int, kinds [backtrack.NumStepKinds]int, stopped bool, err error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	nr := backtrack.Narrator{Order: tr.order}
	quit := false
	step := func(st backtrack.Step) {
		// ctx ended (Ctrl-C): the search notices only every few thousand
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
		if tr.noRejects && st.Kind == backtrack.StepReject {
			return
		}
		if !show(steps, st) {
			cancel(errEnoughFrames)
			quit = true
		}
	}
	opt := backtrack.Options{Place: tr.placed, Strategy: backtrack.Lex, Order: tr.order, Observe: func(e backtrack.Event) {
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

func runTrace(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("trace: unexpected argument %q", c.Args().First())
	}
	n, err := boardSize(c, maxTraceN)
	if err != nil {
		return err
	}
	placed, err := placements(c, n)
	if err != nil {
		return err
	}
	format := c.String("format")
	if format != "text" && format != "json" {
		return usagef("--format %q: want text or json", format)
	}
	if c.Bool("boards") && format == "json" {
		return usagef("--boards draws text boards: not with --format json")
	}
	agents := false
	switch c.String("narrate") {
	case "steps":
	case "agents":
		agents = true
	default:
		return usagef("--narrate %q: want steps or agents", c.String("narrate"))
	}
	if agents && format == "json" {
		return usagef("--narrate agents tells the steps in words: not with --format json")
	}
	order, err := backtrack.ParseOrder(c.String("order"))
	if err != nil {
		return usageErr(fmt.Errorf("--order: %w", err))
	}
	if agents && !c.IsSet("order") {
		order = backtrack.Columns // the agents of the textbook live in columns
	}
	maxSteps, delay := c.Int("max-steps"), c.Duration("delay")
	if maxSteps < 0 || delay < 0 {
		return usagef("--max-steps and --delay cannot be negative")
	}
	defaultLimit := !c.IsSet("max-steps") && c.Bool("all")
	if defaultLimit {
		maxSteps = traceAllSteps
	}
	tr := traceRun{n: n, placed: placed, order: order, all: c.Bool("all"), maxSteps: maxSteps, noRejects: c.Bool("no-rejects")}
	var anim *traceGIF
	if path := c.String("gif"); path != "" {
		if path == "-" {
			return usagef("--gif needs a file name (stdout has the trace)")
		}
		if err := tr.checkFrames(c.Context); err != nil {
			return err
		}
		out, err := openOutputContext(c.Context, path, nil)
		if err != nil {
			return err
		}
		defer out.Abort() // after a successful Commit there is nothing left to remove
		anim = &traceGIF{out: out, delay: 30, square: gifSquare(n), placed: placed}
		if delay > 0 {
			anim.delay = min(max(2, int(delay/(10*time.Millisecond))), maxGIFDelay)
		}
	}

	stdout := c.App.Writer
	// In a terminal, --delay redraws the line and the board in place.
	animate := delay > 0 && format == "text" && isTerminal(stdout)
	boards := c.Bool("boards") || animate
	var (
		buf  []byte
		werr error
	)
	if boards && !animate {
		_, werr = fmt.Fprint(stdout, boardsLegend)
	}
	show := func(number int, st backtrack.Step) bool {
		buf = buf[:0]
		if animate {
			buf = append(buf, "\x1b[H\x1b[2J"...) // redraw in place
		}
		switch {
		case format == "json":
			buf = st.AppendJSON(buf, number)
		case agents:
			buf = fmt.Appendf(buf, "%4d  %s\n", number, st.AgentText())
		default:
			buf = fmt.Appendf(buf, "%4d  %s\n", number, st.Text())
		}
		if boards {
			buf = appendTextBoard(buf, st, placed)
			if animate {
				buf = append(buf, boardsLegend...)
			}
		}
		if _, werr = stdout.Write(buf); werr == nil && anim != nil {
			werr = anim.add(number, st)
		}
		if animate {
			sleep(c.Context, delay)
		}
		return werr == nil
	}
	if werr != nil {
		return werr
	}
	steps, kinds, stopped, err := tr.run(c.Context, show)
	if err := c.Context.Err(); err != nil {
		return fmt.Errorf("interrupted after %s: %w", plural(steps, "step"), err)
	}
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	// The counts of the steps taken; for a whole search they are the
	// backtracker's statistics (Nodes, Backtracks, Solutions), as the tests
	// check.
	places, backs, sols := kinds[backtrack.StepPlace], kinds[backtrack.StepBacktrack], kinds[backtrack.StepSolution]
	summary := fmt.Sprintf("%s: %s placed, %s, %s", plural(steps, "step"),
		plural(places, "queen"), plural(backs, "backtrack"), plural(sols, "solution"))
	if stopped {
		why := " (--max-steps)"
		if defaultLimit {
			why = fmt.Sprintf(" (the limit of --all; the whole search of n = %d is longer: --max-steps 0 traces it all)", n)
		}
		summary = "stopped after " + strings.Replace(summary, ":", why+":", 1)
	}
	if format == "json" {
		var orderName string
		if order == backtrack.Columns {
			orderName = order.String()
		}
		err = writeJSONLine(stdout, struct {
			N          int    `json:"n"`
			Steps      int    `json:"steps"`
			Places     int    `json:"places"`
			Backtracks int    `json:"backtracks"`
			Solutions  int    `json:"solutions"`
			Stopped    bool   `json:"stopped"`
			Order      string `json:"order,omitempty"`
		}{n, steps, places, backs, sols, stopped, orderName})
	} else {
		_, err = fmt.Fprintln(stdout, summary)
	}
	if err != nil {
		return err
	}
	if anim != nil {
		if anim.w == nil {
			// Every step shown was left out (--no-rejects with a small
			// --max-steps): one frame of the board as it stands.
			start := make(board.Solution, n)
			for i := range start {
				start[i] = -1
			}
			for _, q := range placed {
				start[q.Row] = q.Col
			}
			st := backtrack.Step{Kind: backtrack.StepPlace, Row: -1, Col: -1, Queens: start, Order: order}
			if err := anim.add(0, st); err != nil {
				return err
			}
		}
		if err := anim.w.Close(); err != nil {
			return err
		}
		return anim.out.Commit()
	}
	return nil
}

// checkFrames refuses a --gif of more than maxGIFSteps frames before
// anything is drawn: unless --max-steps bounds it, it counts the frames
// by running the search once without drawing (milliseconds: the longest
// trace to a first solution, n = 16, takes 174445 steps).
func (tr traceRun) checkFrames(ctx context.Context) error {
	if tr.maxSteps > 0 && tr.maxSteps <= maxGIFSteps {
		return nil
	}
	frames := 0
	last := 0
	_, _, _, err := tr.run(ctx, func(number int, _ backtrack.Step) bool {
		frames, last = frames+1, number
		return frames <= maxGIFSteps
	})
	if err != nil {
		return err
	}
	if frames > maxGIFSteps {
		hint := " or --no-rejects"
		if tr.noRejects {
			hint = ""
		}
		return usagef("--gif draws at most %d frames, and this trace has more (frame %d is step %d, and the search goes on): bound it with --max-steps K%s", maxGIFSteps, frames, last, hint)
	}
	return nil
}

// plural returns "1 word" or "k words".
func plural(k int, word string) string {
	if k == 1 {
		return "1 " + word
	}
	return strconv.Itoa(k) + " " + word + "s"
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
