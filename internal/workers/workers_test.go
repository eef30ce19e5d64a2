package workers

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWaitStops: a cancelled context sets stop, the workers see it and
// return, and Wait returns the context's error; without a cancel it
// returns nil and progress has seen the parts done.
func TestWaitStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var (
		wg   sync.WaitGroup
		stop atomic.Bool
		done atomic.Int64
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			time.Sleep(time.Millisecond)
		}
	}()
	time.AfterFunc(20*time.Millisecond, cancel)
	if err := Wait(ctx, &wg, &stop, &done, 1, nil); err != context.Canceled {
		t.Fatalf("Wait after cancel = %v, want %v", err, context.Canceled)
	}

	stop.Store(false)
	var seen atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		done.Add(1)
		time.Sleep(250 * time.Millisecond)
	}()
	err := Wait(context.Background(), &wg, &stop, &done, 1, func(d, parts int) { seen.Store(int64(d)) })
	if err != nil || stop.Load() || seen.Load() != 1 {
		t.Errorf("Wait = %v, stop %v, progress saw %d done; want nil, false, 1", err, stop.Load(), seen.Load())
	}
}

// TestStopOnDone: stop is set when the context ends before release.
func TestStopOnDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stop atomic.Bool
	release := StopOnDone(ctx, &stop)
	cancel()
	for deadline := time.Now().Add(10 * time.Second); !stop.Load(); {
		if time.Now().After(deadline) {
			t.Fatal("stop not set 10 s after cancel")
		}
		time.Sleep(time.Millisecond)
	}
	release()
}

// TestRun: every part is done exactly once, by at most Threads workers,
// each merged once; a piece that reports itself stopped ends its worker
// and is not counted; a cancelled context stops the rest.
func TestRun(t *testing.T) {
	for _, threads := range []int{0, 1, 3, 100} {
		const parts = 1000
		var seen [parts]atomic.Int32
		var merged, sum int
		done, err := Run(context.Background(), parts, threads, nil,
			func() *int { return new(int) },
			func(w *int, i int, stop *atomic.Bool) bool { seen[i].Add(1); *w += i; return true },
			func(w *int) { merged++; sum += *w })
		if done != parts || err != nil || sum != parts*(parts-1)/2 || merged != Threads(threads, parts) {
			t.Errorf("threads %d: done %d, %v, sum %d, %d merged; want %d, nil, %d, %d", threads, done, err, sum, merged, parts, parts*(parts-1)/2, Threads(threads, parts))
		}
		for i := range seen {
			if seen[i].Load() != 1 {
				t.Fatalf("threads %d: part %d done %d times", threads, i, seen[i].Load())
			}
		}
	}
	// A piece that stops everything: nothing after it counts.
	done, err := Run(context.Background(), 100, 1, nil, func() *int { return new(int) },
		func(w *int, i int, stop *atomic.Bool) bool {
			if i == 10 {
				stop.Store(true)
				return false
			}
			return true
		}, func(*int) {})
	if done != 10 || err != nil {
		t.Errorf("stopped at part 10: done %d, %v; want 10, nil", done, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if done, err := Run(ctx, 100, 2, nil, func() *int { return new(int) },
		func(w *int, i int, stop *atomic.Bool) bool { time.Sleep(time.Millisecond); return !stop.Load() }, func(*int) {}); err != context.Canceled || done == 100 {
		t.Errorf("cancelled: done %d, %v; want fewer than 100, %v", done, err, context.Canceled)
	}
	if Threads(0, 5) < 1 || Threads(8, 5) != 5 || Threads(3, 0) != 1 {
		t.Errorf("Threads: %d %d %d", Threads(0, 5), Threads(8, 5), Threads(3, 0))
	}
}
