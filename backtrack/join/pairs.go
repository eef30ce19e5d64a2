package join

import "math/bits"

// chunk is the width of the pieces a pattern is cut into for the tables
// of a group: 2^chunk entries a piece.
const chunk = 8

// matcher counts the disjoint pairs of two lists of patterns. It keeps
// its tables between calls so that a worker allocates them once.
type matcher struct {
	pieces int      // chunks per pattern: ceil(width / chunk)
	tab    []uint64 // one group's tables: pieces × 2^chunk words
	word   [64]uint64
}

func newMatcher(width int) *matcher {
	p := max(1, (width+chunk-1)/chunk)
	return &matcher{pieces: p, tab: make([]uint64, p<<chunk)}
}

// disjoint returns the number of pairs (x, y), x from xs and y from ys,
// with x&y == 0.
//
// The ys are taken 64 at a time, a group, and turned on their side: word
// j has bit k set when the k-th pattern of the group has bit j. For each
// chunk of pattern bits a table holds, for every value of the chunk, the
// OR of the words of its bits: the patterns of the group that clash with
// that value. One x is then tested against the whole group with one
// lookup per chunk, an OR and a popcount of the complement.
func (m *matcher) disjoint(xs, ys []uint64) uint64 {
	if len(xs) == 0 || len(ys) == 0 {
		return 0
	}
	var total uint64
	for start := 0; start < len(ys); start += 64 {
		group := ys[start:min(start+64, len(ys))]
		m.build(group)
		total += m.probe(xs)
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
	for p := range m.pieces {
		t := m.tab[p<<chunk : (p+1)<<chunk]
		t[0] = 0
		if p == 0 {
			t[0] = pad
		}
		w := m.word[p*chunk:]
		for v := 1; v < 1<<chunk; v++ {
			t[v] = t[v&(v-1)] | w[bits.TrailingZeros(uint(v))]
		}
	}
}

// probe returns the number of disjoint pairs of the xs and the group in
// the tables.
func (m *matcher) probe(xs []uint64) uint64 {
	var total uint64
	t := m.tab
	switch m.pieces {
	case 1:
		for _, x := range xs {
			total += uint64(bits.OnesCount64(^t[x&0xff]))
		}
	case 2:
		for _, x := range xs {
			total += uint64(bits.OnesCount64(^(t[x&0xff] | t[256+x>>8&0xff])))
		}
	case 3:
		for _, x := range xs {
			total += uint64(bits.OnesCount64(^(t[x&0xff] | t[256+x>>8&0xff] | t[512+x>>16&0xff])))
		}
	case 4:
		for _, x := range xs {
			total += uint64(bits.OnesCount64(^(t[x&0xff] | t[256+x>>8&0xff] | t[512+x>>16&0xff] | t[768+x>>24&0xff])))
		}
	case 5:
		for _, x := range xs {
			total += uint64(bits.OnesCount64(^(t[x&0xff] | t[256+x>>8&0xff] | t[512+x>>16&0xff] | t[768+x>>24&0xff] | t[1024+x>>32&0xff])))
		}
	default:
		for _, x := range xs {
			acc := t[x&0xff]
			for p := 1; p < m.pieces; p++ {
				acc |= t[p<<chunk+int(x>>(uint(p)*chunk)&0xff)]
			}
			total += uint64(bits.OnesCount64(^acc))
		}
	}
	return total
}
