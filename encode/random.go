package encode

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/queens-dev/queens/board"
)

// ErrNoPlacement is wrapped by [RandomPlacement]'s error when it finds no
// k mutually non-attacking queens: none exist (k = n for n = 2, 3), or
// the search budget ran out.
var ErrNoPlacement = errors.New("no placement found")

// randomTries and randomNodes bound RandomPlacement's search: that many
// random row sets, each searched depth-first up to that many nodes per
// board row.
const (
	randomTries = 64
	randomNodes = 2000
)

// RandomPlacement returns k queens (0-based, sorted by row) on an n×n
// board, no two attacking each other, in k different rows drawn at random:
// the pre-placement of a completion instance. The same n, k and seed
// always give the same queens (math/rand/v2's PCG). Whether the placement
// extends to a solution is not checked.
//
// It draws k rows and searches columns for them depth-first in random
// order, starting again with new rows when a search exceeds its budget.
// Errors: n outside 1..[board.MaxN] wraps [board.ErrSize]; k outside
// 0..n, or no placement found (see [ErrNoPlacement]), wraps
// [ErrNoPlacement].
func RandomPlacement(n, k int, seed uint64) ([]board.Queen, error) {
	if err := board.CheckSize(n, board.MaxN); err != nil {
		return nil, err
	}
	if k < 0 || k > n {
		return nil, fmt.Errorf("%w: %d queens on a %dx%d board", ErrNoPlacement, k, n, n)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(n)<<32|uint64(k)))
	s := &placer{n: n, rng: rng, col: make([]bool, n), diag: make([]bool, 2*n), anti: make([]bool, 2*n)}
	for range randomTries {
		rows := rng.Perm(n)[:k]
		slices.Sort(rows)
		s.rows, s.out, s.budget = rows, s.out[:0], randomNodes*n
		if s.place(0) {
			return slices.Clone(s.out), nil
		}
		if s.budget > 0 && k == n {
			break // every row set is this one, searched to the end
		}
	}
	return nil, fmt.Errorf("%w: %d non-attacking queens on a %dx%d board", ErrNoPlacement, k, n, n)
}

type placer struct {
	n               int
	rng             *rand.Rand
	rows            []int
	out             []board.Queen
	col, diag, anti []bool
	budget          int
}

func (s *placer) place(i int) bool {
	if i == len(s.rows) {
		return true
	}
	row, n := s.rows[i], s.n
	for _, c := range s.rng.Perm(n) {
		if s.budget--; s.budget < 0 {
			return false
		}
		d, a := row-c+n, row+c
		if s.col[c] || s.diag[d] || s.anti[a] {
			continue
		}
		s.col[c], s.diag[d], s.anti[a] = true, true, true
		s.out = append(s.out, board.Queen{Row: row, Col: c})
		ok := s.place(i + 1)
		s.col[c], s.diag[d], s.anti[a] = false, false, false
		if ok {
			return true
		}
		s.out = s.out[:len(s.out)-1]
	}
	return false
}
