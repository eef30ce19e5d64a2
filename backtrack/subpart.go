package backtrack

import (
	"errors"
	"fmt"
	"math/bits"
)

// MaxParts is the most sub-parts a constellation is split into
// ([Subproblem.Parts]).
const MaxParts = 1 << 16

// ErrSubpart is returned (wrapped) for a [Subproblem] whose sub-part is
// out of range: Parts above [MaxParts], Part outside 0 to Parts-1, or a
// sub-part of the symmetric piece, which is never split.
var ErrSubpart = errors.New("bad sub-part")

// subtreesPerPart is how many subtrees of a constellation's search, on
// average, each of its sub-parts gets: the more, the more evenly the
// sub-parts share the work (the subtrees differ in size by orders of
// magnitude), the more the walk down to them costs (each sub-part walks
// all of them).
const subtreesPerPart = 64

// Whole returns sp as the whole constellation, without its sub-part.
func (sp Subproblem) Whole() Subproblem {
	sp.Part, sp.Parts = 0, 0
	return sp
}

// Split returns the parts sub-parts of the constellation sp (a whole one:
// its own sub-part is ignored), Part 0 to parts-1 in that order; their
// counts add up to the count of sp, their tallies to its tally (nodes
// included). It returns nil unless 1 <= parts <= [MaxParts] and sp is a
// constellation (not the symmetric piece, which is never split).
func (sp Subproblem) Split(parts int) []Subproblem {
	if parts < 1 || parts > MaxParts || sp.Whole() == symmetric {
		return nil
	}
	out := make([]Subproblem, parts)
	for j := range out {
		out[j] = sp.Whole()
		out[j].Part, out[j].Parts = j, parts
	}
	return out
}

// checkPart reports a sub-part out of range, wrapping [ErrSubpart].
func (sp Subproblem) checkPart() error {
	var why string
	switch {
	case sp.Parts == 0 && sp.Part == 0:
		return nil
	case sp.Parts < 1 || sp.Parts > MaxParts:
		why = fmt.Sprintf("the parts must number 1 to %d", MaxParts)
	case sp.Part < 0 || sp.Part >= sp.Parts:
		why = "the part must be 0 to parts-1"
	case sp.Whole() == symmetric:
		why = "the symmetric piece is never split"
	default:
		return nil
	}
	return fmt.Errorf("%w %v: %s", ErrSubpart, sp, why)
}

// frontier calls visit with each state of the search from the placement
// (free, d1, d2, rem) that lies d queens below it, in the order count
// visits them (the row with the fewest free squares filled next, its
// squares by column). A state with frozenRows rows or fewer left, where
// count stops choosing rows, is visited at its own depth if that is less
// than d; dead ends (a row with no free square) are not visited. Each
// queen placed on the way adds one to *placed. It reports whether some
// visited state has more than frozenRows rows left (a deeper frontier
// would hold more states).
func (s *solver) frontier(free, d1, d2 uint64, rem uint32, d int, placed *uint64, visit func(free, d1, d2 uint64, rem uint32)) (deeper bool) {
	if k := bits.OnesCount32(rem); d == 0 || k <= frozenRows {
		visit(free, d1, d2, rem)
		return k > frozenRows
	}
	best, avail := s.pick(free, d1, d2, rem)
	rem &^= 1 << uint(best)
	for ; avail != 0; avail &= avail - 1 {
		bit := avail & -avail
		*placed++
		if s.frontier(free^bit, d1|bit<<uint(best), d2|bit<<uint((s.n-1-best)&63), rem, d-1, placed, visit) {
			deeper = true
		}
	}
	return deeper
}

// countPart counts sub-part part of parts of the completions of a
// placement: the search is cut at the smallest depth whose frontier holds
// at least subtreesPerPart × parts states (or at the tight loop's rows,
// where it holds all it can), its states numbered in the order of the
// search, and the sub-part counts those numbered part, part+parts, ...
// The queens placed above the frontier are the nodes of part 0, so that
// the sub-parts' nodes add up to those of the whole search.
func (s *solver) countPart(free, d1, d2 uint64, rem uint32, part, parts int) uint64 {
	want, d := subtreesPerPart*parts, 0
	for ; ; d++ {
		states := 0
		deeper := s.frontier(free, d1, d2, rem, d, new(uint64), func(uint64, uint64, uint64, uint32) { states++ })
		if states >= want || !deeper || s.stop.Load() {
			break
		}
	}
	var sum, placed uint64
	i := 0
	s.frontier(free, d1, d2, rem, d, &placed, func(f, a, b uint64, r uint32) {
		if i%parts == part && !s.stop.Load() {
			sum += s.count(f, a, b, r)
		}
		i++
	})
	if part == 0 {
		s.nodes += placed
	}
	return sum
}
