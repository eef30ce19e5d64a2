package sat

import (
	"context"
	"fmt"

	"github.com/go-air/gini"
	"github.com/go-air/gini/z"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/engine"
)

// NewEncoded is [NewSeeded] for the clauses of e, added to gini as e
// generates them: no CNF is built, so memory is gini's own (the n = 1000
// board's CNF alone is about a gigabyte as [encode.CNF]). Generating and
// loading stop when ctx ends, with ctx's error. With pre-placed queens the
// CNF is built, since the seed then needs the propagation check of
// [NewSeeded]; the Solver is the same either way.
//
// On a large empty board (n >= 50, no symmetry breaking) the first
// solution comes from the residual problem of the random greedy seed:
// gini gets only the free squares of the rows the seed leaves (at
// n = 1000, 1/8 of the rows: a formula of about 40 thousand variables
// instead of 3 million), and the whole board is loaded only if no such
// completion exists or a second solution is asked for. Every solution is
// checked with [board.Valid]; the answer, a solution or none, is the same.
func NewEncoded(ctx context.Context, e *encode.Encoder, seed uint64) (*Solver, error) {
	if len(e.Place()) > 0 {
		cnf, err := e.CNF(ctx)
		if err != nil {
			return nil, err
		}
		return NewSeeded(cnf, seed)
	}
	if len(e.Symmetries()) == 0 && seedRows(e.N()) > 0 {
		// One solution, the usual case on a large board: gini gets only
		// what a greedy placement of the top rows leaves to complete. The
		// whole board is loaded only when that has no completion, or when
		// a second solution is asked for.
		sol, st, err := completeSeed(ctx, e.N(), greedy(e.N(), nil, seed))
		if err != nil {
			return nil, err
		}
		if sol != nil {
			s := &Solver{cnf: &encode.CNF{N: e.N(), Encoding: e.Encoding()}, stats: st, pending: sol}
			s.load = func(ctx context.Context) (*Solver, error) { return loadEncoded(ctx, e, seed) }
			return s, nil
		}
	}
	return loadEncoded(ctx, e, seed)
}

// loadEncoded is [NewEncoded] without its residual first try: the whole
// board in gini, from the encoder's stream.
func loadEncoded(ctx context.Context, e *encode.Encoder, seed uint64) (*Solver, error) {
	vars, clauses := e.Size()
	g := gini.NewVc(vars, clauses)
	units := false
	err := e.Emit(ctx, func(c []int) error {
		for _, lit := range c {
			g.Add(z.Dimacs2Lit(lit))
		}
		g.Add(z.LitNull)
		units = units || len(c) == 1
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sat: load %s n=%d: %w", e.Encoding(), e.N(), err)
	}
	for g.MaxVar() < z.Var(vars) {
		g.Lit()
	}
	// The CNF without its clauses: what the Solver needs to read and
	// block the models.
	cnf := &encode.CNF{N: e.N(), Vars: vars, Encoding: e.Encoding(), Symmetries: e.Symmetries()}
	s := &Solver{cnf: cnf, g: g, stats: engine.Stats{Vars: vars, Clauses: clauses}}
	// Units could make the formula inconsistent at level 0, where gini
	// answers assumptions wrongly (see NewSeeded): seed only without them.
	if !units {
		s.seed = greedy(e.N(), nil, seed)
	}
	return s, nil
}
