package sat

import (
	"github.com/go-air/gini"
	"github.com/go-air/gini/z"
	"github.com/queens-dev/queens/encode"
)

// occurrences indexes a CNF for unit propagation: for each literal, the
// clauses it occurs in. It is read-only once built and shared by the
// workers of a [Parallel].
type occurrences struct {
	cnf   *encode.CNF
	occ   [][]int32 // by litIndex
	size  []int32   // len of each clause
	units []int     // literals of the unit clauses
}

func litIndex(lit int) int {
	if lit < 0 {
		return 2*(-lit) + 1
	}
	return 2 * lit
}

func newOccurrences(cnf *encode.CNF) *occurrences {
	o := &occurrences{cnf: cnf, size: make([]int32, len(cnf.Clauses))}
	counts := make([]int, 2*cnf.Vars+2)
	for i, c := range cnf.Clauses {
		o.size[i] = int32(len(c))
		if len(c) == 1 {
			o.units = append(o.units, c[0])
		}
		for _, lit := range c {
			counts[litIndex(lit)]++
		}
	}
	// One backing array for all lists.
	total := 0
	for _, k := range counts {
		total += k
	}
	backing := make([]int32, 0, total)
	o.occ = make([][]int32, len(counts))
	for i, k := range counts {
		o.occ[i] = backing[len(backing) : len(backing) : len(backing)+k]
		backing = backing[:len(backing)+k]
	}
	for i, c := range cnf.Clauses {
		for _, lit := range c {
			j := litIndex(lit)
			o.occ[j] = append(o.occ[j], int32(i))
		}
	}
	return o
}

// reducer simplifies the CNF under a set of unit literals (a cube) by
// unit propagation, and loads what is left into a fresh gini instance:
// the clauses not yet satisfied, without their false literals. The
// result is equivalent to the CNF plus the units, and much smaller, so a
// small cube costs little to build. One reducer per goroutine.
type reducer struct {
	o     *occurrences
	val   []int8 // by variable: 1 true, -1 false, 0 free
	sat   []bool // by clause: satisfied
	free  []int32
	trail []int
	gv    varMap // by DIMACS variable: its gini variable, 0 if assigned
}

func newReducer(o *occurrences) *reducer {
	return &reducer{o: o, val: make([]int8, o.cnf.Vars+1), sat: make([]bool, len(o.size)),
		free: make([]int32, len(o.size)), gv: make(varMap, o.cnf.Vars+1)}
}

// value returns the value of the DIMACS literal lit: 1, -1 or 0 (free).
func (r *reducer) value(lit int) int8 {
	if lit < 0 {
		return -r.val[-lit]
	}
	return r.val[lit]
}

// assign sets lit true; false on a conflict.
func (r *reducer) assign(lit int) bool {
	switch r.value(lit) {
	case 1:
		return true
	case -1:
		return false
	}
	if lit < 0 {
		r.val[-lit] = -1
	} else {
		r.val[lit] = 1
	}
	r.trail = append(r.trail, lit)
	return true
}

// propagate resets the reducer, assigns the CNF's unit clauses and lits,
// and propagates. It returns false if that is a conflict: no model.
func (r *reducer) propagate(lits []int) bool {
	clear(r.val)
	clear(r.sat)
	copy(r.free, r.o.size)
	r.trail = r.trail[:0]
	for _, lit := range r.o.units {
		if !r.assign(lit) {
			return false
		}
	}
	for _, lit := range lits {
		if !r.assign(lit) {
			return false
		}
	}
	clauses := r.o.cnf.Clauses
	for head := 0; head < len(r.trail); head++ {
		lit := r.trail[head]
		for _, c := range r.o.occ[litIndex(lit)] {
			r.sat[c] = true
		}
		for _, c := range r.o.occ[litIndex(-lit)] {
			if r.sat[c] {
				continue
			}
			r.free[c]--
			if r.free[c] > 1 {
				continue
			}
			// Unit or empty, unless a true literal is still queued.
			unit := 0
			for _, m := range clauses[c] {
				switch r.value(m) {
				case 1:
					r.sat[c] = true
				case 0:
					unit = m
				}
			}
			if r.sat[c] {
				continue
			}
			if unit == 0 || !r.assign(unit) {
				return false
			}
		}
	}
	return true
}

// load returns a gini instance with the clauses left after propagate.
// Its variables are the free variables of the CNF, renumbered from 1 in
// order (a smaller instance is cheaper to build): r.gv maps
// them. Free board variables are kept even if no clause is left on them.
func (r *reducer) load() *gini.Gini {
	cnf := r.o.cnf
	clear(r.gv)
	next := z.Var(0)
	mapVar := func(v int) {
		if r.gv[v] == 0 {
			next++
			r.gv[v] = next
		}
	}
	for v := 1; v <= cnf.N*cnf.N; v++ {
		if r.val[v] == 0 {
			mapVar(v)
		}
	}
	for c, lits := range cnf.Clauses {
		if !r.sat[c] {
			for _, lit := range lits {
				if r.value(lit) == 0 {
					mapVar(max(lit, -lit))
				}
			}
		}
	}
	g := gini.NewV(int(next))
	for c, lits := range cnf.Clauses {
		if r.sat[c] {
			continue
		}
		for _, lit := range lits {
			if r.value(lit) == 0 {
				g.Add(r.gv.lit(lit))
			}
		}
		g.Add(z.LitNull)
	}
	for g.MaxVar() < next {
		g.Lit()
	}
	return g
}
