package cli

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"math"
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
		UsageText: "queens trace -n N [--place R:C ...] [--all] [--boards] [--max-steps K] [--delay D] [--gif FILE] [--format text|json]\n\n" +
			"Each line is one step of the real backtracker (rows top to bottom, columns left to right):\n" +
			"  try R:C  place             the square is free: a queen goes there\n" +
			"  try R:C  rejected: ...     a queen already on the board attacks it\n" +
			"  dead end at row R          no square of row R is free\n" +
			"  backtrack to row R: ...    the queen of row R is taken away; row R goes on\n" +
			"  solution #K: ...           every row has a queen\n" +
			"The search stops at the first solution, or with --all at the end, or after --max-steps.\n" +
			"--boards marks Q a queen, P a pre-placed one, * the new queen, x a rejected square.\n" +
			"--gif shows the attacked squares shaded, the new queen on yellow, rejected squares and\n" +
			"dead ends in red, solutions held longer.",
		Flags: []cli.Flag{
			sizeFlag(), placeFlag(),
			&cli.BoolFlag{Name: "all", Usage: "trace the whole search, not just up to the first solution"},
			&cli.BoolFlag{Name: "boards", Usage: "draw the board after every step"},
			intFlag("max-steps", 1000, 0, math.MaxInt, "stop after `K` steps (0: no limit; --gif: at most 2000)"),
			&cli.DurationFlag{Name: "delay", DefaultText: "none", Action: durationRange("delay", 0, maxDelay),
				Usage: "in a terminal, wait `D` between steps and redraw in place (an animation); with --gif, the time per frame (otherwise 300ms); at most 655.35s"},
			&cli.StringFlag{Name: "gif", Usage: "also write the search as an animated GIF to `FILE`"},
			formatFlag("text", "json"),
		},
		Action: runTrace,
	}
}

// appendTextBoard draws the placement of a step under its line: Q a queen
// (P a pre-placed one), * the square just placed, x a rejected square
// (the whole row at a dead end), . an empty square.
func appendTextBoard(b []byte, st backtrack.Step, placed []board.Queen) []byte {
	n := len(st.Queens)
	for row := range n {
		b = append(b, "      "...)
		for col := range n {
			mark := byte('.')
			switch {
			case st.Kind == backtrack.StepDeadEnd && row == st.Row,
				st.Kind == backtrack.StepReject && row == st.Row && col == st.Col:
				mark = 'x'
			case st.Kind == backtrack.StepPlace && row == st.Row && col == st.Col:
				mark = '*'
			case st.Queens[row] == col && isPlaced(placed, row, col):
				mark = 'P'
			case st.Queens[row] == col:
				mark = 'Q'
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

func isPlaced(qs []board.Queen, row, col int) bool {
	for _, q := range qs {
		if q.Row == row && q.Col == col {
			return true
		}
	}
	return false
}

// frame draws the step as a GIF frame: placed queens, the attacked squares
// shaded, the square tried in yellow (placed) or red (rejected), a dead
// end's row in red.
func frame(st backtrack.Step, placed []board.Queen, square int) (*image.Paletted, error) {
	opt := &draw.Options{Square: square, Attacks: true, Placed: placed}
	sq := []board.Queen{{Row: st.Row, Col: st.Col}}
	switch st.Kind {
	case backtrack.StepPlace:
		opt.Tried = sq
	case backtrack.StepReject:
		opt.Rejected = sq
	case backtrack.StepDeadEnd:
		for col := range st.Queens {
			opt.Rejected = append(opt.Rejected, board.Queen{Row: st.Row, Col: col})
		}
	}
	return draw.Image(st.Queens, opt)
}

// gifSquare is the side of a square in the frames of --gif: about 320
// pixels for the board.
func gifSquare(n int) int { return min(40, max(8, 320/n)) }

// traceGIF collects the frames of --gif.
type traceGIF struct {
	anim   gif.GIF
	delay  int // hundredths of a second per ordinary frame
	square int
	placed []board.Queen
	last   *image.Paletted // the whole picture of the last frame
}

// add draws the step; dead ends stay twice as long, solutions six times.
func (g *traceGIF) add(st backtrack.Step) error {
	img, err := frame(st, g.placed, g.square)
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
	frame := img
	if g.last != nil {
		// Only the squares that changed: a step changes one or two, so
		// the GIF stays small and so does the memory for its frames.
		frame = draw.Diff(g.last, img)
	}
	g.last = img
	g.anim.Image = append(g.anim.Image, frame)
	g.anim.Delay = append(g.anim.Delay, delay)
	return nil
}

// maxGIFDelay is the longest delay a GIF frame can hold, in hundredths
// of a second.
const maxGIFDelay = 65535

// errStopTrace ends the search once --max-steps is reached.
var errStopTrace = errors.New("trace: enough steps")

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
	maxSteps, delay := c.Int("max-steps"), c.Duration("delay")
	if maxSteps < 0 || delay < 0 {
		return usagef("--max-steps and --delay cannot be negative")
	}
	var anim *traceGIF
	var gifOut *output
	if path := c.String("gif"); path != "" {
		if maxSteps == 0 || maxSteps > maxGIFSteps {
			return usagef("--gif draws at most %d steps: set --max-steps 1..%d", maxGIFSteps, maxGIFSteps)
		}
		if path == "-" {
			return usagef("--gif needs a file name (stdout has the trace)")
		}
		if gifOut, err = openOutputContext(c.Context, path, nil); err != nil {
			return err
		}
		defer gifOut.Abort() // after a successful Commit there is nothing left to remove
		anim = &traceGIF{delay: 30, square: gifSquare(n), placed: placed}
		if delay > 0 {
			anim.delay = min(max(2, int(delay/(10*time.Millisecond))), maxGIFDelay)
		}
	}

	stdout := c.App.Writer
	// In a terminal, --delay redraws the line and the board in place.
	animate := delay > 0 && format == "text" && isTerminal(stdout)
	boards := c.Bool("boards") || animate
	var (
		nr    backtrack.Narrator
		steps int
		shown [backtrack.NumStepKinds]int // steps shown of each kind
		buf   []byte
		werr  error
	)
	ctx, cancel := context.WithCancelCause(c.Context)
	defer cancel(nil)
	show := func(st backtrack.Step) {
		// ctx ended (Ctrl-C, or --max-steps): the search notices only
		// every few thousand nodes, and shows nothing more meanwhile.
		if werr != nil || ctx.Err() != nil || (maxSteps > 0 && steps >= maxSteps) {
			cancel(errStopTrace)
			return
		}
		steps++
		shown[st.Kind]++
		buf = buf[:0]
		if animate {
			buf = append(buf, "\x1b[H\x1b[2J"...) // redraw in place
		}
		if format == "json" {
			buf = st.AppendJSON(buf, steps)
		} else {
			buf = fmt.Appendf(buf, "%4d  %s\n", steps, st.Text())
			if boards {
				buf = appendTextBoard(buf, st, placed)
			}
		}
		if _, werr = stdout.Write(buf); werr == nil && anim != nil {
			werr = anim.add(st)
		}
		if animate {
			sleep(ctx, delay)
		}
	}
	opt := backtrack.Options{Place: placed, Strategy: backtrack.Lex, Observe: func(e backtrack.Event) {
		for _, st := range nr.Event(e) {
			show(st)
		}
	}}
	all := c.Bool("all")
	_, err = backtrack.Search(ctx, n, opt, func(board.Solution) bool { return all && werr == nil })
	for _, st := range nr.End(n, placed) {
		show(st)
	}
	if err := c.Context.Err(); err != nil {
		return fmt.Errorf("interrupted after %s: %w", plural(steps, "step"), err)
	}
	stopped := errors.Is(context.Cause(ctx), errStopTrace)
	if err != nil && !stopped {
		return err
	}
	if werr != nil {
		return werr
	}
	// The counts of the steps shown; for a whole search they are the
	// backtracker's statistics (Nodes, Backtracks, Solutions), as the tests
	// check.
	places, backs, sols := shown[backtrack.StepPlace], shown[backtrack.StepBacktrack], shown[backtrack.StepSolution]
	summary := fmt.Sprintf("%s: %s placed, %s, %s", plural(steps, "step"),
		plural(places, "queen"), plural(backs, "backtrack"), plural(sols, "solution"))
	if stopped {
		summary = "stopped after " + strings.Replace(summary, ":", " (--max-steps):", 1)
	}
	if format == "json" {
		err = writeJSONLine(stdout, struct {
			N          int  `json:"n"`
			Steps      int  `json:"steps"`
			Places     int  `json:"places"`
			Backtracks int  `json:"backtracks"`
			Solutions  int  `json:"solutions"`
			Stopped    bool `json:"stopped"`
		}{n, steps, places, backs, sols, stopped})
	} else {
		_, err = fmt.Fprintln(stdout, summary)
	}
	if err != nil {
		return err
	}
	if anim != nil {
		if err := gif.EncodeAll(gifOut, &anim.anim); err != nil {
			return fmt.Errorf("write GIF: %w", err)
		}
		return gifOut.Commit()
	}
	return nil
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

// plural returns "1 word" or "k words".
func plural(k int, word string) string {
	if k == 1 {
		return "1 " + word
	}
	return strconv.Itoa(k) + " " + word + "s"
}
