//go:build !unix

package memlimit

// addressLimit reports no address-space limit where there is no RLIMIT_AS.
func addressLimit() (int64, bool) { return 0, false }
