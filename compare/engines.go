package compare

import (
	"context"
	"iter"
	"sync"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
	"github.com/queens-dev/queens/sat/external"
)

// Backtrack is the native recursive backtracker ([backtrack.All]) as a
// [Source]. It is the reference engine of the queens command's compare.
func Backtrack(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error] {
	return backtrack.All(ctx, n, backtrack.Options{Place: place})
}

// SAT returns gini enumerating the CNF of the given encoding as a
// [Source]: the parallel cube-and-conquer engine of [sat.NewParallel]
// (with mirror symmetry unless queens are pre-placed), as queens sat
// --all runs it.
func SAT(encoding encode.Encoding) Source {
	return CNF(encoding, func(ctx context.Context, cnf *encode.CNF) iter.Seq2[board.Solution, error] {
		p, err := sat.NewParallel(cnf, sat.Options{})
		if err != nil {
			return func(yield func(board.Solution, error) bool) { yield(nil, err) }
		}
		return p.All(ctx)
	})
}

// SATSequential returns gini enumerating the CNF of the given encoding on
// one instance, a blocking clause after each solution ([sat.All]), as a
// [Source].
func SATSequential(encoding encode.Encoding) Source { return CNF(encoding, sat.All) }

// External returns an external DIMACS solver command (see
// [external.New]), re-run once per solution on the pairwise CNF, as a
// [Source].
func External(command string) Source {
	return ExternalSolver(external.External{Command: command}, "pairwise")
}

// ExternalSolver returns the external solver x ([external.External]), re-run
// once per solution on the CNF of the given encoding, as a [Source]. Each
// solution is checked as [external.External.New] says, and so is the final
// UNSATISFIABLE answer's proof if x.Proof is set. If x.Output is
// [external.OutputProbe], the solver is probed once, on the Source's first use,
// for every problem it is run on.
func ExternalSolver(x external.External, encoding encode.Encoding) Source {
	var once sync.Once
	var probeErr error
	return CNF(encoding, func(ctx context.Context, cnf *encode.CNF) iter.Seq2[board.Solution, error] {
		once.Do(func() { probeErr = x.Probe(ctx) })
		if probeErr != nil {
			return func(yield func(board.Solution, error) bool) { yield(nil, probeErr) }
		}
		return sat.Stream(ctx, func() (*external.Solver, error) { return x.New(cnf) })
	})
}

// CNF returns a [Source] that encodes each problem with the given
// encoding and enumerates it with all, a solver's stream of the CNF's
// solutions. Tests use it to run deliberately broken CNFs.
func CNF(encoding encode.Encoding, all func(context.Context, *encode.CNF) iter.Seq2[board.Solution, error]) Source {
	return func(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error] {
		return func(yield func(board.Solution, error) bool) {
			cnf, err := encode.Queens(n, encoding, place)
			if err != nil {
				yield(nil, err)
				return
			}
			all(ctx, cnf)(yield)
		}
	}
}
