package draw

import (
	"fmt"
	"image"
	"io"

	"github.com/queens-dev/queens/board"
)

// The pictures of a trace: the steps of a search, each told as a [Frame],
// as text boards and as the frames of an animated GIF. The package knows
// no search engine: the caller (queens trace) turns each step of its
// search into a Frame.

// FrameKind is what the step a [Frame] shows did.
type FrameKind uint8

// The kinds of [Frame].
const (
	FrameStart     FrameKind = iota // the board before the search
	FramePlace                      // a queen was put on Square
	FrameReject                     // Square was tried and is attacked
	FrameDeadEnd                    // every square of Dead was tried and is attacked
	FrameBacktrack                  // the queen on Square was taken away
	FrameSolution                   // Queens is a solution
	FrameFail                       // Queens fails a test: Square and Other attack each other
)

// Frame is one step of a search as the pictures show it.
type Frame struct {
	Kind FrameKind
	// Square is the square of the step (place, reject, backtrack, fail).
	Square board.Queen
	// Other is, for FrameFail, the queen Square shares a line with.
	Other board.Queen
	// Dead is, for FrameDeadEnd, the squares the dead end found attacked.
	Dead []board.Queen
	// Queens is the placement after the step, -1 for an empty row.
	Queens board.Solution
	// Caption is the frame's caption in the GIF, e.g. "12 place 2:3".
	Caption string
	// Untested says the queens stand where a search put them without
	// looking at the board (generate-and-test): the pictures then shade
	// no attacked square and mark no newly attacked one, as the search
	// knows none.
	Untested bool
	// Grid draws the text board as the grid of the course text's cells
	// program: 0 a free cell, 1 a queen, 2 a threatened cell (no marks of
	// the step).
	Grid bool
}

// GridLegend is the key to the text boards of [Frame.Grid].
const GridLegend = "legend: the cells program's grid: 0 FREE, 1 QUEEN, 2 THREAT\n\n"

// TextLegend is the key to [AppendTextBoard]'s marks, printed once above
// a trace's boards.
const TextLegend = "legend: Q queen, P pre-placed queen, * queen just placed, x rejected, - attacked, . free\n\n"

// AppendTextBoard appends the placement of a frame as a text board,
// labelled with the row and column numbers and indented under the step's
// line: Q a queen (P a pre-placed one, one of placed), * the square just
// placed, x a rejected square (every square of a dead end), - a square
// some queen attacks (none for an untested frame), . a free square.
func AppendTextBoard(b []byte, f Frame, placed []board.Queen) []byte {
	n := len(f.Queens)
	const indent = "      "
	b = board.AppendColumnLabels(b, n, indent+"    ")
	attacks := board.Attacks(n, f.Queens.PlacedQueens())
	dead := make(map[board.Queen]bool, len(f.Dead))
	for _, q := range f.Dead {
		dead[q] = true
	}
	for row := range n {
		b = fmt.Appendf(b, "%s%2d  ", indent, row+1)
		for col := range n {
			sq := board.Queen{Row: row, Col: col}
			mark := byte('.')
			switch {
			case f.Grid && f.Queens[row] == col:
				mark = '1'
			case f.Grid && attacks[row*n+col] > 0:
				mark = '2'
			case f.Grid:
				mark = '0'
			case dead[sq], f.Kind == FrameReject && sq == f.Square:
				mark = 'x'
			case f.Kind == FramePlace && sq == f.Square:
				mark = '*'
			case f.Queens[row] == col && isPlaced(placed, row, col):
				mark = 'P'
			case f.Queens[row] == col:
				mark = 'Q'
			case attacks[row*n+col] > 0 && !f.Untested:
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

// TraceGIF writes the frames of a trace as an animated GIF, as they
// come, with a legend of its marks (see [TraceGIF.Add]; pre-placed
// queens blue). Each frame after the first holds only the squares that
// changed. Create one with [NewTraceGIF].
type TraceGIF struct {
	// Delay is the time an ordinary frame shows, in hundredths of a
	// second; dead ends stay twice as long, solutions six times and the
	// start frame four times ([Weight]).
	Delay int

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

// Weight is how many ordinary frames' time a frame of the kind stays: 2
// for a dead end, 6 for a solution, 4 for the start frame, 1 otherwise.
func Weight(kind FrameKind) int {
	switch kind {
	case FrameStart:
		return 4
	case FrameDeadEnd:
		return 2
	case FrameSolution:
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
	return g.Add(Frame{Kind: FrameStart, Queens: q, Caption: "start"})
}

// Skip takes note of a step that gets no frame of its own: a rejected
// square left out of the animation still gets its black dot on the frame
// of the queen placed after it (the rejects folded in).
func (g *TraceGIF) Skip(f Frame) {
	g.note(f)
}

// note keeps the rejected squares of the line being filled, for the
// dots: a place or backtrack starts anew.
func (g *TraceGIF) note(f Frame) {
	switch f.Kind {
	case FrameReject:
		g.rejects = append(g.rejects, f.Square)
	case FramePlace, FrameDeadEnd, FrameBacktrack, FrameStart:
		g.rejects = g.rejects[:0]
	}
}

// Add draws f as the next frame. The marks are those of the textbook's
// figure of the search (a new queen with the squares rejected before it
// in its line as black dots, and the squares it newly attacks as blue
// dots, in one picture): the attacked squares grey, the new queen on
// yellow, a rejected square red (with black dots on the squares rejected
// before it in the line), a dead end's squares red, the square a
// backtrack emptied with a grey outline of its queen.
func (g *TraceGIF) Add(f Frame) error {
	opt := &Options{Square: g.square, Attacks: !f.Untested, Place: g.placed, Caption: f.Caption, CaptionScale: g.cscale, Legend: g.legend}
	sq := []board.Queen{f.Square}
	switch f.Kind {
	case FramePlace:
		opt.Tried = sq
		opt.RejectDots = g.rejects
		if !f.Untested {
			opt.AttackDots = newlyAttacked(f.Queens, f.Square)
		}
	case FrameReject:
		opt.Rejected = sq
		opt.RejectDots = g.rejects
	case FrameDeadEnd:
		opt.Rejected = f.Dead
	case FrameBacktrack:
		opt.Emptied = sq
	case FrameFail:
		opt.Rejected = []board.Queen{f.Square, f.Other}
	}
	img, err := Image(f.Queens, opt)
	if err != nil {
		return err
	}
	g.note(f)
	delay := min(g.Delay*Weight(f.Kind), 0xffff)
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

// newlyAttacked returns the squares that the queen on sq of the
// placement qs attacks and no other queen of qs does.
func newlyAttacked(qs board.Solution, sq board.Queen) []board.Queen {
	n := len(qs)
	before := qs.Clone()
	before[sq.Row] = -1
	old := board.Attacks(n, before.PlacedQueens())
	now := board.Attacks(n, qs.PlacedQueens())
	var out []board.Queen
	for i, v := range now {
		if v > 0 && old[i] == 0 && i != sq.Row*n+sq.Col {
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
