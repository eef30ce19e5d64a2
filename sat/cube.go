package sat

import (
	"context"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/go-air/gini"
	"github.com/go-air/gini/z"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/engine"
)

// Options tune a [Parallel] enumeration. The zero value chooses
// everything.
type Options struct {
	// Threads is the number of goroutines, each solving cubes with gini
	// instances of its own; <= 0 means runtime.GOMAXPROCS(0).
	Threads int
	// Depth is the number of top rows whose queens make a cube; <= 0
	// chooses by n (see [CubeDepth]). It is capped at n.
	Depth int
	// NoSymmetry solves every cube. By default, without pre-placed
	// queens, only cubes that are not larger than their mirror image
	// (left-right reflection) are solved and the mirror image of each
	// solution found is emitted too.
	NoSymmetry bool
	// Progress, if not nil, is called with the number of cubes done and
	// the number in all, after each cube's solutions are emitted, on the
	// goroutine that consumes the stream.
	Progress func(done, total int)
}

// CubeDepth returns the number of rows [Parallel] places per cube on an
// n×n board by default: enough for many more cubes than workers and for
// easy cubes, few enough that solving a cube costs more than building its
// solver. Measured (2 cores, pairwise): n = 12 is fastest at depth 3 or 4
// (378 or 2040 cubes), n = 13 at depth 4 (3202 cubes; 3 is 2x slower, 5
// is 2x slower).
func CubeDepth(n int) int {
	switch {
	case n <= 7:
		return 1
	case n <= 11:
		return 2
	case n == 12:
		return 3
	default:
		return n - 9
	}
}

// Parallel enumerates and counts the solutions of one n-queens CNF by
// cube and conquer: the queens of the top Depth rows are fixed in every
// consistent way (a cube), each cube is solved by a fresh gini instance
// built from the CNF with the cube as unit clauses, and the cubes are
// shared among Threads goroutines. Within a cube, each solution is
// blocked by a clause over its queens below the cube. Without pre-placed
// queens only half of the cubes are solved: the mirror image of each
// solution is emitted instead of being searched for.
//
// Every solution is emitted exactly once, in an order that depends only
// on the CNF and the Depth (not on Threads or timing): cube by cube in
// lexicographic order of the cube's columns, within a cube in
// lexicographic order, the mirror images after the solutions found.
//
// Methods of one Parallel must not be called concurrently.
type Parallel struct {
	cnf   *encode.CNF
	opt   Options
	stats engine.Stats
	// The solutions returned so far: every one of the cubes before from,
	// and the first skip (in emission order) of cube from.
	from, skip int
	// canonical: the CNF keeps only the solutions canonical under the 8
	// symmetries, so the cubes larger than their mirror image, which
	// hold none, are left out, and no mirror image is emitted.
	canonical bool
}

// NewParallel returns a Parallel for cnf, which must have N set (the CNF
// of [encode.Queens]).
func NewParallel(cnf *encode.CNF, opt Options) (*Parallel, error) {
	if err := checkCNF(cnf); err != nil {
		return nil, err
	}
	if opt.Threads <= 0 {
		opt.Threads = runtime.GOMAXPROCS(0)
	}
	if opt.Depth <= 0 {
		opt.Depth = CubeDepth(cnf.N)
	}
	opt.Depth = min(opt.Depth, cnf.N)
	return &Parallel{cnf: cnf, opt: opt, stats: engine.Stats{Vars: cnf.Vars, Clauses: len(cnf.Clauses)}}, nil
}

// Stats returns the statistics of the runs so far, summed over workers
// (Elapsed is wall time).
func (p *Parallel) Stats() engine.Stats { return p.stats }

// All returns the solutions not yet returned as a stream, as
// [engine.Interface] says: a range over it after an early stop continues
// with the next solution (its cube is solved again, the solutions before
// it skipped). Stopping the iteration early stops the workers. An error
// (ctx ended, or gini returned a model that is not a solution) is yielded
// with a nil solution and ends the stream. Cancellation takes effect
// between two solves, each of which is small.
func (p *Parallel) All(ctx context.Context) iter.Seq2[board.Solution, error] {
	return func(yield func(board.Solution, error) bool) {
		stopped := false
		err := p.run(ctx, true, func(r cubeResult) bool {
			for i := p.skip; i < len(r.sols); i++ {
				// Emitted, whatever the consumer does next: counted
				// once, and skipped by the next All.
				p.skip = i + 1
				p.stats.Solutions++
				if !yield(r.sols[i], nil) {
					stopped = true
					return false
				}
			}
			p.from, p.skip = r.index+1, 0
			return true
		})
		if err != nil && !stopped {
			yield(nil, err)
		}
	}
}

// Count returns the number of solutions not yet returned, as
// [engine.Interface] says: after it, All yields nothing.
//
// A whole count without pre-placed queens (none returned yet, the CNF
// not already symmetry-broken, symmetry not turned off) enumerates the
// symmetry classes instead of the mirror halves: the lex-leader clauses
// of the 7 symmetries other than the identity ([encode.LexLeader]) are
// added to the CNF, gini enumerates its models, each a solution checked
// with board.Check that is the canonical one of its class, and each
// counts as the size of its class ([board.OrbitSize]), every image
// checked too. About 8 times fewer solves than solutions, where the
// mirror halves make 2; it is still every class found by gini. Like the
// mirror halves, it takes the CNF to be the queens instance of N, whose
// solutions the symmetries map onto each other.
func (p *Parallel) Count(ctx context.Context) (uint64, error) {
	if p.from == 0 && p.skip == 0 && !p.opt.NoSymmetry && len(p.cnf.Place) == 0 && len(p.cnf.Symmetries) == 0 {
		return p.countClasses(ctx)
	}
	var total uint64
	err := p.run(ctx, false, func(r cubeResult) bool {
		total += r.count - uint64(p.skip)
		p.stats.Solutions += int(r.count) - p.skip
		p.from, p.skip = r.index+1, 0
		return true
	})
	return total, err
}

// cube is the columns of the queens of the top rows, and whether the
// mirror images of its solutions are to be emitted too.
type cube struct {
	cols   []int
	mirror bool
}

type cubeResult struct {
	index  int
	sols   []board.Solution // nil when counting
	count  uint64           // solutions including mirror images
	solves int
	err    error
}

// Cubes returns the cubes of the top depth rows of an n×n board
// consistent with placed, in lexicographic order. With sym, cubes larger
// than their mirror image are left out, and mirror reports whether a
// cube's mirror image is a different (left out) cube.
func cubes(n, depth int, placed []board.Queen, sym bool) []cube {
	fixed := make([]int, n)
	for row := range fixed {
		fixed[row] = -1
	}
	for _, q := range placed {
		fixed[q.Row] = q.Col
	}
	var out []cube
	cols := make([]int, 0, depth)
	var place func()
	place = func() {
		row := len(cols)
		if row == depth {
			c := cube{cols: slices.Clone(cols)}
			if sym {
				mirrored := make([]int, depth)
				for i, col := range cols {
					mirrored[i] = n - 1 - col
				}
				switch slices.Compare(cols, mirrored) {
				case 1:
					return
				case -1:
					c.mirror = true
				}
			}
			out = append(out, c)
			return
		}
	next:
		for col := range n {
			if fixed[row] >= 0 && fixed[row] != col {
				continue
			}
			for r, c := range cols {
				if d := col - c; d == 0 || d == row-r || d == r-row {
					continue next
				}
			}
			cols = append(cols, col)
			place()
			cols = cols[:len(cols)-1]
		}
	}
	place()
	return out
}

// run solves the cubes from p.from on, on p.opt.Threads goroutines, and
// calls emit with each cube's result in cube order, until emit returns
// false. The number
// of cubes solved ahead of emit is bounded, so memory is bounded by a few
// cubes' solutions per worker.
func (p *Parallel) run(ctx context.Context, keep bool, emit func(cubeResult) bool) error {
	start := time.Now()
	n, depth := p.cnf.N, p.opt.Depth
	cs := cubes(n, depth, p.cnf.Place, p.canonical || !p.opt.NoSymmetry && len(p.cnf.Place) == 0)
	if p.canonical {
		for i := range cs {
			cs[i].mirror = false
		}
	}
	p.stats.Cubes += max(len(cs)-p.from, 0)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	workers := p.opt.Threads
	window := make(chan struct{}, 4*workers) // cubes handed out but not yet emitted
	jobs := make(chan int)
	results := make(chan cubeResult, workers)
	go func() { // feeder
		defer close(jobs)
		for i := p.from; i < len(cs); i++ {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	occ := newOccurrences(p.cnf)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			red := newReducer(occ)
			for i := range jobs {
				r := solveCube(ctx, red, cs[i], keep)
				r.index = i
				results <- r
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	var err error
	pending := map[int]cubeResult{}
	next := p.from
	for r := range results { // drained to the end, so no worker is left blocked
		if err != nil {
			continue
		}
		pending[r.index] = r
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-window
			p.stats.Solves += r.solves
			p.stats.Blocking += max(r.solves-1, 0) // none when propagation refutes the cube
			if r.err != nil {
				err = r.err
				cancel()
				break
			}
			if !emit(r) {
				cancel()
				err = errStop
				break
			}
			if p.opt.Progress != nil {
				p.opt.Progress(next, len(cs))
			}
		}
	}
	p.stats.Elapsed += time.Since(start)
	if err == errStop {
		return nil
	}
	if err == nil && next < len(cs) {
		err = ctx.Err() // the feeder stopped: ctx ended
	}
	return err
}

// errStop marks an enumeration stopped by its consumer.
var errStop = fmt.Errorf("sat: stopped")

// solveCube enumerates the solutions of one cube: the CNF is simplified
// under the cube's queens by unit propagation and the rest is loaded
// into a fresh gini instance. Solutions are checked with board.Check
// before they count.
func solveCube(ctx context.Context, red *reducer, c cube, keep bool) cubeResult {
	var r cubeResult
	n := red.o.cnf.N
	lits := make([]int, len(c.cols))
	for row, col := range c.cols {
		lits[row] = encode.Var(n, row, col)
	}
	if !red.propagate(lits) {
		return r // the cube has no solution
	}
	g := red.load()
	sol := make(board.Solution, n)
	var block []z.Lit
	for {
		if err := ctx.Err(); err != nil {
			r.err = err
			return r
		}
		r.solves++
		if g.Solve() != 1 {
			break
		}
		block = block[:0]
		for row := range n {
			sol[row] = -1
			for col := range n {
				v := encode.Var(n, row, col)
				switch red.val[v] {
				case 1:
					sol[row] = col
				case 0:
					if m := red.gv.lit(v); g.Value(m) {
						sol[row] = col
						block = append(block, m.Not())
					}
				}
				if sol[row] == col {
					break
				}
			}
		}
		if err := sol.Check(); err != nil {
			r.err = fmt.Errorf("sat: gini's model is not a solution: %w", err)
			return r
		}
		r.count++
		if c.mirror {
			r.count++
		}
		if keep {
			r.sols = append(r.sols, slices.Clone(sol))
		}
		if len(block) == 0 {
			break // propagation fixed every queen: the only solution
		}
		// Only the queens gini chose: the others are fixed in this cube.
		for _, m := range block {
			g.Add(m)
		}
		g.Add(z.LitNull)
	}
	if keep {
		cmp := func(a, b board.Solution) int { return slices.Compare(a, b) }
		slices.SortFunc(r.sols, cmp)
		if c.mirror {
			found := len(r.sols)
			for _, s := range r.sols[:found] {
				m := make(board.Solution, n)
				for row, col := range s {
					m[row] = n - 1 - col
				}
				r.sols = append(r.sols, m)
			}
			slices.SortFunc(r.sols[found:], cmp)
		}
	}
	return r
}

// varMap maps DIMACS variables to gini variables; nil is the identity.
type varMap []z.Var

// lit returns the gini literal of the DIMACS literal lit.
func (m varMap) lit(lit int) z.Lit {
	if m == nil {
		return z.Dimacs2Lit(lit)
	}
	if lit < 0 {
		return m[-lit].Neg()
	}
	return m[lit].Pos()
}

// newGini returns a gini instance holding the clauses of cnf, added
// directly (gini's DIMACS reader is slow: it took about 40 s to load the
// pairwise CNF of n = 400, which gini then solved in 4 s), and all its
// variables, numbered by m.
func newGini(cnf *encode.CNF, m varMap) *gini.Gini {
	return loadGini(cnf.Vars, cnf.Clauses, m)
}

// loadGini returns a gini instance holding clauses over vars variables,
// numbered by m (nil: as they are), every variable made even if no clause
// has it: variables that occur in no clause still exist in the formula.
func loadGini(vars int, clauses [][]int, m varMap) *gini.Gini {
	g := gini.NewVc(vars, len(clauses))
	for _, c := range clauses {
		for _, lit := range c {
			g.Add(m.lit(lit))
		}
		g.Add(z.LitNull)
	}
	for g.MaxVar() < z.Var(vars) {
		g.Lit()
	}
	return g
}

// countClasses is Count by symmetry classes (see Count): a Parallel with
// the lex-leader clauses added enumerates the canonical solutions, on
// the cubes not larger than their mirror image (a canonical solution is
// not larger than its mirror image, nor its top rows than theirs).
func (p *Parallel) countClasses(ctx context.Context) (uint64, error) {
	n := p.cnf.N
	all := board.Transforms()
	group := all[1:]
	lex, aux := encode.LexLeader(n, group, p.cnf.Vars+1)
	broken := *p.cnf
	broken.Vars += aux
	broken.Clauses = append(slices.Clip(p.cnf.Clauses), lex...)
	broken.Symmetries = group
	opt := p.opt
	opt.NoSymmetry = true
	classes := &Parallel{cnf: &broken, opt: opt, canonical: true}
	var total uint64
	var err error
	for s, e := range classes.All(ctx) {
		if e != nil {
			err = e
			break
		}
		size, e := orbit(s)
		if e != nil {
			err = e
			break
		}
		total += uint64(size)
	}
	st := classes.stats
	st.Vars, st.Clauses, st.Solutions = p.stats.Vars, p.stats.Clauses, p.stats.Solutions+int(total)
	p.stats = st
	if err != nil {
		return 0, err
	}
	p.from = len(cubes(n, p.opt.Depth, nil, true)) // All yields nothing now
	return total, nil
}

// orbit returns the number of distinct images of the canonical solution
// s under the 8 symmetries, each checked to be a solution.
func orbit(s board.Solution) (int, error) {
	for _, t := range board.Transforms() {
		if img := t.Apply(s); img.Check() != nil || img.Less(s) {
			return 0, fmt.Errorf("sat: image %v of class representative %v is no solution, or smaller", img, s)
		}
	}
	return board.OrbitSize(s), nil
}
