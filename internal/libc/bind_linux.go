//go:build linux && !android && (amd64 || arm64) && !nogpu

package libc

import "github.com/ebitengine/purego"

// bind returns the C function name of lib as a Go function of type F, or
// nil when lib has no such symbol.
func bind[F any](lib uintptr, name string) F {
	var f F
	if sym, err := purego.Dlsym(lib, name); err == nil {
		purego.RegisterFunc(&f, sym)
	}
	return f
}
