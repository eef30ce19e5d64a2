package gpu

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/constellation"
	"github.com/queens-dev/queens/internal/workers"
)

// ErrPiece is returned (wrapped) when Options.Pieces holds a piece that is
// not one of [backtrack.Subproblems](n), or holds one twice.
var ErrPiece = errors.New("not a piece of the count")

// ErrOptions is returned (wrapped) for Options out of range.
var ErrOptions = errors.New("bad GPU count options")

// DefaultBatch is the number of tasks in one kernel launch when
// Options.Batch is 0: 160 MiB of tasks and 32 MiB of counts, enough
// threads that the launch's slowest tasks leave a large GPU idle little.
const DefaultBatch = 1 << 22

// MaxBatch is the largest Options.Batch: a launch's tasks are indexed by
// a 32-bit thread number.
const MaxBatch = 1 << 26

// Options configures [Count] and [Reference].
type Options struct {
	// Pieces are the pieces to count, each one of
	// [backtrack.Subproblems](n) (a shard's list, say); nil means all of
	// them. The symmetric piece ([backtrack.Subproblem.Symmetric]) is counted on
	// the host by backtrack.
	Pieces []backtrack.Subproblem

	// Rows is how many rows each task leaves to the kernel, 3..MaxRows;
	// 0 picks [DefaultRows](n). The host places the queens of the other
	// rows, most constrained row first, so fewer rows make more tasks.
	Rows int

	// Design is the kernel to run: DesignTask (the zero value, the first
	// design) or DesignLoop. Reference runs the design's Go twin.
	Design Design

	// BlocksPerSM is, for DesignLoop, how many blocks of persistent
	// threads to start on each multiprocessor, 0..MaxBlocksPerSM; 0 means
	// as many as fit at once (the driver's occupancy calculator). Fewer
	// leave each thread more registers' and shared memory's worth of
	// room; the device check times a few.
	BlocksPerSM int

	Batch   int // tasks per kernel launch, 1..MaxBatch; 0 means DefaultBatch
	Threads int // host goroutines that split pieces into tasks (and search them, in Reference), at most MaxThreads; <= 0 means runtime.GOMAXPROCS(0)
	Device  int // the CUDA device ordinal, from 0 (Count only)

	// OnPiece, if not nil, is called with the index (in Pieces) and the
	// tally of each piece as soon as all its tasks are counted, in no
	// particular order, for progress and checkpoints. It is called from
	// the goroutine that called Count or Reference, one call at a time;
	// an error from it stops the count and is returned.
	OnPiece func(i int, t backtrack.Tally) error
}

// MaxBlocksPerSM bounds [Options.BlocksPerSM].
const MaxBlocksPerSM = 32

// MaxThreads bounds [Options.Threads]: each thread holds buffers of tasks
// of its own.
const MaxThreads = 1024

// Result is what [Count] or [Reference] found.
type Result struct {
	// Total and Unique are the sums over the pieces (whole numbers of
	// 24ths rounded down, as in [backtrack.Count]); over all the pieces of
	// [backtrack.Subproblems](n) they are the board's counts.
	Total, Unique uint64

	// Pieces holds what each piece of Options.Pieces (or of all
	// [backtrack.Subproblems](n)) found, in that order, in 24ths as
	// [backtrack.Subproblem.Count] reports them, so a shard's pieces can
	// be merged with pieces counted on the CPU. Nodes counts only the
	// queens the host placed; the kernel does not count its own.
	Pieces []backtrack.Tally

	Tasks    uint64        // tasks searched by the kernel (or by Reference)
	Launches int           // kernel launches (batches)
	Rows     int           // rows per task used
	Design   Design        // the kernel run
	Device   string        // the device's name ("" for Reference)
	Elapsed  time.Duration // wall time, from the call to the return
	Timing   Timing        // where the time went
	Kernel   KernelInfo    // what the driver says of the kernel (Count only)
}

// KernelInfo is what the CUDA driver reports of the kernel it compiled
// for the device, and the shape of the launches.
type KernelInfo struct {
	Registers   int // registers per thread
	LocalBytes  int // local memory per thread: the stack frame and any spills
	SharedBytes int // static shared memory per block
	Block       int // threads per block
	Grid        int // blocks per launch (DesignLoop: persistent blocks; DesignTask: of the largest launch)
	BlocksPerSM int // resident blocks per multiprocessor, by the driver's occupancy calculator (DesignLoop)
	SMs         int // the device's multiprocessors
}

// DefaultRows returns the number of rows a task leaves to the kernel on an
// n×n board when Options.Rows is 0: n-8, within 3..MaxRows. It is a
// trade: the kernel fills its rows in a fixed order, which places more
// queens than the host's most-constrained-first order the more rows it
// covers (searching every task of n = 15 on a CPU core takes 0.6 to 0.8 s
// with 7 to 9 rows per task, 1.2 s with 10, 1.7 s with 11, 1.9 s with 12),
// while each row fewer makes 5 to 9 times as many tasks for the host to
// list (about 4 million a second per core) and send. n-8 makes 12 million
// tasks at n = 18, 26 million at n = 19 and 51 million at n = 20. The best
// value on a given GPU is for bench/gpu.sh and gpu/device-check.sh to
// measure.
func DefaultRows(n int) int {
	return max(3, min(MaxRows, n-8))
}

// piece is one constellation to split, with what it stands for.
type piece struct {
	free, d1, d2 uint64
	rem          uint32
	weight       uint64
	symmetric    bool                 // the symmetric piece, counted on the host
	sp           backtrack.Subproblem // the symmetric piece itself
	ok           bool                 // a constellation at all (false: it counts 0)
}

// plan checks n and opt and returns the pieces, their setup, and the
// options with defaults filled in.
func plan(n int, opt Options) ([]backtrack.Subproblem, []piece, Options, error) {
	if err := board.CheckSize(n, MaxN); err != nil {
		return nil, nil, opt, fmt.Errorf("gpu count: %w", err)
	}
	if opt.Rows == 0 {
		opt.Rows = DefaultRows(n)
	}
	if opt.Rows < 3 || opt.Rows > MaxRows {
		return nil, nil, opt, fmt.Errorf("gpu count: %w: rows = %d, want 3..%d", ErrOptions, opt.Rows, MaxRows)
	}
	if opt.Batch == 0 {
		opt.Batch = DefaultBatch
	}
	if opt.Batch < 1 || opt.Batch > MaxBatch {
		return nil, nil, opt, fmt.Errorf("gpu count: %w: batch = %d, want 1..%d", ErrOptions, opt.Batch, MaxBatch)
	}
	if opt.Threads <= 0 {
		opt.Threads = runtime.GOMAXPROCS(0)
	}
	if opt.Threads > MaxThreads {
		return nil, nil, opt, fmt.Errorf("gpu count: %w: threads = %d, want at most %d", ErrOptions, opt.Threads, MaxThreads)
	}
	if opt.Design != DesignTask && opt.Design != DesignLoop {
		return nil, nil, opt, fmt.Errorf("gpu count: %w: design = %v, want DesignTask or DesignLoop", ErrOptions, opt.Design)
	}
	if opt.BlocksPerSM < 0 || opt.BlocksPerSM > MaxBlocksPerSM {
		return nil, nil, opt, fmt.Errorf("gpu count: %w: blocks per SM = %d, want 0..%d", ErrOptions, opt.BlocksPerSM, MaxBlocksPerSM)
	}
	if opt.Device < 0 {
		return nil, nil, opt, fmt.Errorf("gpu count: %w: device = %d, want >= 0", ErrOptions, opt.Device)
	}
	all, err := backtrack.Subproblems(n)
	if err != nil {
		return nil, nil, opt, fmt.Errorf("gpu count: %w", err)
	}
	sps := opt.Pieces
	if sps == nil {
		sps = all
	}
	known := make(map[backtrack.Subproblem]bool, len(all))
	for _, sp := range all {
		known[sp] = true
	}
	ps := make([]piece, len(sps))
	for i, sp := range sps {
		if !known[sp] {
			return nil, nil, opt, fmt.Errorf("gpu count: %w: %v on %d×%d (seen twice, or not one of backtrack.Subproblems)", ErrPiece, sp, n, n)
		}
		known[sp] = false
		if sp.Symmetric() {
			ps[i].symmetric, ps[i].sp = true, sp
			continue
		}
		c := constellation.C{Top: sp.Top, Bottom: sp.Bottom, Left: sp.Left, Right: sp.Right}
		qs, k, ok := c.Queens(n)
		if !ok {
			continue
		}
		free, d1, d2, rem := constellation.Placement(n, qs[:k])
		ps[i] = piece{free: free, d1: d1, d2: d2, rem: rem, weight: c.Weight(n), ok: true}
	}
	return sps, ps, opt, nil
}

// tracker finds the pieces whose every task has been counted: the
// splitters say how many tasks each piece made once it is split, and the
// calling goroutine counts the tasks searched.
type tracker struct {
	mu    sync.Mutex
	split []int   // pieces split since the last report
	made  []int64 // per piece: tasks made (set before the piece joins split)

	// Owned by the calling goroutine.
	searched []int64 // per piece: tasks searched
	pending  []int   // pieces split but not all searched
	done     int     // pieces reported
}

func newTracker(pieces int) *tracker {
	return &tracker{made: make([]int64, pieces), searched: make([]int64, pieces)}
}

// finish records that piece i is split into tasks tasks (or counted).
func (tr *tracker) finish(i int, tasks int64) {
	tr.mu.Lock()
	tr.made[i] = tasks
	tr.split = append(tr.split, i)
	tr.mu.Unlock()
}

// report calls f with each piece split and searched that it has not yet
// been called with; last says every piece must be, or it is a defect.
func (tr *tracker) report(last bool, f func(i int) error) error {
	tr.mu.Lock()
	tr.pending = append(tr.pending, tr.split...)
	tr.split = tr.split[:0]
	tr.mu.Unlock() // made[i] of a piece in pending was set before it got there
	made := tr.made
	keep := tr.pending[:0]
	var err error
	for _, i := range tr.pending {
		if err == nil && tr.searched[i] == made[i] {
			tr.done++
			err = f(i)
		} else {
			keep = append(keep, i)
		}
	}
	tr.pending = keep
	if err == nil && last && (len(tr.pending) > 0 || tr.done != len(made)) {
		return fmt.Errorf("gpu count: %d of %d pieces finished at the end (a defect)", tr.done, len(made))
	}
	return err
}

// Reference counts like [Count], with the same tasks, batches and sums,
// but searches each task on the CPU with the Go twin of the kernel, in
// opt.Threads goroutines. It needs no GPU; it is what the kernel's counts
// are checked against, and what a GPU-less machine can test.
//
// Errors wrap [board.ErrSize] for n out of range (1..[MaxN]), [ErrPiece],
// [ErrOptions], or are ctx.Err() when ctx is cancelled (checked between
// batches, and by the host's count of the symmetric piece ([backtrack.Subproblem.Symmetric])).
func Reference(ctx context.Context, n int, opt Options) (Result, error) {
	_, ps, opt, err := plan(n, opt)
	if err != nil {
		return Result{}, err
	}
	return run(ctx, n, opt, ps, newSyncExec(opt.Batch, cpuSearch(n, opt.Threads, opt.Design)))
}

// cpuSearch is the executor's search of Reference: the Go twin of the
// design's kernel, on threads goroutines.
func cpuSearch(n, threads int, design Design) func(tasks []task, out []uint64, tm *Timing) error {
	return func(tasks []task, out []uint64, tm *Timing) error {
		t := time.Now()
		const grain = 256 // tasks taken at once; a block of count_loop's twin
		blocks := (len(tasks) + grain - 1) / grain
		workers.Run(context.Background(), blocks, threads, nil, func() struct{} { return struct{}{} },
			func(_ struct{}, b int, _ *atomic.Bool) bool {
				lo, hi := b*grain, min((b+1)*grain, len(tasks))
				if design == DesignLoop {
					searchLoop(tasks[lo:hi], out[lo:hi], n, 32)
					return true
				}
				for i := lo; i < hi; i++ {
					out[i] = search(&tasks[i], n)
				}
				return true
			}, func(struct{}) {})
		tm.Kernel += time.Since(t)
		return nil
	}
}
