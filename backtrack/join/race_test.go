//go:build race

package join

// raceEnabled: the race detector reserves more address space than a
// ulimit -v test leaves.
const raceEnabled = true
