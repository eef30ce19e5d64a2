//go:build !linux

package external

// BecomeSubreaper does nothing outside Linux (see the Linux version).
func BecomeSubreaper() error { return nil }

// sweep does nothing outside Linux: there, what a solver leaves behind is
// killed with its process group only.
func sweep(mark string) {}
