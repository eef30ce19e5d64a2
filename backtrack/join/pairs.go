package join

import "math/bits"

// keyBits is the number of pattern bits (the middle three of each kind
// of diagonal, the ones both halves occupy most often) that sort the
// halves of a column set into buckets: halves whose keys share a bit
// cannot meet, so only pairs of disjoint buckets are tested.
const keyBits = 6

// matcher counts the disjoint pairs of two lists of patterns of width
// bits. It keeps its buffers between calls so that a worker allocates
// them once.
type matcher struct {
	width  int
	k0, k1 uint // the lowest key bit of each kind of diagonal
	chunk  uint // bits of a table's index
	pieces int  // tables of a group: ceil((width - keyBits) / chunk)
	tab    []uint64
	word   [64]uint64
	// The two lists sorted by key, with the key bits cut out.
	xs, ys     []uint64
	xAt, yAt   [1<<keyBits + 1]int32
	xKey, yKey []uint8
}

func newMatcher(width int) *matcher {
	m := &matcher{width: width}
	rest := width
	if width >= 2*3+2 {
		half := width / 2
		m.k0, m.k1 = uint(half/2-1), uint(half+half/2-1)
		rest -= keyBits
	}
	m.chunk = 8
	m.pieces = max(1, (rest+7)/8)
	for c := uint(6); c < 8; c++ {
		if (rest+int(c)-1)/int(c) == m.pieces {
			m.chunk = c
			break
		}
	}
	m.tab = make([]uint64, m.pieces<<m.chunk)
	return m
}

// split sorts ps by key into out, the key bits cut out, and fills at
// (bucket s is out[at[s]:at[s+1]]).
func (m *matcher) split(ps []uint64, keys []uint8, out []uint64, at *[1<<keyBits + 1]int32) ([]uint8, []uint64) {
	*at = [1<<keyBits + 1]int32{}
	keys = keys[:0]
	if m.k1 == 0 { // too narrow to cut: one bucket
		for s := 1; s <= 1<<keyBits; s++ {
			at[s] = int32(len(ps))
		}
		return keys, append(out[:0], ps...)
	}
	k0, k1 := m.k0, m.k1
	for _, p := range ps {
		k := uint8(p>>k0&7 | p>>k1&7<<3)
		keys = append(keys, k)
		at[k+1]++
	}
	for s := 1; s <= 1<<keyBits; s++ {
		at[s] += at[s-1]
	}
	if cap(out) < len(ps) {
		out = make([]uint64, len(ps))
	}
	out = out[:len(ps)]
	var next [1 << keyBits]int32
	copy(next[:], at[:1<<keyBits])
	lo := uint64(1)<<k0 - 1
	mid := (uint64(1)<<(k1-3) - 1) &^ lo
	for i, p := range ps {
		k := keys[i]
		out[next[k]] = p&lo | p>>3&mid | p>>6&^(lo|mid)
		next[k]++
	}
	return keys, out
}

// disjoint returns the number of pairs (x, y), x from xs and y from ys,
// with x&y == 0.
//
// Both lists are sorted into buckets by their key bits; a pair of
// buckets whose keys share a bit has no disjoint pair. The ys of a
// bucket are taken 64 at a time, a group, and turned on their side: word
// j has bit k set when the k-th pattern of the group has bit j. For each
// chunk of pattern bits a table holds, for every value of the chunk, the
// OR of the words of its bits: the patterns of the group that clash with
// that value. One x is then tested against the whole group with one
// lookup per chunk, an OR and a popcount of the complement.
func (m *matcher) disjoint(xs, ys []uint64) uint64 {
	if len(xs) == 0 || len(ys) == 0 {
		return 0
	}
	m.xKey, m.xs = m.split(xs, m.xKey, m.xs, &m.xAt)
	m.yKey, m.ys = m.split(ys, m.yKey, m.ys, &m.yAt)
	const all = 1<<keyBits - 1
	var total uint64
	for ky := 0; ky <= all; ky++ {
		yb := m.ys[m.yAt[ky]:m.yAt[ky+1]]
		if len(yb) == 0 {
			continue
		}
		free := all &^ ky
		if m.k1 == 0 {
			free = 0
		}
		for start := 0; start < len(yb); start += 64 {
			m.build(yb[start:min(start+64, len(yb))])
			// Every bucket of xs whose key is a subset of free.
			for kx := free; ; kx = (kx - 1) & free {
				if xb := m.xs[m.xAt[kx]:m.xAt[kx+1]]; len(xb) > 0 {
					total += m.probe(xb)
				}
				if kx == 0 {
					break
				}
			}
		}
		if m.k1 == 0 {
			break
		}
	}
	return total
}

// build fills the tables of one group of at most 64 patterns; the lanes
// past the group's end clash with everything.
func (m *matcher) build(group []uint64) {
	clear(m.word[:])
	for k, y := range group {
		for ; y != 0; y &= y - 1 {
			m.word[bits.TrailingZeros64(y)] |= 1 << uint(k)
		}
	}
	var pad uint64
	if len(group) < 64 {
		pad = ^uint64(0) << uint(len(group))
	}
	size := 1 << m.chunk
	for p := range m.pieces {
		t := m.tab[p*size : (p+1)*size]
		t[0] = 0
		if p == 0 {
			t[0] = pad
		}
		w := m.word[uint(p)*m.chunk:]
		for b := range m.chunk {
			lo := 1 << b
			wb := w[b]
			for v, x := range t[:lo] {
				t[lo+v] = x | wb
			}
		}
	}
}

// probe returns the number of disjoint pairs of the xs and the group in
// the tables.
func (m *matcher) probe(xs []uint64) uint64 {
	var total uint64
	t := m.tab
	c := m.chunk
	mask := uint64(1)<<c - 1
	s1, s2, s3 := 1<<c, 2<<c, 3<<c
	switch m.pieces {
	case 1:
		for _, x := range xs {
			total += uint64(bits.OnesCount64(^t[x&mask]))
		}
	case 2:
		for _, x := range xs {
			total += uint64(bits.OnesCount64(^(t[x&mask] | t[s1+int(x>>c&mask)])))
		}
	case 3:
		for _, x := range xs {
			total += uint64(bits.OnesCount64(^(t[x&mask] | t[s1+int(x>>c&mask)] | t[s2+int(x>>(2*c)&mask)])))
		}
	case 4:
		for _, x := range xs {
			total += uint64(bits.OnesCount64(^(t[x&mask] | t[s1+int(x>>c&mask)] | t[s2+int(x>>(2*c)&mask)] | t[s3+int(x>>(3*c)&mask)])))
		}
	default:
		for _, x := range xs {
			acc := t[x&mask]
			for p := 1; p < m.pieces; p++ {
				acc |= t[p<<c+int(x>>(uint(p)*c)&mask)]
			}
			total += uint64(bits.OnesCount64(^acc))
		}
	}
	return total
}
