package encode

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
