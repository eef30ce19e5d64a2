package drat

// Unit propagation: two watched literals per clause, the trail of
// top-level assignments and their reasons.

// watch is an entry of a watch list: clause c, and a literal of c (the
// other watched literal when last seen) whose truth makes visiting c
// unnecessary.
type watch struct {
	c       int32
	blocker int32
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
