package encode

import (
	"context"
	"slices"

	"github.com/queens-dev/queens/board"
)

// Stabilizer returns the symmetries other than the identity that map the
// set of placed queens (0-based, on an n×n board) onto itself, in the
// order of [board.Transforms]: all 7 when nothing is placed. Only these
// can be broken without losing solutions that contain the placed queens.
func Stabilizer(n int, placed []board.Queen) []board.Transform {
	var out []board.Transform
	set := make(map[board.Queen]bool, len(placed))
	for _, q := range placed {
		set[q] = true
	}
	for _, t := range nonIdentity() {
		fixes := true
		for _, q := range placed {
			r, c := t.Point(n, q.Row, q.Col)
			if !set[board.Queen{Row: r, Col: c}] {
				fixes = false
				break
			}
		}
		if fixes {
			out = append(out, t)
		}
	}
	return slices.Clip(out)
}

// lexLeader adds the lex-leader constraint x >=lex t(x): x is the vector
// of board variables in row-major order with true above false, and t(x)
// its image, whose square p holds the variable of square t(p). Among the
// images of a solution exactly one is lex-greatest under all
// symmetries at once, and it is the smallest as a [board.Solution]
// (the first row where two solutions differ has its queen further left
// in the smaller one, that is a true variable earlier): the canonical
// one.
//
// Positions p with t(p) = p compare equal and are skipped. Over the
// remaining m positions p_1..p_m, auxiliary a_k means "equal on
// p_1..p_k" (a_0 is true and left out):
//
//	(-a_(k-1) | x_k | -y_k)            x_k >= y_k while equal so far
//	(-a_(k-1) | x_k | a_k)             equal at k: still equal
//	(-a_(k-1) | -y_k | a_k)
//	(-a_k | a_(k-1)), (-a_k | -x_k | y_k)   and only then
//
// with all but the first left out for k = m, and (-a_1 | a_0) left out:
// 5m-5 clauses and m-1 auxiliary variables (Aloul, Markov and Sakallah's
// encoding, with the definition of a_k made two-way so that every
// canonical solution has exactly one model).
func lexLeader(b *builder, n int, t board.Transform) {
	prev := 0 // a_(k-1); 0 is the true a_0
	var buf [3]int
	guard := func(l1, l2 int) []int { // (-prev | l1 | l2)
		if prev == 0 {
			buf[0], buf[1] = l1, l2
			return buf[:2]
		}
		buf[0], buf[1], buf[2] = -prev, l1, l2
		return buf[:3]
	}
	last := -1
	for p := n*n - 1; p >= 0; p-- {
		if r, c := t.Point(n, p/n, p%n); r*n+c != p {
			last = p
			break
		}
	}
	for p := 0; p <= last; p++ {
		r, c := t.Point(n, p/n, p%n)
		q := r*n + c
		if q == p {
			continue
		}
		x, y := p+1, q+1
		b.clause(guard(x, -y)...)
		if p == last {
			break
		}
		a := b.fresh()
		b.clause(guard(x, a)...)
		b.clause(guard(-y, a)...)
		if prev != 0 {
			b.clause(-a, prev)
		}
		b.clause(-a, -x, y)
		prev = a
	}
}

// lexCount returns the clauses and auxiliary variables of lexLeader.
func lexCount(n int, t board.Transform) (clauses, aux int) {
	m := n * n
	odd := n % 2
	switch t {
	case board.Rot90, board.Rot180, board.Rot270:
		m -= odd // the centre square
	case board.MirrorCols, board.MirrorRows:
		m -= odd * n // the middle column or row
	case board.Transpose, board.AntiTranspose:
		m -= n // the diagonal
	default:
		m = 0
	}
	if m == 0 {
		return 0, 0
	}
	return 5*m - 5, m - 1 // m >= 2: a permutation never moves one square alone
}

// nonIdentity returns the 7 symmetries of the board other than the
// identity.
func nonIdentity() []board.Transform {
	all := board.Transforms()
	return all[1:]
}

// LexLeader returns the lex-leader clauses [Options.Symmetry] adds for
// the symmetries of group on an n×n board (see the package comment),
// with their auxiliary variables numbered from firstAux on, and the
// number of those: what makes a CNF over the board variables keep only
// the solutions that are canonical under group, for a caller that adds
// them to a formula of its own.
func LexLeader(n int, group []board.Transform, firstAux int) (clauses [][]int, aux int) {
	b := &builder{ctx: context.Background(), next: firstAux, yield: func(c []int) error {
		clauses = append(clauses, slices.Clone(c))
		return nil
	}}
	for _, t := range group {
		lexLeader(b, n, t)
	}
	return clauses, b.next - firstAux
}
