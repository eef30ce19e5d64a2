package drat

// The clause store: every clause (formula and lemmas) in one literal array,
// a hash table of the active ones for deletions, and the map from DIMACS
// variables to the checker's dense ones.

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
