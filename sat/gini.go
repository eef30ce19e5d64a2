package sat

import (
	"context"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/go-air/gini"
	"github.com/go-air/gini/z"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/stream"
	"github.com/queens-dev/queens/sat/engine"
)

var (
	_ engine.Interface = (*Solver)(nil)
	_ engine.Interface = (*Parallel)(nil)
)

// Solver finds the solutions of one n-queens CNF, one after another: each
// solution found is excluded by a blocking clause over its n true board
// variables before the next solve, by gini in process ([New]); the
// external package runs a DIMACS solver the same way. A Solver is not safe
// for concurrent use; build one per goroutine.
type Solver struct {
	cnf   *encode.CNF
	g     *gini.Gini // nil until load, for NewEncoded's residual
	stats engine.Stats
	vars  varMap // DIMACS to gini variables (nil: identity)
	seed  []int  // assumptions for the first solve (NewSeeded)
	done  bool   // no more solutions

	// A first solution found before gini was loaded (NewEncoded's
	// residual), returned by the first Next; load builds the Solver of
	// the whole board for the solutions after it.
	pending  board.Solution
	returned board.Solution
	load     func(ctx context.Context) (*Solver, error)
}

// New returns a Solver that runs gini on cnf, which must have N set (the
// CNF of [encode.Queens]). The clauses are added to gini directly.
func New(cnf *encode.CNF) (*Solver, error) {
	if err := checkCNF(cnf); err != nil {
		return nil, err
	}
	return &Solver{cnf: cnf, g: newGini(cnf, nil), stats: engine.Stats{Vars: cnf.Vars, Clauses: len(cnf.Clauses)}}, nil
}

// NewSeeded is like [New], but the first solve starts from a random
// partial placement: the queens a randomised greedy pass (drawn from
// seed) places in the top seedRows(n) rows, given to gini as
// assumptions. gini completes the rest of the board, which on large
// boards is far faster than its search from nothing. If the completion
// does not exist, gini solves again with the first half of the seed,
// and so on down to no assumptions, so the answer (a solution, or none)
// is the same as [New]'s; only which solution
// comes first differs. Later solves ([Solver.Next]) are [New]'s.
func NewSeeded(cnf *encode.CNF, seed uint64) (*Solver, error) {
	s, err := New(cnf)
	if err != nil {
		return nil, err
	}
	// gini v1.0.4 answers SAT with a non-model when solving under
	// assumptions a formula that is already inconsistent at level 0, and
	// its own check of that model then exits the process (log.Fatalf): test for that first, by
	// unit propagation of our own (gini's Test does not see it). Without
	// unit clauses nothing propagates: skip the index (memory at n=1000).
	if seedRows(cnf.N) > 0 && (!hasUnits(cnf) || newReducer(newOccurrences(cnf)).propagate(nil)) {
		s.seed = greedy(cnf.N, cnf.Place, seed)
	}
	return s, nil
}

func hasUnits(cnf *encode.CNF) bool {
	for _, c := range cnf.Clauses {
		if len(c) == 1 {
			return true
		}
	}
	return false
}

// seedRows returns how many top rows of an n×n board the greedy seed
// places: none on small boards, where gini is fast anyway. Measured with
// commander: 7/8 of the rows leaves gini 0.06 s of search at n = 200,
// 0.2 s at n = 400 and 1.8 s at n = 1000; 3/4 left it 0.2 s, 5.3 s and
// 10-45 s. A seed gini cannot complete is halved, so a larger fraction
// risks only a retry.
func seedRows(n int) int {
	if n < 50 {
		return 0
	}
	return n * 7 / 8
}

// greedy places a queen in each of the top seedRows(n) rows in turn, in
// a random column not attacked by the queens so far or by placed, as
// long as there is one; it returns the placements as DIMACS literals.
func greedy(n int, placed []board.Queen, seed uint64) []int {
	rows := seedRows(n)
	if rows == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	col := make([]bool, n)
	diag := make([]bool, 2*n) // row-col+n
	anti := make([]bool, 2*n) // row+col
	fixed := make([]int, n)
	for row := range fixed {
		fixed[row] = -1
	}
	take := func(row, c int) { col[c], diag[row-c+n], anti[row+c] = true, true, true }
	for _, q := range placed {
		fixed[q.Row] = q.Col
		take(q.Row, q.Col)
	}
	var lits []int
	free := make([]int, 0, n)
	for row := range rows {
		if fixed[row] >= 0 {
			continue
		}
		free = free[:0]
		for c := range n {
			if !col[c] && !diag[row-c+n] && !anti[row+c] {
				free = append(free, c)
			}
		}
		if len(free) == 0 {
			break
		}
		c := free[rng.IntN(len(free))]
		take(row, c)
		lits = append(lits, encode.Var(n, row, c))
	}
	return lits
}

func checkCNF(cnf *encode.CNF) error {
	if cnf == nil || cnf.N < 1 || cnf.Vars < cnf.N*cnf.N {
		return fmt.Errorf("sat: CNF without an n-queens board (N = 0 or too few variables)")
	}
	return nil
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
	if s.pending != nil {
		s.returned, s.pending = s.pending, nil
		s.stats.Solutions++
		return s.returned.Clone(), nil
	}
	if s.g == nil && s.load != nil {
		// The whole board, with the solution already returned blocked.
		full, err := s.load(ctx)
		s.load = nil
		if err != nil {
			s.done = true
			return nil, err
		}
		full.seed = nil
		for row, col := range s.returned {
			full.g.Add(full.vars.lit(-encode.Var(s.cnf.N, row, col)))
		}
		full.g.Add(z.LitNull)
		stats := s.stats
		*s = *full
		s.stats.Solves += stats.Solves
		s.stats.Solutions += stats.Solutions
		s.stats.Blocking++
		s.stats.Elapsed += stats.Elapsed
	}
	start := time.Now()
	sol, err := s.nextGini(ctx)
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
	var res int
	var err error
	// A seed without completion: retry with its first half, down to
	// nothing (then the answer is New's).
	for seed := s.seed; ; seed = seed[:len(seed)/2] {
		for _, lit := range seed {
			s.g.Assume(s.vars.lit(lit))
		}
		res, err = solve(ctx, s.g)
		if err != nil || res != -1 || len(seed) == 0 {
			break
		}
		s.stats.Solves++
	}
	s.seed = nil
	if err != nil || res != 1 {
		return nil, err
	}
	n := s.cnf.N
	// Read the board before blocking it: Add backtracks to level 0 and
	// loses the model.
	sol := make(board.Solution, n)
	for row := range n {
		sol[row] = -1
		for col := range n {
			if s.g.Value(s.vars.lit(encode.Var(n, row, col))) {
				sol[row] = col
				break
			}
		}
	}
	for row, col := range sol {
		if col < 0 {
			return nil, fmt.Errorf("sat: gini's model has no queen in row %d", row+1)
		}
		s.g.Add(s.vars.lit(-encode.Var(n, row, col)))
	}
	s.g.Add(z.LitNull)
	return sol, nil
}

// solve runs g until it answers (1 SAT, -1 UNSAT) or ctx ends. Without a
// cancellable ctx it calls Solve directly. Otherwise it polls a GoSolve,
// whose result must be collected exactly once (its channel is unbuffered:
// an uncollected result leaks the solving goroutine): gini's Wait
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

// Remaining returns the solutions s has not yet returned, as a stream
// that ends at the first error (yielded with a nil solution). Unlike
// [All] and [Parallel.All] it does not start anew: each solution is
// blocked once returned, so a second range continues where the first
// stopped.
func (s *Solver) Remaining(ctx context.Context) iter.Seq2[board.Solution, error] {
	return stream.Of(ctx, s.Next)
}

// All is [Solver.Remaining], as [engine.Interface] says.
func (s *Solver) All(ctx context.Context) iter.Seq2[board.Solution, error] { return s.Remaining(ctx) }

// Count returns the number of solutions not yet returned, enumerating
// them.
func (s *Solver) Count(ctx context.Context) (uint64, error) { return stream.Count(s.Remaining(ctx)) }

// All returns every solution of cnf found by gini ([New]) as a stream;
// each range over it starts a new solver, so the stream can be read again.
// An error (a bad CNF, ctx ended, a model that is not a solution) is
// yielded with a nil solution and ends the stream.
func All(ctx context.Context, cnf *encode.CNF) iter.Seq2[board.Solution, error] {
	return Stream(ctx, func() (*Solver, error) { return New(cnf) })
}

// Stream returns the solutions of a solver that open makes, as a stream
// that calls open anew for each range over it (so that it can be read
// again), as [All] does for gini; an [external.Solver] fits too. An error
// from open or from the solver is yielded with a nil solution and ends
// the stream.
//
// [external.Solver]: https://pkg.go.dev/github.com/queens-dev/queens/sat/external#Solver
func Stream[S interface {
	All(context.Context) iter.Seq2[board.Solution, error]
}](ctx context.Context, open func() (S, error)) iter.Seq2[board.Solution, error] {
	return func(yield func(board.Solution, error) bool) {
		s, err := open()
		if err != nil {
			yield(nil, err)
			return
		}
		s.All(ctx)(yield)
	}
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

// Model returns a model that gini finds of any formula (not only an
// n-queens CNF: cnf.N may be 0), as the signed literals of the variables
// its clauses use; a variable they do not use is false (as
// [encode.CNF.Satisfies] reads a model). Only those variables are given
// to gini, so a header that claims 2^31 variables costs nothing. It
// returns nil if the formula is unsatisfiable (an empty clause
// included), and ctx's error if ctx ends first. The model is gini's:
// check it before it refutes anything.
func Model(ctx context.Context, cnf *encode.CNF) ([]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ids := make(map[int]z.Var) // DIMACS variable -> gini's
	var order []int            // the DIMACS variables, by gini's number
	g := gini.NewVc(0, len(cnf.Clauses))
	for _, c := range cnf.Clauses {
		if len(c) == 0 {
			return nil, nil
		}
		for _, lit := range c {
			v := max(lit, -lit)
			id, ok := ids[v]
			if !ok {
				order = append(order, v)
				id = z.Var(len(order))
				ids[v] = id
			}
			if lit < 0 {
				g.Add(id.Neg())
			} else {
				g.Add(id.Pos())
			}
		}
		g.Add(z.LitNull)
	}
	res, err := solve(ctx, g)
	if err != nil || res != 1 {
		return nil, err
	}
	model := make([]int, len(order))
	for i, v := range order {
		model[i] = -v
		if g.Value(z.Var(i + 1).Pos()) {
			model[i] = v
		}
	}
	return model, nil
}

// ModelOf returns the model of cnf, an n-queens CNF (N set, as
// [encode.Queens] makes it), whose board variables place the queens of s:
// the signed literals of every variable 1..cnf.Vars, in order, as a SAT
// competition solver's "v" lines list them. gini finds it with the board's
// n*n literals as unit clauses; every encoding defines its auxiliary
// variables, so it is the one model with that board, whichever solver
// found the board. It returns nil if cnf has no model with that board,
// and ctx's error if ctx ends first. The model is gini's: check it.
func ModelOf(ctx context.Context, cnf *encode.CNF, s board.Solution) ([]int, error) {
	if err := checkCNF(cnf); err != nil {
		return nil, err
	}
	if len(s) != cnf.N {
		return nil, fmt.Errorf("sat: a solution of n = %d for the CNF of n = %d", len(s), cnf.N)
	}
	with := *cnf
	with.Clauses = slices.Clip(cnf.Clauses) // appending copies
	for _, lit := range encode.Model(s) {
		with.Clauses = append(with.Clauses, []int{lit})
	}
	model, err := Model(ctx, &with)
	if err != nil || model == nil {
		return nil, err
	}
	full := make([]int, cnf.Vars)
	for i := range full {
		full[i] = -(i + 1) // a variable no clause uses: false, as Model reads it
	}
	for _, lit := range model {
		v := max(lit, -lit)
		if v > cnf.Vars {
			return nil, fmt.Errorf("sat: the CNF uses variable %d, beyond its %d", v, cnf.Vars)
		}
		full[v-1] = lit
	}
	return full, nil
}
