package drat

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Check reads a DIMACS CNF from cnf and checks the DRAT proof read from
// proof against it; see [ReadCNF] and [CheckDRAT].
func Check(ctx context.Context, cnf, proof io.Reader) (*Result, error) {
	f, err := ReadCNF(cnf)
	if err != nil {
		return nil, err
	}
	return CheckDRAT(ctx, f, proof)
}

// CheckDRAT checks that the DRAT proof read from proof (text or binary,
// detected from its first bytes) refutes f. It returns a nil error only
// when every lemma the refutation needs is RUP or RAT and the proof derives
// the empty clause. Errors: a *[ParseError] for a malformed proof, a
// *[LemmaError] naming a failing lemma, an error wrapping
// [ErrNoEmptyClause] for a proof that ends too early, ctx.Err() when ctx is
// done, and plain errors for an invalid formula or failed read.
func CheckDRAT(ctx context.Context, f *Formula, proof io.Reader) (*Result, error) {
	k, err := newDRAT(ctx, f, proof, false)
	if err != nil {
		return nil, err
	}
	return k.run()
}

// ConvertDRAT checks the DRAT proof like [CheckDRAT] and, when it holds,
// writes an LRAT proof of the core to w: the core lemmas with the hints the
// check found (RAT lemmas get one hint group per resolution candidate),
// deletions of core and formula clauses where the DRAT proof deleted them,
// and the empty clause. Formula clause j (from 0) has id j+1; lemmas are
// numbered on from len(f.Clauses)+1. Nothing is written when the check fails.
func ConvertDRAT(ctx context.Context, f *Formula, proof io.Reader, w io.Writer) (*Result, error) {
	k, err := newDRAT(ctx, f, proof, true)
	if err != nil {
		return nil, err
	}
	res, err := k.run()
	if err != nil {
		return nil, err
	}
	if err := k.writeLRAT(w); err != nil {
		return nil, fmt.Errorf("write LRAT: %w", err)
	}
	return res, nil
}

// watch is an entry of a watch list: clause c, and a literal of c (the
// other watched literal when last seen) whose truth makes visiting c
// unnecessary.
type watch struct {
	c       int32
	blocker int32
}

const (
	fActive uint8 = 1 << iota
	fCore
	fTaut

	noReason = -1
)

// checker is the DRAT checker state. Internal literals are 2*v+sign with v
// a dense variable index from 1; val, watches and mark are indexed by
// internal literal, reason, pos and seen by variable.
type checker struct {
	ctx   context.Context
	f     *Formula
	p     *proof
	vars  varMap
	emit  bool
	res   Result
	nForm int

	lits   []int32 // clause literals, clause c at lits[cstart[c]:cstart[c]+csize[c]]
	cstart []int32
	csize  []int32
	flags  []uint8
	table  map[uint64][]int32 // clause hash -> active clauses, for deletions

	val     []int8
	reason  []int32
	pos     []int32
	seen    []bool
	assumed []bool // by variable: in the clause rup is checking
	mark    []bool
	trail   []int32
	watches [][]watch
	fresh   bool // watches were rebuilt since the last backtrack

	trailAt []int32 // trail length before each step
	scratch []int32
	tmp     []int32

	// LRAT emission: hints per clause, a negative entry -(d+1) opens the
	// RAT group of candidate d.
	hints        []int32
	hstart, hlen []int32
	cur          []int32
	final        []int32
	stop         int
	formulaOnly  bool
}

func newDRAT(ctx context.Context, f *Formula, r io.Reader, emit bool) (*checker, error) {
	if err := f.validate(); err != nil {
		return nil, fmt.Errorf("check DRAT: %w", err)
	}
	data, err := readLimited(r, "DRAT proof")
	if err != nil {
		return nil, err
	}
	p, err := parseDRAT(data)
	if err != nil {
		return nil, err
	}
	k := &checker{ctx: ctx, f: f, p: p, emit: emit, nForm: len(f.Clauses)}
	k.res.Format = "DRAT"
	if p.binary {
		k.res.Format = "binary DRAT"
	}
	k.vars.build(f, p.lits)
	return k, nil
}

// varMap maps DIMACS variables to dense indices when the variables used are
// too sparse to index directly, so memory stays bounded by the input.
type varMap struct {
	n     int32           // largest index
	remap map[int32]int32 // nil: identity
}

func (m *varMap) build(f *Formula, more []int32) {
	total, maxv := len(more), int32(0)
	for _, c := range f.Clauses {
		total += len(c)
		for _, l := range c {
			maxv = max(maxv, int32(abs(l)))
		}
	}
	for _, l := range more {
		maxv = max(maxv, abs32(l))
	}
	if int64(maxv) <= 2*int64(total)+1024 {
		m.n = maxv
		return
	}
	m.remap = make(map[int32]int32)
	add := func(v int32) {
		if _, ok := m.remap[v]; !ok {
			m.n++
			m.remap[v] = m.n
		}
	}
	for _, c := range f.Clauses {
		for _, l := range c {
			add(int32(abs(l)))
		}
	}
	for _, l := range more {
		add(abs32(l))
	}
}

// lit converts a DIMACS literal to an internal one.
func (m *varMap) lit(l int32) int32 {
	v := abs32(l)
	if m.remap != nil {
		v = m.remap[v]
	}
	x := 2 * v
	if l < 0 {
		x++
	}
	return x
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

func (k *checker) clause(c int32) []int32 {
	s := k.cstart[c]
	return k.lits[s : s+k.csize[c]]
}

// add stores a clause (deduplicated, tautology flagged) and returns its id.
func (k *checker) add(dimacs []int32) int32 {
	c := int32(len(k.cstart))
	start := int32(len(k.lits))
	taut := false
	for _, l := range dimacs {
		x := k.vars.lit(l)
		if k.mark[x] {
			continue
		}
		if k.mark[x^1] {
			taut = true
		}
		k.mark[x] = true
		k.lits = append(k.lits, x)
	}
	for _, x := range k.lits[start:] {
		k.mark[x] = false
	}
	k.cstart = append(k.cstart, start)
	k.csize = append(k.csize, int32(len(k.lits))-start)
	fl := fActive
	if taut {
		fl |= fTaut
	}
	k.flags = append(k.flags, fl)
	h := hashLits(k.clause(c))
	k.table[h] = append(k.table[h], c)
	return c
}

func hashLits(ls []int32) uint64 {
	var h uint64
	for _, x := range ls {
		z := uint64(x) + 0x9e3779b97f4a7c15
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		h += z ^ z>>31
	}
	return h
}

// find returns an active clause with the literal set of dimacs, or -1.
func (k *checker) find(dimacs []int32) int32 {
	k.tmp = k.tmp[:0]
	for _, l := range dimacs {
		x := k.vars.lit(l)
		if !k.mark[x] {
			k.mark[x] = true
			k.tmp = append(k.tmp, x)
		}
	}
	found := int32(-1)
	for _, c := range k.table[hashLits(k.tmp)] {
		if int(k.csize[c]) != len(k.tmp) {
			continue
		}
		same := true
		for _, x := range k.clause(c) {
			if !k.mark[x] {
				same = false
				break
			}
		}
		if same {
			found = c
			break
		}
	}
	for _, x := range k.tmp {
		k.mark[x] = false
	}
	return found
}

func (k *checker) unhash(c int32) {
	h := hashLits(k.clause(c))
	list := k.table[h]
	for i, d := range list {
		if d == c {
			list[i] = list[len(list)-1]
			list = list[:len(list)-1]
			break
		}
	}
	if len(list) == 0 {
		delete(k.table, h)
	} else {
		k.table[h] = list
	}
}

func (k *checker) assign(x, r int32) {
	v := x >> 1
	k.val[x], k.val[x^1] = 1, -1
	k.reason[v] = r
	k.pos[v] = int32(len(k.trail))
	k.trail = append(k.trail, x)
}

func (k *checker) backtrack(n int) {
	if n >= len(k.trail) {
		return
	}
	for _, x := range k.trail[n:] {
		k.val[x], k.val[x^1] = 0, 0
	}
	k.trail = k.trail[:n]
	k.fresh = false
}

// key ranks a literal for watching: unassigned, then true, then false ones
// assigned late before those assigned early.
func (k *checker) key(x int32) int32 {
	switch k.val[x] {
	case 0:
		return 1<<31 - 1
	case 1:
		return 1<<31 - 2
	}
	return k.pos[x>>1]
}

// watch moves the two best literals of clause c (size >= 2) to the front and
// adds c to their watch lists.
func (k *checker) watch(c int32) {
	cl := k.clause(c)
	for i := 0; i < 2; i++ {
		best := i
		for j := i + 1; j < len(cl); j++ {
			if k.key(cl[j]) > k.key(cl[best]) {
				best = j
			}
		}
		cl[i], cl[best] = cl[best], cl[i]
	}
	k.watches[cl[0]] = append(k.watches[cl[0]], watch{c, cl[1]})
	k.watches[cl[1]] = append(k.watches[cl[1]], watch{c, cl[0]})
}

func (k *checker) unwatch(c int32) {
	if k.flags[c]&fTaut != 0 || k.csize[c] < 2 {
		return
	}
	cl := k.clause(c)
	for _, x := range cl[:2] {
		ws := k.watches[x]
		for i, w := range ws {
			if w.c == c {
				copy(ws[i:], ws[i+1:])
				k.watches[x] = ws[:len(ws)-1]
				break
			}
		}
	}
}

// attach watches clause c and, if it is unit or false under the current
// assignment, assigns its literal or returns it as the conflict.
func (k *checker) attach(c int32) (conflict int32) {
	if k.flags[c]&fTaut != 0 {
		return -1
	}
	cl := k.clause(c)
	switch len(cl) {
	case 0:
		return c
	case 1:
		switch k.val[cl[0]] {
		case -1:
			return c
		case 0:
			k.assign(cl[0], c)
		}
		return -1
	}
	k.watch(c)
	if k.val[cl[0]] == -1 {
		return c
	}
	if k.val[cl[0]] == 0 && k.val[cl[1]] == -1 {
		k.assign(cl[0], c)
	}
	return -1
}

// propagate runs unit propagation on the trail from position from, core
// clauses first: a non-core clause is used only when the core clauses have
// nothing left to propagate. It returns a conflicting clause or -1.
func (k *checker) propagate(from int) int32 {
	coreHead, allHead := from, from
	for {
		for coreHead < len(k.trail) {
			if c := k.visit(k.trail[coreHead]^1, true); c >= 0 {
				return c
			}
			coreHead++
		}
		if allHead >= len(k.trail) {
			return -1
		}
		if c := k.visit(k.trail[allHead]^1, false); c >= 0 {
			return c
		}
		allHead++
	}
}

// visit processes the clauses watching the false literal f whose core flag
// equals core.
func (k *checker) visit(f int32, core bool) int32 {
	ws := k.watches[f]
	j := 0
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if k.val[w.blocker] == 1 { // satisfied: nothing to do in either mode
			ws[j] = w
			j++
			continue
		}
		c := w.c
		if (k.flags[c]&fCore != 0) != core {
			ws[j] = w
			j++
			continue
		}
		s := k.cstart[c]
		cl := k.lits[s : s+k.csize[c]]
		if cl[0] == f {
			cl[0], cl[1] = cl[1], f
		}
		if k.val[cl[0]] == 1 {
			ws[j] = watch{c, cl[0]}
			j++
			continue
		}
		moved := false
		for m := 2; m < len(cl); m++ {
			if k.val[cl[m]] != -1 {
				cl[1], cl[m] = cl[m], f
				k.watches[cl[1]] = append(k.watches[cl[1]], watch{c, cl[0]})
				moved = true
				break
			}
		}
		if moved {
			continue
		}
		ws[j] = watch{c, cl[0]}
		j++
		if k.val[cl[0]] == -1 {
			j += copy(ws[j:], ws[i+1:])
			k.watches[f] = ws[:j]
			return c
		}
		k.assign(cl[0], c)
	}
	k.watches[f] = ws[:j]
	return -1
}

// rewatch rebuilds every watch list from the active clauses and propagates
// the whole trail again. Backtracking the top-level trail (which the
// backward check does) can leave a clause watched by a false literal; this
// repairs that before a lemma is declared not RUP.
func (k *checker) rewatch() int32 {
	for i := range k.watches {
		k.watches[i] = k.watches[i][:0]
	}
	k.fresh = true
	confl := int32(-1)
	for c := int32(0); c < int32(len(k.cstart)); c++ {
		if k.flags[c]&fActive == 0 || k.flags[c]&fTaut != 0 {
			continue
		}
		if k.csize[c] >= 2 {
			k.watch(c)
		}
	}
	for c := int32(0); c < int32(len(k.cstart)) && confl < 0; c++ {
		if k.flags[c]&fActive == 0 || k.flags[c]&fTaut != 0 {
			continue
		}
		cl := k.clause(c)
		switch {
		case len(cl) == 0 || k.val[cl[0]] == -1:
			confl = c
		case k.val[cl[0]] == 0 && (len(cl) == 1 || k.val[cl[1]] == -1):
			k.assign(cl[0], c)
		}
	}
	if confl >= 0 {
		return confl
	}
	return k.propagate(0)
}

// analyze marks as core the conflict clause and every reason in its
// implication graph and, when emitting, appends the LRAT hints (reasons in
// trail order, then the conflict) to k.cur. except is a variable whose
// literal in confl is not false (-1: none).
func (k *checker) analyze(confl, except int32) {
	k.flags[confl] |= fCore
	for _, x := range k.clause(confl) {
		if x>>1 != except {
			k.seen[x>>1] = true
		}
	}
	k.tmp = k.tmp[:0]
	for i := len(k.trail) - 1; i >= 0; i-- {
		v := k.trail[i] >> 1
		if !k.seen[v] {
			continue
		}
		k.seen[v] = false
		r := k.reason[v]
		if r < 0 || k.assumed[v] {
			// An assumption, or a literal of the checked clause that is
			// false at top level anyway: the clause's negation provides it
			// (and an LRAT checker would find its reason satisfied).
			continue
		}
		k.flags[r] |= fCore
		k.tmp = append(k.tmp, r)
		for _, y := range k.clause(r) {
			if y>>1 != v {
				k.seen[y>>1] = true
			}
		}
	}
	if k.emit {
		for i := len(k.tmp) - 1; i >= 0; i-- {
			k.cur = append(k.cur, k.tmp[i])
		}
		k.cur = append(k.cur, confl)
	}
}

// rup reports whether the clause assume is RUP: asserting its negation and
// propagating reaches a conflict. It marks the clauses used as core.
func (k *checker) rup(assume []int32) bool {
	for _, x := range assume {
		k.assumed[x>>1] = true
	}
	defer func() {
		for _, x := range assume {
			k.assumed[x>>1] = false
		}
	}()
	for attempt := 0; ; attempt++ {
		n := len(k.trail)
		confl, except := int32(-1), int32(-1)
		for _, x := range assume {
			if k.val[x] == 1 {
				if k.reason[x>>1] < 0 { // assume holds x and -x
					k.backtrack(n)
					return true
				}
				confl, except = k.reason[x>>1], x>>1
				break
			}
			if k.val[x] == 0 {
				k.assign(x^1, noReason)
			}
		}
		if confl < 0 {
			confl = k.propagate(n)
		}
		if confl >= 0 {
			k.analyze(confl, except)
			k.backtrack(n)
			return true
		}
		k.backtrack(n)
		if k.fresh || attempt > 0 {
			return false
		}
		if confl := k.rewatch(); confl >= 0 {
			k.analyze(confl, -1)
			return true
		}
	}
}

// verify checks lemma c of step st: RUP, else RAT on its first literal.
func (k *checker) verify(c int32, st *step) bool {
	k.cur = k.cur[:0]
	lemma := k.clause(c)
	if k.rup(lemma) {
		return true
	}
	if len(lemma) == 0 {
		return false
	}
	k.cur = k.cur[:0]
	np := k.vars.lit(k.p.lits[st.start]) ^ 1
	for _, x := range lemma {
		k.mark[x] = true
	}
	defer func() {
		for _, x := range k.clause(c) {
			k.mark[x] = false
		}
	}()
	for d := int32(0); d < c; d++ {
		if k.flags[d]&fActive == 0 || k.flags[d]&fTaut != 0 {
			continue
		}
		cl := k.clause(d)
		has, taut := false, false
		for _, y := range cl {
			if y == np {
				has = true
			} else if k.mark[y^1] {
				taut = true
			}
		}
		if !has {
			continue
		}
		k.flags[d] |= fCore
		if k.emit {
			k.cur = append(k.cur, -(d + 1))
		}
		if taut {
			continue
		}
		k.scratch = append(k.scratch[:0], k.clause(c)...)
		for _, y := range cl {
			if y != np && !k.mark[y] {
				k.scratch = append(k.scratch, y)
			}
		}
		if !k.rup(k.scratch) {
			return false
		}
	}
	k.res.RAT++
	return true
}

func (k *checker) lemmaError(st *step, reason string) *LemmaError {
	return &LemmaError{Index: int(st.index), Line: int(st.line), Offset: st.off,
		Lits: ints(k.p.lits[st.start:st.end]), Reason: reason}
}

// run does the forward pass (propagating, applying deletions, finding the
// conflict) and then the backward pass (verifying the core lemmas).
func (k *checker) run() (*Result, error) {
	p := k.p
	n := int(k.vars.n) + 1
	k.val = make([]int8, 2*n)
	k.mark = make([]bool, 2*n)
	k.watches = make([][]watch, 2*n)
	k.reason = make([]int32, n)
	k.pos = make([]int32, n)
	k.seen = make([]bool, n)
	k.assumed = make([]bool, n)
	k.table = make(map[uint64][]int32)
	k.cstart = make([]int32, 0, len(k.f.Clauses)+p.lemmas)
	k.csize = make([]int32, 0, len(k.f.Clauses)+p.lemmas)
	k.flags = make([]uint8, 0, len(k.f.Clauses)+p.lemmas)
	k.trailAt = make([]int32, len(p.steps))
	k.res.Lemmas = p.lemmas
	k.res.Deletions = len(p.steps) - p.lemmas

	var buf []int32
	for _, c := range k.f.Clauses {
		buf = buf[:0]
		for _, l := range c {
			buf = append(buf, int32(l))
		}
		k.add(buf)
	}
	confl := int32(-1)
	for c := int32(0); c < int32(k.nForm); c++ {
		if k.flags[c]&fTaut == 0 && k.csize[c] >= 2 {
			k.watch(c)
		}
	}
	for c := int32(0); c < int32(k.nForm) && confl < 0; c++ {
		if k.flags[c]&fTaut == 0 && k.csize[c] < 2 {
			confl = k.attach(c)
		}
	}
	if confl < 0 {
		confl = k.propagate(0)
	}
	stop := -1
	if confl >= 0 {
		k.formulaOnly = true
		k.res.FormulaConflict = true
	}
	hasEmpty := false
	for s := 0; s < len(p.steps) && confl < 0; s++ {
		if s&255 == 0 {
			if err := k.ctx.Err(); err != nil {
				return nil, err
			}
		}
		st := &p.steps[s]
		k.trailAt[s] = int32(len(k.trail))
		lits := p.lits[st.start:st.end]
		if st.del {
			c := k.find(lits)
			st.clause = c
			if c < 0 {
				k.res.UnmatchedDeletions++
				continue
			}
			if k.isReason(c) {
				k.res.IgnoredDeletions++
				st.clause = -1
				continue
			}
			k.unwatch(c)
			k.unhash(c)
			k.flags[c] &^= fActive
			continue
		}
		c := k.add(lits)
		st.clause = c
		if len(lits) == 0 {
			hasEmpty = true
			// The propagation is complete here, so no conflict means the
			// empty clause is not RUP.
			return nil, k.lemmaError(st, "is not RUP (the empty clause: unit propagation reaches no conflict)")
		}
		n := len(k.trail)
		if confl = k.attach(c); confl < 0 {
			confl = k.propagate(n)
		}
		if confl >= 0 {
			stop = s
		}
	}
	if confl < 0 {
		return nil, fmt.Errorf("check %s: %w (%d lemmas read, no conflict reached)", k.res.Format, ErrNoEmptyClause, p.lemmas)
	}
	if !k.formulaOnly {
		for s := stop; s < len(p.steps) && !hasEmpty; s++ {
			hasEmpty = !p.steps[s].del && p.steps[s].start == p.steps[s].end
		}
		if !hasEmpty {
			return nil, fmt.Errorf("check %s: %w (lemmas reach a conflict at lemma %d but the proof has no empty clause)",
				k.res.Format, ErrNoEmptyClause, p.steps[stop].index)
		}
	}
	k.stop = stop
	k.cur = k.cur[:0]
	k.analyze(confl, -1)
	k.final = append([]int32(nil), k.cur...)
	if k.emit {
		k.hstart = make([]int32, len(k.cstart))
		k.hlen = make([]int32, len(k.cstart))
	}
	for s := stop; s >= 0; s-- {
		if s&255 == 0 {
			if err := k.ctx.Err(); err != nil {
				return nil, err
			}
		}
		st := &p.steps[s]
		c := st.clause
		if c < 0 {
			continue
		}
		if st.del {
			k.flags[c] |= fActive
			if k.flags[c]&fTaut == 0 && k.csize[c] >= 2 {
				k.watch(c)
			}
			k.fresh = false
			continue
		}
		k.unwatch(c)
		k.flags[c] &^= fActive
		k.backtrack(int(k.trailAt[s]))
		if k.flags[c]&fCore == 0 {
			continue
		}
		if !k.verify(c, st) {
			return nil, k.lemmaError(st, "is not RUP or RAT (RAT pivot "+strconv.Itoa(int(p.lits[st.start]))+")")
		}
		k.res.Checked++
		if k.emit {
			k.hstart[c] = int32(len(k.hints))
			k.hlen[c] = int32(len(k.cur))
			k.hints = append(k.hints, k.cur...)
		}
	}
	for c := 0; c < k.nForm; c++ {
		if k.flags[c]&fCore != 0 {
			k.res.CoreClauses++
		}
	}
	res := k.res
	return &res, nil
}

// isReason reports whether clause c is a unit clause or the reason of a
// current top-level assignment.
func (k *checker) isReason(c int32) bool {
	cl := k.clause(c)
	if len(cl) == 1 {
		return true
	}
	for _, x := range cl {
		if k.val[x] == 1 && k.reason[x>>1] == c {
			return true
		}
	}
	return false
}

// writeLRAT writes the LRAT proof of the verified core (see ConvertDRAT).
func (k *checker) writeLRAT(w io.Writer) error {
	bw := bufio.NewWriter(w)
	ids := make([]int64, len(k.cstart))
	for c := 0; c < k.nForm; c++ {
		ids[c] = int64(c) + 1
	}
	next := int64(k.nForm) + 1
	var line []byte
	writeHints := func(hs []int32) {
		for _, h := range hs {
			if h < 0 {
				line = strconv.AppendInt(line, -ids[-h-1], 10)
			} else {
				line = strconv.AppendInt(line, ids[h], 10)
			}
			line = append(line, ' ')
		}
		line = append(line, '0', '\n')
	}
	if !k.formulaOnly {
		for s := 0; s <= k.stop; s++ {
			st := &k.p.steps[s]
			c := st.clause
			if c < 0 {
				continue
			}
			line = line[:0]
			if st.del {
				if int(c) >= k.nForm && k.flags[c]&fCore == 0 {
					continue
				}
				line = strconv.AppendInt(line, next-1, 10)
				line = append(line, " d "...)
				line = strconv.AppendInt(line, ids[c], 10)
				line = append(line, " 0\n"...)
			} else {
				if k.flags[c]&fCore == 0 {
					continue
				}
				ids[c] = next
				next++
				line = strconv.AppendInt(line, ids[c], 10)
				line = append(line, ' ')
				// The lemma's literals in proof order (pivot first), without repeats.
				lits := k.p.lits[st.start:st.end]
				for _, l := range lits {
					if x := k.vars.lit(l); !k.mark[x] {
						k.mark[x] = true
						line = strconv.AppendInt(line, int64(l), 10)
						line = append(line, ' ')
					}
				}
				for _, l := range lits {
					k.mark[k.vars.lit(l)] = false
				}
				line = append(line, '0', ' ')
				writeHints(k.hints[k.hstart[c] : k.hstart[c]+k.hlen[c]])
			}
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
	}
	line = strconv.AppendInt(line[:0], next, 10)
	line = append(line, " 0 "...)
	writeHints(k.final)
	if _, err := bw.Write(line); err != nil {
		return err
	}
	return bw.Flush()
}

// MaxProof is the largest proof the checkers read, 2 GiB less a byte: the
// checkers index literals and steps with 32-bit numbers, and a proof below
// this size cannot hold more of either.
const MaxProof = math.MaxInt32

// readLimited reads a proof of at most MaxProof bytes.
func readLimited(r io.Reader, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxProof+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if len(data) > MaxProof {
		return nil, fmt.Errorf("read %s: more than %d bytes", what, MaxProof)
	}
	return data, nil
}
