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
