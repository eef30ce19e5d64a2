package gpu

import (
	"math/bits"

	"github.com/queens-dev/queens/internal/constellation"
)

// MaxRows is the most rows the kernel fills in one task (its explicit
// stack has that many levels); Options.Rows must lie in 3..MaxRows.
const MaxRows = 16

// maxWork bounds the expected work of a task (the splitter's work): at
// most MaxRows rows of at most 32 free squares.
const maxWork = MaxRows * 32

// MaxN is the largest board the GPU counter accepts: the free columns of
// a task are a 32-bit mask and its diagonals 64-bit masks (2n-1 bits).
const MaxN = 32

// task is one unit of kernel work, laid out exactly as struct task in
// kernel.cu (40 bytes, 8-aligned): a partial placement of an n×n board in
// the representation of the backtrack solver, and the order in which the
// kernel fills its empty rows.
//
// free is the set of columns still free; as every row and column holds one
// queen, it has as many bits as rows are empty, m. d1 holds bit row+col and
// d2 bit col-row+n-1 of every queen placed, so the columns they attack in
// row r are d1>>r and d2>>(n-1-r). rows[0:m] lists the empty rows in the
// frozen order, fewest free squares first; 3 <= m <= MaxRows. piece is
// the index of the piece (in Options.Pieces) the task belongs to.
type task struct {
	d1, d2 uint64
	free   uint32
	piece  uint32
	rows   [MaxRows]uint8
}

// splitter expands the pieces of an n×n count into tasks: it places queens
// the way the backtrack solver does (the row with the fewest free squares
// next, the rows nearest the middle first on a tie) until at most rows
// rows are empty, then freezes the order of those. Placements with at most
// two empty rows are finished on the host, into host.
type splitter struct {
	n, rows int
	tie     [32]int // per row: |2r-(n-1)|<<5 | r
	emit    func(t *task)
	work    int    // the expected work of the task emitted: the free squares of its rows, below maxWork
	host    uint64 // solutions found while splitting (not weighted)
	nodes   uint64 // queens placed while splitting
	tasks   int64  // tasks emitted
	piece   uint32
}

func newSplitter(n, rows int, emit func(t *task)) *splitter {
	return &splitter{n: n, rows: rows, emit: emit, tie: constellation.Ties(n)}
}

// squares returns the free squares of row r.
func (s *splitter) squares(free, d1, d2 uint64, r int) uint64 {
	return free &^ (d1>>uint(r&63) | d2>>uint((s.n-1-r)&63))
}

// split expands the placement (free, d1, d2, rem), rem the set of empty
// rows, as backtrack's solver.count does before it freezes.
func (s *splitter) split(free, d1, d2 uint64, rem uint32) {
	if bits.OnesCount32(rem) <= s.rows {
		s.freeze(free, d1, d2, rem)
		return
	}
	best, bestKey, avail := 0, int(^uint(0)>>1), uint64(0)
	for x := rem; x != 0; x &= x - 1 {
		r := bits.TrailingZeros32(x)
		a := s.squares(free, d1, d2, r)
		if a == 0 {
			return
		}
		if key := bits.OnesCount64(a)<<11 | s.tie[r&31]; key < bestKey {
			best, bestKey, avail = r, key, a
		}
	}
	rem &^= 1 << uint(best)
	for ; avail != 0; avail &= avail - 1 {
		bit := avail & -avail
		s.nodes++
		s.split(free^bit, d1|bit<<uint(best), d2|bit<<uint((s.n-1-best)&63), rem)
	}
}

// freeze orders the rows of rem, fewest free squares first (as backtrack's
// solver.frozen does), and emits the task, or counts it here when it has
// fewer than 3 rows, or drops it when a row has no free square.
func (s *splitter) freeze(free, d1, d2 uint64, rem uint32) {
	var keys [32]int
	m, work := 0, 0
	for x := rem; x != 0; x &= x - 1 {
		r := bits.TrailingZeros32(x)
		c := bits.OnesCount64(s.squares(free, d1, d2, r))
		if c == 0 {
			return
		}
		work += c
		key := c<<11 | s.tie[r&31]
		j := m
		for ; j > 0 && keys[(j-1)&31] > key; j-- {
			keys[j&31] = keys[(j-1)&31]
		}
		keys[j&31] = key
		m++
	}
	switch m {
	case 0, 1: // a row with one free square (c > 0 above) and one column
		s.host++
		return
	case 2:
		r0, r1 := keys[0]&31, keys[1]&31
		for a := s.squares(free, d1, d2, r0); a != 0; a &= a - 1 {
			bit := a & -a
			if s.squares(free^bit, d1|bit<<uint(r0), d2|bit<<uint((s.n-1-r0)&63), r1) != 0 {
				s.host++
			}
		}
		return
	}
	t := task{d1: d1, d2: d2, free: uint32(free), piece: s.piece}
	for j := 0; j < m; j++ {
		t.rows[j] = uint8(keys[j&31] & 31)
	}
	s.tasks++
	s.work = work
	s.emit(&t)
}
