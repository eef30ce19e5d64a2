package encode

import (
	"context"
	"sync"
)

// The at-most-one encodings. Each adds the clauses of AMO(xs) to b, taking
// auxiliary variables from b.fresh, and has a count function giving the
// clauses and auxiliary variables it adds for len(xs) == L without
// building them ([Size] sums those; Encoder.CNF checks the sums).
//
// Every auxiliary variable is defined both ways by the squares of its
// line (an OR of some of them), so that it is false when the line holds
// no queen: each assignment of the board variables that satisfies the
// at-most-one extends to exactly one model, and model counters count
// solutions. The encodings other than pairwise and commander spend one
// clause per auxiliary variable on the direction aux -> OR(squares).

// pairwise: (-x_i | -x_j) for every i < j.
func pairwise(b *builder, xs []int) {
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			b.clause(-xs[i], -xs[j])
		}
	}
}

func pairwiseCount(L int) (clauses, aux int) { return L * (L - 1) / 2, 0 }

// sequential is Sinz's counter, defined both ways: s_i <-> x_1 | ... | x_i.
//
//	(-x_1 | s_1), (-s_1 | x_1), and for 1 < i < L:
//	    (-x_i | s_i), (-s_(i-1) | s_i), (-x_i | -s_(i-1)), (-s_i | s_(i-1) | x_i),
//	(-x_L | -s_(L-1))
func sequential(b *builder, xs []int) {
	L := len(xs)
	if L < 2 {
		return
	}
	s := b.fresh()
	b.clause(-xs[0], s)
	b.clause(-s, xs[0])
	for i := 1; i < L-1; i++ {
		next := b.fresh()
		b.clause(-xs[i], next)
		b.clause(-s, next)
		b.clause(-xs[i], -s)
		b.clause(-next, s, xs[i])
		s = next
	}
	b.clause(-xs[L-1], -s)
}

func sequentialCount(L int) (clauses, aux int) {
	if L < 2 {
		return 0, 0
	}
	return 4*L - 5, L - 1
}

// commanderGroup is the group size of the commander encoding.
const commanderGroup = 3

// commander splits xs into groups of 3 (the last may be smaller). A group
// of one is its own commander; a larger group gets pairwise at-most-one and
// a commander c <-> OR(group): (-c | g_1 | ... ) and (-g_i | c). At most
// one commander may be true, recursively; 4 or fewer literals are done
// pairwise.
func commander(b *builder, xs []int) {
	if len(xs) <= commanderGroup+1 {
		pairwise(b, xs)
		return
	}
	cmds := b.alloc((len(xs) + commanderGroup - 1) / commanderGroup)[:0]
	defer b.release(cmds)
	var or [commanderGroup + 1]int
	for start := 0; start < len(xs); start += commanderGroup {
		g := xs[start:min(start+commanderGroup, len(xs))]
		if len(g) == 1 {
			cmds = append(cmds, g[0])
			continue
		}
		c := b.fresh()
		cmds = append(cmds, c)
		pairwise(b, g)
		or[0] = -c
		copy(or[1:], g)
		b.clause(or[:1+len(g)]...)
		for _, x := range g {
			b.clause(-x, c)
		}
	}
	commander(b, cmds)
}

func commanderCount(L int) (clauses, aux int) {
	if L <= commanderGroup+1 {
		return pairwiseCount(L)
	}
	groups := (L + commanderGroup - 1) / commanderGroup
	for start := 0; start < L; start += commanderGroup {
		g := min(commanderGroup, L-start)
		if g > 1 {
			c, _ := pairwiseCount(g)
			clauses += c + 1 + g
			aux++
		}
	}
	c, a := commanderCount(groups)
	return clauses + c, aux + a
}

// productPairwiseMax is the longest line the product encoding does
// pairwise, as the independent generator whose counts the tests check
// against does.
const productPairwiseMax = 20

// product is Chen's 2-product encoding (2010): the L squares fill a p×q
// grid row by row, p = ceil(sqrt L), q = ceil(L/p), square k at (k/q, k%q).
// Row variables u_0..u_(p-1) and column variables v_0..v_(q-1) come
// first; each square implies its row and column, (-x_k | u_(k/q)) and
// (-x_k | v_(k%q)), and each u and v implies one of its squares,
// (-u_r | OR of row r) and (-v_c | OR of column c); then at most one u and
// at most one v, recursively. Lines of up to 20 squares are done pairwise.
func product(b *builder, xs []int) {
	L := len(xs)
	if L <= productPairwiseMax {
		pairwise(b, xs)
		return
	}
	p := ceilSqrt(L)
	q := (L + p - 1) / p
	uv := b.alloc(p + q)
	defer b.release(uv)
	for i := range uv {
		uv[i] = b.fresh()
	}
	u, v := uv[:p], uv[p:]
	for k, x := range xs {
		b.clause(-x, u[k/q])
		b.clause(-x, v[k%q])
	}
	or := b.alloc(max(p, q) + 1)
	defer b.release(or)
	for r := range p { // every row of the grid has a square: (p-1)q < L
		line := append(or[:0], -u[r])
		for k := r * q; k < min(L, (r+1)*q); k++ {
			line = append(line, xs[k])
		}
		b.clause(line...)
	}
	for c := range q {
		line := append(or[:0], -v[c])
		for k := c; k < L; k += q {
			line = append(line, xs[k])
		}
		b.clause(line...)
	}
	product(b, u)
	product(b, v)
}

func productCount(L int) (clauses, aux int) {
	if L <= productPairwiseMax {
		return pairwiseCount(L)
	}
	p := ceilSqrt(L)
	q := (L + p - 1) / p
	cu, au := productCount(p)
	cv, av := productCount(q)
	return 2*L + p + q + cu + cv, p + q + au + av
}

// binary is the bitwise encoding: B = ceil(log2 L) bits b_0..b_(B-1)
// spell the index of the true square, (-x_k | b_j) where bit j of k is 1
// and (-x_k | -b_j) where it is 0; a bit is true only for such a square,
// (-b_j | OR of the x_k with bit j set), so all bits are false on a line
// without a queen.
func binary(b *builder, xs []int) {
	bits := log2Ceil(len(xs))
	first := b.next
	for range bits {
		b.fresh()
	}
	for k, x := range xs {
		for j := range bits {
			lit := first + j
			if k>>j&1 == 0 {
				lit = -lit
			}
			b.clause(-x, lit)
		}
	}
	bitsDefined(b, first, bits, xs, 1)
}

// bitsDefined adds, for each of the bits auxiliaries from first on, the
// clause (-b_j | OR of the squares xs[k] whose index k/per has bit j
// set): a bit is true only if a square that sets it is.
func bitsDefined(b *builder, first, bits int, xs []int, per int) {
	or := b.alloc(len(xs) + 1)
	defer b.release(or)
	for j := range bits {
		line := append(or[:0], -(first + j))
		for k, x := range xs {
			if (k/per)>>j&1 == 1 {
				line = append(line, x)
			}
		}
		b.clause(line...)
	}
}

func binaryCount(L int) (clauses, aux int) {
	bits := log2Ceil(L)
	return L*bits + bits, bits
}

// bimanderPairwiseMax is the longest line the bimander encoding does
// pairwise, as the independent generator whose counts the tests check
// against does.
const bimanderPairwiseMax = 4

// bimander is Nguyen and Mai's bimander encoding (2015): the squares form
// consecutive groups of g = ceil(L/m) squares, m = ceil(sqrt L), each group
// pairwise at-most-one; B = ceil(log2 groups) bits spell the index of the
// group holding the true square, as in [binary] but per group (and
// defined as there: a bit is true only if a square of a group that sets
// it is). Lines of up to 4 squares are done pairwise.
func bimander(b *builder, xs []int) {
	L := len(xs)
	if L <= bimanderPairwiseMax {
		pairwise(b, xs)
		return
	}
	g := (L + ceilSqrt(L) - 1) / ceilSqrt(L)
	bits := log2Ceil((L + g - 1) / g)
	first := b.next
	for range bits {
		b.fresh()
	}
	for start, group := 0, 0; start < L; start, group = start+g, group+1 {
		members := xs[start:min(start+g, L)]
		pairwise(b, members)
		for _, x := range members {
			for j := range bits {
				lit := first + j
				if group>>j&1 == 0 {
					lit = -lit
				}
				b.clause(-x, lit)
			}
		}
	}
	bitsDefined(b, first, bits, xs, g)
}

func bimanderCount(L int) (clauses, aux int) {
	if L <= bimanderPairwiseMax {
		return pairwiseCount(L)
	}
	g := (L + ceilSqrt(L) - 1) / ceilSqrt(L)
	bits := log2Ceil((L + g - 1) / g)
	for start := 0; start < L; start += g {
		c, _ := pairwiseCount(min(g, L-start))
		clauses += c
	}
	return clauses + L*bits + bits, bits
}

// ceilSqrt returns the smallest p with p*p >= L (L >= 0).
func ceilSqrt(L int) int {
	p := 0
	for p*p < L {
		p++
	}
	return p
}

// log2Ceil returns the smallest b with 1<<b >= m (m >= 1).
func log2Ceil(m int) int {
	b := 0
	for 1<<b < m {
		b++
	}
	return b
}

// ladder is the regular (ladder) encoding of Gent and Nightingale (2004),
// as PySAT's CardEnc writes it: ladder variables a_1..a_(L-1), a_i
// meaning "the line's queen stands after square i". Exactly one square
// of xs is true ([ladderExactlyOne], for rows and columns) when
//
//	(-a_(i+1) | a_i)                                   validity, 1 <= i < L-1
//	(a_1 | x_1), (-x_1 | -a_1)                          x_1 <-> -a_1
//	(-a_(i-1) | a_i | x_i), (a_(i-1) | -x_i), (-x_i | -a_i)
//	                                                   x_i <-> a_(i-1) & -a_i
//	(-a_(L-1) | x_L), (-x_L | a_(L-1))                  x_L <-> a_(L-1)
//
// 4L-4 clauses and L-1 auxiliaries (2 clauses and none for L = 2, the
// unit x_1 for L = 1). At most one (the diagonals) is exactly one over
// xs and a slack square e that stands for "no queen", as PySAT's
// atmost1 does; e's ladder variable a_L equals e, so e is left out and
// its two channelling clauses with it: 4L-2 clauses and L auxiliaries.
// Each a_i is defined both ways (a_i <-> x_(i+1) | ... | x_L, or e): a
// line without a queen has every a_i true.
func ladder(b *builder, xs []int) {
	if len(xs) >= 2 {
		ladderLine(b, xs, true)
	}
}

func ladderCount(L int) (clauses, aux int) {
	if L < 2 {
		return 0, 0
	}
	return 4*L - 2, L
}

// ladderExactlyOne is the ladder's exactly-one over the squares of a row
// or column, in place of the clause of its squares and [ladder].
func ladderExactlyOne(b *builder, xs []int) {
	switch len(xs) {
	case 1:
		b.clause(xs[0])
	case 2:
		b.clause(xs[0], xs[1])
		b.clause(-xs[0], -xs[1])
	default:
		ladderLine(b, xs, false)
	}
}

func ladderExactlyOneCount(L int) (clauses, aux int) {
	switch L {
	case 1:
		return 1, 0
	case 2:
		return 2, 0
	}
	return 4*L - 4, L - 1
}

// ladderLine adds the ladder over xs (len(xs) >= 2): with slack, the
// ladder variables a_1..a_L of the at-most-one, the last square's
// channelling x_L <-> a_(L-1) & -a_L; without, a_1..a_(L-1) and x_L <->
// a_(L-1).
func ladderLine(b *builder, xs []int, slack bool) {
	L := len(xs)
	rungs := L - 1
	if slack {
		rungs = L
	}
	first := b.next
	for range rungs {
		b.fresh()
	}
	a := func(i int) int { return first + i - 1 } // a_i, 1-based
	for i := 1; i < rungs; i++ {
		b.clause(-a(i+1), a(i))
	}
	b.clause(a(1), xs[0])
	b.clause(-xs[0], -a(1))
	for i := 2; i <= L; i++ {
		x := xs[i-1]
		if i == L && !slack {
			b.clause(-a(L-1), x)
			b.clause(-x, a(L-1))
			break
		}
		b.clause(-a(i-1), a(i), x)
		b.clause(a(i-1), -x)
		b.clause(-x, -a(i))
	}
}

// totalizer is Bailleux and Boufkhad's totalizer (2003) for at most one,
// with each counter cut at k+1 = 2 as PySAT's CardEnc (itot) cuts it:
// the squares are the leaves of a tree whose nodes are formed as PySAT
// forms them (the first two of a queue merged and the node put at its
// end), and each inner node other than the root has min(2, leaves)
// outputs r_1, r_2, r_s meaning "at least s of my leaves are true". Over
// children with outputs a and b (a leaf is its own a_1; a_0 = b_0 =
// true),
//
//	(-a_i | -b_j | r_(i+j))            1 <= i+j <= outputs  (C1, PySAT's)
//	(a_(i+1) | b_(j+1) | -r_(i+j+1))   0 <= i+j < outputs   (C2)
//
// (a literal beyond a child's outputs is false and left out), so that
// each r_s is defined both ways by the squares. The root has no
// outputs: its C1 clauses for i+j = 2 lose their r_2, which is false,
// and forbid the second queen, (-a_i | -b_j), units where a child's a_2
// stands alone.
func totalizer(b *builder, xs []int) {
	if len(xs) < 2 {
		return
	}
	// The queue of nodes, three ints each: leaves, r_1, r_2 (0: none).
	q := b.alloc(3 * 2 * len(xs))
	defer b.release(q)
	head, tail := 0, 0
	for _, x := range xs {
		q[tail], q[tail+1], q[tail+2] = 1, x, 0
		tail += 3
	}
	var cl [3]int
	for tail-head > 3 {
		A, B := q[head:head+3], q[head+3:head+6]
		head += 6
		leaves := A[0] + B[0]
		root := head == tail
		var r [3]int // r[1], r[2]
		m := 0
		if !root {
			m = min(2, leaves)
			for s := 1; s <= m; s++ {
				r[s] = b.fresh()
			}
		}
		out := func(node []int, s int) int { // output s of a node, 0 if beyond
			if s < 1 || s > 2 {
				return 0
			}
			return node[s]
		}
		// C1 (and the root's bound).
		for i := 0; i <= 2; i++ {
			for j := 0; j <= 2; j++ {
				s := i + j
				if s < 1 || (i > 0 && out(A, i) == 0) || (j > 0 && out(B, j) == 0) {
					continue
				}
				if root && s != 2 || !root && s > m {
					continue
				}
				c := cl[:0]
				if i > 0 {
					c = append(c, -out(A, i))
				}
				if j > 0 {
					c = append(c, -out(B, j))
				}
				if !root {
					c = append(c, r[s])
				}
				b.clause(c...)
			}
		}
		// C2.
		for s := 1; s <= m; s++ {
			for i := 0; i < s; i++ {
				j := s - 1 - i
				if i > A[0] || j > B[0] {
					continue
				}
				c := cl[:0]
				if l := out(A, i+1); l != 0 {
					c = append(c, l)
				}
				if l := out(B, j+1); l != 0 {
					c = append(c, l)
				}
				c = append(c, -r[s])
				b.clause(c...)
			}
		}
		if !root {
			q[tail], q[tail+1], q[tail+2] = leaves, r[1], r[2]
			tail += 3
		}
	}
}

func totalizerCount(L int) (clauses, aux int) { return countOf(totalizer, L) }

// sortnet is a sorting network for at most one, in the spirit of Eén
// and Sörensson's encoding of cardinality by sorting networks (2006,
// PySAT's sortnetwrk): Batcher's odd-even merge sort over the squares
// (padded with false up to a power of two) sorts them, largest first,
// by comparators (max, min) = (a | b, a & b), and at most one square is
// true when the second output is false. Only the comparator outputs
// that second output depends on get a variable (a comparator with a
// false input passes the other one on), each defined both ways:
//
//	c <-> a | b: (-a | c), (-b | c), (a | b | -c)
//	d <-> a & b: (-a | -b | d), (a | -d), (b | -d)
//
// and the second output is not made: false, it is (-a | -b) if it is a
// minimum, and both its inputs false if it is a maximum.
func sortnet(b *builder, xs []int) {
	L := len(xs)
	if L < 2 {
		return
	}
	net := sortnetFor(L)
	lit := b.alloc(len(net.op)) // node -> its literal, 0 until made
	defer b.release(lit)
	clear(lit)
	for i, x := range xs {
		lit[i+1] = x
	}
	var made func(v int32) int
	made = func(v int32) int {
		if lit[v] != 0 {
			return lit[v]
		}
		x, y := made(net.left[v]), made(net.right[v])
		c := b.fresh()
		if net.op[v] == opOr {
			b.clause(-x, c)
			b.clause(-y, c)
			b.clause(x, y, -c)
		} else {
			b.clause(-x, -y, c)
			b.clause(x, -c)
			b.clause(y, -c)
		}
		lit[v] = c
		return c
	}
	var forbid func(v int32)
	forbid = func(v int32) {
		switch net.op[v] {
		case opFalse:
		case opOr:
			forbid(net.left[v])
			forbid(net.right[v])
		case opAnd:
			b.clause(-made(net.left[v]), -made(net.right[v]))
		default: // a square alone: the network would be wrong
			panic("encode: sortnet forbids a square")
		}
	}
	forbid(net.second)
}

func sortnetCount(L int) (clauses, aux int) {
	if size, ok := sortnetSizes.Load(L); ok {
		return size.([2]int)[0], size.([2]int)[1]
	}
	clauses, aux = countOf(sortnet, L)
	sortnetSizes.Store(L, [2]int{clauses, aux})
	return clauses, aux
}

// The operations of a sorting network's nodes.
const (
	opFalse int8 = iota
	opSquare
	opOr
	opAnd
)

// network is Batcher's odd-even merge sort over L squares as a graph:
// node 0 is false, nodes 1..L the squares, then one node per comparator
// output that is not simply passed on; second is the node of the second
// output.
type network struct {
	op          []int8
	left, right []int32
	second      int32
}

// sortnetSizes caches sortnetCount by L: the network costs O(L log^2 L)
// to build, and [Size] needs it for every line length.
var sortnetSizes sync.Map // int -> [2]int

// sortnetFor returns the network of L squares.
func sortnetFor(L int) *network {
	P := 1
	for P < L {
		P *= 2
	}
	net := &network{op: make([]int8, L+1), left: make([]int32, L+1), right: make([]int32, L+1)}
	for i := 1; i <= L; i++ {
		net.op[i] = opSquare
	}
	wire := make([]int32, P) // wire -> node; squares beyond L are false (0)
	for i := range L {
		wire[i] = int32(i + 1)
	}
	node := func(op int8, x, y int32) int32 {
		net.op = append(net.op, op)
		net.left = append(net.left, x)
		net.right = append(net.right, y)
		return int32(len(net.op) - 1)
	}
	compare := func(i, j int) { // wire i gets the max, wire j the min
		x, y := wire[i], wire[j]
		switch {
		case x == 0 || y == 0:
			wire[i], wire[j] = x|y, 0 // one is 0: the other is the max
		default:
			wire[i], wire[j] = node(opOr, x, y), node(opAnd, x, y)
		}
	}
	// Batcher's odd-even merge sort, iterative (Knuth 5.3.4, exercise 12).
	for p := 1; p < P; p *= 2 {
		for k := p; k >= 1; k /= 2 {
			for j := k % p; j+k < P; j += 2 * k {
				for i := 0; i < min(k, P-j-k); i++ {
					if (i+j)/(2*p) == (i+j+k)/(2*p) {
						compare(i+j, i+j+k)
					}
				}
			}
		}
	}
	net.second = wire[1]
	return net
}

// countOf returns the clauses and auxiliary variables amo adds over L
// squares, by running it without keeping the clauses.
func countOf(amo func(*builder, []int), L int) (clauses, aux int) {
	xs := make([]int, L)
	for i := range xs {
		xs[i] = i + 1
	}
	b := &builder{ctx: context.Background(), next: L + 1, yield: func([]int) error { return nil }}
	amo(b, xs)
	return b.count, b.next - 1 - L
}
