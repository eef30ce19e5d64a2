package serve

// This file is the only one of the package that calls queens' engines
// (backtrack, sat, encode and the board writers): when they move, only it
// changes. Everything else in the package speaks in the types below and in
// board.Solution / board.Queen.

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
)

// The engines "Solve from here" offers.
const (
	engineBacktrack = "backtrack"
	engineSAT       = "sat"
)

// solve completes the queens qs (valid by board.CheckPlacement) on an n×n
// board with the named engine. A nil solution with a nil error means there
// is no completion: the backtracker's own answer, or gini's checked by
// the library referee (compare.Referee), whose verdict comes with it.
func solve(ctx context.Context, n int, qs []board.Queen, engine string) (board.Solution, *Verification, error) {
	switch engine {
	case engineBacktrack:
		var first board.Solution
		_, err := backtrack.Search(ctx, n, backtrack.Options{Place: qs}, func(s board.Solution) bool {
			first = s
			return false
		})
		if err != nil || first != nil {
			return first, nil, err
		}
		return nil, verifiedBy(compare.Verdict{By: compare.Backtracker}), nil
	case engineSAT:
		cnf, err := encode.Queens(n, encode.Auto, qs)
		if err != nil {
			return nil, nil, err
		}
		s, err := sat.First(ctx, cnf)
		if err != nil || s != nil {
			return s, nil, err
		}
		v, err := compare.Referee{N: n, Place: qs, Budget: refereeBudget}.Check(ctx, compare.Claim{})
		if err != nil {
			return nil, nil, fmt.Errorf("engine sat found no completion: %w", err)
		}
		return nil, verifiedBy(v), nil
	}
	return nil, nil, fmt.Errorf("unknown engine %q", engine)
}

// refereeBudget bounds each of the referee's searches for a request.
const refereeBudget = 2 * time.Second

// Verification is the part of an answer (no completion, a count) that says
// whether it was verified, and how.
type Verification = compare.Verification

func verifiedBy(v compare.Verdict) *Verification { return v.Verification() }

// countResult is what count found. Unique and Rotations are set for the
// empty board only.
type countResult struct {
	Total, Unique, Rotations uint64
	Verified                 *Verification
}

// count counts the completions of qs on an n×n board with the bitboard
// counter on all cores, calling progress (done, parts) as it goes. For the
// empty board it also counts the classes of solutions up to the 8
// symmetries and up to the 4 rotations; see rotationClasses.
func count(ctx context.Context, n int, qs []board.Queen, progress func(done, parts int)) (countResult, error) {
	unique := len(qs) == 0
	res, err := backtrack.Count(ctx, n, backtrack.CountOptions{Place: qs, Unique: unique, Progress: progress})
	if err != nil {
		return countResult{}, err
	}
	out := countResult{Total: res.Total, Verified: verifiedBy(compare.Verdict{By: compare.Backtracker})}
	if unique {
		out.Unique, out.Rotations = res.Unique, rotationClasses(n, res.Unique)
		// The empty board's count against the published table (the
		// referee needs no search for it).
		v, err := compare.Referee{N: n}.Check(ctx, compare.Claim{Solutions: res.Total, Count: true})
		if err != nil {
			return countResult{}, fmt.Errorf("the counter counted %d: %w", res.Total, err)
		}
		if v.Verified() {
			out.Verified = verifiedBy(v)
		}
	}
	return out, nil
}

// rotationClasses returns the number of classes of n-queens solutions
// under the 4 rotations alone, given the number under all 8 symmetries.
//
// No solution with n >= 2 is its own mirror image: a mirror across the
// middle column or row would put two queens in one row or column, and one
// across a diagonal pairs (r, c) with (c, r), two squares on one
// anti-diagonal (or one diagonal), unless every queen stood on the mirror
// line itself. So the 8 images of a solution fall into two rotation
// classes, its own and its mirror's, and each class under the 8 symmetries
// is two classes under the rotations. The tests check this against
// orbit counting over the enumerated solutions.
func rotationClasses(n int, unique uint64) uint64 {
	if n == 1 {
		return unique
	}
	return 2 * unique
}

// rotations lists the four rotations of the board, the identity first.
var rotations = [4]board.Transform{board.Identity, board.Rot90, board.Rot180, board.Rot270}

// galleryClass is one class of solutions under the 8 symmetries: its
// distinct images, the canonical one (the smallest) first, then in
// lexicographic order.
type galleryClass []board.Solution

// gallery returns every solution of the n×n board grouped by symmetry
// class, the classes in the order of their canonical solutions, and the
// number of classes under the rotations alone, counted as orbits.
func gallery(ctx context.Context, n int) (classes []galleryClass, rotClasses int, err error) {
	seen := map[string]bool{}
	rotSeen := map[string]bool{}
	_, err = backtrack.Search(ctx, n, backtrack.Options{Strategy: backtrack.Lex}, func(s board.Solution) bool {
		if !rotSeen[key(s)] {
			rotClasses++
			for _, t := range rotations {
				rotSeen[key(t.Apply(s))] = true
			}
		}
		if seen[key(s)] {
			return true
		}
		var class galleryClass
		for _, t := range board.Transforms() {
			img := t.Apply(s)
			if k := key(img); !seen[k] {
				seen[k] = true
				class = append(class, img)
			}
		}
		slices.SortFunc(class, board.Solution.Compare)
		classes = append(classes, class)
		return true
	})
	if err != nil {
		return nil, 0, err
	}
	slices.SortFunc(classes, func(a, b galleryClass) int { return a[0].Compare(b[0]) })
	return classes, rotClasses, nil
}

// key is a map key for a solution of at most 255 rows.
func key(s board.Solution) string {
	b := make([]byte, len(s))
	for i, c := range s {
		b[i] = byte(c)
	}
	return string(b)
}

// exportFormats are the formats of export, with their content types and
// file name extensions.
var exportFormats = map[string]struct{ contentType, ext string }{
	"svg":    {"image/svg+xml", "svg"},
	"png":    {"image/png", "png"},
	"fen":    {"text/plain; charset=utf-8", "fen"},
	"dimacs": {"text/plain; charset=utf-8", "cnf"},
}

// export writes the board s (-1 for a row without a queen) in format to
// w with the writers of the CLI: SVG and PNG with the attacked squares
// shaded, FEN (n = 8 only) and the DIMACS CNF whose models are the
// completions of the queens (which must not attack each other).
func export(w io.Writer, s board.Solution, format string, pic *draw.Options) error {
	switch format {
	case "svg":
		return draw.WriteSVG(w, s, pic)
	case "png":
		return draw.WritePNG(w, s, pic)
	case "fen":
		b, err := board.AppendFEN(nil, s)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	case "dimacs":
		var qs []board.Queen
		for row, col := range s {
			if col >= 0 {
				qs = append(qs, board.Queen{Row: row, Col: col})
			}
		}
		cnf, err := encode.Queens(len(s), encode.Auto, qs)
		if err != nil {
			return err
		}
		return encode.WriteDIMACS(w, cnf)
	}
	return fmt.Errorf("unknown format %q", format)
}

// traceStep is one step of a trace, as the page shows it: 0-based squares,
// the words of the trace command (1-based there, as users write squares).
type traceStep struct {
	Kind     string         `json:"kind"`
	Row      int            `json:"row"`          // dead end: the row (-1 in column order); solution: -1
	Col      int            `json:"col"`          // dead end: -1 (the column in column order); solution: -1
	By       *square        `json:"by,omitempty"` // reject: the attacking queen
	Line     string         `json:"line,omitempty"`
	Solution int            `json:"solution,omitempty"` // solution: its number, from 1
	Queens   board.Solution `json:"queens"`             // after the step, -1 for an empty row
	Dead     [][2]int       `json:"dead,omitempty"`     // dead end: the squares it found attacked
	Text     string         `json:"text"`
	Stack    [][2]int       `json:"stack"`     // the search's stack, outermost first (backtrack.Event.Stack)
	StackAs  string         `json:"stackKind"` // "calls" (recursion) or "explicit" (iterative)
}

// trace runs the backtracker in lexicographic order from the queens qs and
// returns maxSteps of its steps after the first from (through every
// solution, not just the first), and whether the search goes on after them.
// The steps are those of the trace command: the same [backtrack.Narrator]
// tells them, in the same words.
func trace(ctx context.Context, n int, qs []board.Queen, from int, how traceHow) (steps []traceStep, stopped bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	nr := backtrack.Narrator{Order: how.order, Strategy: how.strategy}
	maxSteps := how.maxSteps
	skipped := 0
	add := func(st backtrack.Step) {
		if skipped < from {
			skipped++
			return
		}
		if len(steps) >= maxSteps {
			stopped = true
			cancel()
			return
		}
		steps = append(steps, pageStep(st, how.agents))
	}
	opt := backtrack.Options{Place: qs, Strategy: how.strategy, Order: how.order, Observe: func(e backtrack.Event) {
		for _, st := range nr.Event(e) {
			add(st)
		}
	}}
	_, err = backtrack.Search(ctx, n, opt, func(board.Solution) bool { return true })
	if stopped {
		return steps, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	for _, st := range nr.End(n, qs) { // a search that never placed a queen
		add(st)
	}
	return steps, stopped, nil
}

// traceHow is how a trace runs and tells its steps: the order, the
// strategy, the agents' words or the steps', and at most maxSteps.
type traceHow struct {
	order    backtrack.Order
	strategy backtrack.Strategy
	agents   bool
	maxSteps int
}

// pageStep is st as the page shows it, told in the agents' words if
// agents.
func pageStep(st backtrack.Step, agents bool) traceStep {
	p := traceStep{Kind: st.Kind.String(), Row: st.Row, Col: st.Col, Line: st.Line, Solution: st.Solution, Queens: st.Queens, Text: st.Text(),
		Stack: [][2]int{}, StackAs: "calls"}
	if st.Strategy == backtrack.Iterative {
		p.StackAs = "explicit"
	}
	for _, f := range st.Stack {
		p.Stack = append(p.Stack, [2]int{f.Row, f.Col})
	}
	if agents {
		p.Text = st.AgentText()
	}
	switch st.Kind {
	case backtrack.StepReject, backtrack.StepFail:
		p.By = &square{st.Attacker.Row, st.Attacker.Col}
	case backtrack.StepDeadEnd:
		// The line: the row (Col -1), or in column order the column
		// (Row -1), as the narrator says; any free cell: neither. Dead
		// has the squares.
		for _, q := range st.DeadSquares() {
			p.Dead = append(p.Dead, [2]int{q.Row, q.Col})
		}
	case backtrack.StepSolution:
		p.Row, p.Col = -1, -1
	}
	return p
}
