package join

import "math/bits"

// keyBits is the number of pattern bits (the middle three of each kind
// of diagonal, the ones both halves occupy most often) that sort the
// halves of a column set into buckets: halves whose keys share a bit
// cannot meet.
const keyBits = 6

// direct is the number of pairs below which two lists are matched pair
// by pair: too few to pay for tables.
const direct = 1024

// matcher counts the disjoint pairs of two lists of patterns of width
// bits. It keeps its buffers between calls so that a worker allocates
// them once.
type matcher struct {
	width  int
	k0, k1 uint // the lowest key bit of each kind of diagonal
	chunk  uint // bits of a table's index, for the current call
	pieces int  // tables of a group: ceil(width / chunk)
	tab    []uint64
	word   [64]uint64
	// The two lists sorted by key: bucket s of xs is xs[xAt[s]:xAt[s+1]].
	xs, ys   []uint64
	xAt, yAt [1<<keyBits + 1]int32
	yKey     []uint8
}

func newMatcher(width int) *matcher {
	m := &matcher{width: width, tab: make([]uint64, 8<<8)}
	if width >= 2*3+2 {
		half := width / 2
		m.k0, m.k1 = uint(half/2-1), uint(half+half/2-1)
	}
	return m
}

// key returns the key bits of pattern p.
func (m *matcher) key(p uint64) uint8 {
	return uint8(p>>m.k0&7 | p>>m.k1&7<<3)
}

// sortByKey sorts ps by key into out and fills at (bucket s is
// out[at[s]:at[s+1]]), and keys with the key of each out[i] if keys is not
// nil.
func (m *matcher) sortByKey(ps, out []uint64, at *[1<<keyBits + 1]int32, keys *[]uint8) []uint64 {
	*at = [1<<keyBits + 1]int32{}
	if m.k1 == 0 { // too narrow to cut: one bucket
		for s := 1; s <= 1<<keyBits; s++ {
			at[s] = int32(len(ps))
		}
		out = append(out[:0], ps...)
		if keys != nil {
			*keys = append((*keys)[:0], make([]uint8, len(ps))...)
		}
		return out
	}
	for _, p := range ps {
		at[int(m.key(p))+1]++
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
	for _, p := range ps {
		k := m.key(p)
		out[next[k]] = p
		next[k]++
	}
	if keys != nil {
		ks := (*keys)[:0]
		for s := range 1 << keyBits {
			for range at[s+1] - at[s] {
				ks = append(ks, uint8(s))
			}
		}
		*keys = ks
	}
	return out
}

// disjoint returns the number of pairs (x, y), x from xs and y from ys,
// with x&y == 0.
//
// Few pairs are tested one by one. Otherwise the list whose tables cost
// less (ys below) is taken 64 at a time, a group, and turned on its side:
// word j has bit k set when the k-th pattern of the group has bit j. For
// each chunk of pattern bits a table holds, for every value of the chunk,
// the OR of the words of its bits: the patterns of the group that clash
// with that value. One x is then tested against the whole group with one
// lookup per chunk, an OR and a popcount of the complement. Both lists
// are sorted by their key bits first, so that a group holds few keys, and
// only the xs whose key is disjoint from the key bits every pattern of
// the group has are tested against it.
func (m *matcher) disjoint(xs, ys []uint64) uint64 {
	nx, ny := len(xs), len(ys)
	if nx == 0 || ny == 0 {
		return 0
	}
	if nx*ny <= direct {
		var total uint64
		for _, x := range xs {
			for _, y := range ys {
				total += ((x & y) - 1) >> 63
			}
		}
		return total
	}
	// Tables on the side that costs less: a group's tables take about
	// 640 steps, a probe 5.
	if cost(ny, nx) > cost(nx, ny) {
		xs, ys, nx, ny = ys, xs, ny, nx
	}
	m.setChunk(nx)
	m.xs = m.sortByKey(xs, m.xs, &m.xAt, nil)
	m.ys = m.sortByKey(ys, m.ys, &m.yAt, &m.yKey)
	const all = 1<<keyBits - 1
	var total uint64
	for start := 0; start < ny; start += 64 {
		end := min(start+64, ny)
		common := uint8(all)
		for _, k := range m.yKey[start:end] {
			common &= k
		}
		free := all &^ common
		if m.k1 == 0 {
			free = 0
		}
		m.build(m.ys[start:end])
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
	return total
}

// cost estimates the steps of matching a list of nx patterns against
// ny on tables: the groups of ny times (their tables + the probes).
func cost(ny, nx int) int {
	return (ny + 63) / 64 * (640 + 2*nx)
}

// setChunk picks the width of the tables' index for groups that about
// nx patterns are tested against: narrow tables are quicker to fill,
// wide ones to probe.
func (m *matcher) setChunk(nx int) {
	best := -1
	for c := 4; c <= 8; c++ {
		p := (m.width + c - 1) / c
		cost := p<<c + nx/2*p
		if best < 0 || cost < best {
			best, m.chunk, m.pieces = cost, uint(c), p
		}
	}
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
	s1, s2, s3, s4 := 1<<c, 2<<c, 3<<c, 4<<c
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
	case 5:
		for _, x := range xs {
			total += uint64(bits.OnesCount64(^(t[x&mask] | t[s1+int(x>>c&mask)] | t[s2+int(x>>(2*c)&mask)] | t[s3+int(x>>(3*c)&mask)] | t[s4+int(x>>(4*c)&mask)])))
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
