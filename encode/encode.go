package encode

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/queens-dev/queens/board"
)

// CNF is a formula in conjunctive normal form: Vars variables numbered from
// 1, and clauses of signed DIMACS literals (v true, -v false). N, Encoding
// and Placed describe the N-Queens instance it encodes; [ReadDIMACS] leaves
// them zero.
type CNF struct {
	N        int           // board size, 0 if unknown
	Encoding string        // at-most-one encoding, "" if unknown
	Placed   []board.Queen // pre-placed queens, 0-based
	Vars     int
	Clauses  [][]int
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

// ErrEncoding is wrapped by the error for an encoding name that is not in
// [Encodings].
var ErrEncoding = errors.New("unknown encoding")

// Auto is the encoding name that lets [Queens] choose by board size.
const Auto = "auto"

// encoding is one at-most-one encoding.
type encoding struct {
	name  string
	doc   string
	maxN  int // largest board Queens builds with it (memory)
	amo   func(b *builder, xs []int)
	count func(L int) (clauses, aux int) // per at-most-one constraint over L literals
}

// The at-most-one encodings, in the order [Encodings] lists them.
var encodings = []encoding{
	{"pairwise", "every pair of squares on a line: no auxiliary variables, O(n^3) clauses", 200, pairwise, pairwiseCount},
	{"seq", "Sinz's sequential counter: L-1 auxiliaries and 3L-4 clauses per line of L squares", 2000, sequential, sequentialCount},
	{"commander", "Klieber and Kwon's commander encoding, groups of 3, recursive: about L/2 auxiliaries and 3.5L clauses per line", 2000, commander, commanderCount},
}

// Encodings returns the names of the at-most-one encodings [Queens]
// accepts, besides [Auto].
func Encodings() []string {
	names := make([]string, len(encodings))
	for i, e := range encodings {
		names[i] = e.name
	}
	return names
}

// Describe returns a one-line description of the named encoding, and an
// error wrapping [ErrEncoding] for an unknown name.
func Describe(name string) (string, error) {
	if name == Auto {
		return fmt.Sprintf("pairwise for n <= %d, commander above", autoPairwiseMax), nil
	}
	e, err := lookup(name)
	return e.doc, err
}

// autoPairwiseMax is the largest n for which auto picks pairwise: small
// boards enumerate fastest without auxiliary variables, large boards need
// the O(n^2) size of commander.
const autoPairwiseMax = 40

// Resolve returns the encoding Queens uses for name on an n×n board: name
// itself, or for [Auto] the one chosen by size. An unknown name wraps
// [ErrEncoding].
func Resolve(name string, n int) (string, error) {
	if name == Auto || name == "" {
		if n <= autoPairwiseMax {
			return "pairwise", nil
		}
		return "commander", nil
	}
	e, err := lookup(name)
	return e.name, err
}

// MaxN returns the largest board size [Queens] encodes with the named
// encoding (the limit keeps the formula in memory), or 0 for an unknown
// name. For [Auto] it is the limit of the largest encoding auto picks.
func MaxN(name string) int {
	if name == Auto || name == "" {
		name = "commander"
	}
	e, err := lookup(name)
	if err != nil {
		return 0
	}
	return e.maxN
}

func lookup(name string) (encoding, error) {
	for _, e := range encodings {
		if e.name == name {
			return e, nil
		}
	}
	return encoding{}, fmt.Errorf("%w %q (want %s or %s)", ErrEncoding, name, strings.Join(Encodings(), ", "), Auto)
}

// Queens returns the CNF of the n-queens puzzle with the named at-most-one
// encoding ([Auto] or "" chooses by n) and the queens of placed (0-based)
// as unit clauses.
//
// Every row and column gets exactly one queen (a clause of its n squares
// plus at-most-one), every diagonal and anti-diagonal of two or more
// squares at most one. Its models restricted to the n*n board variables
// ([Var]) are exactly the solutions; with auxiliary variables one solution
// may have several models (see the package comment). [Size] gives the
// exact number of variables and clauses.
//
// Errors wrap [board.ErrSize] (n < 1 or above [MaxN] of the encoding),
// [ErrEncoding] or [board.ErrPlacement].
func Queens(n int, name string, placed []board.Queen) (*CNF, error) {
	resolved, err := Resolve(name, n)
	if err != nil {
		return nil, err
	}
	e, _ := lookup(resolved)
	if err := board.CheckSize(n, e.maxN); err != nil {
		return nil, fmt.Errorf("encode %s: %w", e.name, err)
	}
	if err := board.CheckPlacement(n, placed); err != nil {
		return nil, err
	}
	placed = uniqueQueens(placed)
	vars, clauses := size(e, n)
	// Most clauses are binary; rows, columns and commander ORs are longer.
	b := &builder{next: n*n + 1, ends: make([]int, 0, clauses+len(placed)),
		lits: make([]int, 0, 2*clauses+clauses/2+2*n*n+len(placed))}
	line := make([]int, 0, n)
	for row := range n { // rows: exactly one
		line = line[:0]
		for col := range n {
			line = append(line, Var(n, row, col))
		}
		b.clause(line...)
		e.amo(b, line)
	}
	for col := range n { // columns: exactly one
		line = line[:0]
		for row := range n {
			line = append(line, Var(n, row, col))
		}
		b.clause(line...)
		e.amo(b, line)
	}
	// Diagonals (row-col constant), then anti-diagonals (row+col
	// constant), each from the top row down; lines of one square need
	// nothing.
	for d := -(n - 2); d <= n-2; d++ {
		line = line[:0]
		for row := max(0, d); row < n && row-d < n; row++ {
			line = append(line, Var(n, row, row-d))
		}
		e.amo(b, line)
	}
	for s := 1; s <= 2*n-3; s++ {
		line = line[:0]
		for row := max(0, s-n+1); row < n && row <= s; row++ {
			line = append(line, Var(n, row, s-row))
		}
		e.amo(b, line)
	}
	for _, q := range placed {
		b.clause(Var(n, q.Row, q.Col))
	}
	cnf := &CNF{N: n, Encoding: e.name, Placed: placed, Vars: b.next - 1, Clauses: b.finish()}
	if cnf.Vars != vars || len(cnf.Clauses) != clauses+len(placed) {
		// Size's formulas and the builder disagree: a bug, not input.
		panic(fmt.Sprintf("encode: %s n=%d: built %d vars, %d clauses; Size says %d, %d",
			e.name, n, cnf.Vars, len(cnf.Clauses), vars, clauses))
	}
	return cnf, nil
}

// uniqueQueens returns qs sorted by row with duplicates removed.
func uniqueQueens(qs []board.Queen) []board.Queen {
	out := slices.Clone(qs)
	slices.SortFunc(out, func(a, b board.Queen) int { return a.Row - b.Row })
	return slices.Compact(out)
}

// Size returns the number of variables and clauses of the n-queens CNF in
// the named encoding without building it, not counting the unit clauses
// of pre-placed queens. Closed forms (n >= 2 for seq):
//
//	pairwise   V = n^2             C = n(n-1)(5n-1)/3 + 2n
//	seq        V = 5n^2 - 6n + 2   C = 12n^2 - 22n + 12
//	commander  a recursion over the lines: see the package comment
func Size(n int, name string) (vars, clauses int, err error) {
	resolved, err := Resolve(name, n)
	if err != nil {
		return 0, 0, err
	}
	if n < 1 {
		return 0, 0, board.CheckSize(n, board.MaxN)
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
	add(n, 2*n)
	for L := 2; L < n; L++ {
		add(L, 4) // two diagonals of each length in each direction
	}
	if n >= 2 {
		add(n, 2) // the two long diagonals
	}
	return vars, clauses
}

// builder collects clauses into one backing array and numbers auxiliary
// variables.
type builder struct {
	next int   // next free variable
	lits []int // all literals, clause after clause
	ends []int // ends[i] is the end of clause i in lits
}

func (b *builder) fresh() int { b.next++; return b.next - 1 }

func (b *builder) clause(lits ...int) {
	b.lits = append(b.lits, lits...)
	b.ends = append(b.ends, len(b.lits))
}

func (b *builder) finish() [][]int {
	clauses := make([][]int, len(b.ends))
	start := 0
	for i, end := range b.ends {
		clauses[i] = b.lits[start:end:end] // full slice: appending copies
		start = end
	}
	return clauses
}

// pairwise: (-x_i | -x_j) for every i < j.
func pairwise(b *builder, xs []int) {
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			b.clause(-xs[i], -xs[j])
		}
	}
}

func pairwiseCount(L int) (clauses, aux int) { return L * (L - 1) / 2, 0 }

// sequential is Sinz's counter: s_i is true if one of x_1..x_i is.
//
//	(-x_1 | s_1), and for 1 < i < L: (-x_i | s_i), (-s_(i-1) | s_i), (-x_i | -s_(i-1)),
//	(-x_L | -s_(L-1))
func sequential(b *builder, xs []int) {
	L := len(xs)
	if L < 2 {
		return
	}
	s := b.fresh()
	b.clause(-xs[0], s)
	for i := 1; i < L-1; i++ {
		next := b.fresh()
		b.clause(-xs[i], next)
		b.clause(-s, next)
		b.clause(-xs[i], -s)
		s = next
	}
	b.clause(-xs[L-1], -s)
}

func sequentialCount(L int) (clauses, aux int) {
	if L < 2 {
		return 0, 0
	}
	return 3*L - 4, L - 1
}

// commanderGroup is the group size of the commander encoding.
const commanderGroup = 3

// commander splits xs into groups of 3 (the last may be smaller). A group
// of one is its own commander; a larger group gets pairwise at-most-one and
// a commander c <-> OR(group): (-c | g_1 | ... ) and (-g_i | c). At most
// one commander may be true, recursively; 4 or fewer literals are done
// pairwise.
func commander(b *builder, xs []int) {
	if len(xs) <= commanderGroup+1 {
		pairwise(b, xs)
		return
	}
	cmds := make([]int, 0, (len(xs)+commanderGroup-1)/commanderGroup)
	for start := 0; start < len(xs); start += commanderGroup {
		g := xs[start:min(start+commanderGroup, len(xs))]
		if len(g) == 1 {
			cmds = append(cmds, g[0])
			continue
		}
		c := b.fresh()
		cmds = append(cmds, c)
		pairwise(b, g)
		or := make([]int, 0, len(g)+1)
		or = append(or, -c)
		or = append(or, g...)
		b.clause(or...)
		for _, x := range g {
			b.clause(-x, c)
		}
	}
	commander(b, cmds)
}

func commanderCount(L int) (clauses, aux int) {
	if L <= commanderGroup+1 {
		return pairwiseCount(L)
	}
	groups := (L + commanderGroup - 1) / commanderGroup
	for start := 0; start < L; start += commanderGroup {
		g := min(commanderGroup, L-start)
		if g > 1 {
			c, _ := pairwiseCount(g)
			clauses += c + 1 + g
			aux++
		}
	}
	c, a := commanderCount(groups)
	return clauses + c, aux + a
}
