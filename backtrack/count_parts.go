package backtrack

import (
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/queens-dev/queens/board"
)

// Subproblem is one independent piece of a full count: the queens a
// solution has on the border of the board, in canonical form under the 8
// symmetries. Every solution has exactly one queen in the first row, the
// last row, the first column and the last column (a queen in a corner
// counts for its row and its column), so the border queens split the
// solutions into disjoint sets, and symmetric border placements have the
// same number of completions. Counting one placement of each class and
// multiplying by Weight counts every solution once.
//
// Rows and columns count from 0. For n < 4 the whole board is a single
// subproblem with all four fields -1 and Weight 1.
type Subproblem struct {
	Top    int // column of the queen in row 0
	Bottom int // column of the queen in row n-1
	Left   int // row of the queen in column 0
	Right  int // row of the queen in column n-1
	Weight int // how many of the 8 images of the placement differ: 1, 2, 4 or 8

	stab uint8 // bit t set when board.Transforms[t] maps the placement to itself
}

// Subproblems returns the pieces that [Count] splits an n×n count into, in a
// fixed order, so that a count can be spread over processes or machines:
// the sum over them of Weight × (completions) is the number of solutions.
// It returns an error wrapping [board.ErrSize] unless 1 <= n <= [CountMaxN].
func Subproblems(n int) ([]Subproblem, error) {
	if err := board.CheckSize(n, CountMaxN); err != nil {
		return nil, fmt.Errorf("subproblems: %w", err)
	}
	if n < 4 {
		return []Subproblem{{-1, -1, -1, -1, 1, 0xff}}, nil
	}
	var out []Subproblem
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			for c := 0; c < n; c++ {
				for d := 0; d < n; d++ {
					sp := Subproblem{Top: a, Bottom: b, Left: c, Right: d}
					if !sp.valid(n) {
						continue
					}
					if w, stab, ok := sp.canonical(n); ok {
						sp.Weight, sp.stab = w, stab
						out = append(out, sp)
					}
				}
			}
		}
	}
	return out, nil
}

// queens returns the distinct border queens: 4, or 3 when one stands in a
// corner.
func (sp Subproblem) queens(n int) []board.Queen {
	qs := make([]board.Queen, 0, 4)
	for _, q := range [4]board.Queen{{Row: 0, Col: sp.Top}, {Row: n - 1, Col: sp.Bottom}, {Row: sp.Left, Col: 0}, {Row: sp.Right, Col: n - 1}} {
		dup := false
		for _, p := range qs {
			dup = dup || p == q
		}
		if !dup {
			qs = append(qs, q)
		}
	}
	return qs
}

// valid reports whether the border queens are consistent (a queen in a
// corner is the queen of both its row and its column) and attack no other.
func (sp Subproblem) valid(n int) bool {
	a, b, c, d := sp.Top, sp.Bottom, sp.Left, sp.Right
	m := n - 1
	if (a == 0) != (c == 0) || (a == m) != (d == 0) || (b == 0) != (c == m) || (b == m) != (d == m) {
		return false
	}
	qs := sp.queens(n)
	for i, q := range qs {
		for _, p := range qs[:i] {
			if p.Row == q.Row || p.Col == q.Col || p.Row-q.Row == p.Col-q.Col || p.Row-q.Row == q.Col-p.Col {
				return false
			}
		}
	}
	return true
}

// key orders border placements; the canonical one has the smallest key.
func (sp Subproblem) key(n int) int {
	return ((sp.Top*n+sp.Bottom)*n+sp.Left)*n + sp.Right
}

// image returns the border placement that t makes of sp.
func (sp Subproblem) image(n int, t board.Transform) Subproblem {
	var out Subproblem
	for _, q := range sp.queens(n) {
		r, c := t.Point(n, q.Row, q.Col)
		if r == 0 {
			out.Top = c
		}
		if r == n-1 {
			out.Bottom = c
		}
		if c == 0 {
			out.Left = r
		}
		if c == n-1 {
			out.Right = r
		}
	}
	return out
}

// canonical reports whether sp is the smallest of its images, and if so
// the number of distinct images and the set of symmetries fixing it.
func (sp Subproblem) canonical(n int) (weight int, stab uint8, ok bool) {
	k := sp.key(n)
	for i, t := range board.Transforms {
		switch ik := sp.image(n, t).key(n); {
		case ik < k:
			return 0, 0, false
		case ik == k:
			stab |= 1 << i
		}
	}
	return 8 / bits.OnesCount8(stab), stab, true
}

// partPlan is a subproblem turned into a bitboard search: the rows still to
// fill (rowOf), the board column of bit 0 (off) and the queens already
// placed (fixed, with -1 in the rows still to fill).
type partPlan struct {
	plan
	n     int
	off   int
	rowOf [32]int
	fixed []int
}

// newPlan returns the search for the completions of qs on an n×n board. On
// the inner region (inner: columns 1..n-2, rows 1..n-2, the border being
// taken by qs) or the whole board.
func newPlan(n int, qs []board.Queen, inner bool) *partPlan {
	pp := &partPlan{n: n, fixed: make([]int, n)}
	lo, hi := 0, n-1 // rows and columns searched
	if inner {
		lo, hi = 1, n-2
		pp.off = 1
	}
	for r := range pp.fixed {
		pp.fixed[r] = -1
	}
	for _, q := range qs {
		pp.fixed[q.Row] = q.Col
	}
	full := uint32(1)<<(hi-lo+1) - 1
	if hi-lo+1 == 32 {
		full = ^uint32(0)
	}
	bit := func(col int) uint32 {
		if col < lo || col > hi {
			return 0
		}
		return 1 << (col - lo)
	}
	var rows []int
	for r := lo; r <= hi; r++ {
		if pp.fixed[r] < 0 {
			rows = append(rows, r)
		}
	}
	for i, r := range searchOrder(rows) {
		var taken uint32
		for _, q := range qs {
			k := r - q.Row
			taken |= bit(q.Col) | bit(q.Col+k) | bit(q.Col-k)
		}
		pp.allowed[i] = full &^ taken
		pp.rowOf[i] = r
		pp.up[i] = uint8(r)
		pp.down[i] = uint8(n - 1 - r)
		pp.levels++
	}
	return pp
}

// searchOrder returns the order in which the rows are filled.
var searchOrder = func(rows []int) []int {
	if orderMode == 0 {
		return rows
	}
	out := make([]int, 0, len(rows))
	for i, j := 0, len(rows)-1; i <= j; i, j = i+1, j-1 {
		out = append(out, rows[i])
		if i != j {
			out = append(out, rows[j])
		}
	}
	return out
}

var orderMode = 1

// enumerate visits every completion of pp from level d on, with pp.fixed
// filled in; it is the slow path, used only where solutions have to be
// looked at (symmetric subproblems when unique counts are wanted).
func (pp *partPlan) enumerate(d int, cols uint32, d1, d2 uint64, stop *atomic.Bool, visit func(sol []int)) (nodes uint64) {
	if d == pp.levels {
		visit(pp.fixed)
		return 0
	}
	if pp.levels-d > splitRows && stop.Load() {
		return 0
	}
	avail := pp.free(d, cols, d1, d2)
	u, v := pp.up[d], pp.down[d]
	for avail != 0 {
		bit := avail & -avail
		avail ^= bit
		pp.fixed[pp.rowOf[d]] = bits.TrailingZeros32(bit) + pp.off
		nodes += 1 + pp.enumerate(d+1, cols|bit, d1|uint64(bit)<<u, d2|uint64(bit)<<v, stop, visit)
	}
	pp.fixed[pp.rowOf[d]] = -1
	return nodes
}

// partCount is what one subproblem contributed.
type partCount struct{ total, unique, nodes uint64 }

// count counts the solutions of the class of sp: Weight × completions, and
// with unique the number of classes of solutions up to symmetry.
func (sp Subproblem) count(n int, unique bool, stop *atomic.Bool) partCount {
	var pp *partPlan
	if sp.Top < 0 {
		pp = newPlan(n, nil, false)
	} else {
		pp = newPlan(n, sp.queens(n), true)
	}
	w := uint64(sp.Weight)
	if !unique || sp.stab == 1 {
		sols, nodes := search(&pp.plan, 0, 0, 0, 0, stop)
		return partCount{total: w * sols, unique: sols, nodes: nodes}
	}
	// Burnside: the number of classes among the completions is the mean,
	// over the symmetries fixing the border, of the completions they fix.
	// Only the rare symmetric subproblems take this slower path.
	var sols, fixes uint64
	nodes := pp.enumerate(0, 0, 0, 0, stop, func(sol []int) {
		sols++
		for i, t := range board.Transforms[1:] {
			if sp.stab&(2<<i) != 0 && fixes1(n, t, sol) {
				fixes++
			}
		}
	})
	return partCount{total: w * sols, unique: (sols + fixes) / uint64(8/sp.Weight), nodes: nodes}
}

// fixes1 reports whether t maps the solution sol to itself.
func fixes1(n int, t board.Transform, sol []int) bool {
	for r, c := range sol {
		r2, c2 := t.Point(n, r, c)
		if sol[r2] != c2 {
			return false
		}
	}
	return true
}
