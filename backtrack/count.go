package backtrack

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/queens-dev/queens/board"
)

// CountOptions configures Count.
type CountOptions struct {
	Threads int           // worker goroutines; <= 0 means runtime.NumCPU()
	Unique  bool          // also count solutions distinct up to symmetry (not with Place)
	Place   []board.Queen // pre-placed queens
}

// CountResult is what Count found.
type CountResult struct {
	Total, Unique uint64 // Unique only when CountOptions.Unique
	Nodes         uint64
	Elapsed       time.Duration
	Done, Parts   int // subproblems finished / in all (for "how far it got" on cancel)
}

// maxCountN is the widest board the 64-bit masks of Count hold.
const maxCountN = 64

// Count counts the solutions on an n×n board (1 <= n <= 64) with a
// bitboard backtracker, rows top to bottom, on opt.Threads goroutines. The
// work is split into subproblems, one for each safe placement of the first
// two rows. With opt.Unique it also counts the canonical solutions
// ([board.IsCanonical]), one per class of solutions that differ by a
// rotation or reflection; that cannot be combined with opt.Place. Errors
// wrap [board.ErrSize] or [board.ErrPlacement]; when ctx ends the count,
// Count returns ctx.Err() and the partial result.
func Count(ctx context.Context, n int, opt CountOptions) (CountResult, error) {
	start := time.Now()
	if err := board.CheckSize(n, maxCountN); err != nil {
		return CountResult{}, fmt.Errorf("count: %w", err)
	}
	if err := board.CheckPlacement(n, opt.Place); err != nil {
		return CountResult{}, fmt.Errorf("count: %w", err)
	}
	if opt.Unique && len(opt.Place) > 0 {
		return CountResult{}, errors.New("count: unique solutions with pre-placed queens are not supported")
	}
	c := newCounter(n, opt)
	var parts []prefix
	c.split(0, 0, 0, 0, 0, nil, min(2, n), &parts)
	res := CountResult{Parts: len(parts)}

	threads := opt.Threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	var (
		next, done         atomic.Int64
		total, uniq, nodes atomic.Uint64
		stop               atomic.Bool
		wg                 sync.WaitGroup
	)
	for range min(threads, max(len(parts), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &countWorker{counter: c, stop: &stop, q: make(board.Solution, n)}
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(parts) {
					return
				}
				p := parts[i]
				copy(w.q, p.q)
				w.found, w.canonical, w.nodes = 0, 0, 0
				w.walk(p.row, p.cols, p.ld, p.rd)
				if stop.Load() {
					return // a part cut short is not counted
				}
				total.Add(w.found)
				uniq.Add(w.canonical)
				nodes.Add(w.nodes + p.nodes)
				done.Add(1)
			}
		}()
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	var err error
	select {
	case <-finished:
	case <-ctx.Done():
		stop.Store(true)
		<-finished
		err = ctx.Err()
	}
	res.Total, res.Unique, res.Nodes = total.Load(), uniq.Load(), nodes.Load()
	res.Done = int(done.Load())
	if !opt.Unique {
		res.Unique = 0
	}
	res.Elapsed = time.Since(start)
	return res, err
}

// counter is what the workers of one Count share.
type counter struct {
	n       int
	full    uint64
	fixed   []int    // column of the pre-placed queen in each row, or -1
	blocked []uint64 // squares of each row that pre-placed queens in other rows attack
	unique  bool
}

func newCounter(n int, opt CountOptions) *counter {
	c := &counter{n: n, full: 1<<uint(n) - 1, fixed: make([]int, n), blocked: make([]uint64, n), unique: opt.Unique}
	if n == 64 {
		c.full = ^uint64(0)
	}
	for i := range c.fixed {
		c.fixed[i] = -1
	}
	for _, p := range opt.Place {
		c.fixed[p.Row] = p.Col
	}
	for row := range n {
		for _, p := range opt.Place {
			if p.Row == row {
				continue
			}
			d := row - p.Row
			for _, col := range [3]int{p.Col, p.Col + d, p.Col - d} {
				if col >= 0 && col < n {
					c.blocked[row] |= 1 << uint(col)
				}
			}
		}
	}
	return c
}

// choices returns the columns row may take given the attacked columns.
func (c *counter) choices(row int, attacked uint64) uint64 {
	free := ^(attacked | c.blocked[row]) & c.full
	if col := c.fixed[row]; col >= 0 {
		return free & (1 << uint(col))
	}
	return free
}

// prefix is a subproblem: the first rows filled, the rest to count.
type prefix struct {
	row          int
	cols, ld, rd uint64
	q            board.Solution
	nodes        uint64
}

// split enumerates the safe placements of rows row..depth-1.
func (c *counter) split(row int, cols, ld, rd, nodes uint64, q board.Solution, depth int, out *[]prefix) {
	if row == depth {
		*out = append(*out, prefix{row: row, cols: cols, ld: ld, rd: rd, q: append(board.Solution(nil), q...), nodes: nodes})
		return
	}
	for free := c.choices(row, cols|ld|rd); free != 0; free &= free - 1 {
		bit := free & -free
		c.split(row+1, cols|bit, (ld|bit)<<1, (rd|bit)>>1, nodes+1, append(q, trailing(bit)), depth, out)
	}
}

// countWorker counts the solutions below one prefix at a time. ld holds
// the diagonals going down-left shifted for the current row, rd those
// going down-right.
type countWorker struct {
	*counter
	stop                    *atomic.Bool
	q                       board.Solution
	found, canonical, nodes uint64
}

func (w *countWorker) walk(row int, cols, ld, rd uint64) {
	if row == w.n {
		w.found++
		if w.unique && board.IsCanonical(w.q) {
			w.canonical++
		}
		return
	}
	if w.nodes&(1<<14-1) == 0 && w.stop.Load() {
		return
	}
	for free := w.choices(row, cols|ld|rd); free != 0; free &= free - 1 {
		bit := free & -free
		w.nodes++
		w.q[row] = trailing(bit)
		w.walk(row+1, cols|bit, (ld|bit)<<1, (rd|bit)>>1)
	}
}

// trailing returns the index of the single set bit of bit.
func trailing(bit uint64) int { return bits.TrailingZeros64(bit) }
