package backtrackcmd

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/gpu"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/urfave/cli/v2"
)

// gpuMode is the value of --gpu: off, on (--gpu: a GPU or a usage error)
// or auto (--gpu=auto: a GPU when one is usable, the CPU otherwise).
type gpuMode string

const (
	gpuOff  gpuMode = ""
	gpuOn   gpuMode = "on"
	gpuAuto gpuMode = "auto"
)

func (g *gpuMode) Set(v string) error {
	switch v {
	case "true", "on":
		*g = gpuOn
	case "auto":
		*g = gpuAuto
	case "false", "off":
		*g = gpuOff
	default:
		return fmt.Errorf("want --gpu, --gpu=auto or --gpu=off, not --gpu=%s", v)
	}
	return nil
}

func (g *gpuMode) String() string { return string(*g) }

// IsBoolFlag lets --gpu stand alone, as a boolean flag does; a mode needs
// =, as in --gpu=auto.
func (g *gpuMode) IsBoolFlag() bool { return true }

func gpuFlag() cli.Flag {
	return &cli.GenericFlag{Name: "gpu", Value: new(gpuMode), DefaultText: "off",
		Usage: "with --count, count on an NVIDIA GPU (the CUDA driver, loaded at run time); --gpu=auto: on a GPU when one is usable, else on the CPU"}
}

// gpuKernelFlag is --gpu-kernel: which of the GPU counter's two kernels
// runs.
func gpuKernelFlag() cli.Flag {
	return &cli.StringFlag{Name: "gpu-kernel", Value: "task",
		Usage: "with --gpu, the kernel `K`: task (the first design: a thread per task) or loop (the second: persistent threads, one uniform loop, two streams)"}
}

// gpuDesign reads --gpu-kernel.
func gpuDesign(kernel string) (gpu.Design, error) {
	switch kernel {
	case "task":
		return gpu.DesignTask, nil
	case "loop":
		return gpu.DesignLoop, nil
	default:
		return 0, cmdutil.Usagef("--gpu-kernel: want task or loop, not %q", kernel)
	}
}

// checkGPU checks --gpu (mode) and --gpu-kernel against --count and
// --place, and returns the kernel's design.
func checkGPU(mode gpuMode, kernel string, kernelSet, count, place bool) (gpu.Design, error) {
	if mode == gpuOff {
		if kernelSet {
			return 0, cmdutil.Usagef("--gpu-kernel picks the kernel of --gpu: add --gpu")
		}
		return 0, nil
	}
	design, err := gpuDesign(kernel)
	switch {
	case err != nil:
		return 0, err
	case !count:
		return 0, cmdutil.Usagef("--gpu counts: add --count")
	case place:
		return 0, cmdutil.Usagef("--gpu counts whole boards: it cannot be combined with --place")
	}
	return design, nil
}

// useGPU says whether a count with --gpu mode (checked by checkGPU)
// counts on the GPU. --gpu without a usable GPU is a usage error naming
// why; --gpu=auto then counts on the CPU, and says so on w with --stats.
func useGPU(mode gpuMode, stats bool, w io.Writer) (bool, error) {
	if mode == gpuOff {
		return false, nil
	}
	err := gpuAvailable()
	switch {
	case err == nil:
		return true, nil
	case mode == gpuAuto:
		if stats {
			fmt.Fprintf(w, "queens: note: --gpu=auto: counting on the CPU (%v)\n", err)
		}
		return false, nil
	case errors.Is(err, gpu.ErrNoDevice), errors.Is(err, gpu.ErrKernel):
		return false, cmdutil.Usagef("--gpu: %v", err)
	}
	return false, err
}

// gpuAvailable and gpuCount are gpu.Available and gpu.Count; the tests
// put the CPU twin of the kernel (gpu.Reference) in their place.
var (
	gpuAvailable = gpu.Available
	gpuCount     = gpu.Count
)

// gpuCounter returns the counter of a shard's pieces on the GPU with
// the kernel design, for shard.Options.Counter.
func gpuCounter(design gpu.Design) pieceCounter {
	return func(ctx context.Context, n int, pieces []backtrack.Subproblem, done func(int, backtrack.Tally) error) error {
		if len(pieces) == 0 {
			return nil
		}
		_, err := gpuCount(ctx, n, gpu.Options{Pieces: pieces, OnPiece: done, Design: design})
		return err
	}
}
