package encode

import (
	"cmp"
	"context"
	varint "encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"

	"github.com/queens-dev/queens/board"
)

// ClauseHash holds a formula's clauses, each taken as the set of its
// literals (sorted, repeated literals once), as two keyed 64-bit hashes
// per clause, so that two formulas can be compared as sets of clauses: in
// any order, a clause repeated (in any order of its literals) counting
// once. Adding a clause costs two hashes and 16 bytes (repeats included,
// but for a clause that repeats the one just before), so memory is
// bounded by what was added, never by a claim; the distinct
// clauses are sorted out only when a comparison needs them. Two different
// sets compare equal with probability about 2^-64 per pair of clauses; the
// hashes are keyed by a random seed per process, so no input can be made
// to collide on purpose. The zero value is empty and ready to use; a
// ClauseHash is not safe for concurrent use.
type ClauseHash struct {
	msum    [2]uint64   // sums of the two hashes of every clause, repeats included
	keys    [][2]uint64 // the two hashes of each clause added; sorted and distinct when sorted
	sorted  bool        // keys are sorted and distinct (len(keys) distinct clauses)
	sum     uint64      // with sorted: the sum of the second hashes of the distinct clauses
	stamps  []uint32    // with sorted: the last comparison that met each distinct clause
	stamp   uint32      // the current comparison
	Clauses int         // clauses added, repeats included
	buf     []int32     // a clause's literals, sorted: 4 bytes each (every literal is within ±MaxVars)
	bytes   []byte
}

// clauseSeeds key the two hashes of every ClauseHash in this process.
var clauseSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// hashes returns the two keyed hashes of clause as a set of literals.
func (h *ClauseHash) hashes(clause []int) [2]uint64 {
	h.buf = h.buf[:0]
	for _, lit := range clause {
		h.buf = append(h.buf, int32(lit))
	}
	slices.Sort(h.buf)
	h.buf = slices.Compact(h.buf)
	h.bytes = h.bytes[:0]
	for _, lit := range h.buf {
		h.bytes = varint.AppendVarint(h.bytes, int64(lit))
	}
	return [2]uint64{maphash.Bytes(clauseSeeds[0], h.bytes), maphash.Bytes(clauseSeeds[1], h.bytes)}
}

// Add adds one clause (signed DIMACS literals; not kept).
func (h *ClauseHash) Add(clause []int) {
	k := h.hashes(clause)
	h.msum[0] += k[0]
	h.msum[1] += k[1]
	if len(h.keys) == 0 || h.keys[len(h.keys)-1] != k { // a clause repeated at once costs nothing
		h.keys = append(h.keys, k)
		h.sorted = false
	}
	h.Clauses++
}

// distinct sorts the clauses added and drops the repeats, once.
func (h *ClauseHash) distinct() {
	if h.sorted {
		return
	}
	slices.SortFunc(h.keys, func(a, b [2]uint64) int { return cmp.Compare(a[0], b[0]) })
	h.keys = slices.CompactFunc(h.keys, func(a, b [2]uint64) bool { return a[0] == b[0] })
	h.sum = 0
	for _, k := range h.keys {
		h.sum += k[1]
	}
	h.stamps = make([]uint32, len(h.keys))
	h.sorted = true
}

// Distinct returns the number of distinct clauses added (sorting them
// out, once, costs a sort of the clauses added).
func (h *ClauseHash) Distinct() int {
	h.distinct()
	return len(h.keys)
}

// Repeats returns how many clauses added repeat one added before.
func (h *ClauseHash) Repeats() int { return h.Clauses - h.Distinct() }

// Equal reports whether h and o hold the same distinct clauses.
func (h *ClauseHash) Equal(o *ClauseHash) bool {
	h.distinct()
	o.distinct()
	return h.sum == o.sum && slices.EqualFunc(h.keys, o.keys, func(a, b [2]uint64) bool { return a[0] == b[0] })
}

// Hash returns the [ClauseHash] of the clauses [Encoder.Emit] generates,
// without keeping them. The only error is ctx's.
func (e *Encoder) Hash(ctx context.Context) (*ClauseHash, error) {
	h := new(ClauseHash)
	err := e.Emit(ctx, func(clause []int) error {
		h.Add(clause)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// errDiffers stops the generation of a candidate at its first clause
// that the formula lacks.
var errDiffers = errors.New("a clause the formula lacks")

// sameClauses reports whether the clauses e generates, c of them, are
// those of h as a multiset: the same count and sums, no memory. It is
// the whole comparison where neither side repeats a clause, and where
// both repeat the same ones (a file queens wrote).
func (h *ClauseHash) sameClauses(ctx context.Context, e *Encoder) (bool, error) {
	var msum [2]uint64
	err := e.Emit(ctx, func(clause []int) error {
		k := h.hashes(clause)
		msum[0] += k[0]
		msum[1] += k[1]
		return nil
	})
	return err == nil && msum == h.msum, err
}

// sameSet reports whether the clauses e generates are exactly the
// distinct clauses of h. It keeps nothing of e's: each generated clause
// is looked up in h (the first one h lacks ends the comparison), and the
// distinct ones met are counted and summed, to be all of h's.
func (h *ClauseHash) sameSet(ctx context.Context, e *Encoder) (bool, error) {
	h.distinct()
	h.stamp++
	met, sum := 0, uint64(0)
	err := e.Emit(ctx, func(clause []int) error {
		k := h.hashes(clause)
		i, ok := slices.BinarySearchFunc(h.keys, k[0], func(a [2]uint64, t uint64) int { return cmp.Compare(a[0], t) })
		switch {
		case !ok:
			return errDiffers
		case h.stamps[i] != h.stamp:
			h.stamps[i] = h.stamp
			met++
			sum += k[1]
		}
		return nil
	})
	if errors.Is(err, errDiffers) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return met == len(h.keys) && sum == h.sum, nil
}

// Identify returns the options of the instance whose distinct clauses
// are those of h, a formula of vars variables on an n×n board, among the
// candidates that could describe it: each encoding of encs (nil: all),
// with and without symmetry breaking as syms says (nil: both), with the
// queens of each placement of places, in that order (encodings
// outermost), each instance once. Only candidates with vars variables
// ([Encoder.Size]) are generated, none is kept: first those with as many
// clauses as h, compared as multisets (two sums, no memory: a file queens
// wrote, however it was reordered, is found so); then, if none matched,
// those with at least as many clauses as h has distinct ones, compared as
// sets, each only up to its first clause that h lacks. ok is false if
// none matches: then the formula is not exactly any of them. The only
// error is ctx's.
func Identify(ctx context.Context, h *ClauseHash, vars, n int, encs []Encoding, syms []bool, places [][]board.Queen) (opt Options, ok bool, err error) {
	if encs == nil {
		encs = Encodings()
	}
	if syms == nil {
		syms = []bool{false, true}
	}
	type candidate struct {
		opt Options
		e   *Encoder
	}
	var cands []candidate
	tried := make(map[string]bool)
	for _, enc := range encs {
		for _, sym := range syms {
			for _, place := range places {
				opt := Options{Encoding: enc, Place: place, Symmetry: sym}
				e, err := NewEncoder(n, opt)
				if err != nil {
					continue // not an instance queens writes
				}
				key := fmt.Sprint(e.Encoding(), e.Place(), e.Symmetries())
				if v, _ := e.Size(); v == vars && !tried[key] {
					tried[key] = true
					cands = append(cands, candidate{opt, e})
				}
			}
		}
	}
	for _, c := range cands {
		if _, size := c.e.Size(); size != h.Clauses {
			continue
		}
		switch ok, err := h.sameClauses(ctx, c.e); {
		case err != nil:
			return Options{}, false, err
		case ok:
			return c.opt, true, nil
		}
	}
	for _, c := range cands {
		size := 0
		if _, size = c.e.Size(); size < h.Distinct() || size == h.Clauses && h.Repeats() == 0 {
			continue // too few clauses, or compared above (h repeats none: one of its size matches only as a multiset)
		}
		switch ok, err := h.sameSet(ctx, c.e); {
		case err != nil:
			return Options{}, false, err
		case ok:
			return c.opt, true, nil
		}
	}
	return Options{}, false, nil
}
