package draw

import (
	"fmt"
	"image"
	"io"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
)

// The pictures of a trace: the steps of a backtracking search
// ([backtrack.Step]) as text boards and as the frames of an animated GIF.

// TextLegend is the key to [AppendTextBoard]'s marks, printed once above
// a trace's boards.
const TextLegend = "legend: Q queen, P pre-placed queen, * queen just placed, x rejected, - attacked, . free\n\n"

// AppendTextBoard appends the placement of a step as a text board,
// labelled with the row and column numbers and indented under the step's
// line: Q a queen (P a pre-placed one, one of placed), * the square just
// placed, x a rejected square (the whole line at a dead end), - a square
// some queen attacks, . a free square.
func AppendTextBoard(b []byte, st backtrack.Step, placed []board.Queen) []byte {
	n := len(st.Queens)
	const indent = "      "
	b = board.AppendColumnLabels(b, n, indent+"    ")
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

func isPlaced(qs []board.Queen, row, col int) bool {
	for _, q := range qs {
		if q.Row == row && q.Col == col {
			return true
		}
	}
	return false
}

// Caption is the caption of a trace's frame: the step's number and what
// happened, short enough for the picture ("12 place 2:3", "9 dead end
// row 3", "33 solution #1"); with agents in the words of the
// object-oriented formulation ("12 queen 2 moves to row 3", "9 queen 3
// asks queen 2 to advance"). Step 0 is the board before the search.
func Caption(number int, st backtrack.Step, agents bool) string {
	if number == 0 {
		return "start"
	}
	sq := board.Queen{Row: st.Row, Col: st.Col}
	line, lineNo := "row", st.Row+1
	along, pos := "column", st.Col+1
	if st.Order == backtrack.Columns {
		line, lineNo = "column", st.Col+1
		along, pos = "row", st.Row+1
	}
	agent := st.Order.Line(st.Row, st.Col) + 1
	if agents {
		switch st.Kind {
		case backtrack.StepPlace:
			return fmt.Sprintf("%d queen %d moves to %s %d", number, agent, along, pos)
		case backtrack.StepReject:
			return fmt.Sprintf("%d queen %d: %s %d attacked", number, agent, along, pos)
		case backtrack.StepDeadEnd:
			if st.Asked.Row < 0 {
				return fmt.Sprintf("%d queen %d: no safe %s, no one to ask", number, lineNo, along)
			}
			return fmt.Sprintf("%d queen %d asks queen %d to advance", number, lineNo, st.Order.Line(st.Asked.Row, st.Asked.Col)+1)
		case backtrack.StepBacktrack:
			return fmt.Sprintf("%d queen %d leaves %s %d", number, agent, along, pos)
		case backtrack.StepFail:
			return fmt.Sprintf("%d queen %d attacked: test fails", number, agent)
		}
		return fmt.Sprintf("%d every queen safe: solution #%d", number, st.Solution)
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
	case backtrack.StepFail:
		return fmt.Sprintf("%d test fails %s", number, sq)
	}
	return fmt.Sprintf("%d solution #%d", number, st.Solution)
}

// TraceGIF writes the steps of a trace as an animated GIF, one frame per
// step, as they come: the attacked squares grey, the new queen on yellow
// with black dots on the squares it newly attacks, rejected squares red
// with a red dot left on each square rejected since the last queen was
// placed or taken away, a dead end's line red, the square a backtrack
// emptied with a grey outline of its queen, pre-placed queens blue, and
// a legend of it all. Each frame after the first holds only the squares
// that changed. Create one with [NewTraceGIF].
type TraceGIF struct {
	// Delay is the time an ordinary frame shows, in hundredths of a
	// second; dead ends stay twice as long, solutions six times and the
	// start frame four times.
	Delay int
	// Agents captions the frames in the words of [backtrack.Step.AgentText].
	Agents bool

	out     io.Writer
	w       *GIFWriter
	n       int
	square  int
	placed  []board.Queen
	legend  Legend
	cscale  int           // the caption's font: 2 where the board is wide enough for 40 letters
	rejects []board.Queen // rejected since the last place or backtrack
	last    *image.Paletted
}

// NewTraceGIF returns a writer of the animation of a search of the n×n
// board (at most [MaxN]) with the pre-placed queens placed, to w; the
// squares are about 320/n pixels. Nothing is written before the first
// frame.
func NewTraceGIF(w io.Writer, n int, placed []board.Queen) *TraceGIF {
	lg := LegendQueen | LegendAttacked | LegendTried | LegendRejected | LegendEmptied | LegendRejectDot | LegendAttackDot
	if len(placed) > 0 {
		lg |= LegendPlaced
	}
	g := &TraceGIF{Delay: 30, out: w, n: n, square: TraceSquare(n), placed: placed, legend: lg, cscale: 2}
	if g.square*n < 320 {
		g.cscale = 1
	}
	return g
}

// TraceSquare is the side of a square in the frames of a trace's GIF:
// about 320 pixels for the board.
func TraceSquare(n int) int { return min(40, max(8, 320/max(n, 1))) }

// Weight is how many ordinary frames' time a frame of the step's kind
// stays: 2 for a dead end, 6 for a solution, 1 otherwise (and 4 for the
// start frame, number 0).
func Weight(number int, kind backtrack.StepKind) int {
	switch {
	case number == 0:
		return 4
	case kind == backtrack.StepDeadEnd:
		return 2
	case kind == backtrack.StepSolution:
		return 6
	}
	return 1
}

// DefaultDelay returns the delay per ordinary frame, in hundredths of a
// second, that makes an animation of frames of the given total
// [Weight] last about 45 seconds: long enough to follow the search,
// short enough to watch to the end. It is at least 4 (browsers draw
// shorter delays as 10) and at most 50, so that a short trace shows each
// step for half a second.
func DefaultDelay(weight int) int {
	return min(50, max(4, 4500/max(weight, 1)))
}

// Start draws the first frame: the board before the search, with the
// pre-placed queens.
func (g *TraceGIF) Start() error {
	q := make(board.Solution, g.n)
	for i := range q {
		q[i] = -1
	}
	for _, p := range g.placed {
		q[p.Row] = p.Col
	}
	return g.Add(0, backtrack.Step{Kind: backtrack.StepPlace, Row: -1, Col: -1, Queens: q})
}

// Add draws the step as the frame of the given number.
func (g *TraceGIF) Add(number int, st backtrack.Step) error {
	opt := &Options{Square: g.square, Attacks: true, Place: g.placed, Caption: Caption(number, st, g.Agents), CaptionScale: g.cscale, Legend: g.legend}
	sq := []board.Queen{{Row: st.Row, Col: st.Col}}
	switch st.Kind {
	case backtrack.StepPlace:
		if number > 0 {
			opt.Tried = sq
			opt.AttackDots = newlyAttacked(st)
		}
		g.rejects = g.rejects[:0]
	case backtrack.StepReject:
		opt.Rejected = sq
		opt.RejectDots = g.rejects
		g.rejects = append(g.rejects, sq[0])
	case backtrack.StepDeadEnd:
		for i := range st.Queens {
			if st.Order == backtrack.Columns {
				opt.Rejected = append(opt.Rejected, board.Queen{Row: i, Col: st.Col})
			} else {
				opt.Rejected = append(opt.Rejected, board.Queen{Row: st.Row, Col: i})
			}
		}
		g.rejects = g.rejects[:0]
	case backtrack.StepBacktrack:
		opt.Emptied = sq
		g.rejects = g.rejects[:0]
	case backtrack.StepFail:
		opt.Rejected = []board.Queen{sq[0], st.Attacker}
	}
	img, err := Image(st.Queens, opt)
	if err != nil {
		return err
	}
	delay := min(g.Delay*Weight(number, st.Kind), 0xffff)
	part := img
	if g.last == nil {
		if g.w, err = NewGIFWriter(g.out, img.Rect.Dx(), img.Rect.Dy()); err != nil {
			return err
		}
	} else {
		part = Diff(g.last, img) // a step changes a few squares: the GIF stays small
	}
	g.last = img
	return g.w.Add(part, delay)
}

// newlyAttacked returns the squares that the queen a step placed attacks
// and no other queen did.
func newlyAttacked(st backtrack.Step) []board.Queen {
	n := len(st.Queens)
	before := st.Queens.Clone()
	before[st.Row] = -1
	old := board.Attacks(n, before.PlacedQueens())
	now := board.Attacks(n, st.Queens.PlacedQueens())
	var out []board.Queen
	for i, v := range now {
		if v > 0 && old[i] == 0 && i != st.Row*n+st.Col {
			out = append(out, board.Queen{Row: i / n, Col: i % n})
		}
	}
	return out
}

// Frames returns the number of frames written.
func (g *TraceGIF) Frames() int {
	if g.w == nil {
		return 0
	}
	return g.w.Frames()
}

// Close ends the GIF (a start frame first if no frame was drawn); it
// does not close the underlying writer.
func (g *TraceGIF) Close() error {
	if g.w == nil {
		if err := g.Start(); err != nil {
			return err
		}
	}
	return g.w.Close()
}
