//go:build linux && !android && (amd64 || arm64) && !nogpu

package gpu

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ebitengine/purego"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

// fakeEnv names the folder of the fake libcuda.so.1 in the test process
// that TestFakeDriver starts; the TestFake* tests run only there.
const fakeEnv = "QUEENS_GPU_FAKE_DRIVER"

// TestFakeDriver tests the loader and Count end to end without a GPU:
// it builds testdata/fakecuda.cpp, a libcuda.so.1 whose cuLaunchKernel
// runs kernel.cu on the host, and reruns this test binary with it on
// LD_LIBRARY_PATH (the driver is loaded once per process). It skips when
// no C++ compiler is on PATH.
func TestFakeDriver(t *testing.T) {
	if os.Getenv(fakeEnv) != "" {
		t.Skip("in the child process")
	}
	dir := testutil.FakeCUDA(t, "testdata/fakecuda.cpp", "the loader is not tested with a fake driver")
	table := filepath.Join(dir, "table.txt")
	cmd := exec.Command(os.Args[0], "-test.run", "^(TestFake(Count|Errors)|TestDeviceTable)$", "-test.v", "-test.count", "1",
		"-table", "8-10", "-table-sweep", "10", "-table-out", table)
	cmd.Env = append(os.Environ(), fakeEnv+"="+dir, "LD_LIBRARY_PATH="+dir)
	out, err := cmd.CombinedOutput()
	t.Logf("child:\n%s", out)
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	for _, name := range []string{"TestFakeCount", "TestFakeErrors", "TestDeviceTable"} {
		if !strings.Contains(string(out), "--- PASS: "+name+" ") {
			t.Errorf("child did not pass %s", name)
		}
	}
	// The device check's table, on the fake device: a line per size and
	// design, and the sweep's depths and occupancies for n = 10.
	b, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 1+2*3+4 || strings.Count(string(b), "= table") != 2*3+4 || !strings.Contains(string(b), "grid=8=2*4") {
		t.Errorf("the table has %d lines, want a header and 10 counts equal to the table, one on 4 blocks per SM:\n%s", len(lines), b)
	}
}

// fakeLeaks returns what the fake driver holds: contexts, allocations and
// modules not given back.
func fakeLeaks(t *testing.T) int {
	t.Helper()
	lib, err := purego.Dlopen("libcuda.so.1", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		t.Fatal(err)
	}
	var leaks func() int32
	purego.RegisterLibFunc(&leaks, lib, "fake_leaks")
	return int(leaks())
}

func needFake(t *testing.T) {
	t.Helper()
	if os.Getenv(fakeEnv) == "" {
		t.Skip("run by TestFakeDriver only")
	}
}

// fakeStats returns the launches of count_tasks and of count_loop since
// the last call, and the streams count_loop ran on.
func fakeStats(t *testing.T) (tasks, loop, streams int) {
	t.Helper()
	lib, err := purego.Dlopen("libcuda.so.1", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		t.Fatal(err)
	}
	var stats func(*int32, *int32, *int32)
	purego.RegisterLibFunc(&stats, lib, "fake_stats")
	var a, b, c int32
	stats(&a, &b, &c)
	return int(a), int(b), int(c)
}

func TestFakeCount(t *testing.T) {
	needFake(t)
	if err := Available(); err != nil {
		t.Fatalf("Available() with the fake driver = %v", err)
	}
	fakeStats(t)
	for n := 1; n <= 11; n++ {
		sps, want := cpuPieces(t, n)
		for _, opt := range []Options{{}, {Rows: 4, Batch: 1000}, {Design: DesignLoop}, {Design: DesignLoop, Rows: 4, Batch: 300}} {
			t.Run(fmt.Sprintf("n=%d/rows=%d/%v", n, opt.Rows, opt.Design), func(t *testing.T) {
				got, err := Count(context.Background(), n, opt)
				if err != nil {
					t.Fatalf("Count(%d): %v", n, err)
				}
				if got.Device != "fake CUDA (kernel.cu on the host)" {
					t.Errorf("Device = %q", got.Device)
				}
				samePieces(t, n, sps, got.Pieces, want)
				known, _ := board.Known(n)
				if got.Total != known.Total || got.Unique != known.Unique {
					t.Errorf("Count(%d) = %d (%d unique), want %d (%d unique)", n, got.Total, got.Unique, known.Total, known.Unique)
				}
				if leaks := fakeLeaks(t); leaks != 0 {
					t.Errorf("after Count(%d) the driver holds %d contexts, allocations, modules, streams, events or pinned buffers", n, leaks)
				}
				tasks, loop, streams := fakeStats(t)
				if want := got.Launches; opt.Design == DesignTask && (tasks != want || loop != 0) || opt.Design == DesignLoop && (loop != want || tasks != 0) {
					t.Errorf("%v: %d launches of count_tasks, %d of count_loop; want %d of the design's", opt.Design, tasks, loop, want)
				}
				if opt.Design == DesignLoop && streams != min(2, got.Launches) {
					t.Errorf("%d launches of count_loop on %d streams, want on %d", got.Launches, streams, min(2, got.Launches))
				}
				if opt.Design == DesignLoop && got.Launches > 0 && (got.Kernel.Grid != 6 || got.Kernel.BlocksPerSM != 3 || got.Kernel.SMs != 2 || got.Kernel.Block != loopBlock) {
					t.Errorf("kernel info %+v: want 3 blocks on each of 2 SMs of %d threads", got.Kernel, loopBlock)
				}
			})
		}
	}
}

func TestFakeErrors(t *testing.T) {
	needFake(t)
	ctx := context.Background()
	if _, err := Count(ctx, 10, Options{Device: 1}); !errors.Is(err, ErrNoDevice) {
		t.Errorf("Count on device 1 of 1: %v, want ErrNoDevice", err)
	}
	var cerr *CUDAError
	if _, err := Count(ctx, 10, Options{Batch: MaxBatch}); !errors.As(err, &cerr) ||
		cerr.Call != "cuMemAlloc_v2" || cerr.Name != "CUDA_ERROR_OUT_OF_MEMORY" || cerr.Code != 2 {
		t.Errorf("Count with a batch larger than the device: %v, want cuMemAlloc_v2's CUDA_ERROR_OUT_OF_MEMORY", err)
	}
	saved := kernelPTX
	kernelPTX = "// not a kernel\n"
	_, err := Count(ctx, 10, Options{})
	kernelPTX = saved
	if !errors.As(err, &cerr) || cerr.Name != "CUDA_ERROR_INVALID_PTX" || !strings.Contains(err.Error(), "no entry count_tasks") {
		t.Errorf("Count with a bad kernel: %v, want CUDA_ERROR_INVALID_PTX with the JIT log", err)
	}
	if _, err := Count(ctx, 10, Options{Batch: MaxBatch, Design: DesignLoop}); !errors.As(err, &cerr) ||
		cerr.Call != "cuMemAlloc_v2" || cerr.Name != "CUDA_ERROR_OUT_OF_MEMORY" {
		t.Errorf("DesignLoop with a batch larger than the device: %v, want cuMemAlloc_v2's CUDA_ERROR_OUT_OF_MEMORY", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	for _, d := range []Design{DesignTask, DesignLoop} {
		if _, err := Count(cctx, 12, Options{Batch: 100, Design: d}); !errors.Is(err, context.Canceled) {
			t.Errorf("Count(cancelled, %v) = %v, want %v", d, err, context.Canceled)
		}
	}
	if leaks := fakeLeaks(t); leaks != 0 {
		t.Errorf("after the failed counts the driver holds %d contexts, allocations, modules, streams, events or pinned buffers", leaks)
	}
}
