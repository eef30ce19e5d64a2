package join

import "math/bits"

// keyBits is the number of pattern bits (three of each kind of
// diagonal beside the middle one, which the halves occupy most often)
// that sort the halves of a column set into buckets: halves whose keys
// share a bit cannot meet.
const keyBits = 6

// direct is the number of pairs below which two lists are matched pair
// by pair: too few to pay for tables.
const direct = 1024

// maxBuckets bounds the buckets of a halfSet (column sets times keys):
// the key bits are cut to fit it.
const maxBuckets = 1 << 20

// matcher counts the weighted disjoint pairs of two lists of patterns
// of width bits. It keeps its buffers between calls so that a worker
// allocates them once.
//
// A pattern weighs 2 when it has a bit of wbits (the middle anti-diagonal
// and diagonal: the long diagonals), else 1, and a pair weighs the
// product of its patterns' weights. A pattern has at most one of the two
// bits and no pattern of the other list has it, so the bits never clash.
type matcher struct {
	width  int
	wbits  uint64
	keyed  bool                        // width is enough for keys
	keyLo  uint                        // the lowest bit of each kind's window
	keyHi  uint                        // (see key)
	chunk  uint                        // bits of a table's index, for the current call
	pieces int                         // tables of a group: ceil(width / chunk)
	tab    *[maxPieces * stride]uint64 // the tables of a group, stride entries a piece
	word   [64]uint64

	// The 512-lane paths (probeWide, probeAVX2), where the machine has
	// them.
	path  simd
	wide  bool          // path is one of them
	ztab  []uint64      // pieces × 2^chunk entries of 8 words
	zword [64][8]uint64 // zword[j][b]: the lanes of block b with bit j
	zwl   [8]uint64     // the lanes that weigh 2
	zsum  [8]uint64     // probeWide's lane sums
}

// newMatcher returns a matcher of patterns of width bits on path s.
func newMatcher(width int, s simd) *matcher {
	m := &matcher{width: width, tab: new([maxPieces * stride]uint64)}
	m.setPath(s)
	half := width / 2
	mid := uint(half / 2) // the long diagonal among the 2h-1 of a kind
	if width >= 2 {
		m.wbits = 1<<mid | 1<<(uint(half)+mid)
	}
	if width >= 2*(2*3+1) {
		m.keyed = true
		m.keyLo, m.keyHi = mid-2, uint(half)+mid-2
	}
	return m
}

// setPath makes m take path s.
func (m *matcher) setPath(s simd) {
	m.path, m.wide = s, s != simdGo
	if m.wide && m.ztab == nil {
		size := 0
		for c := 4; c <= 8; c++ {
			size = max(size, (m.width+c-1)/c<<c*8)
		}
		m.ztab = make([]uint64, size)
	}
}

// keyWidth returns the key bits that sort the halves of column sets of
// width bits: keyBits, or fewer where the buckets would be too many or
// the patterns too narrow to cut.
func (m *matcher) keyWidth(width int) int {
	if !m.keyed || m.wide {
		return 0
	}
	return min(keyBits, max(0, bits.Len(maxBuckets)-1-width))
}

// keyBitsFor returns the key bits that sort the two lists of one column
// set built from quarter boards, the shorter of n patterns: on the
// 64-lane path, for lists of 8 groups of 64 or more, 4 bits and one more
// each time the groups double, up to keyBits, so that a group holds few
// keys and is probed by the halves of fewer buckets; none on the 512-lane
// paths or for shorter lists, where the sort costs more than it saves.
// Measured (whole processes, one thread, CPU time): go path, n = 18, 0.54
// times the time without keys (0.53 from 2 groups on, but that was 1.13
// times slower at n = 17, and 6 bits from 2 groups 1.33); avx2, n = 18,
// 1.09 to 1.29 times slower with 1 to 3 bits.
func (m *matcher) keyBitsFor(n int) int {
	g := (n + 63) / 64
	if !m.keyed || m.wide || g < 8 {
		return 0
	}
	return min(keyBits, bits.Len(uint(g))+1)
}

// key returns the key bits of pattern p (all keyBits of them): bits 0
// to 2 are its anti-diagonals mid-1, mid+1 and mid-2 (mid: the long one),
// bits 3 to 5 its diagonals likewise. Each kind is read as a window of 4
// bits from mid-2 and looked up in keyOf.
func (m *matcher) key(p uint64) uint32 {
	return uint32(keyOf[p>>(m.keyLo&63)&15] | keyOf[p>>(m.keyHi&63)&15]<<3)
}

// keyOf maps a window of 4 pattern bits (mid-2 to mid+1) to 3 key bits:
// mid-1, mid+1 and mid-2 (the long diagonal mid is no key bit).
var keyOf = func() (k [16]uint8) {
	for a := range k {
		k[a] = uint8(a>>1&1 | a>>3&1<<1 | a&1<<2)
	}
	return k
}()

// weight returns the weight of pattern p: 1, or 2 with a bit of wbits.
func (m *matcher) weight(p uint64) uint64 { return 1 + uint64(bits.OnesCount64(p&m.wbits)) }

// list is a list of patterns sorted by their key of kb bits: bucket s is
// pats[at[s]:at[s+1]], for s below 1<<kb (at has 1<<kb + 1 entries, and
// the list is pats[at[0]:at[1<<kb]]).
type list struct {
	pats []uint64
	at   []int32
}

func (l list) len() int { return int(l.at[len(l.at)-1] - l.at[0]) }

// filter appends to out the patterns of l that share no bit with z, in
// their order, and fills at with their buckets in out (at must have the
// length of l.at).
func (l list) filter(z uint64, out []uint64, at []int32) ([]uint64, list) {
	out = out[:0]
	at[0] = 0
	for s := range len(l.at) - 1 {
		for _, p := range l.pats[l.at[s]:l.at[s+1]] {
			if p&z == 0 {
				out = append(out, p)
			}
		}
		at[s+1] = int32(len(out))
	}
	return out, list{out, at}
}

// disjoint returns the weighted number of pairs (x, y), x from xs and y
// from ys, with x&y == 0 (both sorted by the same key bits; see matcher
// for the weights).
//
// Few pairs are tested one by one. With AVX-512, disjointWide counts the
// rest. Otherwise the list whose tables cost less (ys below) is taken 64
// at a time, a group, and turned on its side: word j has bit k set when
// the k-th pattern of the group has bit j. For
// each chunk of pattern bits a table holds, for every value of the chunk,
// the OR of the words of its bits: the patterns of the group that clash
// with that value. One x is then tested against the whole group with one
// lookup per chunk, an OR and a popcount of the complement. As both lists
// are sorted by their key bits, a group holds few keys, and only the
// buckets of xs whose key is disjoint from the key bits every pattern of
// the group has are tested against it.
func (m *matcher) disjoint(xs, ys list) uint64 {
	nx, ny := xs.len(), ys.len()
	if nx == 0 || ny == 0 {
		return 0
	}
	if nx*ny <= direct {
		var total uint64
		for _, x := range xs.pats[xs.at[0]:xs.at[len(xs.at)-1]] {
			var sum uint64
			for _, y := range ys.pats[ys.at[0]:ys.at[len(ys.at)-1]] {
				sum += ((x & y) - 1) >> 63 * m.weight(y)
			}
			total += sum * m.weight(x)
		}
		return total
	}
	if m.wide {
		return m.disjointWide(xs, ys)
	}
	// Tables on the side that costs less: a group's tables take about
	// 640 steps, a probe 5.
	if cost(ny, nx) > cost(nx, ny) {
		xs, ys, nx, ny = ys, xs, ny, nx
	}
	m.setChunk(nx)
	nb := len(ys.at) - 1
	all := uint32(nb - 1)
	var total uint64
	s := 0 // the bucket of ys that holds the group's first pattern
	first, end := int(ys.at[0]), int(ys.at[nb])
	for start := first; start < end; start += 64 {
		stop := min(start+64, end)
		for int(ys.at[s+1]) <= start {
			s++
		}
		common := all
		for t := s; t < nb && int(ys.at[t]) < stop; t++ {
			if ys.at[t+1] > ys.at[t] {
				common &= uint32(t)
			}
		}
		free := all &^ common
		wl := m.build(ys.pats[start:stop])
		// Every bucket of xs whose key is a subset of free.
		for kx := free; ; kx = (kx - 1) & free {
			if xb := xs.pats[xs.at[kx]:xs.at[kx+1]]; len(xb) > 0 {
				total += m.probe(xb, wl)
			}
			if kx == 0 {
				break
			}
		}
	}
	return total
}

// disjointWide is disjoint on the 512-lane path: the list whose tables
// cost less (ys below) is taken 512 at a time, and every x is tested
// against a whole group by probeWide. The key buckets are not used: the
// lists are rarely long enough for them to pay.
func (m *matcher) disjointWide(xs, ys list) uint64 {
	nx, ny := xs.len(), ys.len()
	if costWide(ny, nx) > costWide(nx, ny) {
		xs, ys, nx, ny = ys, xs, ny, nx
	}
	m.setChunkWide((ny+511)/512, nx)
	x := xs.pats[xs.at[0]:xs.at[len(xs.at)-1]]
	y := ys.pats[ys.at[0]:ys.at[len(ys.at)-1]]
	var total uint64
	for start := 0; start < len(y); start += 512 {
		m.buildWide(y[start:min(start+512, len(y))])
		if m.path == simdAVX2 {
			total += probeAVX2(&m.ztab[0], &x[0], len(x), m.chunk, m.pieces, &m.zwl[0], m.wbits)
			continue
		}
		m.zsum = [8]uint64{}
		probeWide(&m.ztab[0], &x[0], len(x), m.chunk, m.pieces, &m.zwl[0], m.wbits, &m.zsum[0])
		for _, s := range m.zsum {
			total += s
		}
	}
	return total
}

// costWide estimates the steps of matching nx patterns against ny on
// the 512-lane path: the groups of ny times (their tables + the probes).
func costWide(ny, nx int) int {
	return (ny + 511) / 512 * (1200 + 8*nx)
}

// setChunkWide picks the width of the tables' index for groups groups of
// 512 lanes that nx patterns are tested against (a table entry costs
// about 6 probe steps to fill, a piece one step of a probe).
func (m *matcher) setChunkWide(groups, nx int) {
	best := -1
	for c := 4; c <= 8; c++ {
		p := (m.width + c - 1) / c
		cost := groups*p<<c*6 + groups*nx*p
		if best < 0 || cost < best {
			best, m.chunk, m.pieces = cost, uint(c), p
		}
	}
}

// buildWide fills the 512-lane tables of one group of at most 512
// patterns: entry v of piece p holds the lanes compatible with the value
// v of the piece's chunk of bits (lanes past the group's end compatible
// with nothing), and zwl the lanes that weigh 2.
func (m *matcher) buildWide(group []uint64) {
	var valid [8]uint64
	for b := range 8 {
		lo := min(len(group), b*64)
		hi := min(len(group), lo+64)
		if lo == hi {
			for j := range m.width {
				m.zword[j][b] = 0
			}
			continue
		}
		if m.path == simdAVX2 {
			// Its lanes come in another order: the words mark
			// themselves valid in bit 63 (patterns are narrower).
			for i, p := range group[lo:hi] {
				m.word[i] = p | 1<<63
			}
			clear(m.word[hi-lo:])
			transposeAVX2(&m.zword[0][b], &m.word, (m.width+7)/8, &valid[b])
			continue
		}
		n := copy(m.word[:], group[lo:hi])
		clear(m.word[n:])
		transposeWide(&m.zword[0][b], &m.word, (m.width+7)/8)
		if hi-lo == 64 {
			valid[b] = ^uint64(0)
		} else {
			valid[b] = uint64(1)<<uint(hi-lo) - 1
		}
	}
	m.zwl = [8]uint64{}
	for a := m.wbits; a != 0; a &= a - 1 {
		w := &m.zword[bits.TrailingZeros64(a)]
		for b := range 8 {
			m.zwl[b] |= w[b]
		}
	}
	size := 1 << m.chunk
	for p := range m.pieces {
		t := m.ztab[p*size*8 : (p+1)*size*8]
		first := (*[8]uint64)(t[:8])
		if p == 0 {
			*first = valid
		} else {
			*first = [8]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		}
		for b := range m.chunk {
			j := int(uint(p)*m.chunk + b)
			lo := 1 << b
			if j >= m.width {
				// No pattern has the bit: every value is like its lower bits.
				copy(t[lo*8:2*lo*8], t[:lo*8])
				continue
			}
			if m.path == simdAVX2 {
				andNotAVX2(&t[lo*8], &t[0], &m.zword[j][0], lo)
			} else {
				andNotWide(&t[lo*8], &t[0], &m.zword[j][0], lo)
			}
		}
	}
}

// cost estimates the steps of matching a list of nx patterns against
// ny on tables: the groups of ny times (their tables + the probes).
func cost(ny, nx int) int {
	return (ny + 63) / 64 * (640 + 2*nx)
}

// setChunk picks the width of the tables' index for groups that about
// nx patterns are tested against: narrow tables are quicker to fill,
// wide ones to probe (a probe counts as a table entry per piece, measured
// since the transpose made a group's words cheap).
func (m *matcher) setChunk(nx int) {
	best := -1
	for c := 4; c <= 8; c++ {
		p := (m.width + c - 1) / c
		cost := p<<c + nx*p
		if best < 0 || cost < best {
			best, m.chunk, m.pieces = cost, uint(c), p
		}
	}
}

// build fills the tables of one group of at most 64 patterns, the lanes
// past the group's end clashing with everything, and returns the lanes
// that weigh 2.
func (m *matcher) build(group []uint64) (wl uint64) {
	transpose(&m.word, group)
	for a := m.wbits; a != 0; a &= a - 1 {
		wl |= m.word[bits.TrailingZeros64(a)]
	}
	var pad uint64
	if len(group) < 64 {
		pad = ^uint64(0) << uint(len(group))
	}
	size := 1 << m.chunk
	for p := range m.pieces {
		t := m.tab[p*stride : p*stride+size]
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
	return wl
}

// stride is the entries of each table of the 64-lane path, whatever its
// chunk, and maxPieces a bound on the tables (patterns of at most 54 bits
// at n = 28 in chunks of 4: 14): a lookup indexed by a byte, in a table
// whose number is masked by maxPieces-1, needs no bounds check.
const stride, maxPieces = 256, 16

// probe returns the weighted number of disjoint pairs of the xs and the
// group in the tables, whose lanes in wl weigh 2. The usual chunks have
// loops of their own, whose shifts are constants.
func (m *matcher) probe(xs []uint64, wl uint64) uint64 {
	var total uint64
	wb := m.wbits
	t := m.tab
	switch c := m.chunk & 63; {
	case m.pieces == 5 && c == 6:
		for _, x := range xs {
			total += tally(^(t[x&63] | t[stride+x>>6&63] | t[2*stride+x>>12&63] | t[3*stride+x>>18&63] | t[4*stride+x>>24&63]), wl, x&wb)
		}
	case m.pieces == 5 && c == 7:
		for _, x := range xs {
			total += tally(^(t[x&127] | t[stride+x>>7&127] | t[2*stride+x>>14&127] | t[3*stride+x>>21&127] | t[4*stride+x>>28&127]), wl, x&wb)
		}
	case m.pieces == 4 && c == 8:
		for _, x := range xs {
			total += tally(^(t[x&255] | t[stride+x>>8&255] | t[2*stride+x>>16&255] | t[3*stride+x>>24&255]), wl, x&wb)
		}
	case m.pieces == 5 && c == 8:
		for _, x := range xs {
			total += tally(^(t[x&255] | t[stride+x>>8&255] | t[2*stride+x>>16&255] | t[3*stride+x>>24&255] | t[4*stride+x>>32&255]), wl, x&wb)
		}
	default:
		mask := uint8(1)<<c - 1
		for _, x := range xs {
			var acc uint64
			y := x
			for p := range m.pieces & (maxPieces - 1) {
				acc |= t[p*stride+int(uint8(y)&mask)]
				y >>= c
			}
			total += tally(^acc, wl, x&wb)
		}
	}
	return total
}

// tally returns the weighted number of lanes in v that x is disjoint
// from: each once, those in wl twice, and all of it twice when x weighs 2
// (xw, its bits of the weight bits, is not 0).
func tally(v, wl, xw uint64) uint64 {
	pc := uint64(bits.OnesCount64(v) + bits.OnesCount64(v&wl))
	heavy := uint64(int64(xw|-xw) >> 63) // all ones when xw != 0
	return pc + pc&heavy
}

// transpose sets w[j] to the word whose bit k is bit j of group[k] (0
// past the group's end): the 64×64 bit matrix turned on its side by
// swapping ever smaller blocks, without a branch on the bits.
func transpose(w *[64]uint64, group []uint64) {
	n := copy(w[:], group)
	clear(w[n:])
	mask := uint64(0x00000000ffffffff)
	for j := 32; j != 0; j >>= 1 {
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			t := (w[k]>>uint(j) ^ w[k+j]) & mask
			w[k] ^= t << uint(j)
			w[k+j] ^= t
		}
		mask ^= mask << uint(j>>1)
	}
}
