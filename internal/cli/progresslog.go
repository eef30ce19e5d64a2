package cli

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/urfave/cli/v2"
)

func progressEveryFlag() cli.Flag {
	return &cli.DurationFlag{Name: "progress-every", Value: time.Minute,
		Usage: "with --count, when stderr is not a terminal (a batch log): a progress line every `D` (0: none)"}
}

// pieceProgress reports how far a sharded or checkpointed count is: a
// bar on a terminal, else (a Slurm or Kubernetes log) a line every
// interval:
//
//	queens: progress: n=20 shard 3/64: 120 of 149 pieces (80.5%) after 12m0s, about 3m left
//
// Call Piece as each piece finishes and Stop when the count ends.
type pieceProgress struct {
	bar      *cmdutil.Progress
	done     atomic.Int64
	resumed  int
	total    int
	label    string
	start    time.Time
	stop     chan struct{}
	wg       sync.WaitGroup
	stopOnce sync.Once
	w        io.Writer
	now      func() time.Time
}

// startPieceProgress starts reporting a count of total pieces, resumed of
// them done before it started, on w (stderr).
func startPieceProgress(w io.Writer, every time.Duration, label string, resumed, total int) *pieceProgress {
	p := &pieceProgress{resumed: resumed, total: total, label: label, start: time.Now(), stop: make(chan struct{}), w: w, now: time.Now}
	p.done.Store(int64(resumed))
	if cmdutil.IsTerminal(w) {
		p.bar = cmdutil.NewProgress(w, total, label)
		return p
	}
	if every <= 0 || total == 0 {
		return p
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				io.WriteString(p.w, p.line()+"\n")
			}
		}
	}()
	return p
}

// Piece says that one more piece finished.
func (p *pieceProgress) Piece() {
	d := p.done.Add(1)
	p.bar.Update(int(d))
}

// Stop ends the reports, clearing the bar.
func (p *pieceProgress) Stop() {
	p.stopOnce.Do(func() { close(p.stop) })
	p.wg.Wait()
	p.bar.Done()
}

// line is one progress line, at now.
func (p *pieceProgress) line() string {
	done := int(p.done.Load())
	elapsed := p.now().Sub(p.start)
	left := "estimating"
	if counted := done - p.resumed; counted > 0 {
		rest := time.Duration(float64(elapsed) * float64(p.total-done) / float64(counted))
		left = "about " + rest.Round(time.Second).String() + " left"
	}
	return fmt.Sprintf("queens: progress: %s: %d of %d pieces (%.1f%%) after %v, %s",
		p.label, done, p.total, 100*float64(done)/float64(max(p.total, 1)), elapsed.Round(time.Second), left)
}

// countProgress returns the progress callback of a whole count of the
// n×n board (done of total parts) and the function that ends it: a bar on
// a terminal, else (a batch log) a line every interval (--progress-every).
func countProgress(stderr io.Writer, every time.Duration, n int) (parts func(done, total int), stop func()) {
	bar := cmdutil.NewProgress(stderr, 0, fmt.Sprintf("counting n=%d", n))
	var log *pieceProgress
	parts = func(done, total int) {
		bar.Parts(done, total)
		if log == nil && total > 0 && !cmdutil.IsTerminal(stderr) {
			log = startPieceProgress(stderr, every, fmt.Sprintf("n=%d", n), 0, total)
		}
		if log != nil {
			log.done.Store(int64(done))
		}
	}
	return parts, func() {
		bar.Done()
		if log != nil {
			log.Stop()
		}
	}
}
