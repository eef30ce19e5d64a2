package drat

// The lemma checks: reverse unit propagation (RUP), resolution asymmetric
// tautologies (RAT), and the conflict analysis that marks the core and
// collects the LRAT hints.

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
