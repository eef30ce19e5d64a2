//go:build !race

package libc

const raceEnabled = false
