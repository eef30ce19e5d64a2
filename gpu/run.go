package gpu

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/internal/workers"
)

// executor searches batches of tasks, up to two at once: each batch is
// written into the buffer of a slot, 0 or 1, started, and waited for.
// start and wait are called from one goroutine; buffer is filled by
// another while the other slot is started or waited for.
type executor interface {
	// buffer returns slot s's room for a batch: length 0, capacity at
	// least the batch size (pinned host memory for a device).
	buffer(s int) []task

	// start begins searching tasks, which is buffer(s)[:len(tasks)].
	start(s int, tasks []task) error

	// wait returns the counts of the tasks last started in slot s,
	// out[i] = search(&tasks[i], n), valid until s is started again, and
	// adds the device's time for them to tm.
	wait(s int, tm *Timing) ([]uint64, error)
}

// Timing says where the time of a count went: on the host, and, summed
// over the batches, on the device. The device's phases overlap each other
// (two streams) and the host's splitting with [DesignLoop]; with
// [DesignTask] they follow each other and are timed on the host.
type Timing struct {
	Setup   time.Duration // opening the device: its context, the kernel's JIT compilation, the buffers (Count only, before the rest)
	Split   time.Duration // from the start until the host had split every piece into tasks
	Wait    time.Duration // the calling goroutine waiting for the device (or for Reference's search)
	CopyIn  time.Duration // copying tasks to the device
	Kernel  time.Duration // the kernel's runs
	CopyOut time.Duration // copying counts back
}

// chunkSize is the number of tasks a splitting goroutine hands on at once.
const chunkSize = 1 << 12

// batch is a batch of tasks in the buffer of slot.
type batch struct {
	slot  int
	tasks []task
}

// pipeline is one count of the pieces plan accepted: goroutines split
// them into tasks (splitters), one assembles the tasks into batches
// (batcher), and the calling goroutine hands each batch to the executor,
// two in flight at once, and adds up what comes back (consume). The
// symmetric piece is counted by backtrack meanwhile (symmetric).
type pipeline struct {
	ctx    context.Context
	cancel context.CancelFunc
	n      int
	opt    Options
	ps     []piece
	ex     executor
	start  time.Time
	res    Result
	tr     *tracker

	host  []uint64 // per piece: solutions found by the splitters
	nodes []uint64 // per piece: queens they placed
	dev   []uint64 // per piece: solutions found by the executor

	chunks  chan []task // split tasks, chunkSize at most
	pool    chan []task // empty chunks
	free    chan int    // slots whose buffers the batcher may fill
	batches chan batch  // full batches, to start

	splitDone atomic.Int64 // nanoseconds from start to the end of splitting
	symErr    error
	symWG     sync.WaitGroup
	splitWG   sync.WaitGroup
}

// run counts the pieces ps of an n×n board that plan accepted, with ex.
func run(ctx context.Context, n int, opt Options, ps []piece, ex executor) (Result, error) {
	p := &pipeline{n: n, opt: opt, ps: ps, ex: ex, start: time.Now(),
		res: Result{Pieces: make([]backtrack.Tally, len(ps)), Rows: opt.Rows, Design: opt.Design},
		tr:  newTracker(len(ps)), host: make([]uint64, len(ps)), nodes: make([]uint64, len(ps)), dev: make([]uint64, len(ps))}
	p.ctx, p.cancel = context.WithCancel(ctx)
	defer p.cancel()
	p.symmetric()
	p.splitters()
	p.batcher()
	err := p.consume()
	p.splitWG.Wait()
	p.symWG.Wait()
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = p.symErr
	}
	if err == nil {
		err = p.tr.report(true, p.report)
	}
	if err != nil {
		return Result{}, err
	}
	p.res.Total, p.res.Unique = sums(p.res.Pieces)
	p.res.Timing.Split = time.Duration(p.splitDone.Load())
	p.res.Elapsed = time.Since(p.start)
	return p.res, nil
}

// symmetric counts the symmetric piece, if it is one of ps, with
// backtrack, in a goroutine of its own.
func (p *pipeline) symmetric() {
	for i, pc := range p.ps {
		if pc.symmetric {
			p.symWG.Go(func() {
				t, err := pc.sp.Count(p.ctx, p.n)
				p.res.Pieces[i], p.symErr = t, err
				if err == nil {
					p.tr.finish(i, 0)
				}
			})
		}
	}
}

// splitters starts opt.Threads workers (workers.Run, the counters' pool)
// that take the pieces in turn and split them into tasks, sent in chunks
// on p.chunks (closed when all are done). With DesignLoop each chunk's
// tasks are binned by expected work, the most first.
func (p *pipeline) splitters() {
	threads := p.opt.Threads
	p.pool = make(chan []task, 2*threads+2)
	for range cap(p.pool) {
		p.pool <- make([]task, 0, chunkSize)
	}
	p.chunks = make(chan []task, threads)
	p.splitWG.Go(func() {
		workers.Run(p.ctx, len(p.ps), threads, nil, p.newSplitWorker, (*splitWorker).piece, (*splitWorker).flush)
		p.splitDone.Store(int64(time.Since(p.start)))
		close(p.chunks)
	})
}

// splitWorker is one splitting worker: the chunk it fills, until the
// count stops.
type splitWorker struct {
	p           *pipeline
	s           *splitter
	buf, sorted []task
	keys        []uint16
	bin         bool // DesignLoop: bin each chunk by work
	stopped     bool
}

func (p *pipeline) newSplitWorker() *splitWorker {
	w := &splitWorker{p: p, bin: p.opt.Design == DesignLoop}
	w.s = newSplitter(p.n, p.opt.Rows, w.add)
	return w
}

// piece splits piece i, and reports whether the count goes on.
func (w *splitWorker) piece(i int, _ *atomic.Bool) bool {
	p, s := w.p, w.s
	pc := &p.ps[i]
	if pc.symmetric {
		return true
	}
	if pc.ok {
		s.piece, s.host, s.nodes, s.tasks = uint32(i), 0, 0, 0
		s.split(pc.free, pc.d1, pc.d2, pc.rem)
		p.host[i], p.nodes[i] = s.host, s.nodes
	}
	p.tr.finish(i, s.tasks)
	return !w.stopped
}

// add adds task t to the chunk, which it sends when it is full.
func (w *splitWorker) add(t *task) {
	if w.stopped {
		return
	}
	if w.buf == nil {
		select {
		case w.buf = <-w.p.pool:
		case <-w.p.ctx.Done():
			w.stopped = true
			return
		}
	}
	w.buf = append(w.buf, *t)
	if w.bin {
		w.keys = append(w.keys, uint16(w.s.work))
	}
	if len(w.buf) == cap(w.buf) {
		w.send()
	}
}

// send sends the chunk (binned with DesignLoop), unless the count stops.
func (w *splitWorker) send() {
	if w.bin {
		if w.sorted == nil {
			w.sorted = make([]task, chunkSize)
		}
		binByWork(w.buf, w.keys, w.sorted[:len(w.buf)])
		w.buf, w.sorted = w.sorted[:len(w.buf)], w.buf[:cap(w.buf)]
	}
	select {
	case w.p.chunks <- w.buf:
		w.buf, w.keys = nil, w.keys[:0]
	case <-w.p.ctx.Done():
		w.stopped = true
	}
}

// flush sends the last chunk, as the worker ends.
func (w *splitWorker) flush() {
	if len(w.buf) > 0 && !w.stopped {
		w.send()
	}
}

// binByWork writes the tasks ts to out ordered by their keys (expected
// work), the largest first, keeping the order of equal keys: a counting
// sort, keys below maxWork.
func binByWork(ts []task, keys []uint16, out []task) {
	var at [maxWork + 1]int
	for _, k := range keys {
		at[maxWork-int(k)+1]++
	}
	for i := 1; i <= maxWork; i++ {
		at[i] += at[i-1]
	}
	for i := range ts {
		j := maxWork - int(keys[i])
		out[at[j]] = ts[i]
		at[j]++
	}
}

// batcher starts the goroutine that fills the slots' buffers with the
// tasks of p.chunks, opt.Batch a batch, and sends them on p.batches
// (closed at the end, or when the count stops).
func (p *pipeline) batcher() {
	p.free = make(chan int, 2)
	p.free <- 0
	p.free <- 1
	p.batches = make(chan batch)
	go func() {
		defer close(p.batches)
		var b batch
		have := false
		for chunk := range p.chunks {
			for c := chunk; len(c) > 0; {
				if !have {
					select {
					case b.slot = <-p.free:
					case <-p.ctx.Done():
						return
					}
					b.tasks, have = p.ex.buffer(b.slot)[:0], true
				}
				k := min(len(c), p.opt.Batch-len(b.tasks))
				b.tasks, c = append(b.tasks, c[:k]...), c[k:]
				if len(b.tasks) == p.opt.Batch {
					select {
					case p.batches <- b:
						have = false
					case <-p.ctx.Done():
						return
					}
				}
			}
			p.pool <- chunk[:0]
		}
		if have && len(b.tasks) > 0 {
			select {
			case p.batches <- b:
			case <-p.ctx.Done():
			}
		}
	}()
}

// consume starts each batch, waits for the older one once two are in
// flight, adds up the counts and reports the pieces finished. After an
// error it stops the count, waits for what is in flight and drains the
// batches, so that the other goroutines can finish.
func (p *pipeline) consume() error {
	var flight []batch
	var err error
	for b := range p.batches {
		if err == nil {
			err = p.ctx.Err()
		}
		if err == nil {
			err = p.ex.start(b.slot, b.tasks)
		}
		if err != nil {
			p.cancel()
			p.free <- b.slot
			continue
		}
		if flight = append(flight, b); len(flight) == 2 {
			err = p.collect(flight[0], err)
			flight = flight[:copy(flight, flight[1:])]
		}
	}
	for _, b := range flight {
		err = p.collect(b, err)
	}
	return err
}

// collect waits for batch b and frees its slot; unless the count has
// failed already (err), it adds b's counts to its pieces and reports the
// pieces now finished. It returns the count's error, err or a new one,
// and stops the count on one.
func (p *pipeline) collect(b batch, err error) error {
	defer func() { p.free <- b.slot }()
	t := time.Now()
	out, werr := p.ex.wait(b.slot, &p.res.Timing)
	p.res.Timing.Wait += time.Since(t)
	if err != nil {
		return err
	}
	if err = werr; err == nil {
		err = p.add(b, out)
	}
	if err != nil {
		p.cancel()
	}
	return err
}

// add adds the counts out of batch b's tasks to their pieces and reports
// the pieces now finished.
func (p *pipeline) add(b batch, out []uint64) error {
	for i := range b.tasks {
		if out[i] == bad {
			return fmt.Errorf("gpu count: task %d of batch %d: the kernel refused it (a defect)", i, p.res.Launches)
		}
		p.dev[b.tasks[i].piece] += out[i]
		p.tr.searched[b.tasks[i].piece]++
	}
	p.res.Tasks += uint64(len(b.tasks))
	p.res.Launches++
	return p.tr.report(false, p.report)
}

// report sets the tally of piece i, all its tasks counted, and passes it
// to opt.OnPiece.
func (p *pipeline) report(i int) error {
	if pc := &p.ps[i]; pc.ok {
		sols := pc.weight * (p.host[i] + p.dev[i])
		p.res.Pieces[i] = backtrack.Tally{Total24: 24 * sols, Unique24: 3 * sols, Nodes: p.nodes[i]}
	} // else the symmetric piece's tally, or none
	if p.opt.OnPiece != nil {
		return p.opt.OnPiece(i, p.res.Pieces[i])
	}
	return nil
}

// sums returns the board's counts from the tallies of its pieces: whole
// numbers of 24ths, the remainders added up before they are divided.
func sums(ts []backtrack.Tally) (total, unique uint64) {
	var rest backtrack.Tally
	for _, t := range ts {
		total += t.Total24 / 24
		unique += t.Unique24 / 24
		rest.Total24 += t.Total24 % 24
		rest.Unique24 += t.Unique24 % 24
	}
	return total + rest.Total24/24, unique + rest.Unique24/24
}

// syncExec is an executor that searches a batch when it is started, with
// search, in plain memory.
type syncExec struct {
	bufs   [2][]task
	outs   [2][]uint64
	batch  int
	search func(tasks []task, out []uint64, tm *Timing) error
	tm     [2]Timing
}

func newSyncExec(batch int, search func(tasks []task, out []uint64, tm *Timing) error) *syncExec {
	return &syncExec{batch: batch, search: search}
}

// buffer grows slot s's buffer as batches need: a small count allocates
// little.
func (e *syncExec) buffer(s int) []task { return e.bufs[s][:0] }

func (e *syncExec) start(s int, tasks []task) error {
	e.bufs[s] = tasks[:0] // keep what append grew
	if len(e.outs[s]) < len(tasks) {
		e.outs[s] = make([]uint64, len(tasks))
	}
	e.tm[s] = Timing{}
	return e.search(tasks, e.outs[s][:len(tasks)], &e.tm[s])
}

func (e *syncExec) wait(s int, tm *Timing) ([]uint64, error) {
	tm.CopyIn += e.tm[s].CopyIn
	tm.Kernel += e.tm[s].Kernel
	tm.CopyOut += e.tm[s].CopyOut
	return e.outs[s], nil
}
