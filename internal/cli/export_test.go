package cli

import (
	"context"

	"github.com/queens-dev/queens/gpu"
)

// SetGPU puts available and count in the place of gpu.Available and
// gpu.Count (the tests' CPU twin of the kernel, gpu.Reference, or no
// device) until the restore it returns is called.
func SetGPU(available func() error, count func(ctx context.Context, n int, opt gpu.Options) (gpu.Result, error)) (restore func()) {
	a, c := gpuAvailable, gpuCount
	gpuAvailable, gpuCount = available, count
	return func() { gpuAvailable, gpuCount = a, c }
}
