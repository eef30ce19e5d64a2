// Package comparecmd is queens compare: for each board size of a range,
// every engine (the backtracker, the counters of the engine table, gini
// on each encoding, external DIMACS solvers and model counters) finds
// the solutions, and their sets are compared with each other and with
// the published counts (compare.go); --strategies sets the backtracker's
// strategies side by side instead (strategies.go).
package comparecmd
