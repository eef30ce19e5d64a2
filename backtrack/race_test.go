//go:build race

package backtrack

// raceEnabled: the race detector is on; tests of single-goroutine searches
// that take long under it skip (the plain run covers them whole).
const raceEnabled = true
