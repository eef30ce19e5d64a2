//go:build unix

package memlimit

import "syscall"

// addressLimit returns the process's address-space limit (RLIMIT_AS),
// if it has one.
func addressLimit() (int64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur >= 1<<62 { // RLIM_INFINITY
		return 0, false
	}
	return int64(r.Cur), true
}
