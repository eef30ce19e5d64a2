package external

import (
	"context"
	"fmt"
	"iter"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/stream"
	"github.com/queens-dev/queens/sat/engine"
)

var _ engine.Interface = (*Solver)(nil)

// Solver finds the solutions of one n-queens CNF with an external DIMACS
// solver, one after another: each solution found is excluded by a
// blocking clause over its n true board variables, and the solver is run
// again on the CNF with every blocking clause so far. Build one with
// [External.New]. A Solver is not safe for concurrent use.
type Solver struct {
	cnf   *encode.CNF
	ext   *external
	stats engine.Stats
	done  bool // no more solutions
}

// Stats returns the statistics so far.
func (s *Solver) Stats() engine.Stats { return s.stats }

// Next returns the next solution, or nil when there are no more. It
// returns ctx's error if ctx ends first (then, and after any other error,
// the Solver must not be used again).
func (s *Solver) Next(ctx context.Context) (board.Solution, error) {
	if s.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start := time.Now()
	sol, err := s.ext.next(ctx, s.cnf)
	s.stats.Proofs = s.ext.proofs
	s.stats.Solves++
	s.stats.Elapsed += time.Since(start)
	if err != nil || sol == nil {
		s.done = true
		return nil, err
	}
	s.stats.Solutions++
	s.stats.Blocking++
	return sol, nil
}

// First returns the first solution, or nil if there is none.
func (s *Solver) First(ctx context.Context) (board.Solution, error) { return s.Next(ctx) }

// All returns the solutions s has not yet returned, as a stream that
// ends at the first error (yielded with a nil solution), as
// [engine.Interface] says. Each solution is blocked once returned, so a
// second range continues where the first stopped.
func (s *Solver) All(ctx context.Context) iter.Seq2[board.Solution, error] {
	return stream.Of(ctx, s.Next)
}

// Count returns the number of solutions not yet returned, enumerating
// them.
func (s *Solver) Count(ctx context.Context) (uint64, error) { return stream.Count(s.All(ctx)) }

func checkCNF(cnf *encode.CNF) error {
	if cnf == nil || cnf.N < 1 || cnf.Vars < cnf.N*cnf.N {
		return fmt.Errorf("external: CNF without an n-queens board (N = 0 or too few variables)")
	}
	return nil
}
