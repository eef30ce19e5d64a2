package encode

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/queens-dev/queens/board"
)

// CNF is a formula in conjunctive normal form: Vars variables numbered from
// 1, and clauses of signed DIMACS literals (v true, -v false). N, Encoding,
// Place and Symmetries describe the N-Queens instance it encodes;
// [ReadDIMACS] fills them in from the header of a file queens wrote and
// leaves them zero otherwise.
type CNF struct {
	N          int               // board size, 0 if unknown
	Encoding   Encoding          // at-most-one encoding, "" if unknown
	Place      []board.Queen     // pre-placed queens, 0-based, by row
	Symmetries []board.Transform // symmetries broken by lex-leader clauses, nil if none
	Vars       int
	Clauses    [][]int
}

// Var returns the DIMACS variable of the square at 0-based row and col of
// an n×n board:
//
//	Var(n, row, col) = row*n + col + 1
//
// It is true iff a queen stands on that square. The n*n board variables
// come first; auxiliary variables of compact encodings follow them. Var is
// the only conversion between board squares and variables in queens.
func Var(n, row, col int) int { return row*n + col + 1 }

// Options select what [NewEncoder] encodes besides the board size. The
// zero value is the plain puzzle with the [Auto] encoding.
type Options struct {
	Encoding Encoding      // at-most-one encoding; "" or Auto chooses by n
	Place    []board.Queen // pre-placed queens (0-based), as unit clauses
	// Symmetry adds lex-leader clauses so that exactly one solution of
	// each class of solutions equivalent under rotation and reflection
	// remains: the canonical one ([board.IsCanonical]). With pre-placed
	// queens only the symmetries that map the placed set onto itself
	// ([Stabilizer]) are broken, so one solution remains per class under
	// that subgroup.
	Symmetry bool
}

// Encoder generates the clauses of one n-queens instance. It holds no
// clauses: [Encoder.Emit] produces them one at a time in the fixed order
// of the package comment, so memory does not grow with the formula.
// [Encoder.Size] gives the exact counts up front. An Encoder is immutable
// and safe for concurrent use.
type Encoder struct {
	n       int
	enc     encoding
	placed  []board.Queen
	syms    []board.Transform
	vars    int
	clauses int
}

// NewEncoder returns the encoder of the n-queens instance that opt
// describes. Errors wrap [board.ErrSize] (n < 1 or above [MaxN] of the
// encoding), [ErrEncoding] or [board.ErrPlacement].
func NewEncoder(n int, opt Options) (*Encoder, error) {
	resolved, err := Resolve(opt.Encoding, n)
	if err != nil {
		return nil, err
	}
	e, _ := lookup(resolved)
	if err := board.CheckSize(n, e.maxN); err != nil {
		return nil, fmt.Errorf("encode %s: %w", e.name, err)
	}
	if err := board.CheckPlacement(n, opt.Place); err != nil {
		return nil, err
	}
	enc := &Encoder{n: n, enc: e, placed: uniqueQueens(opt.Place)}
	if opt.Symmetry {
		enc.syms = Stabilizer(n, enc.placed)
	}
	enc.vars, enc.clauses = size(e, n)
	enc.clauses += len(enc.placed)
	for _, t := range enc.syms {
		c, a := lexCount(n, t)
		enc.clauses += c
		enc.vars += a
	}
	return enc, nil
}

// uniqueQueens returns qs sorted by row with duplicates removed.
func uniqueQueens(qs []board.Queen) []board.Queen {
	out := slices.Clone(qs)
	slices.SortFunc(out, func(a, b board.Queen) int { return a.Row - b.Row })
	return slices.Compact(out)
}

// N returns the board size.
func (e *Encoder) N() int { return e.n }

// Encoding returns the encoding in use ([Auto] resolved).
func (e *Encoder) Encoding() Encoding { return e.enc.name }

// Place returns the pre-placed queens, sorted by row, without duplicates.
func (e *Encoder) Place() []board.Queen { return slices.Clone(e.placed) }

// Symmetries returns the symmetries whose lex-leader clauses are added
// (none without [Options.Symmetry]).
func (e *Encoder) Symmetries() []board.Transform { return slices.Clone(e.syms) }

// Size returns the exact number of variables and clauses [Encoder.Emit]
// produces, including the units of pre-placed queens and symmetry
// breaking, computed without generating them.
func (e *Encoder) Size() (vars, clauses int) { return e.vars, e.clauses }

// emitCheckEvery is how many clauses Emit generates between two looks at
// its context: a few microseconds of work.
const emitCheckEvery = 4096

// Emit calls yield with each clause in order (signed DIMACS literals).
// The slice is only valid during the call and is reused for the next
// clause: copy what is kept. Emit stops at the first error yield returns
// and returns it unchanged; when ctx is done it stops within a few
// thousand clauses and returns an error wrapping ctx.Err(). Memory beyond
// a few slices of length n does not depend on the formula's size.
func (e *Encoder) Emit(ctx context.Context, yield func(clause []int) error) error {
	b := &builder{ctx: ctx, yield: yield, next: e.n*e.n + 1, buf: make([]int, 0, e.n+1)}
	n, amo := e.n, e.enc.amo
	one := e.enc.exactlyOne
	if one == nil {
		one = func(b *builder, line []int) {
			b.clause(line...)
			amo(b, line)
		}
	}
	line := make([]int, 0, n)
	for row := 0; row < n && b.err == nil; row++ { // rows: exactly one
		line = line[:0]
		for col := range n {
			line = append(line, Var(n, row, col))
		}
		one(b, line)
	}
	for col := 0; col < n && b.err == nil; col++ { // columns: exactly one
		line = line[:0]
		for row := range n {
			line = append(line, Var(n, row, col))
		}
		one(b, line)
	}
	// Diagonals (row-col constant), then anti-diagonals (row+col
	// constant), each from the top row down; lines of one square need
	// nothing.
	for d := -(n - 2); d <= n-2 && b.err == nil; d++ {
		line = line[:0]
		for row := max(0, d); row < n && row-d < n; row++ {
			line = append(line, Var(n, row, row-d))
		}
		amo(b, line)
	}
	for s := 1; s <= 2*n-3 && b.err == nil; s++ {
		line = line[:0]
		for row := max(0, s-n+1); row < n && row <= s; row++ {
			line = append(line, Var(n, row, s-row))
		}
		amo(b, line)
	}
	for _, q := range e.placed {
		b.clause(Var(n, q.Row, q.Col))
	}
	for _, t := range e.syms {
		if b.err != nil {
			break
		}
		lexLeader(b, n, t)
	}
	if b.err != nil {
		return b.err
	}
	if b.next-1 != e.vars || b.count != e.clauses {
		// The count functions and the generators disagree: a bug, not input.
		panic(fmt.Sprintf("encode: %s n=%d: generated %d vars, %d clauses; Size says %d, %d",
			e.enc.name, n, b.next-1, b.count, e.vars, e.clauses))
	}
	return nil
}

// errStop ends Emit for Clauses when the consumer stops early.
var errStop = errors.New("stop")

// Clauses returns the clauses of [Encoder.Emit] as an iterator. Each
// clause is only valid until the next step. If encoding stops early (ctx
// done), the last pair carries the error and a nil clause.
func (e *Encoder) Clauses(ctx context.Context) iter.Seq2[[]int, error] {
	return func(yield func([]int, error) bool) {
		err := e.Emit(ctx, func(clause []int) error {
			if !yield(clause, nil) {
				return errStop
			}
			return nil
		})
		if err != nil && err != errStop {
			yield(nil, err)
		}
	}
}

// AppendFlat appends the clauses to dst as int32 DIMACS literals, each
// clause ended by 0, the layout a solver's Add(lit) ... Add(0) loop
// takes. With [Encoder.Size] the caller can size dst beforehand. On
// error (ctx done, see [Encoder.Emit]) it returns dst as far as it got.
func (e *Encoder) AppendFlat(ctx context.Context, dst []int32) ([]int32, error) {
	err := e.Emit(ctx, func(clause []int) error {
		for _, lit := range clause {
			dst = append(dst, int32(lit))
		}
		dst = append(dst, 0)
		return nil
	})
	return dst, err
}

// CNF returns the formula as a [CNF] value, all clauses in one backing
// array. The only error is ctx's (see [Encoder.Emit]).
func (e *Encoder) CNF(ctx context.Context) (*CNF, error) {
	ends := make([]int, 0, e.clauses)
	lits := make([]int, 0, 2*e.clauses+e.n*e.n/2) // most clauses are binary
	err := e.Emit(ctx, func(clause []int) error {
		lits = append(lits, clause...)
		ends = append(ends, len(lits))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &CNF{N: e.n, Encoding: e.enc.name, Place: e.Place(), Symmetries: e.Symmetries(),
		Vars: e.vars, Clauses: split(lits, ends)}, nil
}

// Queens returns the CNF of the n-queens puzzle with encoding enc ([Auto]
// or "" chooses by n) and the queens of placed (0-based) as unit clauses:
// [NewEncoder] and [Encoder.CNF] in one call.
//
// Every row and column gets exactly one queen (a clause of its n squares
// plus at-most-one), every diagonal and anti-diagonal of two or more
// squares at most one. Its models restricted to the n*n board variables
// ([Var]) are exactly the solutions; with auxiliary variables one solution
// may have several models (see [Exact]). [Size] gives the exact number of
// variables and clauses.
//
// Errors wrap [board.ErrSize] (n < 1 or above [MaxN] of the encoding),
// [ErrEncoding] or [board.ErrPlacement].
func Queens(n int, enc Encoding, placed []board.Queen) (*CNF, error) {
	e, err := NewEncoder(n, Options{Encoding: enc, Place: placed})
	if err != nil {
		return nil, err
	}
	return e.CNF(context.Background())
}

// builder numbers auxiliary variables and hands each clause to yield,
// counting them and looking at ctx now and then. After the first error it
// drops every clause; the generators check err between lines.
type builder struct {
	ctx   context.Context
	yield func([]int) error
	next  int   // next free variable
	buf   []int // the clause being handed out
	count int   // clauses generated
	err   error
	arena []int // scratch of the recursive encodings, used as a stack
}

// alloc returns a scratch slice of length k from the arena. Slices are
// released in the reverse order of allocation. (When the arena grows,
// slices handed out before keep the old array, which stays valid.)
func (b *builder) alloc(k int) []int {
	start := len(b.arena)
	b.arena = slices.Grow(b.arena, k)[:start+k]
	return b.arena[start : start+k : start+k]
}

// release returns s, the last slice alloc handed out, to the arena.
func (b *builder) release(s []int) { b.arena = b.arena[:len(b.arena)-cap(s)] }

func (b *builder) fresh() int { b.next++; return b.next - 1 }

func (b *builder) clause(lits ...int) {
	if b.err != nil {
		return
	}
	b.count++
	if b.count%emitCheckEvery == 0 {
		if err := b.ctx.Err(); err != nil {
			b.err = fmt.Errorf("encode: %w", err)
			return
		}
	}
	b.buf = append(b.buf[:0], lits...)
	b.err = b.yield(b.buf)
}

// SplitClauses cuts lits, the literals of consecutive clauses, into
// clauses at ends (the index in lits after each clause), sharing lits'
// memory: what [ScanDIMACS]'s caller collects becomes a [CNF]'s Clauses.
func SplitClauses(lits, ends []int) [][]int { return split(lits, ends) }

// split cuts the literals of consecutive clauses at ends.
func split(lits, ends []int) [][]int {
	clauses := make([][]int, len(ends))
	start := 0
	for i, end := range ends {
		clauses[i] = lits[start:end:end] // full slice: appending copies
		start = end
	}
	return clauses
}
