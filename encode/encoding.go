package encode

import (
	"errors"
	"fmt"
	"strings"

	"github.com/queens-dev/queens/board"
)

// Encoding names an at-most-one encoding. Its value is the name the
// command line takes with --encoding.
type Encoding string

// The encodings. [Auto] is not an encoding of its own: [Resolve] picks
// one of the others by board size.
const (
	Auto      Encoding = "auto"      // Pairwise for small boards, Commander above
	Pairwise  Encoding = "pairwise"  // every pair of squares on a line
	Seq       Encoding = "seq"       // Sinz's sequential counter
	Commander Encoding = "commander" // Klieber and Kwon, groups of 3, recursive
	Product   Encoding = "product"   // Chen's 2-product, recursive
	Binary    Encoding = "binary"    // Frisch's binary (bitwise) encoding
	Bimander  Encoding = "bimander"  // Nguyen and Mai's binary-commander hybrid
	Ladder    Encoding = "ladder"    // Gent and Nightingale's regular (ladder) encoding
	Totalizer Encoding = "totalizer" // Bailleux and Boufkhad's totalizer, cut at 2
	Sortnet   Encoding = "sortnet"   // Batcher's odd-even merge sorting network
)

// String returns the encoding's name.
func (e Encoding) String() string { return string(e) }

// ErrEncoding is wrapped by the error for an encoding name that is not in
// [Encodings] or [Auto].
var ErrEncoding = errors.New("unknown encoding")

// encoding is one at-most-one encoding.
type encoding struct {
	name  Encoding
	doc   string
	maxN  int // largest board Queens builds with it
	amo   func(b *builder, xs []int)
	count func(L int) (clauses, aux int) // per at-most-one constraint over L literals
	// exactlyOne, if not nil, encodes a row or column in place of the
	// clause of its squares and amo; exactlyOneCount counts it.
	exactlyOne      func(b *builder, xs []int)
	exactlyOneCount func(L int) (clauses, aux int)
}

// The at-most-one encodings, in the order [Encodings] lists them. Each
// defines every auxiliary variable by the board variables, so the models
// of the whole CNF are exactly the solutions (checked by TestModelCount).
var encodings = [...]encoding{
	{Pairwise, "every pair of squares on a line: no auxiliary variables, O(n^3) clauses", 200, pairwise, pairwiseCount, nil, nil},
	{Seq, "Sinz's sequential counter: L-1 auxiliaries and 4L-5 clauses per line of L squares", 2000, sequential, sequentialCount, nil, nil},
	{Commander, "Klieber and Kwon's commander encoding, groups of 3, recursive: about L/2 auxiliaries and 3.5L clauses per line", 2000, commander, commanderCount, nil, nil},
	{Product, "Chen's product encoding on a ceil(sqrt L) grid, recursive, pairwise up to 20 squares: about 2 sqrt L auxiliaries and 2L + 2 sqrt L clauses per line", 2000, product, productCount, nil, nil},
	{Binary, "binary (bitwise) encoding: ceil(log2 L) auxiliaries and (L+1) ceil(log2 L) clauses per line", 1000, binary, binaryCount, nil, nil},
	{Bimander, "Nguyen and Mai's bimander: ceil(sqrt L) pairwise groups told apart by ceil(log2 groups) bits", 400, bimander, bimanderCount, nil, nil},
	{Ladder, "Gent and Nightingale's ladder (regular) encoding, as PySAT's: exactly one in 4L-4 clauses and L-1 auxiliaries for a row or column, at most one in 4L-2 and L for a diagonal", 2000, ladder, ladderCount, ladderExactlyOne, ladderExactlyOneCount},
	{Totalizer, "Bailleux and Boufkhad's totalizer, counters cut at 2 as PySAT's, defined both ways: 2L-4 auxiliaries and about 7L clauses per line", 2000, totalizer, totalizerCount, nil, nil},
	{Sortnet, "Batcher's odd-even merge sorting network, only the comparators its second output needs, defined both ways: O(L log^2 L) auxiliaries, 3 clauses each", 400, sortnet, sortnetCount, nil, nil},
}

// Encodings returns the at-most-one encodings [Queens] accepts besides
// [Auto], in a fixed order. The slice is new on every call.
func Encodings() []Encoding {
	out := make([]Encoding, len(encodings))
	for i, e := range encodings {
		out[i] = e.name
	}
	return out
}

// ParseEncoding returns the encoding of a --encoding name: one of
// [Encodings] or "auto" ("" means [Auto] too). Any other name is an error
// wrapping [ErrEncoding] that lists the valid names.
func ParseEncoding(name string) (Encoding, error) {
	if name == "" || name == string(Auto) {
		return Auto, nil
	}
	e, err := lookup(Encoding(name))
	return e.name, err
}

// Describe returns a one-line description of enc, and an error wrapping
// [ErrEncoding] for an unknown one.
func Describe(enc Encoding) (string, error) {
	if enc == Auto || enc == "" {
		return fmt.Sprintf("pairwise for n <= %d, commander above", autoPairwiseMax), nil
	}
	e, err := lookup(enc)
	return e.doc, err
}

// autoPairwiseMax is the largest n for which auto picks pairwise: small
// boards enumerate fastest without auxiliary variables, large boards need
// the O(n^2) size of commander.
const autoPairwiseMax = 40

// Resolve returns the encoding [Queens] uses for enc on an n×n board: enc
// itself, or for [Auto] (and "") the one chosen by size. An unknown
// encoding wraps [ErrEncoding].
func Resolve(enc Encoding, n int) (Encoding, error) {
	if enc == Auto || enc == "" {
		if n <= autoPairwiseMax {
			return Pairwise, nil
		}
		return Commander, nil
	}
	e, err := lookup(enc)
	return e.name, err
}

// MaxN returns the largest board size [Queens] encodes with enc (the
// limit keeps the formula in memory and on disk), or 0 for an unknown
// encoding. For [Auto] it is the limit of the largest encoding auto picks.
func MaxN(enc Encoding) int {
	if enc == Auto || enc == "" {
		enc = Commander
	}
	e, err := lookup(enc)
	if err != nil {
		return 0
	}
	return e.maxN
}

func lookup(enc Encoding) (encoding, error) {
	for _, e := range encodings {
		if e.name == enc {
			return e, nil
		}
	}
	names := make([]string, len(encodings))
	for i, e := range encodings {
		names[i] = string(e.name)
	}
	return encoding{}, fmt.Errorf("%w %q (want %s or %s)", ErrEncoding, string(enc), strings.Join(names, ", "), Auto)
}

// Size returns the number of variables and clauses of the n-queens CNF in
// encoding enc without building it, not counting the unit clauses of
// pre-placed queens nor symmetry breaking ([Encoder.Size] counts those).
// Closed forms (n >= 2 for seq):
//
//	pairwise   V = n^2             C = n(n-1)(5n-1)/3 + 2n
//	seq        V = 5n^2 - 6n + 2   C = 16n^2 - 28n + 14
//	ladder     V = 5n^2 - 2n - 4   C = 16n^2 - 16n - 4     (n >= 3)
//	totalizer  V = 9n^2 - 24n + 16 C = 28n^2 - 76n + 50    (n >= 3)
//	others     a sum over the lines: see the package comment
//
// Errors wrap [ErrEncoding] or, for n outside 1..[board.MaxN],
// [board.ErrSize].
func Size(n int, enc Encoding) (vars, clauses int, err error) {
	resolved, err := Resolve(enc, n)
	if err != nil {
		return 0, 0, err
	}
	if err := board.CheckSize(n, board.MaxN); err != nil {
		return 0, 0, err
	}
	e, _ := lookup(resolved)
	vars, clauses = size(e, n)
	return vars, clauses, nil
}

func size(e encoding, n int) (vars, clauses int) {
	vars, clauses = n*n, 2*n // board variables, a clause per row and column
	add := func(L, times int) {
		c, a := e.count(L)
		clauses += times * c
		vars += times * a
	}
	if e.exactlyOne != nil {
		c, a := e.exactlyOneCount(n)
		vars, clauses = vars+2*n*a, 2*n*c
	} else {
		add(n, 2*n)
	}
	for L := 2; L < n; L++ {
		add(L, 4) // two diagonals of each length in each direction
	}
	if n >= 2 {
		add(n, 2) // the two long diagonals
	}
	return vars, clauses
}
