package compare

import (
	"context"
	"iter"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
)

// Backtrack is the native recursive backtracker as a [Source]. It is the
// reference engine of the queens command's compare.
func Backtrack(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error] {
	return func(yield func(board.Solution, error) bool) {
		stopped := false
		_, err := backtrack.Search(ctx, n, backtrack.Options{Place: place}, func(s board.Solution) bool {
			stopped = !yield(s, nil)
			return !stopped
		})
		if err != nil && !stopped {
			yield(nil, err)
		}
	}
}

// Counter is the bitboard counter, [backtrack.Count] on all cores, as the
// Count of an [Engine]: it counts the solutions (and without pre-placed
// queens the classes up to symmetry) without producing them.
func Counter(ctx context.Context, n int, place []board.Queen) (total, unique uint64, err error) {
	res, err := backtrack.Count(ctx, n, backtrack.CountOptions{Place: place, Unique: len(place) == 0})
	return res.Total, res.Unique, err
}

// SAT returns gini enumerating the CNF of the given encoding as a
// [Source]: the parallel cube-and-conquer engine of [sat.NewParallel]
// (with mirror symmetry unless queens are pre-placed), as queens sat
// --all runs it.
func SAT(encoding string) Source {
	return CNF(encoding, func(cnf *encode.CNF) (Enumerator, error) { return sat.NewParallel(cnf, sat.Options{}) })
}

// SATSequential returns gini enumerating the CNF of the given encoding on
// one instance, a blocking clause after each solution ([sat.New]), as a
// [Source].
func SATSequential(encoding string) Source {
	return CNF(encoding, func(cnf *encode.CNF) (Enumerator, error) { return sat.New(cnf) })
}

// Enumerator is what [CNF] needs of a solver: [sat.Solver] and
// [sat.Parallel] are Enumerators.
type Enumerator interface {
	All(ctx context.Context) iter.Seq[board.Solution]
	Err() error
}

// External returns an external DIMACS solver command (see
// [sat.NewExternal]), re-run once per solution on the pairwise CNF, as a
// [Source].
func External(command string) Source {
	return CNF("pairwise", func(cnf *encode.CNF) (Enumerator, error) { return sat.NewExternal(cnf, command) })
}

// CNF returns a [Source] that encodes each problem with the given
// encoding and enumerates it with the solver that open makes of the CNF.
// Tests use it to run deliberately broken CNFs.
func CNF(encoding string, open func(*encode.CNF) (Enumerator, error)) Source {
	return func(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error] {
		return func(yield func(board.Solution, error) bool) {
			cnf, err := encode.Queens(n, encode.Encoding(encoding), place)
			if err != nil {
				yield(nil, err)
				return
			}
			s, err := open(cnf)
			if err != nil {
				yield(nil, err)
				return
			}
			for sol := range s.All(ctx) {
				if !yield(sol, nil) {
					return
				}
			}
			if err := s.Err(); err != nil {
				yield(nil, err)
			}
		}
	}
}
