package sat

import (
	"context"
	"fmt"
	"iter"
	"time"

	"github.com/go-air/gini"
	"github.com/go-air/gini/z"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
)

// Stats describes the work a [Solver] has done. gini exposes no search
// statistics (conflicts, decisions), so these are what can be counted
// from outside.
type Stats struct {
	Vars, Clauses int           // size of the formula given to the solver
	Solves        int           // calls to the SAT solver (gini or external)
	Solutions     int           // solutions returned
	Blocking      int           // blocking clauses added
	Cubes         int           // cubes solved ([Parallel]; 0 for a Solver)
	Elapsed       time.Duration // wall time spent in the solver
}

// Solver finds the solutions of one n-queens CNF, one after another: each
// solution found is excluded by a blocking clause over its n true board
// variables before the next solve. It works with gini in process ([New])
// or with an external DIMACS solver ([NewExternal]). A Solver is not safe
// for concurrent use; build one per goroutine.
type Solver struct {
	cnf   *encode.CNF
	g     *gini.Gini // nil for an external solver
	ext   *external
	stats Stats
	done  bool  // no more solutions
	err   error // the error that ended All
	model []bool
}

// New returns a Solver that runs gini on cnf, which must have N set (the
// CNF of [encode.Queens]). The clauses are added to gini directly.
func New(cnf *encode.CNF) (*Solver, error) {
	if err := checkCNF(cnf); err != nil {
		return nil, err
	}
	return &Solver{cnf: cnf, g: newGini(cnf), stats: Stats{Vars: cnf.Vars, Clauses: len(cnf.Clauses)}}, nil
}

func checkCNF(cnf *encode.CNF) error {
	if cnf == nil || cnf.N < 1 || cnf.Vars < cnf.N*cnf.N {
		return fmt.Errorf("sat: CNF without an n-queens board (N = 0 or too few variables)")
	}
	return nil
}

// Stats returns the statistics so far.
func (s *Solver) Stats() Stats { return s.stats }

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
	var sol board.Solution
	var err error
	if s.g != nil {
		sol, err = s.nextGini(ctx)
	} else {
		sol, err = s.ext.next(ctx, s.cnf)
	}
	s.stats.Solves++
	s.stats.Elapsed += time.Since(start)
	if err != nil {
		s.done = true
		return nil, err
	}
	if sol == nil {
		s.done = true
		return nil, nil
	}
	s.stats.Solutions++
	s.stats.Blocking++
	return sol, nil
}

func (s *Solver) nextGini(ctx context.Context) (board.Solution, error) {
	res, err := solve(ctx, s.g)
	if err != nil || res != 1 {
		return nil, err
	}
	n := s.cnf.N
	// Read the board before blocking it: Add backtracks and loses the
	// model (GINI.md P3).
	sol := make(board.Solution, n)
	for row := range n {
		sol[row] = -1
		for col := range n {
			if s.g.Value(z.Var(encode.Var(n, row, col)).Pos()) {
				sol[row] = col
				break
			}
		}
	}
	for row, col := range sol {
		if col < 0 {
			return nil, fmt.Errorf("sat: gini's model has no queen in row %d", row+1)
		}
		s.g.Add(z.Var(encode.Var(n, row, col)).Neg())
	}
	s.g.Add(z.LitNull)
	return sol, nil
}

// solve runs g until it answers (1 SAT, -1 UNSAT) or ctx ends. Without a
// cancellable ctx it calls Solve directly. Otherwise it polls a GoSolve,
// whose result must be collected exactly once (GINI.md P10): gini's Wait
// holds the lock Stop needs, so waiting in another goroutine would make
// cancellation deadlock. g.Try is never used: it leaves a deadline behind
// (P2).
func solve(ctx context.Context, g *gini.Gini) (int, error) {
	if ctx.Done() == nil {
		return g.Solve(), nil
	}
	gs := g.GoSolve()
	wait := 20 * time.Microsecond
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		if res, ok := gs.Test(); ok {
			return res, nil
		}
		select {
		case <-ctx.Done():
			if res := gs.Stop(); res != 0 {
				return res, nil // finished just before the stop
			}
			return 0, ctx.Err()
		case <-timer.C:
		}
		wait = min(2*wait, 10*time.Millisecond)
		timer.Reset(wait)
	}
}

// First returns the first solution, or nil if there is none.
func (s *Solver) First(ctx context.Context) (board.Solution, error) { return s.Next(ctx) }

// All returns the solutions not yet returned, as a stream. The stream ends
// early at an error, which [Solver.Err] then returns.
func (s *Solver) All(ctx context.Context) iter.Seq[board.Solution] {
	return func(yield func(board.Solution) bool) {
		for {
			sol, err := s.Next(ctx)
			if err != nil {
				s.err = err
				return
			}
			if sol == nil || !yield(sol) {
				return
			}
		}
	}
}

// Err returns the error that ended the stream of [Solver.All], or nil.
func (s *Solver) Err() error { return s.err }

// Count returns the number of solutions not yet returned, enumerating
// them.
func (s *Solver) Count(ctx context.Context) (uint64, error) {
	var total uint64
	for range s.All(ctx) {
		total++
	}
	return total, s.err
}

// First returns the first solution of cnf found by gini, or nil if there
// is none.
func First(ctx context.Context, cnf *encode.CNF) (board.Solution, error) {
	s, err := New(cnf)
	if err != nil {
		return nil, err
	}
	return s.Next(ctx)
}

// Count returns the number of solutions of cnf, enumerated by gini.
func Count(ctx context.Context, cnf *encode.CNF) (uint64, error) {
	s, err := New(cnf)
	if err != nil {
		return 0, err
	}
	return s.Count(ctx)
}
