package encode

import (
	"context"
	varint "encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"

	"github.com/queens-dev/queens/board"
)

// ClauseHash is the set of a formula's clauses, each taken as the set of
// its literals (sorted, repeated literals once), kept as two keyed hashes
// per distinct clause: a clause that is added again (in any order of its
// literals) is a repeat, counted in Clauses but not in the set, so two
// formulas are equal when they have the same distinct clauses, in any
// order and with any repeats. Memory grows with the distinct clauses
// (one map entry each), bounded by what was added, never with repeats.
// Two different sets compare equal with probability about 2^-64 per
// clause pair; the hashes are keyed by a random seed per process, so no
// input can be made to collide on purpose. The zero value is empty and
// ready to use; a ClauseHash is not safe for concurrent use.
type ClauseHash struct {
	keys    map[uint64]uint32 // first hash of each distinct clause -> stamp of the last comparison that met it
	sum     uint64            // sum of the second hashes of the distinct clauses
	Clauses int               // clauses added, repeats included
	stamp   uint32
	buf     []int
	bytes   []byte
}

// clauseSeeds key the two hashes of every ClauseHash in this process.
var clauseSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// hashes returns the two keyed hashes of clause as a set of literals.
func (h *ClauseHash) hashes(clause []int) (k0, k1 uint64) {
	h.buf = append(h.buf[:0], clause...)
	slices.Sort(h.buf)
	h.buf = slices.Compact(h.buf)
	h.bytes = h.bytes[:0]
	for _, lit := range h.buf {
		h.bytes = varint.AppendVarint(h.bytes, int64(lit))
	}
	return maphash.Bytes(clauseSeeds[0], h.bytes), maphash.Bytes(clauseSeeds[1], h.bytes)
}

// Add adds one clause (signed DIMACS literals; not kept).
func (h *ClauseHash) Add(clause []int) {
	k0, k1 := h.hashes(clause)
	if h.keys == nil {
		h.keys = make(map[uint64]uint32)
	}
	if _, seen := h.keys[k0]; !seen {
		h.keys[k0] = 0
		h.sum += k1
	}
	h.Clauses++
}

// Distinct returns the number of distinct clauses added.
func (h *ClauseHash) Distinct() int { return len(h.keys) }

// Repeats returns how many clauses added repeat one added before.
func (h *ClauseHash) Repeats() int { return h.Clauses - len(h.keys) }

// Equal reports whether h and o hold the same distinct clauses.
func (h *ClauseHash) Equal(o *ClauseHash) bool {
	if len(h.keys) != len(o.keys) || h.sum != o.sum {
		return false
	}
	for k := range h.keys {
		if _, ok := o.keys[k]; !ok {
			return false
		}
	}
	return true
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

// matches reports whether the clauses e generates are exactly the
// distinct clauses of h. It keeps nothing of e's: each generated clause
// is looked up in h (the first one h lacks ends the comparison), and the
// distinct ones met are counted and summed, to be all of h's.
func (h *ClauseHash) matches(ctx context.Context, e *Encoder) (bool, error) {
	h.stamp++
	met, sum := 0, uint64(0)
	err := e.Emit(ctx, func(clause []int) error {
		k0, k1 := h.hashes(clause)
		stamp, ok := h.keys[k0]
		switch {
		case !ok:
			return errDiffers
		case stamp != h.stamp:
			h.keys[k0] = h.stamp
			met++
			sum += k1
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
// queens of each placement of places, tried in that order (encodings
// outermost), each instance once. Only candidates of the same number of
// variables and at least as many clauses ([Encoder.Size]) as h has
// distinct ones are generated, and each only until its first clause that
// h lacks; none is kept. ok is false if none matches: then the formula is
// not exactly any of them. The only error is ctx's.
func Identify(ctx context.Context, h *ClauseHash, vars, n int, encs []Encoding, syms []bool, places [][]board.Queen) (opt Options, ok bool, err error) {
	if encs == nil {
		encs = Encodings()
	}
	if syms == nil {
		syms = []bool{false, true}
	}
	tried := make(map[string]bool)
	for _, enc := range encs {
		for _, sym := range syms {
			for _, place := range places {
				opt := Options{Encoding: enc, Place: place, Symmetry: sym}
				e, err := NewEncoder(n, opt)
				if err != nil {
					continue // not an instance queens writes
				}
				if v, c := e.Size(); v != vars || c < h.Distinct() {
					continue
				}
				key := fmt.Sprint(e.Encoding(), e.Place(), e.Symmetries())
				if tried[key] {
					continue
				}
				tried[key] = true
				switch ok, err := h.matches(ctx, e); {
				case err != nil:
					return Options{}, false, err
				case ok:
					return opt, true, nil
				}
			}
		}
	}
	return Options{}, false, nil
}
