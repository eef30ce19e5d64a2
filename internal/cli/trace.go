package cli

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/gif"
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
			&cli.IntFlag{Name: "max-steps", Value: 1000, Usage: "stop after `K` steps (0: no limit; --gif: at most 2000)"},
			&cli.DurationFlag{Name: "delay", DefaultText: "none", Usage: "in a terminal, wait `D` between steps and redraw in place (an animation); with --gif, the time per frame (otherwise 300ms)"},
			&cli.StringFlag{Name: "gif", Usage: "also write the search as an animated GIF to `FILE`"},
			formatFlag("text", "json"),
		},
		Action: runTrace,
	}
}

// traceKind is what one step of a trace says.
type traceKind uint8

const (
	stepPlace traceKind = iota
	stepReject
	stepDeadEnd
	stepBacktrack
	stepSolution
)

var traceKindNames = [...]string{"place", "reject", "dead-end", "backtrack", "solution"}

// traceStep is one line of a trace.
type traceStep struct {
	kind     traceKind
	row, col int            // 0-based square; dead end: row only (col -1)
	attacker board.Queen    // reject: the queen that attacks the square
	line     string         // reject: "column", "diagonal" or "anti-diagonal"
	queens   board.Solution // the placement after the step, -1 for an empty row
	solution int            // solution: its number, from 1
}

// narrator turns the backtracker's events into the steps of a trace: a
// try and its outcome make one step, and a row whose every square was
// rejected is reported as a dead end before the search steps back.
type narrator struct {
	tried      bool // a square was tried since the last place or backtrack
	tryRow     int
	afterPlace bool // the last place/backtrack/solution was a place
	placed     bool // some queen was placed at all
	solutions  int
}

// event returns the steps e completes (none for a try, whose outcome comes
// next). It copies e.Queens, which the search reuses.
func (nr *narrator) event(e backtrack.Event) []traceStep {
	step := traceStep{row: e.Row, col: e.Col}
	switch e.Kind {
	case backtrack.EventTry:
		nr.tried, nr.tryRow = true, e.Row
		return nil
	case backtrack.EventReject:
		step.kind, step.attacker, step.line = stepReject, e.Attacker, attackLine(e.Attacker, e.Row, e.Col)
	case backtrack.EventPlace:
		step.kind = stepPlace
		nr.afterPlace, nr.placed, nr.tried = true, true, false
	case backtrack.EventBacktrack:
		step.kind = stepBacktrack
		// The dead end came before the queen was taken away.
		before := e.Queens.Clone()
		before[e.Row] = e.Col
		steps := nr.deadEnd(before)
		nr.afterPlace, nr.tried = false, false
		step.queens = e.Queens.Clone()
		return append(steps, step)
	case backtrack.EventSolution:
		nr.solutions++
		step.kind, step.solution = stepSolution, nr.solutions
		nr.afterPlace, nr.tried = false, false
	default:
		return nil
	}
	step.queens = e.Queens.Clone()
	return []traceStep{step}
}

// deadEnd returns the dead-end step, showing queens (which it keeps), if
// the squares tried since the last place (or since the start, when
// nothing was ever placed) were all rejected.
func (nr *narrator) deadEnd(queens board.Solution) []traceStep {
	if !nr.tried || (!nr.afterPlace && nr.placed) {
		return nil
	}
	return []traceStep{{kind: stepDeadEnd, row: nr.tryRow, col: -1, queens: queens}}
}

// attackLine names the line along which the queen a attacks (row, col).
func attackLine(a board.Queen, row, col int) string {
	switch {
	case a.Col == col:
		return "column"
	case a.Row-row == a.Col-col:
		return "diagonal"
	}
	return "anti-diagonal"
}

// text describes the step in one line, 1-based like --place.
func (st traceStep) text() string {
	sq := board.Queen{Row: st.row, Col: st.col}
	switch st.kind {
	case stepPlace:
		return fmt.Sprintf("try %s  place", sq)
	case stepReject:
		return fmt.Sprintf("try %s  rejected: attacked by the queen at %s along the %s", sq, st.attacker, st.line)
	case stepDeadEnd:
		return fmt.Sprintf("dead end at row %d: every square is attacked", st.row+1)
	case stepBacktrack:
		return fmt.Sprintf("backtrack to row %d: take away the queen at %s", st.row+1, sq)
	}
	b, _ := board.Append(nil, st.queens, board.FormatCoords)
	return fmt.Sprintf("solution #%d: %s", st.solution, b[:len(b)-1])
}

// appendJSON appends the step as one JSON object and a newline, 0-based.
func (st traceStep) appendJSON(b []byte, number int) []byte {
	b = fmt.Appendf(b, `{"step":%d,"event":%q`, number, traceKindNames[st.kind])
	switch st.kind {
	case stepSolution:
		b = fmt.Appendf(b, `,"solution":%d`, st.solution)
	case stepDeadEnd:
		b = fmt.Appendf(b, `,"row":%d`, st.row)
	default:
		b = fmt.Appendf(b, `,"row":%d,"col":%d`, st.row, st.col)
	}
	if st.kind == stepReject {
		b = fmt.Appendf(b, `,"attacker":{"row":%d,"col":%d},"line":%q`, st.attacker.Row, st.attacker.Col, st.line)
	}
	b = append(b, `,"queens":[`...)
	for row, col := range st.queens {
		if row > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(col), 10)
	}
	return append(b, "]}\n"...)
}

// appendTextBoard draws the placement of a step under its line: Q a queen
// (P a pre-placed one), * the square just placed, x a rejected square
// (the whole row at a dead end), . an empty square.
func (st traceStep) appendTextBoard(b []byte, placed []board.Queen) []byte {
	n := len(st.queens)
	for row := range n {
		b = append(b, "      "...)
		for col := range n {
			mark := byte('.')
			switch {
			case st.kind == stepDeadEnd && row == st.row,
				st.kind == stepReject && row == st.row && col == st.col:
				mark = 'x'
			case st.kind == stepPlace && row == st.row && col == st.col:
				mark = '*'
			case st.queens[row] == col && isPlaced(placed, row, col):
				mark = 'P'
			case st.queens[row] == col:
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
func (st traceStep) frame(placed []board.Queen, square int) (*image.Paletted, error) {
	opt := &draw.Options{Square: square, Attacks: true, Placed: placed}
	sq := []board.Queen{{Row: st.row, Col: st.col}}
	switch st.kind {
	case stepPlace:
		opt.Tried = sq
	case stepReject:
		opt.Rejected = sq
	case stepDeadEnd:
		for col := range st.queens {
			opt.Rejected = append(opt.Rejected, board.Queen{Row: st.row, Col: col})
		}
	}
	return draw.Image(st.queens, opt)
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
func (g *traceGIF) add(st traceStep) error {
	img, err := st.frame(g.placed, g.square)
	if err != nil {
		return err
	}
	delay := g.delay
	switch st.kind {
	case stepDeadEnd:
		delay *= 2
	case stepSolution:
		delay *= 6
	}
	frame := img
	if g.last != nil {
		// Only the squares that changed: a step changes one or two, so
		// the GIF stays small and so does the memory for its frames.
		frame = changed(g.last, img)
	}
	g.last = img
	g.anim.Image = append(g.anim.Image, frame)
	g.anim.Delay = append(g.anim.Delay, delay)
	return nil
}

// changed returns the smallest part of img that differs from prev (same
// size), as its own image: drawn over prev it gives img.
func changed(prev, img *image.Paletted) *image.Paletted {
	box := image.Rectangle{}
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if i := img.PixOffset(x, y); img.Pix[i] != prev.Pix[i] {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if box.Empty() {
		box = image.Rect(0, 0, 1, 1) // GIF frames cannot be empty
	}
	part := image.NewPaletted(box, img.Palette)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		copy(part.Pix[part.PixOffset(box.Min.X, y):part.PixOffset(box.Max.X, y)], img.Pix[img.PixOffset(box.Min.X, y):img.PixOffset(box.Max.X, y)])
	}
	return part
}

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
		if gifOut, err = openOutput(path, nil); err != nil {
			return err
		}
		defer gifOut.Abort() // after a successful Commit there is nothing left to remove
		anim = &traceGIF{delay: 30, square: gifSquare(n), placed: placed}
		if delay > 0 {
			anim.delay = max(2, int(delay/(10*time.Millisecond)))
		}
	}

	stdout := c.App.Writer
	// In a terminal, --delay redraws the line and the board in place.
	animate := delay > 0 && format == "text" && isTerminal(stdout)
	boards := c.Bool("boards") || animate
	var (
		nr    narrator
		steps int
		shown [len(traceKindNames)]int // steps shown of each kind
		buf   []byte
		werr  error
	)
	ctx, cancel := context.WithCancelCause(c.Context)
	defer cancel(nil)
	show := func(st traceStep) {
		if werr != nil || (maxSteps > 0 && steps >= maxSteps) {
			cancel(errStopTrace)
			return
		}
		steps++
		shown[st.kind]++
		buf = buf[:0]
		if animate {
			buf = append(buf, "\x1b[H\x1b[2J"...) // redraw in place
		}
		if format == "json" {
			buf = st.appendJSON(buf, steps)
		} else {
			buf = fmt.Appendf(buf, "%4d  %s\n", steps, st.text())
			if boards {
				buf = st.appendTextBoard(buf, placed)
			}
		}
		if _, werr = stdout.Write(buf); werr == nil && anim != nil {
			werr = anim.add(st)
		}
		if animate {
			time.Sleep(delay)
		}
	}
	opt := backtrack.Options{Place: placed, Strategy: backtrack.Lex, Observe: func(e backtrack.Event) {
		for _, st := range nr.event(e) {
			show(st)
		}
	}}
	all := c.Bool("all")
	_, err = backtrack.Search(ctx, n, opt, func(board.Solution) bool { return all && werr == nil })
	for _, st := range nr.deadEnd(nil) { // a search that never placed a queen
		st.queens = make(board.Solution, n)
		for i := range st.queens {
			st.queens[i] = -1
		}
		for _, q := range placed {
			st.queens[q.Row] = q.Col
		}
		show(st)
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
	places, backs, sols := shown[stepPlace], shown[stepBacktrack], shown[stepSolution]
	summary := fmt.Sprintf("%s: %s placed, %s, %s", plural(steps, "step"),
		plural(places, "queen"), plural(backs, "backtrack"), plural(sols, "solution"))
	if stopped {
		summary = "stopped after " + strings.Replace(summary, ":", " (--max-steps):", 1)
	}
	if format == "json" {
		_, err = fmt.Fprintf(stdout, `{"n":%d,"steps":%d,"places":%d,"backtracks":%d,"solutions":%d,"stopped":%t}`+"\n",
			n, steps, places, backs, sols, stopped)
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

// plural returns "1 word" or "k words".
func plural(k int, word string) string {
	if k == 1 {
		return "1 " + word
	}
	return strconv.Itoa(k) + " " + word + "s"
}
