// Package workers holds what the pools of workers of the two counters
// (packages backtrack and backtrack/join) share: waiting for them while a
// context may stop them and a callback reports the parts done.
package workers

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

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
