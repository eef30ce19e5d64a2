//go:build race

package testutil

// Race is true when the race detector is on: tests of single-goroutine
// searches that take long under it skip (the plain run covers them whole),
// and tests that need address space leave room for its shadow memory.
const Race = true
