package gpu

import (
	_ "embed"
	"errors"
	"strings"
)

//go:generate nvcc -ptx -arch=compute_80 -O3 -o kernel.ptx kernel.cu

// kernelPTX is kernel.cu compiled to PTX by go generate. The kernel.ptx
// committed without nvcc at hand is empty (go:embed needs the file to
// exist): an empty kernel means "not built", which Count reports as
// [ErrKernel] and the GPU tests skip on. Regenerate it with nvcc and commit
// it, and TestPTXUpToDate checks it stays in step with kernel.cu.
//
//go:embed kernel.ptx
var kernelPTX string

// kernelName is the kernel's entry point in kernel.cu.
const kernelName = "count_tasks"

// blockSize is the number of threads in a block of a launch.
const blockSize = 128

// ErrKernel is returned (wrapped) by [Count] and [Available] when the
// kernel was not compiled into this build.
var ErrKernel = errors.New("kernel not built: run go generate on a machine with nvcc")

// kernelBuilt reports whether this build embeds a kernel.
func kernelBuilt() bool { return strings.TrimSpace(kernelPTX) != "" }
