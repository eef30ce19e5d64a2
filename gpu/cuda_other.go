//go:build !(linux && !android && (amd64 || arm64)) || nogpu

package gpu

import (
	"fmt"
	"runtime"
)

// errPlatform is why no device is usable on this platform.
var errPlatform = fmt.Errorf("%w: this build of queens has no CUDA loader (linux/amd64 and linux/arm64 builds have one unless built with -tags nogpu; this is %s/%s)", ErrNoDevice, runtime.GOOS, runtime.GOARCH)

func available() error { return errPlatform }

// device stands for an open CUDA device; there is none on this platform.
type device struct{ name string }

// KernelInfo, for the result: never set here.
func (g *device) kernelInfo() KernelInfo { return KernelInfo{} }

func openDevice(ordinal, batch, n int, design Design, blocks int) (*device, error) {
	return nil, errPlatform
}

func (g *device) buffer(s int) []task { return nil }

func (g *device) start(s int, tasks []task) error { return errPlatform }

func (g *device) wait(s int, tm *Timing) ([]uint64, error) { return nil, errPlatform }

func (g *device) close() {}
