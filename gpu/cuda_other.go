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

func openDevice(ordinal, batch, n int) (*device, error) { return nil, errPlatform }

func (g *device) search(tasks []task, out []uint64) error { return errPlatform }

func (g *device) close() {}
