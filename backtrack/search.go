package backtrack

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/queens-dev/queens/board"
)

// Strategy chooses the order in which the backtracker fills rows and tries
// columns. Every strategy is complete: enumerated to the end, each finds
// every solution exactly once; they differ in which solution comes first
// and in how fast.
type Strategy uint8

const (
	// Auto is Lex for n <= AutoLexMax and Heuristic above, and Lex
	// whenever Options.Unique is set: Lex meets the solutions in
	// lexicographic order, so its first solution, the smallest of all, is
	// canonical, and the canonical ones come early; Heuristic's rarely are
	// (n = 25: 919951 solutions in 5 s, none of them canonical), where
	// Lex finds the first canonical one in milliseconds.
	Auto Strategy = iota
	// Lex fills the rows top to bottom and tries the columns left to
	// right: the textbook algorithm, solutions in lexicographic order.
	Lex
	// Heuristic fills next the empty row with the fewest free squares
	// (ties: the topmost), gives up at once when some row has none
	// (forward checking), and tries the free columns of that row from the
	// centre outwards (ties: the left one first).
	Heuristic
	// Iterative is Lex with an explicit stack instead of recursion: the
	// same squares in the same order, the same events and statistics.
	Iterative
	// Cells searches the whole board as a grid of cells, each free, a
	// queen or threatened, with no notion of rows: each level places a
	// queen on any free cell after the previous queen's (in reading
	// order), on a copy of the grid with the new queen's threats marked,
	// until n queens stand. It never learns that every row needs a
	// queen, so it places far more queens than Lex (118968 against 2056
	// for every solution of n = 8). At most [CellsMaxN].
	Cells
	// Generate is naive generate-and-test: it generates every placement
	// of one queen per row and column (the (n-p)! permutations of the
	// free columns, p the pre-placed queens), placing queens without
	// looking at the board, and tests each complete placement for a
	// diagonal attack (an [EventFail]). At most [GenerateMaxN]; see
	// [SearchSpace] for what it and a search over all placements test.
	Generate
	// Scan is Cells as the course text (seed 002) writes it: each level
	// scans every free cell of the whole board, not only those after the
	// previous queen, so that it finds each solution once per order of
	// placing its queens, n! times (48, 1200 and 2880 solutions for n =
	// 4, 5 and 6), and places 25943 queens before its first solution of
	// n = 8 where Cells places 1969. It is the one strategy that yields a
	// solution more than once: a lesson, for traces, not an enumeration.
	// At most [ScanMaxN].
	Scan
)

// AutoLexMax is the largest n for which [Auto] runs [Lex]. Up to here the
// lexicographic first solution takes a few milliseconds at most and is the
// one the textbooks print; above it Lex can take hours.
const AutoLexMax = 24

var strategyNames = [...]string{"auto", "lex", "heuristic", "iterative", "cells", "generate", "scan"}

// CellsMaxN and GenerateMaxN are the largest boards [Cells] and
// [Generate] take: every solution of n = 10 takes Cells 7535368 queens
// (n = 11: 66807233, tens of seconds) and Generate 3628800 tests (n =
// 11: 39916800).
const (
	CellsMaxN    = 10
	GenerateMaxN = 10
	ScanMaxN     = 8 // [Scan]: every solution of n = 8, 92 × 8! of them
)

// MaxN returns the largest board the strategy takes: [MaxN], or
// [CellsMaxN] and [GenerateMaxN] for the two searches whose work grows
// fastest.
func (s Strategy) MaxN() int {
	switch s {
	case Cells:
		return CellsMaxN
	case Generate:
		return GenerateMaxN
	case Scan:
		return ScanMaxN
	}
	return MaxN
}

// String returns the strategy's name as [ParseStrategy] reads it.
func (s Strategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return fmt.Sprintf("Strategy(%d)", s)
}

// ErrStrategy is wrapped by the error for an unknown strategy.
var ErrStrategy = errors.New("unknown strategy")

// ParseStrategy returns the strategy with the given name: auto, lex,
// heuristic, iterative, cells, generate or scan.
func ParseStrategy(name string) (Strategy, error) {
	for i, s := range strategyNames {
		if s == name {
			return Strategy(i), nil
		}
	}
	return Auto, fmt.Errorf("%w %q (want auto, lex, heuristic, iterative, cells, generate or scan)", ErrStrategy, name)
}

// Resolve returns the strategy that s stands for on an n×n board: Auto
// becomes Lex or Heuristic, the others stay as they are.
func (s Strategy) Resolve(n int) Strategy {
	if s == Auto {
		if n <= AutoLexMax {
			return Lex
		}
		return Heuristic
	}
	return s
}

// Order says which lines of the board the backtracker fills, one queen
// each: rows (the default) or columns.
type Order uint8

const (
	// Rows fills the rows, one queen per row; Lex takes them top to
	// bottom and tries the columns left to right.
	Rows Order = iota
	// Columns fills the columns, one queen per column; Lex takes them
	// left to right and tries the rows top to bottom, as the textbook
	// figures and the 0/1 matrices of the tutorials do. It is the row
	// search of the board turned over its main diagonal, and its events
	// and solutions are told on the board itself (Row is the row).
	Columns
)

var orderNames = [...]string{"rows", "columns"}

// String returns the order's name as [ParseOrder] reads it: rows or
// columns.
func (o Order) String() string {
	if int(o) < len(orderNames) {
		return orderNames[o]
	}
	return fmt.Sprintf("Order(%d)", o)
}

// ErrOrder is wrapped by the error for an unknown order.
var ErrOrder = errors.New("unknown order")

// ParseOrder returns the order with the given name: rows or columns.
func ParseOrder(name string) (Order, error) {
	for i, o := range orderNames {
		if o == name {
			return Order(i), nil
		}
	}
	return Rows, fmt.Errorf("%w %q (want rows or columns)", ErrOrder, name)
}

// Line returns the line (0-based) of the square (row, col) that the order
// fills: the row for Rows, the column for Columns.
func (o Order) Line(row, col int) int {
	if o == Columns {
		return col
	}
	return row
}

// Options configures a search. The zero value searches the empty board
// with the Auto strategy, by rows, and no observer.
type Options struct {
	// Place lists pre-placed queens, 0-based. The search fills the other
	// rows around them. Queens off the board, two in one row or two that
	// attack each other are an error wrapping [board.ErrPlacement];
	// pre-placements that merely admit no completion give no solution.
	Place []board.Queen

	// Observe, if not nil, is called at every step of the search (see
	// [Event]). It runs on the searching goroutine and must not keep
	// Event.Queens. Without an observer a search pays one nil check per
	// step.
	Observe func(Event)

	// Strategy is the order of the search; see [Strategy].
	Strategy Strategy

	// Order is the lines the search fills: rows or columns; see [Order].
	Order Order

	// Unique, if set, yields only the canonical solution of each class of
	// solutions that differ by a rotation or reflection ([board.IsCanonical]),
	// so that an enumeration lists each class once. With Place, the
	// classes are those of the completions under the symmetries that keep
	// the pre-placed queens in place ([board.Stabilizer]; a queen in a
	// corner keeps the identity and the transpose through it): the other
	// symmetries move a placed queen and so map no completion to another.
	Unique bool

	// Rotations, with Unique, takes the classes of solutions that differ
	// by a rotation only ([board.IsCanonicalRotation]): a solution and its
	// mirror image are then two classes (the 8-queens puzzle has 12
	// classes, 24 under rotations only).
	Rotations bool
}

// Stats describes the work of a search.
type Stats struct {
	Nodes      uint64        // queens placed by the search (pre-placed ones not counted)
	Backtracks uint64        // queens taken away again
	Solutions  uint64        // complete placements found (with Unique, canonical or not)
	Candidates uint64        // Generate only: complete placements tested (solutions or not)
	Elapsed    time.Duration // wall time of the search
}

// MaxN is the largest board size Search accepts.
const MaxN = board.MaxN

// Search runs the backtracker on an n×n board and calls yield with each
// solution it finds, in the order of opt.Strategy, until yield returns
// false, the search space is exhausted or ctx is done. Each solution is a
// fresh slice the caller may keep.
//
// Search returns the statistics and an error: one wrapping [board.ErrSize]
// for n outside 1..[MaxN], one wrapping [board.ErrPlacement] for bad
// pre-placed queens, or ctx.Err() if ctx ended the
// search (the statistics then say how far it got). Finding no solution, or
// being stopped by yield, is not an error.
func Search(ctx context.Context, n int, opt Options, yield func(board.Solution) bool) (Stats, error) {
	if opt.Order == Columns {
		return searchColumns(ctx, n, opt, yield)
	}
	start := time.Now()
	s, err := newSearcher(n, opt)
	if err != nil {
		return Stats{}, err
	}
	s.done = ctx.Done()
	s.yield = yield
	if s.done != nil {
		select {
		case <-s.done:
			return Stats{}, ctx.Err()
		default:
		}
	}
	switch opt.resolve(n) {
	case Heuristic:
		s.heuristic()
	case Iterative:
		s.iterative()
	case Cells:
		s.cells()
	case Scan:
		s.scan = true
		s.cells()
	case Generate:
		s.generate(0, s.usedColumns())
	default:
		s.lex(0)
	}
	s.stats.Elapsed = time.Since(start)
	if s.cancelled {
		return s.stats, ctx.Err()
	}
	return s.stats, nil
}

// First returns the first solution of the search described by opt, or nil
// if there is none, with the statistics of the search. Errors are those of
// [Search]: ctx's error if ctx ends first (a large board under [Lex] can
// take hours).
func First(ctx context.Context, n int, opt Options) (board.Solution, Stats, error) {
	var first board.Solution
	stats, err := Search(ctx, n, opt, func(s board.Solution) bool {
		first = s
		return false
	})
	return first, stats, err
}

// All returns every solution as a stream, in the order of opt.Strategy;
// each range over it searches anew, and breaking out of the loop stops the
// search. Each solution is a fresh slice. An error (those of [Search]:
// a bad n or opt, or ctx ended) is yielded with a nil solution and ends
// the stream.
func All(ctx context.Context, n int, opt Options) iter.Seq2[board.Solution, error] {
	return func(yield func(board.Solution, error) bool) {
		stopped := false
		_, err := Search(ctx, n, opt, func(s board.Solution) bool {
			stopped = !yield(s, nil)
			return !stopped
		})
		if err != nil && !stopped {
			yield(nil, err)
		}
	}
}

// searcher is the state of one search, shared by the strategies.
type searcher struct {
	n       int
	q       board.Solution // q[row] == col, or -1 for an empty row
	fixed   []bool         // rows of pre-placed queens
	free    int            // rows still empty
	colBy   []int32        // row+1 of the queen in each column, 0 if none
	diagBy  []int32        // the same for each diagonal row+col
	antiBy  []int32        // and each anti-diagonal row-col+n-1
	observe func(Event)
	frames  []board.Queen // with observe: the stack, see Event.Stack
	yield   func(board.Solution) bool
	unique  bool
	rotOnly bool              // unique: classes under the rotations only
	classes []board.Transform // unique with pre-placed queens: the symmetries that keep them
	done    <-chan struct{}
	stats   Stats
	stopped bool // yield said stop, or the context ended
	// cancelled is set when the context ended the search.
	cancelled bool
	scan      bool // Cells scans every cell at every level: Scan

	// Heuristic only.
	rowFree     []int32 // free squares in each empty row
	centre      []int   // 0..n-1 from the centre outwards
	budget      uint64  // queens the first pass may place; 0: no limit
	outOfBudget bool    // the first pass gave up
	scrambled   bool    // second pass: ties by scrambled row order
}

func newSearcher(n int, opt Options) (*searcher, error) {
	if err := board.CheckSize(n, opt.Strategy.MaxN()); err != nil {
		return nil, fmt.Errorf("backtrack: %s: %w", opt.Strategy, err)
	}
	if err := board.CheckPlacement(n, opt.Place); err != nil {
		return nil, fmt.Errorf("backtrack: %w", err)
	}
	s := &searcher{
		n:       n,
		q:       make(board.Solution, n),
		fixed:   make([]bool, n),
		free:    n,
		colBy:   make([]int32, n),
		diagBy:  make([]int32, 2*n-1),
		antiBy:  make([]int32, 2*n-1),
		observe: opt.Observe,
		unique:  opt.Unique,
		rotOnly: opt.Rotations,
		classes: classes(n, opt),
	}
	for i := range s.q {
		s.q[i] = -1
	}
	for _, p := range opt.Place {
		if s.fixed[p.Row] {
			continue // the same queen twice
		}
		s.fixed[p.Row] = true
		s.free--
		s.mark(p.Row, p.Col)
	}
	return s, nil
}

// attacker returns the row of a queen attacking (row, col), or -1.
func (s *searcher) attacker(row, col int) int {
	if r := s.colBy[col]; r != 0 {
		return int(r) - 1
	}
	if r := s.diagBy[row+col]; r != 0 {
		return int(r) - 1
	}
	if r := s.antiBy[row-col+s.n-1]; r != 0 {
		return int(r) - 1
	}
	return -1
}

// safe reports whether no queen attacks (row, col).
func (s *searcher) safe(row, col int) bool {
	return s.colBy[col]|s.diagBy[row+col]|s.antiBy[row-col+s.n-1] == 0
}

func (s *searcher) mark(row, col int) {
	s.q[row] = col
	by := int32(row + 1)
	s.colBy[col], s.diagBy[row+col], s.antiBy[row-col+s.n-1] = by, by, by
}

func (s *searcher) unmark(row, col int) {
	s.q[row] = -1
	s.colBy[col], s.diagBy[row+col], s.antiBy[row-col+s.n-1] = 0, 0, 0
}

// try tells the observer about (row, col) and reports whether it is safe,
// rejecting it if not.
func (s *searcher) try(row, col int) bool {
	s.emit(EventTry, row, col, board.Queen{})
	a := s.attacker(row, col)
	if a < 0 {
		return true
	}
	s.emit(EventReject, row, col, board.Queen{Row: a, Col: s.q[a]})
	return false
}

func (s *searcher) emit(kind EventKind, row, col int, attacker board.Queen) {
	s.observe(Event{Kind: kind, Row: row, Col: col, Attacker: attacker, Queens: s.q, Stack: s.frames})
}

// place puts a queen on (row, col), which must be safe, and checks now and
// then whether the context has ended.
func (s *searcher) place(row, col int) {
	s.mark(row, col)
	s.free--
	s.stats.Nodes++
	if s.observe != nil {
		s.emit(EventPlace, row, col, board.Queen{})
	}
	s.poll()
}

// poll checks now and then (every 4096 queens) whether the context has
// ended.
func (s *searcher) poll() {
	if s.stats.Nodes&(1<<12-1) == 0 && s.done != nil {
		select {
		case <-s.done:
			s.stopped, s.cancelled = true, true
		default:
		}
	}
}

// remove takes the queen on (row, col) away again.
func (s *searcher) remove(row, col int) {
	s.unmark(row, col)
	s.free++
	s.stats.Backtracks++
	if s.observe != nil {
		s.emit(EventBacktrack, row, col, board.Queen{})
	}
}

// solution reports the complete placement in s.q.
func (s *searcher) solution() {
	s.stats.Solutions++
	if s.observe != nil {
		s.emit(EventSolution, -1, -1, board.Queen{})
	}
	if s.unique && !canonical(s.q, s.rotOnly, s.classes) {
		return
	}
	if !s.yield(s.q.Clone()) {
		s.stopped = true
	}
}

// lex fills the rows from row on, top to bottom, trying columns left to
// right.
func (s *searcher) lex(row int) {
	for row < s.n && s.fixed[row] {
		row++
	}
	if row == s.n {
		s.solution()
		return
	}
	top := s.push(row)
	for col := 0; col < s.n; col++ {
		if s.observe != nil {
			s.frames[top].Col = col
			if !s.try(row, col) {
				continue
			}
		} else if !s.safe(row, col) {
			continue
		}
		s.place(row, col)
		if !s.stopped {
			s.lex(row + 1)
		}
		if s.stopped {
			return // leave the queens where they are: the search ends here
		}
		s.remove(row, col)
	}
	s.pop(top)
}

// push enters the call that fills row on the stack of an observed search
// and returns its index (-1 unobserved).
func (s *searcher) push(row int) int {
	if s.observe == nil {
		return -1
	}
	s.frames = append(s.frames, board.Queen{Row: row, Col: -1})
	return len(s.frames) - 1
}

// pop leaves the call of index top (nothing for -1).
func (s *searcher) pop(top int) {
	if top >= 0 {
		s.frames = s.frames[:top]
	}
}

// canonical reports whether s is the representative of its class under
// the symmetries ts if not nil, else under the 8 symmetries, or the 4
// rotations if rotOnly.
func canonical(s board.Solution, rotOnly bool, ts []board.Transform) bool {
	if ts != nil {
		return board.IsCanonicalUnder(s, ts)
	}
	if rotOnly {
		return board.IsCanonicalRotation(s)
	}
	return board.IsCanonical(s)
}

// searchColumns runs the search of opt.Order Columns as the row search of
// the transposed board (a queen on (r, c) stands on (c, r) there), and
// turns its events and solutions back.
func searchColumns(ctx context.Context, n int, opt Options, yield func(board.Solution) bool) (Stats, error) {
	// Checked here, so that the errors name the squares given.
	if err := board.CheckSize(n, opt.Strategy.MaxN()); err != nil {
		return Stats{}, fmt.Errorf("backtrack: %s: %w", opt.Strategy, err)
	}
	if err := board.CheckPlacement(n, opt.Place); err != nil {
		return Stats{}, fmt.Errorf("backtrack: %w", err)
	}
	t := opt
	t.Strategy = opt.resolve(n)
	t.Order, t.Unique = Rows, false // the classes are checked on the board itself
	cls := classes(n, opt)
	t.Place = make([]board.Queen, len(opt.Place))
	for i, q := range opt.Place {
		t.Place[i] = board.Queen{Row: q.Col, Col: q.Row}
	}
	if opt.Observe != nil {
		real := make(board.Solution, n)
		var stack []board.Queen
		t.Observe = func(e Event) {
			transpose(real, e.Queens)
			if e.Kind != EventSolution {
				e.Row, e.Col = e.Col, e.Row
			}
			e.Attacker = board.Queen{Row: e.Attacker.Col, Col: e.Attacker.Row}
			e.Queens = real
			stack = stack[:0]
			for _, f := range e.Stack {
				stack = append(stack, board.Queen{Row: f.Col, Col: f.Row})
			}
			e.Stack = stack
			opt.Observe(e)
		}
	}
	return Search(ctx, n, t, func(s board.Solution) bool {
		real := make(board.Solution, n)
		transpose(real, s)
		if opt.Unique && !canonical(real, opt.Rotations, cls) {
			return true
		}
		return yield(real)
	})
}

// transpose writes into dst the placement q turned over the main
// diagonal: a queen on (r, q[r]) goes to (q[r], r); rows without a queen
// stay -1.
func transpose(dst, q board.Solution) {
	for i := range dst {
		dst[i] = -1
	}
	for r, c := range q {
		if c >= 0 {
			dst[c] = r
		}
	}
}

// classes returns the symmetries whose classes a search with Unique and
// pre-placed queens lists ([board.Stabilizer]), nil without them.
func classes(n int, opt Options) []board.Transform {
	if !opt.Unique || len(opt.Place) == 0 {
		return nil
	}
	return board.Stabilizer(n, opt.Place, opt.Rotations)
}

// resolve returns the strategy the search runs: opt.Strategy resolved
// for n, and Lex for Auto with Unique.
func (opt Options) resolve(n int) Strategy {
	if opt.Strategy == Auto && opt.Unique {
		return Lex
	}
	return opt.Strategy.Resolve(n)
}
