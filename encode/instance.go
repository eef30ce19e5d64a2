package encode

import (
	"context"
	varint "encoding/binary"
	"hash/maphash"
	"slices"

	"github.com/queens-dev/queens/board"
)

// ClauseHash is an order-insensitive hash of a formula's clauses, each
// taken as the set of its literals (sorted, repeated literals once), kept
// in constant memory as clauses are added one by one: two formulas whose
// clauses are the same multiset of literal sets have equal hashes, and
// two that differ have equal hashes with probability about 2^-128. The
// hash is keyed by a random seed per process, so no input can be made to
// collide on purpose. The zero value is empty and ready to use.
type ClauseHash struct {
	sum     [2]uint64 // sums of two independently keyed hashes of each clause
	Clauses int       // clauses added
	buf     []int
	bytes   []byte
}

// clauseSeeds key the two hashes of every ClauseHash in this process.
var clauseSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// Add adds one clause (signed DIMACS literals; not kept).
func (h *ClauseHash) Add(clause []int) {
	h.buf = append(h.buf[:0], clause...)
	slices.Sort(h.buf)
	h.buf = slices.Compact(h.buf)
	h.bytes = h.bytes[:0]
	for _, lit := range h.buf {
		h.bytes = varint.AppendVarint(h.bytes, int64(lit))
	}
	for i, seed := range clauseSeeds {
		h.sum[i] += maphash.Bytes(seed, h.bytes)
	}
	h.Clauses++
}

// Equal reports whether h and o hash the same clauses: the same number of
// them and the same sums.
func (h *ClauseHash) Equal(o *ClauseHash) bool { return h.Clauses == o.Clauses && h.sum == o.sum }

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

// Identify returns the options of the instance whose clauses hash to h,
// a formula of vars variables on an n×n board, among the candidates that
// could describe it: each encoding of encs (nil: all), with and without
// symmetry breaking as syms says (nil: both), with the queens of each
// placement of places. Only candidates of the same size ([Encoder.Size])
// are generated and hashed. ok is false if none matches: then the formula
// is not exactly any of them. The only error is ctx's.
func Identify(ctx context.Context, h *ClauseHash, vars, n int, encs []Encoding, syms []bool, places [][]board.Queen) (opt Options, ok bool, err error) {
	if encs == nil {
		encs = Encodings()
	}
	if syms == nil {
		syms = []bool{false, true}
	}
	for _, enc := range encs {
		for _, sym := range syms {
			for _, place := range places {
				opt := Options{Encoding: enc, Place: place, Symmetry: sym}
				e, err := NewEncoder(n, opt)
				if err != nil {
					continue // not an instance queens writes
				}
				if v, c := e.Size(); v != vars || c != h.Clauses {
					continue
				}
				got, err := e.Hash(ctx)
				if err != nil {
					return Options{}, false, err
				}
				if got.Equal(h) {
					return opt, true, nil
				}
			}
		}
	}
	return Options{}, false, nil
}
