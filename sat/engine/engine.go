// Package engine states the contract every SAT engine of queens meets:
// gini in process ([sat.Solver]), gini's cubes in parallel
// ([sat.Parallel]) and an external DIMACS solver ([external.Solver]).
// It imports no solver, so a program can take any of them as an
// [Interface] without linking gini or the process runner.
//
// An engine works on one n-queens CNF and is a cursor over its solutions:
// [Interface.All] and [Interface.Count] cover the solutions the engine
// has not returned yet, so a second All after an early stop continues
// where the first stopped, and after a whole enumeration (or a Count)
// nothing is left. [sat.All] is the stream that starts anew on every
// range.
//
// [sat.Solver]: https://pkg.go.dev/github.com/queens-dev/queens/sat#Solver
// [sat.Parallel]: https://pkg.go.dev/github.com/queens-dev/queens/sat#Parallel
// [sat.All]: https://pkg.go.dev/github.com/queens-dev/queens/sat#All
// [external.Solver]: https://pkg.go.dev/github.com/queens-dev/queens/sat/external#Solver
package engine

import (
	"context"
	"iter"
	"time"

	"github.com/queens-dev/queens/board"
)

// Interface is a SAT engine enumerating the solutions of one n-queens
// CNF. Its methods must not be called concurrently. After an error from
// All or Count (ctx ended, a solver failed, a model that is not a
// solution) the engine must not be used again.
type Interface interface {
	// All returns the solutions not yet returned, as a stream that ends
	// at the first error (yielded with a nil solution). A solution counts
	// as returned once yielded, so breaking out of the stream and ranging
	// over All again continues with the next one.
	All(ctx context.Context) iter.Seq2[board.Solution, error]
	// Count returns the number of solutions not yet returned, and
	// returns them (a later All yields nothing).
	Count(ctx context.Context) (uint64, error)
	// Stats returns the work done so far.
	Stats() Stats
}

// Stats describes the work an engine has done. gini exposes no search
// statistics (conflicts, decisions), so these are what every engine can
// count from outside.
type Stats struct {
	Vars, Clauses int           // size of the formula given to the solver
	Solves        int           // calls to the solver (runs of an external one)
	Solutions     int           // solutions returned (emitted by All, or counted), exactly
	Blocking      int           // blocking clauses added
	Cubes         int           // cubes solved (sat.Parallel; 0 for the others)
	Proofs        int           // UNSAT answers certified by a checked proof (an external solver's with a proof; 0 from gini)
	Elapsed       time.Duration // wall time spent in the solver
}
