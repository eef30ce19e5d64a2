// Package workers is the one pool of workers of queens: goroutines that
// take parts in order, stop when a context ends, and report the parts
// done to a callback. The two counters (packages backtrack and
// backtrack/join), a shard's pieces and merge's recount (package shard)
// and the GPU counter's splitters and CPU twin (package gpu) run on it;
// sat's cubes keep a pool of their own, which hands each cube out only
// within a window of the results emitted in order.
package workers

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Threads is the number of workers for a request of threads: threads
// itself, or runtime.GOMAXPROCS(0) (every CPU the process may use, its
// cgroup's CPU limit included) for threads <= 0; at least 1 and at most
// parts.
func Threads(threads, parts int) int {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	return max(1, min(threads, parts))
}

// Run counts parts 0 to parts-1 on [Threads](threads, parts) goroutines,
// each with a worker state W of its own from newWorker: piece(w, i, stop)
// does part i, polls stop, and reports whether it completed the part (a
// part stopped midway is left out, and its worker ends). When every part
// is taken, or stop is set (by ctx's end, or by a piece), each worker
// ends and merge(w) is called, never concurrently. Progress is as in
// [Wait]. Run returns the number of parts completed and ctx.Err() if ctx
// ended before the workers did.
func Run[W any](ctx context.Context, parts, threads int, progress func(done, parts int),
	newWorker func() W, piece func(w W, i int, stop *atomic.Bool) bool, merge func(w W)) (done int, err error) {
	var (
		stop     atomic.Bool
		next     atomic.Int64
		finished atomic.Int64
		mu       sync.Mutex
		wg       sync.WaitGroup
	)
	for range Threads(threads, parts) {
		wg.Go(func() {
			w := newWorker()
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= parts || !piece(w, i, &stop) {
					break
				}
				finished.Add(1)
				// Where the runtime cannot preempt a goroutine (js/wasm
				// runs one thread), progress is reported between parts.
				runtime.Gosched()
			}
			mu.Lock()
			merge(w)
			mu.Unlock()
		})
	}
	err = Wait(ctx, &wg, &stop, &finished, parts, progress)
	return int(finished.Load()), err
}

// Wait waits until the goroutines of wg have returned. When ctx ends
// first it sets stop, which the workers poll, and goes on waiting for
// them; about ten times a second it calls progress, if not nil, with the
// count of done and parts. It returns ctx.Err() if ctx ended before the
// workers did, else nil.
func Wait(ctx context.Context, wg *sync.WaitGroup, stop *atomic.Bool, done *atomic.Int64, parts int, progress func(done, parts int)) error {
	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var err error
	cancel := ctx.Done()
	for {
		select {
		case <-all:
			return err
		case <-cancel:
			err = ctx.Err()
			stop.Store(true)
			cancel = nil
		case <-tick.C:
			if progress != nil {
				progress(int(done.Load()), parts)
			}
		}
	}
}

// StopOnDone sets stop when ctx ends, and release ends the goroutine
// that watches ctx (a ctx that ends just as release is called may still
// set stop); the search of one piece polls stop.
func StopOnDone(ctx context.Context, stop *atomic.Bool) (release func()) {
	finished := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			stop.Store(true)
		case <-finished:
		}
	}()
	return func() { close(finished) }
}
