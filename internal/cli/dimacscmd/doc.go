// Package dimacscmd is queens dimacs: the CNF of the puzzle, with
// pre-placed queens (or random ones, --random-place) and the lex-leader
// clauses of --break-symmetry, in DIMACS (or the model counting
// competition's format, --mc) with the header comments that describe the
// instance, written to a file or stdout.
package dimacscmd
