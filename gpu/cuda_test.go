package gpu

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
)

// TestAvailable checks that Available answers without panicking, with or
// without a driver, and that Count then agrees with it.
func TestAvailable(t *testing.T) {
	err := Available()
	t.Logf("Available() = %v", err)
	if err != nil && !errors.Is(err, ErrNoDevice) && !errors.Is(err, ErrKernel) {
		t.Fatalf("Available() = %v, want nil or an error wrapping ErrNoDevice or ErrKernel", err)
	}
	if err != nil {
		_, cerr := Count(context.Background(), 8, Options{})
		if cerr == nil || (!errors.Is(cerr, ErrNoDevice) && !errors.Is(cerr, ErrKernel)) {
			t.Errorf("Count without a usable device = %v, want an error like Available's (%v)", cerr, err)
		}
	}
}

// needGPU skips t unless a device and the kernel are there.
func needGPU(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("GPU tests skipped: %v", err)
	}
}

// TestCountPieces compares every piece the GPU counts with backtrack's
// counter, n = 8..16, and the GPU with the Go twin of its kernel on
// splits of several depths.
func TestCountPieces(t *testing.T) {
	needGPU(t)
	for n := 8; n <= 16; n++ {
		sps, want := cpuPieces(t, n)
		for _, d := range designs {
			t.Run(fmt.Sprintf("n=%d/%v", n, d), func(t *testing.T) {
				got := countKnown(t, n, d)
				samePieces(t, n, sps, got.Pieces, want)
			})
		}
	}
	for _, c := range []struct {
		rows   int
		design Design
	}{{3, DesignTask}, {6, DesignTask}, {10, DesignTask}, {MaxRows, DesignTask}, {3, DesignLoop}, {6, DesignLoop}, {10, DesignLoop}, {MaxRows, DesignLoop}} {
		rows := c.rows
		t.Run(fmt.Sprintf("n=13/rows=%d/%v", rows, c.design), func(t *testing.T) {
			sps, _ := backtrack.Subproblems(13)
			opt := Options{Rows: rows, Batch: 777, Design: c.design}
			ref, err := Reference(context.Background(), 13, opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Count(context.Background(), 13, opt)
			if err != nil {
				t.Fatal(err)
			}
			samePieces(t, 13, sps, got.Pieces, ref.Pieces)
			if got.Tasks != ref.Tasks || got.Launches != ref.Launches {
				t.Errorf("Count: %d tasks in %d launches, Reference %d in %d", got.Tasks, got.Launches, ref.Tasks, ref.Launches)
			}
		})
	}
}

// TestCountKnown counts n = 17 and 18 on the GPU against the published table.
func TestCountKnown(t *testing.T) {
	needGPU(t)
	for _, n := range []int{17, 18} {
		for _, d := range designs {
			t.Run(fmt.Sprintf("n=%d/%v", n, d), func(t *testing.T) {
				countKnown(t, n, d)
			})
		}
	}
}

func TestCountCancel(t *testing.T) {
	needGPU(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, d := range designs {
		if res, err := Count(ctx, 16, Options{Batch: 1000, Design: d}); !errors.Is(err, context.Canceled) || res.Total != 0 {
			t.Errorf("Count(cancelled, %v) = %d, %v; want 0, %v", d, res.Total, err, context.Canceled)
		}
	}
}

// countKnown counts the n×n board on the GPU with design d and checks the
// counts against the published table.
func countKnown(t *testing.T, n int, d Design) Result {
	t.Helper()
	got, err := Count(context.Background(), n, Options{Design: d})
	if err != nil {
		t.Fatalf("Count(%d): %v", n, err)
	}
	t.Logf("n=%d on %s: %d tasks of %d rows in %d launches, %v", n, got.Device, got.Tasks, got.Rows, got.Launches, got.Elapsed)
	known, _ := board.Known(n)
	if got.Total != known.Total || got.Unique != known.Unique {
		t.Errorf("Count(%d) = %d (%d unique), want %d (%d unique)", n, got.Total, got.Unique, known.Total, known.Unique)
	}
	return got
}

// designs are the kernels the GPU tests run.
var designs = []Design{DesignTask, DesignLoop}

// BenchmarkCount times whole GPU counts (device set-up included) at a few
// task depths with each design; it skips without a GPU.
func BenchmarkCount(b *testing.B) {
	if err := Available(); err != nil {
		b.Skipf("no GPU: %v", err)
	}
	for _, n := range []int{16, 18, 19} {
		for _, rows := range []int{DefaultRows(n) - 1, DefaultRows(n), DefaultRows(n) + 1, DefaultRows(n) + 2} {
			for _, d := range designs {
				b.Run(fmt.Sprintf("n=%d/rows=%d/%v", n, rows, d), func(b *testing.B) {
					var res Result
					for b.Loop() {
						var err error
						if res, err = Count(context.Background(), n, Options{Rows: rows, Design: d}); err != nil {
							b.Fatal(err)
						}
					}
					if known, _ := board.Known(n); res.Total != known.Total {
						b.Fatalf("Count(%d) = %d, want %d", n, res.Total, known.Total)
					}
					b.ReportMetric(float64(res.Tasks), "tasks/op")
					b.ReportMetric(float64(res.Launches), "launches/op")
					b.ReportMetric(res.Timing.Kernel.Seconds()*1e3, "kernel-ms/op")
				})
			}
		}
	}
}
