package backtrackcmd

import (
	"fmt"
	"io"
	"sync"
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
// interval, naming the last piece finished, so that a log cut short by a
// kill says where the count was:
//
//	queens: progress: n=20 shard 3/64: 120 of 149 pieces (80.5% of the work) after 12m0s, about 3m left; last -:31:2
//
// The share of the work and the time left weigh each piece by its
// expected cost ([shard.Piece.Cost]: the largest pieces come first, so
// that counting pieces over-states the time left). Call Piece as each
// piece or unit of one finishes and Stop when the count ends.
type pieceProgress struct {
	bar      *cmdutil.Progress
	mu       sync.Mutex
	done     int     // pieces finished, resumed ones included
	work     float64 // their cost, and the units' of pieces in progress
	resumed  float64 // the work done before the count started
	total    int
	all      float64 // the cost of every piece
	last     string
	label    string
	start    time.Time
	stop     chan struct{}
	wg       sync.WaitGroup
	stopOnce sync.Once
	w        io.Writer
	now      func() time.Time
}

// startPieceProgress starts reporting a count of total pieces of cost
// all, resumed of them (of cost work) done before it started, on w
// (stderr).
func startPieceProgress(w io.Writer, every time.Duration, label string, resumed, total int, work, all float64) *pieceProgress {
	p := &pieceProgress{done: resumed, work: work, resumed: work, total: total, all: all, label: label, start: time.Now(), stop: make(chan struct{}), w: w, now: time.Now}
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

// Piece says that work more of the count finished: a whole piece
// (whole) or a unit of one, named name.
func (p *pieceProgress) Piece(name string, work float64, whole bool) {
	p.mu.Lock()
	p.work += work
	p.last = name
	if whole {
		p.done++
	}
	d := p.done
	p.mu.Unlock()
	p.bar.Update(d)
}

// Stop ends the reports, clearing the bar.
func (p *pieceProgress) Stop() {
	p.stopOnce.Do(func() { close(p.stop) })
	p.wg.Wait()
	p.bar.Done()
}

// line is one progress line, at now.
func (p *pieceProgress) line() string {
	p.mu.Lock()
	done, work, last := p.done, p.work, p.last
	p.mu.Unlock()
	elapsed := p.now().Sub(p.start)
	left := "estimating"
	if counted := work - p.resumed; counted > 0 {
		rest := time.Duration(float64(elapsed) * max(0, p.all-work) / counted)
		left = "about " + rest.Round(time.Second).String() + " left"
	}
	if last != "" {
		left += "; last " + last
	}
	return fmt.Sprintf("queens: progress: %s: %d of %d pieces (%.1f%% of the work) after %v, %s",
		p.label, done, p.total, 100*work/max(p.all, 1), elapsed.Round(time.Second), left)
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
			log = startPieceProgress(stderr, every, fmt.Sprintf("n=%d", n), 0, total, 0, float64(total))
		}
		if log != nil {
			log.mu.Lock()
			log.done, log.work = done, float64(done)
			log.mu.Unlock()
		}
	}
	return parts, func() {
		bar.Done()
		if log != nil {
			log.Stop()
		}
	}
}
