package cmdutil

import (
	"fmt"
	"io"
	"iter"
	"os"
	"strings"
	"time"

	isatty "github.com/mattn/go-isatty"
	"github.com/queens-dev/queens/board"
)

// Progress draws a progress bar with an estimate of the time left on
// stderr:
//
//	counting n=18  [=========>          ]  47%  12s left
//
// It draws only when stderr is a terminal (never into a pipe, a file or a
// CI log), not when $CI is set or TERM is "dumb", and only once the work
// has run for a second, so that quick runs stay silent. The bar is
// coloured unless NO_COLOR is set (https://no-color.org). A nil *progress
// and one that is not drawing accept every call and do nothing.
//
// Use:
//
//	p := NewProgress(c.App.ErrWriter, total, "counting")
//	defer p.Done()
//	... p.Update(done) as the work advances (cheap: redraws at most 10 times a second)
//
// When the total is known only once the work has started, pass 0 and
// report with Parts(done, total), which has the shape of
// backtrack.CountOptions.Progress.
type Progress struct {
	w      io.Writer
	total  int
	label  string
	colour bool
	start  time.Time
	last   time.Time // last redraw
	drawn  bool
	now    func() time.Time
}

// NewProgress returns a progress bar for total units of work (0: not
// known yet, see Parts), or nil (which does nothing) when stderr is not a
// terminal.
func NewProgress(stderr io.Writer, total int, label string) *Progress {
	if !IsTerminal(stderr) || os.Getenv("CI") != "" || os.Getenv("TERM") == "dumb" {
		return nil
	}
	return &Progress{w: stderr, total: total, label: label, colour: os.Getenv("NO_COLOR") == "",
		start: time.Now(), now: time.Now}
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f := file(w)
	return f != nil && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// Parts says that done of total units are finished, setting the total.
func (p *Progress) Parts(done, total int) {
	if p != nil {
		p.total = total
		p.Update(done)
	}
}

// Update says that done of the total units are finished.
func (p *Progress) Update(done int) {
	if p == nil || p.total <= 0 {
		return
	}
	now := p.now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.drawn = now, true
	io.WriteString(p.w, "\r"+p.line(done, now.Sub(p.start))+"\x1b[K")
}

// Done clears the bar, leaving stderr as it was.
func (p *Progress) Done() {
	if p != nil && p.drawn {
		io.WriteString(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// line renders the bar after elapsed time with done units finished.
func (p *Progress) line(done int, elapsed time.Duration) string {
	const width = 30
	done = min(max(done, 0), p.total)
	fill := width * done / p.total
	bar := strings.Repeat("=", fill)
	if fill < width {
		bar += ">" + strings.Repeat(" ", width-fill-1)
	}
	if p.colour {
		bar = "\x1b[32m" + bar + "\x1b[0m"
	}
	left := "estimating"
	if done > 0 {
		rest := time.Duration(float64(elapsed) * float64(p.total-done) / float64(done))
		left = rest.Round(time.Second).String() + " left"
	}
	return fmt.Sprintf("%s [%s] %3d%%  %s", p.label, bar, 100*done/p.total, left)
}

// Counted wraps a stream of solutions so that a progress bar advances
// with each one, where the number to come is known: the published count
// (of classes, with unique) of a board without pre-placed queens, or the
// Limit. The bar is drawn only when the solutions do not go to the
// terminal it would be drawn on (stdout, unless output, -o, names a
// file); call Done on it when the stream ends.
func Counted(stdout, stderr io.Writer, output string, seq iter.Seq2[board.Solution, error], n int, place []board.Queen, unique bool, limit int) (iter.Seq2[board.Solution, error], *Progress) {
	known, ok := board.Known(n)
	toTerminal := (output == "-" || output == "") && IsTerminal(stdout)
	if !ok || len(place) > 0 || toTerminal {
		return seq, nil
	}
	total := known.Total
	if unique {
		total = known.Unique
	}
	if limit > 0 {
		total = min(total, uint64(limit))
	}
	bar := NewProgress(stderr, int(total), fmt.Sprintf("n=%d", n))
	if bar == nil {
		return seq, nil
	}
	return func(yield func(board.Solution, error) bool) {
		done := 0
		for s, err := range seq {
			if !yield(s, err) || err != nil {
				return
			}
			done++
			bar.Update(done)
		}
	}, bar
}
