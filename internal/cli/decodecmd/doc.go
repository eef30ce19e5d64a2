// Package decodecmd is queens decode: it reads a SAT solver's answer (the
// competition's s/v lines, minisat's result file, or bare literals; a
// file or stdin, compressed or not), draws the board and verifies it. With
// --cnf it believes nothing the CNF's clauses do not say: it checks that
// the file is the queens instance its header claims, or decides from the
// clauses, and checks an UNSATISFIABLE against a proof (--proof) or the
// referee.
package decodecmd
