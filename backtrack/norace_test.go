//go:build !race

package backtrack

const raceEnabled = false
