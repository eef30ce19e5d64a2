// Package libc fits the C library of a process that has one to an
// address-space limit (ulimit -v). queens has one in every cgo build (the
// default go build: net links runtime/cgo) and when purego loads it to
// reach the CUDA driver in a CGO_ENABLED=0 build; then every thread the
// Go runtime starts is a C thread: glibc reserves each one a stack of
// RLIMIT_STACK (8 MiB as a rule) and gives each thread that allocates a
// malloc arena of its own, a 64 MiB reservation, so that the process's
// virtual size grows by up to 72 MiB a thread (1.7 GiB at 7 threads,
// against 1.3 GiB for a static build) and a run under a limit of 1 to
// 1.5 GiB fails in pthread_create. Under such a limit nothing needs those
// reservations: Go code runs on Go stacks, and the CUDA driver, the only
// C code that allocates, does not run under one (it reserves far more
// address space itself).
//
// In a cgo build a C constructor does it as the program loads, before
// the runtime starts a thread; a CGO_ENABLED=0 build with the GPU loader
// does it from init through purego, after the runtime's first threads
// (MALLOC_ARENA_MAX=1 in the environment avoids their arenas too).
// .ci/ulimit.sh runs the built binary under limits of 1 to 4 GiB.
package libc

import "sync"

// Fit, when the process has an address-space limit, gives the threads
// created from then on 512 KiB stacks and limits glibc's malloc to one
// arena; it does nothing without a limit, without a C library, or with
// another C library than glibc. It acts once per process. Call it early,
// before the runtime has started many threads.
func Fit() { once() }

var once = sync.OnceFunc(fit)

// stackSize is the size of the stacks of the threads created under a
// limit (libc_cgo.go's constructor spells it in C).
const stackSize = 512 << 10

// init fits the C library as the process starts. The runtime has started
// a few C threads before any init runs, each with a stack and an arena
// reserved (about 75 MiB of address space a thread), which no later call
// can give back: MALLOC_ARENA_MAX=1 in the environment of the process
// avoids those arenas too.
func init() { Fit() }
