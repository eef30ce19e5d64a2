//go:build !linux

package external

// becomeSubreaper does nothing outside Linux.
func becomeSubreaper() {}

// sweep does nothing outside Linux: there, what a solver leaves behind is
// killed with its process group only.
func sweep(mark string) {}
