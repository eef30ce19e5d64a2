package drat

import (
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
	p, err := parseDRAT(f, r)
	if err != nil {
		return nil, err
	}
	k := newChecker(ctx, f, p, emit)
	if p.binary {
		k.res.Format = "binary DRAT"
	}
	return k, nil
}

// newChecker returns the checker of the parsed proof p of f.
func newChecker(ctx context.Context, f *Formula, p *proof, emit bool) *checker {
	k := &checker{ctx: ctx, f: f, p: p, emit: emit, nForm: len(f.Clauses)}
	k.res.Format = "DRAT"
	k.vars.build(f, p.lits)
	return k
}

func (k *checker) lemmaError(st *step, reason string) *LemmaError {
	return &LemmaError{Index: int(st.index), Line: int(st.line), Offset: st.off,
		Lits: ints(k.p.lits[st.start:st.end]), Reason: reason, Format: k.res.Format}
}

// run does the forward pass (propagating, applying deletions, finding the
// conflict) and then the backward pass (verifying the core lemmas).
func (k *checker) run() (*Result, error) {
	k.alloc()
	confl := k.load()
	if confl >= 0 {
		k.formulaOnly = true
		k.res.FormulaConflict = true
	}
	stop, confl, err := k.forward(confl)
	if err != nil {
		return nil, err
	}
	k.stop = stop
	k.cur = k.cur[:0]
	k.analyze(confl, -1)
	k.final = append([]int32(nil), k.cur...)
	if err := k.backward(stop); err != nil {
		return nil, err
	}
	for c := 0; c < k.nForm; c++ {
		if k.flags[c]&fCore != 0 {
			k.res.CoreClauses++
		}
	}
	res := k.res
	return &res, nil
}

// alloc sizes the checker's state for the formula and the proof.
func (k *checker) alloc() {
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
	k.cstart = make([]int32, 0, len(k.f.Clauses)+len(p.steps))
	k.csize = make([]int32, 0, len(k.f.Clauses)+len(p.steps))
	k.flags = make([]uint8, 0, len(k.f.Clauses)+len(p.steps))
	k.trailAt = make([]int32, len(p.steps))
	k.res.Lemmas = p.lemmas
	k.res.Deletions = p.deletions
	k.res.SkippedLemmas = p.skipped
	k.res.UnmatchedDeletions = p.unmatched
}

// load adds the formula's clauses, watches them and propagates its units;
// it returns the conflicting clause if the formula alone conflicts, or -1.
func (k *checker) load() (confl int32) {
	var buf []int32
	for _, c := range k.f.Clauses {
		buf = buf[:0]
		for _, l := range c {
			buf = append(buf, int32(l))
		}
		k.add(buf)
	}
	confl = -1
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
	return confl
}

// forward applies the proof's steps in order until one reaches a conflict
// (unless the formula already has one, confl >= 0): lemmas are added and
// propagated, deletions applied (those of a reason are ignored). It
// returns the step of the conflict (-1 for the formula's) and the
// conflicting clause, or an error for a proof that reaches none or has no
// empty clause.
func (k *checker) forward(confl int32) (stop int, _ int32, _ error) {
	p := k.p
	stop = -1
	hasEmpty := false
	for s := 0; s < len(p.steps) && confl < 0; s++ {
		if s&255 == 0 {
			if err := k.ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		st := &p.steps[s]
		k.trailAt[s] = int32(len(k.trail))
		lits := p.lits[st.start:st.end]
		if st.del {
			k.delete(st, lits)
			continue
		}
		c := k.add(lits)
		st.clause = c
		if len(lits) == 0 {
			// The propagation is complete here, so no conflict means the
			// empty clause is not RUP.
			return 0, 0, k.lemmaError(st, "is not RUP (the empty clause: unit propagation reaches no conflict)")
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
		return 0, 0, fmt.Errorf("check %s: %w (%d lemmas read, no conflict reached)", k.res.Format, ErrNoEmptyClause, p.lemmas)
	}
	if !k.formulaOnly {
		for s := stop; s < len(p.steps) && !hasEmpty; s++ {
			hasEmpty = !p.steps[s].del && p.steps[s].start == p.steps[s].end
		}
		if !hasEmpty {
			return 0, 0, fmt.Errorf("check %s: %w (lemmas reach a conflict at lemma %d but the proof has no empty clause)",
				k.res.Format, ErrNoEmptyClause, p.steps[stop].index)
		}
	}
	return stop, confl, nil
}

// delete applies the deletion step st of the clause lits in the forward
// pass: not found, or the reason of an assignment, it is counted and
// ignored.
func (k *checker) delete(st *step, lits []int32) {
	c := k.find(lits)
	st.clause = c
	if c < 0 {
		k.res.UnmatchedDeletions++
		return
	}
	if k.isReason(c) {
		k.res.IgnoredDeletions++
		st.clause = -1
		return
	}
	k.unwatch(c)
	k.unhash(c)
	k.flags[c] &^= fActive
}

// backward undoes the steps from stop back to the first, verifying each
// core lemma (RUP, or RAT on its first literal) against the clauses
// active before it, and keeping its hints for the LRAT writer.
func (k *checker) backward(stop int) error {
	p := k.p
	if k.emit {
		k.hstart = make([]int32, len(k.cstart))
		k.hlen = make([]int32, len(k.cstart))
	}
	for s := stop; s >= 0; s-- {
		if s&255 == 0 {
			if err := k.ctx.Err(); err != nil {
				return err
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
			return k.lemmaError(st, "is not RUP or RAT (RAT pivot "+strconv.Itoa(int(p.lits[st.start]))+")")
		}
		k.res.Checked++
		if k.emit {
			k.hstart[c] = int32(len(k.hints))
			k.hlen[c] = int32(len(k.cur))
			k.hints = append(k.hints, k.cur...)
		}
	}
	return nil
}

// MaxProof is the largest LRAT proof the checkers read, 2 GiB less a
// byte: the LRAT checker holds the proof's text and indexes it with
// 32-bit numbers. (A DRAT proof is read as it comes, and bounded by what
// it keeps: see [ErrMemory].)
const MaxProof = math.MaxInt32

// lratPerByte bounds the memory the LRAT checker keeps for each byte of
// its proof: the text, and the literals, hints and steps parsed from it.
const lratPerByte = 4

// readLimited reads a proof of at most MaxProof bytes, and of no more
// than the memory budget allows (an error wrapping ErrMemory).
func readLimited(r io.Reader, what string) ([]byte, error) {
	limit := min(int64(MaxProof), memoryBudget()/lratPerByte)
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if int64(len(data)) > limit {
		if limit < MaxProof {
			return nil, fmt.Errorf("read %s: %w: more than %d MiB, and the process may use %d MiB (the least of the machine's memory, its cgroup limit and ulimit -v)",
				what, ErrMemory, limit>>20, 2*memoryBudget()>>20)
		}
		return nil, fmt.Errorf("read %s: more than %d bytes", what, MaxProof)
	}
	return data, nil
}
