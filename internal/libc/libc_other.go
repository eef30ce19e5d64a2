//go:build (!(linux && !android && (amd64 || arm64)) || nogpu) && !(cgo && linux)

package libc

// fit does nothing: this build loads no C library (without the GPU
// loader, a CGO_ENABLED=0 build is static), or it is not Linux.
func fit() {}
