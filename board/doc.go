// Package board holds what every part of queens shares: the [Solution]
// type (s[row] == col, 0-based), the independent validity check [Valid],
// pre-placed queens ([Queen], [ParseQueen], [CheckPlacement]), the 8
// symmetries of the square with canonical forms and orbit sizes, the text
// formats with a parser for each, and the published solution counts.
//
// It imports only the standard library, so any program can use it to check
// or draw a placement without pulling in a solver.
package board
