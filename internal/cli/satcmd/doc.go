// Package satcmd is queens sat: the puzzle encoded as CNF and solved,
// enumerated or counted by gini in process or by an external DIMACS
// solver (--solver), every answer checked by the referee (sat.go), and
// counted by an external model counter (--counter, counter.go).
package satcmd
