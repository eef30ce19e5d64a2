//go:build cgo && linux

package libc

/*
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>

// queens_fit_libc runs as the program loads, before the Go runtime
// starts its first thread: under an address-space limit, glibc's malloc
// gets one arena and the threads pthread_create makes get 512 KiB stacks
// (see the package comment). A Go init would come too late, after the
// runtime's first threads took their 72 MiB each.
__attribute__((constructor)) static void queens_fit_libc(void) {
	struct rlimit r;
	if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) {
		return;
	}
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
	mallopt(M_ARENA_MAX, 1);
	pthread_attr_t a;
	if (pthread_attr_init(&a) == 0) {
		if (pthread_attr_setstacksize(&a, 512 << 10) == 0) { // stackSize
			pthread_setattr_default_np(&a);
		}
		pthread_attr_destroy(&a);
	}
#endif
}
*/
import "C"

// fit does nothing: in a cgo build the constructor above has done it.
func fit() {}
