//go:build linux && !android && (amd64 || arm64) && !nogpu && !cgo

package libc

import (
	"runtime"
	"syscall"
	"unsafe"

	"github.com/ebitengine/purego"
)

// mArenaMax is glibc's M_ARENA_MAX, the mallopt parameter that bounds
// the malloc arenas.
const mArenaMax = -8

// limited reports whether the process has an address-space limit.
func limited() bool {
	var lim syscall.Rlimit
	return syscall.Getrlimit(syscall.RLIMIT_AS, &lim) == nil && lim.Cur != ^uint64(0) // RLIM_INFINITY
}

func fit() {
	if !limited() {
		return
	}
	lib, err := purego.Dlopen("libc.so.6", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return // not glibc
	}
	if f := bind[func(param, value int32) int32](lib, "mallopt"); f != nil {
		f(mArenaMax, 1)
	}
	// pthread_setattr_default_np (glibc 2.18) sets the attributes that
	// pthread_attr_init and pthread_create start from, in libc.so.6 since
	// glibc 2.34 and in libpthread.so.0 before.
	if pt, err := purego.Dlopen("libpthread.so.0", purego.RTLD_NOW|purego.RTLD_GLOBAL); err == nil {
		lib = pt
	}
	init := bind[func(attr unsafe.Pointer) int32](lib, "pthread_attr_init")
	set := bind[func(attr unsafe.Pointer, size uintptr) int32](lib, "pthread_attr_setstacksize")
	setDefault := bind[func(attr unsafe.Pointer) int32](lib, "pthread_setattr_default_np")
	destroy := bind[func(attr unsafe.Pointer) int32](lib, "pthread_attr_destroy")
	if init == nil || set == nil || setDefault == nil || destroy == nil {
		return
	}
	attr := new([128]byte) // pthread_attr_t: 56 bytes on amd64, 64 on arm64; on the heap, which does not move
	p := unsafe.Pointer(attr)
	if init(p) == 0 {
		if set(p, stackSize) == 0 {
			setDefault(p)
		}
		destroy(p)
	}
	runtime.KeepAlive(attr)
}
