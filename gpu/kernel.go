package gpu

import (
	_ "embed"
	"errors"
	"strings"
)

// ptx.sh runs nvcc -ptx -arch=compute_80 -O3 -o kernel.ptx kernel.cu, or
// clang's equivalent where there is no nvcc.
//go:generate sh ptx.sh

// kernelPTX is kernel.cu compiled to PTX by go generate. An empty
// kernel.ptx (go:embed needs the file to exist) means "not built", which
// Count reports as [ErrKernel] and the GPU tests skip on. Regenerate it
// after any change to kernel.cu and commit it: TestPTXUpToDate checks it
// is what the compiler that made it makes of kernel.cu.
//
//go:embed kernel.ptx
var kernelPTX string

// kernelName and loopKernelName are the entry points in kernel.cu of
// DesignTask's and DesignLoop's kernels.
const (
	kernelName     = "count_tasks"
	loopKernelName = "count_loop"
)

// blockSize is the number of threads in a block of a launch of
// count_tasks (DesignTask); count_loop's is loopBlock.
const blockSize = 128

// ErrKernel is returned (wrapped) by [Count] and [Available] when the
// kernel was not compiled into this build.
var ErrKernel = errors.New("kernel not built: run go generate on a machine with nvcc or clang")

// kernelBuilt reports whether this build embeds a kernel.
func kernelBuilt() bool { return strings.TrimSpace(kernelPTX) != "" }
