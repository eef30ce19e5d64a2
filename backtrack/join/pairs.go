package join

import (
	"math/bits"
	"sync/atomic"
)

// direct is the number of pairs below which two lists are matched pair
// by pair: too few to pay for tables.
const direct = 1024

// maxKeyBits bounds the key bits that sort the halves of a column set
// into buckets (see [matcher.disjoint]): 2^16 buckets a side. The lists
// of n <= 23 take at most 12 (one bit a doubling of their groups); a
// column set of n = 28 holds tens of millions of halves, where 12 bits
// left 1,788 pairs tested a solution in a unit that 16 bits test 375 in.
const maxKeyBits = 16

// keySample is the most patterns of each list whose bits choose the key
// bits: enough to rank the bits, few beside the pairs they prune.
const keySample = 128

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
	chunk  uint                        // bits of a table's index, for the current group
	pieces int                         // tables of a group: ceil(width / chunk)
	tab    *[maxPieces * stride]uint64 // the tables of a group, stride entries a piece
	word   [64]uint64

	// The key of the current call (see disjoint), kb bits, and the
	// patterns as they are sorted and matched: their other bits moved
	// down to the cw lowest (the weight bits to cwb), and the key above
	// them, looked up a byte of the pattern at a time (compact).
	kb       int
	cw       int
	cwb      uint64
	cmpBytes int
	cmpTab   [8][256]uint64
	// The buckets of the lists sorted by key, their keys and the lists
	// sorted.
	xAt, yAt [1<<maxKeyBits + 1]int32
	sx, sy   []uint64
	// forceKB, when not negative, fixes the key bits (for the tests).
	forceKB int
	// stop, if not nil, ends disjoint early once set (between groups, a
	// few milliseconds apart at most: a column set of n = 28 takes
	// minutes); its sum is then partial, and the caller, which checks
	// stop, drops it.
	stop *atomic.Bool

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
	m := &matcher{width: width, tab: new([maxPieces * stride]uint64), forceKB: -1}
	m.setPath(s)
	half := width / 2
	mid := uint(half / 2) // the long diagonal among the 2h-1 of a kind
	if width >= 2 {
		m.wbits = 1<<mid | 1<<(uint(half)+mid)
	}
	m.cw, m.cwb = width, m.wbits
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

// weight returns the weight of pattern p: 1, or 2 with a bit of wbits.
func (m *matcher) weight(p uint64) uint64 { return 1 + uint64(bits.OnesCount64(p&m.wbits)) }

// lanes is the patterns of one group of tables: 512 on the wide paths,
// 64 on the pure-Go one.
func (m *matcher) lanes() int {
	if m.wide {
		return 512
	}
	return 64
}

// disjoint returns the weighted number of pairs (x, y), x from xs and y
// from ys, with x&y == 0 (see matcher for the weights), and the pairs it
// tested: those of the buckets it did not skip.
//
// Few pairs are tested one by one. Otherwise the list whose tables cost
// less (ys below) is taken a group at a time (512 patterns on the wide
// paths, 64 in pure Go) and turned on its side: for each chunk of pattern
// bits a table holds, for every value of the chunk, the lanes of the
// group that value is compatible with, so one x is tested against the
// whole group with one lookup and AND per chunk and a population count.
//
// Most pairs clash on the diagonals next to the long ones, which most
// halves of both sides occupy, so both lists are first sorted into
// buckets by a key of kb such bits (kb grows with the lists, so that a
// group of ys spans a bucket or two; the bits are those most often set on
// both sides, ranked on a sample): a group is tested only against the
// buckets of xs whose key shares no bit with the key bits every pattern
// of the group has. At n = 20 a column set's pairs fall to 4% of them
// with 6 key bits, to 1.4% with 8; at n = 22, where the bits prune less,
// to 12% and 6%. The key bits then need no lookup: the patterns are
// matched compacted (see pickKeys), the key above the other bits, where
// the tables ignore it (a group of one bucket clashes with none of the
// buckets it is tested against; a group of several with the lanes whose
// key shares a bit with the bucket's, which the probe leaves out).
func (m *matcher) disjoint(xs, ys []uint64) (sum, pairs uint64) {
	nx, ny := len(xs), len(ys)
	if nx == 0 || ny == 0 {
		return 0, 0
	}
	if nx*ny <= direct {
		var total uint64
		for _, x := range xs {
			var s uint64
			for _, y := range ys {
				s += ((x & y) - 1) >> 63 * m.weight(y)
			}
			total += s * m.weight(x)
		}
		return total, uint64(nx) * uint64(ny)
	}
	// Tables on the side that costs less.
	if m.wide && costWide(ny, nx) > costWide(nx, ny) || !m.wide && cost(ny, nx) > cost(nx, ny) {
		xs, ys, nx, ny = ys, xs, ny, nx
	}
	m.pickKeys(xs, ys)
	m.sx, xs = m.sortKeys(xs, m.xAt[:1<<uint(m.kb)+1], m.sx)
	m.sy, ys = m.sortKeys(ys, m.yAt[:1<<uint(m.kb)+1], m.sy)
	lanes := m.lanes()
	all := uint32(1)<<uint(m.kb) - 1
	s := 0 // the bucket of ys that holds the group's first pattern
	for start, stop := 0, 0; start < ny; start = stop {
		if m.stop != nil && m.stop.Load() {
			break
		}
		for int(m.yAt[s+1]) <= start {
			s++
		}
		// The group ends at the end of a bucket once it holds
		// minLanes patterns: a group that spans buckets is tested
		// against the xs of any of them.
		stop = min(start+lanes, ny)
		common := uint32(s)
		for t := s; int(m.yAt[t+1]) < stop; t++ {
			if int(m.yAt[t+1])-start >= m.minLanes() {
				stop = int(m.yAt[t+1])
				break
			}
			if m.yAt[t+2] > m.yAt[t+1] {
				common &= uint32(t + 1)
			}
		}
		// The buckets of xs whose key is a subset of free. Where the
		// group is one bucket, no x of them clashes with its key, and
		// those that differ only in the lowest run of bits of free lie
		// together; else each is tested apart, against the lanes whose
		// keys it clashes with.
		free := all &^ common
		single := int(m.yAt[s+1]) >= stop
		run := uint32(0)
		if single {
			run = uint32(bits.TrailingZeros32(^free))
		}
		high := free &^ (1<<run - 1)
		probes := 0
		for kx := high; ; kx = (kx - 1) & high {
			probes += int(m.xAt[kx+1<<run] - m.xAt[kx])
			if kx == 0 {
				break
			}
		}
		if probes == 0 {
			continue
		}
		pairs += uint64(probes) * uint64(stop-start)
		group := ys[start:stop]
		var wl uint64
		if m.wide {
			m.setChunkWide(probes)
			m.buildWide(group)
		} else {
			m.setChunk(probes)
			wl = m.build(group)
		}
		for kx := high; ; kx = (kx - 1) & high {
			if lo, hi := m.xAt[kx], m.xAt[kx+1<<run]; lo < hi {
				if m.wide {
					sum += m.probeWide(xs[lo:hi], kx, single)
				} else {
					var clash uint64
					if !single {
						for a := kx; a != 0; a &= a - 1 {
							clash |= m.word[m.cw+bits.TrailingZeros32(a)]
						}
					}
					sum += m.probe(xs[lo:hi], wl, clash)
				}
			}
			if kx == 0 {
				break
			}
		}
	}
	return sum, pairs
}

// pickKeys chooses the key bits of a call of disjoint that matches xs
// against groups of ys: the bits that a sample of both lists has most
// often (the product of the two frequencies: about how often a pair
// clashes there), the best the highest bit of a key, none that either
// list lacks, and at most one for each doubling of the groups of ys, so
// that a group spans about a bucket. Of those it keeps the number that
// saves the most, as estimated from the sample: sorting a pattern costs
// about sortProbes probes of a group, and k bits leave the pairs that
// clash on none of them, the product of 1 - the k frequencies (none at
// all where that saves less than the sorting costs: short lists, or bits
// that prune little).
func (m *matcher) pickKeys(xs, ys []uint64) {
	m.kb, m.cw, m.cwb = 0, m.width, m.wbits
	groups := (len(ys) + m.lanes() - 1) / m.lanes()
	kb := m.forceKB
	if kb < 0 {
		if groups < minKeyGroups {
			return
		}
		kb = min(maxKeyBits, bits.Len(uint(groups))-1)
	}
	if kb <= 0 {
		return
	}
	var cx, cy [64]int
	nx, ny := sampleBits(xs, &cx), sampleBits(ys, &cy)
	var score [64]int
	for b := range m.width {
		score[b] = cx[b] * cy[b]
	}
	// The kb best bits, best first; key bit kb-1-i is the i-th best, so
	// that buckets next to each other in key order, which a group spans,
	// share the best bits.
	var picked [maxKeyBits]uint8
	left, bestSave, keep := 1.0, 0.0, 0
	sortCost := sortProbes * float64(len(xs)+len(ys)) / float64(len(xs)*groups)
	for m.kb < kb {
		best := -1
		for b := range m.width {
			if score[b] > 0 && (best < 0 || score[b] > score[best]) {
				best = b
			}
		}
		if best < 0 {
			break
		}
		picked[m.kb] = uint8(best)
		left *= 1 - float64(score[best])/float64(nx*ny)
		score[best] = 0
		m.kb++
		if save := 1 - left - sortCost; save > bestSave {
			bestSave, keep = save, m.kb
		}
	}
	if m.forceKB < 0 {
		m.kb = keep
		if keep == 0 {
			return
		}
	}
	// The compaction: each bit that is no key bit moves down past the
	// key bits below it, key bit kb-1-i (the i-th best) to cw+kb-1-i.
	m.cw, m.cwb = m.width-m.kb, 0
	var to [64]int
	next := 0
	for b := range m.width {
		to[b] = -1
		for i := range m.kb {
			if int(picked[i]) == b {
				to[b] = m.cw + m.kb - 1 - i
			}
		}
		if to[b] < 0 {
			to[b] = next
			next++
			if m.wbits>>uint(b)&1 != 0 {
				m.cwb |= 1 << uint(to[b])
			}
		}
	}
	m.cmpBytes = (m.width + 7) / 8
	for by := range m.cmpBytes {
		t := &m.cmpTab[by]
		for v := range t {
			var c uint64
			for j := range 8 {
				if b := 8*by + j; b < m.width && v>>uint(j)&1 != 0 {
					c |= 1 << uint(to[b])
				}
			}
			t[v] = c
		}
	}
}

// minLanes returns the fewest patterns a group of tables holds before
// it ends at the end of a bucket: 64 of the 512 lanes, 32 of 64 (as
// measured at n = 22; a group's tables cost about as much as probing
// them with 8 xs on the wide paths, 32 on the 64-lane one).
func (m *matcher) minLanes() int {
	if m.wide {
		return 64
	}
	return 32
}

// minKeyGroups is the fewest groups of tables below which the lists are
// not sorted by key: too short to pay for the sample.
const minKeyGroups = 8

// sortProbes is what sorting a pattern by key costs, in probes of a
// group: about 10 ns (BenchmarkSortKeys) against about 2.7 ns for a probe
// of 512 lanes with AVX-512 or of 64 lanes in Go (BenchmarkDisjoint; 4.7
// ns with AVX2, where the keys pay sooner).
const sortProbes = 4

// sampleBits adds to c, for each bit, how many of at most keySample
// patterns spread over ps have it, and returns how many it took.
func sampleBits(ps []uint64, c *[64]int) int {
	step := max(1, len(ps)/keySample)
	taken := 0
	for i := 0; i < len(ps); i += step {
		taken++
		for p := ps[i]; p != 0; p &= p - 1 {
			c[bits.TrailingZeros64(p)&63]++
		}
	}
	return max(1, taken)
}

// compact returns pattern p as the current call matches it (see
// matcher.cw): its key is compact(p) >> cw.
func (m *matcher) compact(p uint64) uint64 {
	var c uint64
	for i := range m.cmpBytes & 7 {
		c |= m.cmpTab[i][uint8(p>>(uint(i)*8))]
	}
	return c
}

// sortKeys returns ps compacted and sorted by key in buf (grown as
// needed, and returned), and sets at[k] to the start of the patterns of
// key k and at[len(at)-1] to len(ps) (at has 1<<m.kb + 1 entries).
// Without key bits it returns ps itself.
func (m *matcher) sortKeys(ps []uint64, at []int32, buf []uint64) ([]uint64, []uint64) {
	if m.kb == 0 {
		at[0], at[1] = 0, int32(len(ps))
		return buf, ps
	}
	if cap(buf) < 2*len(ps) {
		buf = make([]uint64, 3*len(ps))
	}
	cs, out := buf[len(ps):2*len(ps)], buf[:len(ps)]
	clear(at)
	shift := uint(m.cw) & 63
	for i, p := range ps {
		c := m.compact(p)
		cs[i] = c
		at[c>>shift+1]++
	}
	for i := 1; i < len(at); i++ {
		at[i] += at[i-1]
	}
	for _, c := range cs {
		k := c >> shift
		out[at[k]] = c
		at[k]++
	}
	copy(at[1:], at[:len(at)-1])
	at[0] = 0
	return buf, out
}

// probeWide returns the weighted number of disjoint pairs of the xs,
// whose key is kx, and the group in the 512-lane tables: where the group
// is not a single bucket, those of its lanes whose key clashes with kx
// are left out.
func (m *matcher) probeWide(xs []uint64, kx uint32, single bool) uint64 {
	init := [8]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	if !single {
		for a := kx; a != 0; a &= a - 1 {
			w := &m.zword[m.cw+bits.TrailingZeros32(a)]
			for b := range 8 {
				init[b] &^= w[b]
			}
		}
	}
	if m.path == simdAVX2 {
		return probeAVX2(&m.ztab[0], &xs[0], len(xs), m.chunk, m.pieces, &m.zwl[0], m.cwb, &init[0])
	}
	m.zsum = [8]uint64{}
	probeWide(&m.ztab[0], &xs[0], len(xs), m.chunk, m.pieces, &m.zwl[0], m.cwb, &m.zsum[0], &init[0])
	var total uint64
	for _, s := range m.zsum {
		total += s
	}
	return total
}

// costWide estimates the steps of matching nx patterns against ny on
// the 512-lane path: the groups of ny times (their tables + the probes).
func costWide(ny, nx int) int {
	return (ny + 511) / 512 * (1200 + 8*nx)
}

// setChunkWide picks the width of the tables' index for a group of 512
// lanes that nx patterns are tested against (a table entry costs about 6
// probe steps to fill, a piece one step of a probe).
func (m *matcher) setChunkWide(nx int) {
	best := -1
	for c := 4; c <= 8; c++ {
		p := (m.cw + c - 1) / c
		cost := p<<c*6 + nx*p
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
	for a := m.cwb; a != 0; a &= a - 1 {
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
			if j >= m.cw {
				// No pattern has the bit (or it is a key bit, which
				// the buckets match): every value is like its lower bits.
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
		p := (m.cw + c - 1) / c
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
	for a := m.cwb; a != 0; a &= a - 1 {
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
			if int(uint(p)*m.chunk+b) >= m.cw {
				wb = 0 // a key bit, which the buckets match
			}
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
// group in the tables, whose lanes in wl weigh 2, but for the lanes of
// clash. The usual chunks have loops of their own, whose shifts are
// constants.
func (m *matcher) probe(xs []uint64, wl, clash uint64) uint64 {
	var total uint64
	wb := m.cwb
	t := m.tab
	switch c := m.chunk & 63; {
	case m.pieces == 5 && c == 6:
		for _, x := range xs {
			total += tally(^(clash | t[x&63] | t[stride+x>>6&63] | t[2*stride+x>>12&63] | t[3*stride+x>>18&63] | t[4*stride+x>>24&63]), wl, x&wb)
		}
	case m.pieces == 5 && c == 7:
		for _, x := range xs {
			total += tally(^(clash | t[x&127] | t[stride+x>>7&127] | t[2*stride+x>>14&127] | t[3*stride+x>>21&127] | t[4*stride+x>>28&127]), wl, x&wb)
		}
	case m.pieces == 4 && c == 8:
		for _, x := range xs {
			total += tally(^(clash | t[x&255] | t[stride+x>>8&255] | t[2*stride+x>>16&255] | t[3*stride+x>>24&255]), wl, x&wb)
		}
	case m.pieces == 5 && c == 8:
		for _, x := range xs {
			total += tally(^(clash | t[x&255] | t[stride+x>>8&255] | t[2*stride+x>>16&255] | t[3*stride+x>>24&255] | t[4*stride+x>>32&255]), wl, x&wb)
		}
	default:
		mask := uint8(1)<<c - 1
		for _, x := range xs {
			acc := clash
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
