package compare

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare/sets"
)

// Diff is [sets.Diff], the exact difference between two multisets of
// solutions.
type Diff = sets.Diff

// Fingerprint is [sets.Fingerprint], a multiset of solutions summarised in
// constant memory.
type Fingerprint = sets.Fingerprint

// Sets is [sets.Compare]: it compares two streams exactly, holding both in
// memory. A program that needs only this imports package sets, which
// links no solver.
func Sets(a, b iter.Seq2[board.Solution, error]) (Diff, error) {
	d, err := sets.Compare(a, b)
	if err != nil {
		return Diff{}, fmt.Errorf("compare sets: %w", err)
	}
	return d, nil
}

// Source produces every solution of the n×n board that has queens on the
// squares of place, as a stream; a non-nil error ends the stream. Every
// engine (the backtracker, gini under each encoding, an external solver)
// is a Source.
type Source func(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error]

// Engine is a named [Source].
type Engine struct {
	Name      string
	Solutions Source
	// FirstOnly makes Check take only the first solution: for engines
	// too slow to enumerate (an external solver re-run once per solution
	// on a big board). That solution is checked, and "no solution" is a
	// finding when the reference engine found some.
	FirstOnly bool
	// Count, if not nil, makes the engine a counter that emits no
	// solutions (Solutions is not used): Check compares its total with the
	// reference engine's and its total and unique count with the
	// published table, but has no solutions to check or to localise.
	Count func(ctx context.Context, n int, place []board.Queen) (total, unique uint64, err error)
}

// Outcome is what one engine produced for one problem.
type Outcome struct {
	Engine string
	// Total is the number of solutions the engine emitted, or a
	// counter's count.
	Total uint64
	// Fingerprint summarises the solutions emitted (Fingerprint.Count is
	// Total); a counter's is zero.
	Fingerprint Fingerprint
	// Unique counts the solutions in canonical form (board.IsCanonical):
	// the number of classes up to symmetry, if the stream is complete and
	// without pre-placed queens.
	Unique uint64
	// InvalidCount counts the emitted placements that are not solutions
	// of the problem; Invalid keeps the first few of them.
	InvalidCount uint64
	Invalid      []Invalid
	Elapsed      time.Duration
	Err          error
	// Counted says the outcome is a counter's (see Engine.Count): a count
	// and a unique count, but no solutions and so no fingerprint.
	Counted bool
}

// Invalid is a solution an engine emitted that is not a solution, or that
// lacks a pre-placed queen.
type Invalid struct {
	Solution board.Solution
	Reason   string
}

// maxShown bounds the examples a report keeps of each kind of finding.
const maxShown = 10

// Run drains one engine's stream for the problem, checking every solution
// with [board.Solution.Check] and the pre-placed queens as it passes.
func Run(ctx context.Context, e Engine, n int, place []board.Queen) Outcome {
	t := Outcome{Engine: e.Name}
	start := time.Now()
	if e.Count != nil {
		t.Counted = true
		t.Total, t.Unique, t.Err = e.Count(ctx, n, place)
		t.Elapsed = time.Since(start)
		return t
	}
	for s, err := range e.Solutions(ctx, n, place) {
		if e.FirstOnly && t.Fingerprint.Count > 0 {
			break
		}
		if err != nil {
			t.Err = err
			break
		}
		t.Fingerprint.Add(s)
		reason := ""
		if len(s) != n {
			reason = fmt.Sprintf("%d rows on a board of %d", len(s), n)
		} else if err := s.Check(); err != nil {
			reason = err.Error()
		} else if !s.Contains(place) {
			reason = "a pre-placed queen is missing"
		} else if len(place) == 0 && board.IsCanonical(s) {
			t.Unique++
		}
		if reason != "" {
			t.InvalidCount++
			if len(t.Invalid) < maxShown { // the first few say enough
				t.Invalid = append(t.Invalid, Invalid{s.Clone(), reason})
			}
		}
	}
	if t.Err == nil {
		t.Err = ctx.Err()
	}
	t.Total = t.Fingerprint.Count
	t.Elapsed = time.Since(start)
	return t
}

// Mismatch is a solution that two engines disagree on: Missing emitted
// fewer copies of it than Have (none, or one where Have emitted it twice).
type Mismatch struct {
	Solution      board.Solution
	Have          string // the engine with more copies
	Missing       string // the engine with fewer
	HaveCopies    int    // copies Have emitted in the part examined
	MissingCopies int    // copies Missing emitted there
}

// Result is the outcome of [Check] for one problem.
type Result struct {
	N         int
	Place     []board.Queen
	Outcomes  []Outcome
	Published *board.Counts // nil with pre-placed queens or n beyond the table
	// Mismatches lists solutions the engines disagree on, found by
	// localising each disagreement (see [Check]); at most maxShown per pair.
	Mismatches []Mismatch
	// Findings lists everything found wrong: errors, invalid solutions,
	// counts that differ from the published table or from the first
	// engine. Empty means everything agreed.
	Findings []Finding
}

// OK reports whether the engines agreed with each other and with the
// published table, and every solution was valid.
func (r Result) OK() bool { return len(r.Findings) == 0 }

// Check runs every engine on the n×n problem with the pre-placed queens,
// checks each solution as it passes, and compares the engines' multisets
// of solutions by [Fingerprint] against the first engine (the reference),
// and their counts against the published table when there is no
// pre-placement. Where two engines disagree it localises the difference:
// it re-runs both with one more queen pre-placed in the first free row,
// for each column, descends into the parts that still differ, and compares
// the parts exactly once they are small, so that the differing solutions
// themselves are reported. Memory stays bounded by the size of those small
// parts.
func Check(ctx context.Context, n int, place []board.Queen, engines []Engine) Result {
	r := Result{N: n, Place: place}
	if c, ok := board.Known(n); ok && len(place) == 0 {
		r.Published = &c
	}
	for _, e := range engines {
		t := Run(ctx, e, n, place)
		r.Outcomes = append(r.Outcomes, t)
		if t.Err != nil {
			r.add(Finding{Kind: EngineFailed, Engine: e.Name, Err: t.Err})
			continue
		}
		for _, inv := range t.Invalid {
			r.add(Finding{Kind: InvalidSolution, Engine: e.Name, Solution: inv.Solution, Reason: inv.Reason})
		}
		if more := t.InvalidCount - uint64(len(t.Invalid)); more > 0 {
			r.add(Finding{Kind: MoreInvalid, Engine: e.Name, Got: more})
		}
		want, wantFrom := uint64(0), ""
		if p := r.Published; p != nil {
			want = p.Total
		} else if ref := r.Outcomes[0]; ref.Err == nil && len(r.Outcomes) > 1 {
			want, wantFrom = ref.Total, ref.Engine
		}
		if t.Total == 0 && want > 0 && e.Count == nil {
			r.add(Finding{Kind: FalseUnsat, Engine: e.Name, Reference: wantFrom, Want: want})
			continue
		}
		if e.FirstOnly {
			continue
		}
		if p := r.Published; p != nil {
			if t.Total != p.Total {
				r.add(Finding{Kind: PublishedTotal, Engine: e.Name, Got: t.Total, Want: p.Total})
			} else if t.Unique != p.Unique && len(t.Invalid) == 0 {
				r.add(Finding{Kind: PublishedUnique, Engine: e.Name, Got: t.Unique, Want: p.Unique})
			}
		}
	}
	if len(engines) < 2 || r.Outcomes[0].Err != nil {
		return r
	}
	ref := engines[0]
	for i, e := range engines[1:] {
		t, rt := r.Outcomes[i+1], r.Outcomes[0]
		if e.Count != nil {
			if t.Err == nil && t.Total != rt.Total {
				r.add(Finding{Kind: CountDiffers, Engine: e.Name, Reference: ref.Name, Got: t.Total, Want: rt.Total})
			}
			continue
		}
		if t.Err != nil || e.FirstOnly || t.Fingerprint == rt.Fingerprint {
			continue
		}
		r.add(Finding{Kind: Differ, Engine: e.Name, Reference: ref.Name, Got: t.Total, Want: rt.Total,
			Print: t.Fingerprint, RefPrint: rt.Fingerprint})
		ms, err := localize(ctx, n, place, ref, e, rt.Fingerprint, t.Fingerprint)
		if err != nil {
			r.add(Finding{Kind: LocalizeFailed, Engine: e.Name, Reference: ref.Name, Err: err})
		} else if len(ms) == 0 {
			r.add(Finding{Kind: PartsAgree, Engine: e.Name, Reference: ref.Name})
		}
		r.Mismatches = append(r.Mismatches, ms...)
	}
	return r
}

func (r *Result) add(f Finding) { r.Findings = append(r.Findings, f) }

// exactLimit is the size below which localize compares parts exactly.
const exactLimit = 4096

// errStop ends a localisation that has found enough.
var errStop = errors.New("enough mismatches")

// localize finds solutions that engines a and b disagree on in the problem
// (n, place), whose fingerprints fa and fb differ.
func localize(ctx context.Context, n int, place []board.Queen, a, b Engine, fa, fb Fingerprint) ([]Mismatch, error) {
	var out []Mismatch
	var walk func(place []board.Queen, fa, fb Fingerprint) error
	walk = func(place []board.Queen, fa, fb Fingerprint) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		row := freeRow(n, place)
		if row < 0 || max(fa.Count, fb.Count) <= exactLimit {
			return exact(ctx, n, place, a, b, &out)
		}
		for col := 0; col < n; col++ {
			sub := append(slices.Clip(place), board.Queen{Row: row, Col: col})
			if board.CheckPlacement(n, sub) != nil {
				continue
			}
			ta, tb := Run(ctx, a, n, sub), Run(ctx, b, n, sub)
			if ta.Err != nil {
				return fmt.Errorf("%s with %s: %w", a.Name, placeText(sub), ta.Err)
			}
			if tb.Err != nil {
				return fmt.Errorf("%s with %s: %w", b.Name, placeText(sub), tb.Err)
			}
			if ta.Fingerprint != tb.Fingerprint {
				if err := walk(sub, ta.Fingerprint, tb.Fingerprint); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := walk(place, fa, fb)
	if errors.Is(err, errStop) {
		err = nil
	}
	return out, err
}

// exact compares one small part exactly and appends what differs.
func exact(ctx context.Context, n int, place []board.Queen, a, b Engine, out *[]Mismatch) error {
	ds, err := sets.Differences(a.Solutions(ctx, n, place), b.Solutions(ctx, n, place))
	if se := (*sets.StreamError)(nil); errors.As(err, &se) {
		return se.Err
	}
	for _, d := range ds {
		if d.A > d.B {
			*out = append(*out, Mismatch{d.Solution, a.Name, b.Name, d.A, d.B})
		} else {
			*out = append(*out, Mismatch{d.Solution, b.Name, a.Name, d.B, d.A})
		}
	}
	if len(*out) >= maxShown {
		*out = (*out)[:maxShown]
		return errStop
	}
	return nil
}

// freeRow returns the first row with no pre-placed queen, or -1.
func freeRow(n int, place []board.Queen) int {
	used := make([]bool, n)
	for _, q := range place {
		if q.Row >= 0 && q.Row < n {
			used[q.Row] = true
		}
	}
	return slices.Index(used, false)
}

func placeText(place []board.Queen) string {
	parts := make([]string, len(place))
	for i, q := range place {
		parts[i] = "--place " + q.String()
	}
	return strings.Join(parts, " ")
}

// perm writes a solution in the 1-based perm format, for messages.
func perm(s board.Solution) string {
	b, _ := board.Append(nil, s, board.FormatPerm)
	return "[" + strings.TrimSpace(string(b)) + "]"
}
