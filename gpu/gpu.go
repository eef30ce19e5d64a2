package gpu

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"
)

// ErrNoDevice is returned (wrapped) by [Available] and [Count] when no
// CUDA device can be used: libcuda.so.1 does not load (no NVIDIA driver),
// lacks a function, finds no device, or the platform is not linux/amd64
// or linux/arm64. The wrapped error says which.
var ErrNoDevice = errors.New("no CUDA device")

// CUDAError is a failed call of the CUDA driver API.
type CUDAError struct {
	Call string // the driver function, e.g. "cuMemAlloc_v2"
	Code int    // its CUresult
	Name string // the code's name, e.g. "CUDA_ERROR_OUT_OF_MEMORY" ("" if the driver does not know it)
	Text string // the driver's description of the code
}

// Error returns e as "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory".
func (e *CUDAError) Error() string {
	return fmt.Sprintf("%s: %s (%d): %s", e.Call, e.Name, e.Code, e.Text)
}

// Available returns nil when [Count] can run: the CUDA driver loads, it
// sees a device, and this build embeds the kernel. Otherwise it returns
// an error wrapping [ErrNoDevice] or [ErrKernel]. It never panics, with or
// without a driver.
func Available() error {
	if err := available(); err != nil {
		return err
	}
	if !kernelBuilt() {
		return fmt.Errorf("gpu: %w", ErrKernel)
	}
	return nil
}

// Count counts the solutions of the n-queens puzzle on an n×n board,
// 1 <= n <= [MaxN], on CUDA device opt.Device: the pieces opt.Pieces (all
// of [backtrack.Subproblems](n) when nil), each split on the host into
// tasks that leave opt.Rows rows to the kernel of opt.Design.
// The tasks go to the device in batches of opt.Batch; ctx is checked
// between batches, and when it is cancelled Count returns ctx.Err() and
// no counts. The symmetric piece ([backtrack.Subproblem.Symmetric]), the piece of the unique count, is
// counted on the host by backtrack meanwhile. The result's Pieces are
// [backtrack.Tally] values, so a shard's pieces counted here merge with
// pieces counted by backtrack.
//
// Errors wrap [board.ErrSize], [ErrPiece], [ErrOptions], [ErrNoDevice],
// [ErrKernel], or are a [*CUDAError].
func Count(ctx context.Context, n int, opt Options) (Result, error) {
	start := time.Now()
	_, ps, opt, err := plan(n, opt)
	if err != nil {
		return Result{}, err
	}
	if err := available(); err != nil {
		return Result{}, err
	}
	if !kernelBuilt() {
		return Result{}, fmt.Errorf("gpu count: %w", ErrKernel)
	}
	// A CUDA context is current on one OS thread: every call on the
	// device comes from this goroutine, pinned to its thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	setup := time.Now()
	dev, err := openDevice(opt.Device, opt.Batch, n, opt.Design, opt.BlocksPerSM)
	if err != nil {
		return Result{}, fmt.Errorf("gpu count: %w", err)
	}
	opened := time.Since(setup)
	defer dev.close()
	res, err := run(ctx, n, opt, ps, dev)
	if err != nil {
		return Result{}, fmt.Errorf("gpu count: %w", err)
	}
	res.Device = dev.name
	res.Kernel = dev.kernelInfo()
	res.Timing.Setup = opened
	res.Elapsed = time.Since(start)
	return res, nil
}

// Design selects the kernel [Count] runs (and the twin [Reference] runs).
type Design int

const (
	// DesignTask is the first design: one GPU thread per task, a launch
	// per batch, copies and kernels one after the other (kernel.cu's
	// count_tasks).
	DesignTask Design = iota

	// DesignLoop is the second design: persistent threads that pull tasks
	// by an atomic index and search them in one loop of uniform steps
	// (placing or taking back a queen, chosen by selects), the stack in
	// shared memory lane-interleaved, the tasks of a batch binned by
	// expected work, pinned host buffers and two streams so that the
	// host's splitting, the copies and the kernels overlap (kernel.cu's
	// count_loop).
	DesignLoop
)

// String returns "task" or "loop".
func (d Design) String() string {
	switch d {
	case DesignTask:
		return "task"
	case DesignLoop:
		return "loop"
	}
	return fmt.Sprintf("Design(%d)", int(d))
}
