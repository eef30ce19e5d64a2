// Package boardcmd is queens board: the queens of --place drawn, with no
// search, in any of the solution formats, or with the number of queens
// attacking each square (--format attacks, --attacks, --numbers).
package boardcmd
