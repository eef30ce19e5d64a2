package backtrack

import (
	"context"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/queens-dev/queens/board"
)

// Subproblem is one independent piece of a full count: the columns of the
// queens in rows 0 and 1 (counted from 0) of the solutions it covers, in a
// normal form under the 8 symmetries of the board.
//
// Of the 8 images of a solution, the count searches only those whose
// row-0 queen is the border queen nearest a corner (the border queens are
// the queens in the first and last row and column), nearest the left end
// of row 0. With a queen in a corner that is the top-left corner (First ==
// 0), and a solution and its mirror image in the main diagonal are told
// apart by the queens next to the corner: the queen in column 1 must stand
// below row Second. Without (First > 0) the other border queens must stand
// at least First squares from every corner; when one stands exactly that
// far (a tie) the solution is also found in another orientation and counts
// for less. Each solution found is weighted so that every class of
// symmetric solutions adds up to its size to the total and to 1 to the
// unique count, with no second pass.
//
// For n < 4 the whole board is a single subproblem with First == Second ==
// -1.
type Subproblem struct {
	First, Second int
}

// Subproblems returns the pieces that [Count] splits an n×n count into, in
// a fixed order (the largest pieces roughly first), so that a count can be
// spread over processes or machines: the counts of the pieces add up to
// the count of the board. It returns an error wrapping [board.ErrSize]
// unless 1 <= n <= [CountMaxN].
func Subproblems(n int) ([]Subproblem, error) {
	if err := board.CheckSize(n, CountMaxN); err != nil {
		return nil, fmt.Errorf("subproblems: %w", err)
	}
	if n < 4 {
		return []Subproblem{{-1, -1}}, nil
	}
	var out []Subproblem
	for a := 1; 2*a < n-1; a++ {
		for j := 0; j < n; j++ {
			// Not attacked by the queen of row 0, and not a border
			// queen nearer a corner than it.
			if (j < a-1 || j > a+1) && (a == 1 || j > 0 && j < n-1) {
				out = append(out, Subproblem{a, j})
			}
		}
	}
	for j := 2; j < n-1; j++ {
		out = append(out, Subproblem{0, j})
	}
	return out, nil
}

// plan returns the bitboard search of sp on an n×n board.
func (sp Subproblem) plan(n int) *plan {
	full := ^uint32(0) >> (32 - n)
	p := &plan{levels: n - 1, weight: 8, force: -1}
	if sp.First < 0 {
		p.levels = n
		p.weight = 1
	}
	p.checkAbove = p.levels - checkRows
	first := 0
	if sp.First >= 0 {
		first = 1 // row 0 holds the queen in column First
	}
	for i := 0; i < p.levels; i++ {
		r := i + first
		p.up[i], p.down[i] = uint8(r), uint8(n-1-r)
		p.allowed[i] = full
		if first == 1 {
			k := r
			p.allowed[i] &^= bit(n, sp.First) | bit(n, sp.First+k) | bit(n, sp.First-k)
		}
	}
	switch a := sp.First; {
	case a > 0:
		// Every border queen at least a squares from every corner.
		for i := 0; i < p.levels; i++ {
			r := i + 1
			if r < a || r > n-1-a {
				p.allowed[i] &^= 1 | 1<<(n-1)
			}
		}
		p.allowed[n-2] &= full &^ (1<<a - 1) &^ (full << (n - a))
		// Both edge columns are taken by row n-1-a (level n-2-a).
		p.force, p.side = n-2-a, 1|1<<(n-1)
		p.ties = &tieRule{n: n, a: a}
	case a == 0:
		// The queen in column 1 below row Second.
		for i := 1; i < p.levels && i+1 <= sp.Second; i++ {
			p.allowed[i] &^= 2
		}
	}
	if sp.Second >= 0 {
		p.allowed[0] &= bit(n, sp.Second)
	}
	return p
}

// bit returns the mask of column col, or 0 when col is off the n×n board.
func bit(n, col int) uint32 {
	if col < 0 || col >= n {
		return 0
	}
	return 1 << col
}

// partCount is what one piece of a count found, its solutions weighted: 24
// × the solutions and 24 × the classes of solutions up to symmetry they
// stand for (24 being divisible by every weight's denominator).
type partCount struct{ total24, unique24, nodes uint64 }

// add adds sols solutions each standing for weight solutions of one class.
func (w *partCount) add(weight, sols uint64) {
	w.total24 += 24 * weight * sols
	w.unique24 += 24 * sols
}

// count counts the solutions of sp on an n×n board.
func (sp Subproblem) count(n int, stop *atomic.Bool) partCount {
	var w partCount
	if sp.First < 0 {
		// The whole (tiny) board: look at each solution.
		p := sp.plan(n)
		sol := make([]int, n)
		p.enumerate(0, 0, 0, 0, sol, func() {
			w.total24 += 24
			w.unique24 += uint64(24 / board.OrbitSize(board.Solution(sol)))
		})
		return w
	}
	sp.plan(n).dfs(stop, &w)
	return w
}

// enumerate calls visit for every completion of p from level d on, with
// sol[row] filled in; it is only used for boards too small to split.
func (p *plan) enumerate(d int, cols uint32, d1, d2 uint64, sol []int, visit func()) {
	if d == p.levels {
		visit()
		return
	}
	avail := p.free(d, cols, d1, d2)
	u, v := p.up[d], p.down[d]
	for avail != 0 {
		bit := avail & -avail
		avail ^= bit
		sol[u] = bits.TrailingZeros32(bit)
		p.enumerate(d+1, cols|bit, d1|uint64(bit)<<u, d2|uint64(bit)<<v, sol, visit)
	}
}

// Tally is what one or more subproblems found, in 24ths: a solution found
// in a tie stands for a fraction (1/2, 1/3, 1/4 of 8) of a class, and only
// whole boards are sure to add up to whole numbers. Divide the sums over
// all subproblems by 24.
type Tally struct {
	Total24  uint64 // 24 × the solutions
	Unique24 uint64 // 24 × the solutions distinct up to symmetry
	Nodes    uint64 // queens placed by the search
}

// Count counts the solutions of the subproblem sp of an n×n board (one of
// [Subproblems](n)). It returns ctx.Err() and a zero Tally if ctx is
// cancelled first.
func (sp Subproblem) Count(ctx context.Context, n int) (Tally, error) {
	var stop atomic.Bool
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-ctx.Done():
			stop.Store(true)
		case <-finished:
		}
	}()
	w := sp.count(n, &stop)
	if err := ctx.Err(); err != nil && stop.Load() {
		return Tally{}, err
	}
	return Tally{w.total24, w.unique24, w.nodes}, nil
}
