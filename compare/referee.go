package compare

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
)

// RefereeCountMax is the largest board on which [Completions] counts the
// completions of pre-placed queens with the bitboard counter; without
// pre-placed queens it knows the published counts up to n = 27.
const RefereeCountMax = 16

// DefaultBudget is how long each of the [Referee]'s searches (the
// backtracker's, then gini's) may take when [Referee.Budget] is 0.
const DefaultBudget = 10 * time.Second

// Method says how a claim was verified: by whom or by what it is known
// to be true. The zero value, [Unverified], says nothing confirmed it.
type Method uint8

// The methods, in the order of their String names.
const (
	Unverified   Method = iota // nothing confirmed the claim
	Proof                      // a checked DRAT or LRAT proof of the UNSATISFIABLE answer
	Construction               // the explicit construction of a solution ([Construct]), checked
	Published                  // the published table of counts (board.Known)
	Backtracker                // the backtracker's search or the bitboard counter
	Witness                    // a model that gini found, checked as a board
)

var methodNames = [...]string{"unverified", "proof", "construction", "published", "backtracker", "witness"}

// String returns the method's name: "unverified", "proof",
// "construction", "published", "backtracker" or "witness", the values of
// the "verified_by" field of the command line's JSON.
func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("Method(%d)", m)
}

// MarshalText returns the name of [Method.String], so that a Method is a
// JSON string.
func (m Method) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// phrase names the method in a sentence: "the published count is 92".
func (m Method) phrase() string {
	switch m {
	case Construction:
		return "an explicit construction"
	case Published:
		return "the published count"
	case Backtracker:
		return "the backtracker"
	case Witness:
		return "gini"
	case Proof:
		return "the proof"
	}
	return "nothing"
}

// Reason says why the referee could not verify a claim. The zero value,
// [NoReason], goes with a verified claim.
type Reason uint8

// The reasons a claim stays unverified.
const (
	NoReason      Reason = iota
	OverBudget           // neither the backtracker nor gini decided within the budget
	CountLimit           // completions of pre-placed queens are counted only up to n = RefereeCountMax
	TableLimit           // the published counts end at n = 27
	ClassesPlaced        // classes of solutions are counted only for the published table without pre-placed queens
)

// String explains the reason in a phrase, for messages.
func (r Reason) String() string {
	switch r {
	case NoReason:
		return "verified"
	case OverBudget:
		return "neither the backtracker nor gini found an answer within the budget"
	case CountLimit:
		return fmt.Sprintf("it counts completions of pre-placed queens only up to n = %d", RefereeCountMax)
	case TableLimit:
		return "the published counts end at n = 27"
	case ClassesPlaced:
		return "it counts classes of solutions only for the published table without pre-placed queens"
	}
	return fmt.Sprintf("Reason(%d)", r)
}

// Claim is what a solver or a model counter says about a [Referee]'s
// problem: that it has exactly Solutions solutions (0: none, a solver's
// UNSATISFIABLE answer; K > 0: K solutions found, then UNSATISFIABLE; or
// a count).
type Claim struct {
	Solutions uint64
	// Count says the claim is a count (a model counter's, or a solver's
	// enumeration asked for the number): the referee checks it against
	// the number of solutions where it knows it, and a count of 0 against
	// a search for a solution where it does not.
	Count bool
	// Classes says Solutions counts one solution per symmetry class (an
	// enumeration with symmetry breaking); Total is then the number of
	// solutions in those classes, which the referee checks where it can
	// count completions.
	Classes bool
	Total   uint64
	// Proved says a checked proof certifies the final UNSATISFIABLE
	// answer: a claim the referee can neither confirm nor refute is then
	// verified by [Proof].
	Proved bool
}

// Verdict is the referee's finding on a claim it did not refute: By says
// how the claim is verified, or [Unverified] with the reason Why.
type Verdict struct {
	By  Method
	Why Reason
}

// Verified reports whether something confirmed the claim.
func (v Verdict) Verified() bool { return v.By != Unverified }

// Verification is the part of a JSON answer that says whether it was
// verified and how, as the command line and queens serve write it:
// "verified": true|false, and "verified_by" one of [Method]'s names when
// it was.
type Verification struct {
	Verified   bool   `json:"verified"`
	VerifiedBy string `json:"verified_by,omitempty"`
}

// Verification returns the JSON fields of v.
func (v Verdict) Verification() *Verification {
	if !v.Verified() {
		return &Verification{}
	}
	return &Verification{Verified: true, VerifiedBy: v.By.String()}
}

// Refutation is the error of a claim the referee knows to be false: By
// counts Count solutions (Counted; of classes when Classes), or gives
// Witness, a solution the claim of no solution misses.
type Refutation struct {
	By      Method
	Counted bool
	Classes bool
	Count   uint64
	Witness board.Solution
}

// Error says what the referee knows instead, e.g. "the published count
// is 92" or "the backtracker gives a solution: [1 5 8 6 3 7 2 4]".
func (e *Refutation) Error() string {
	switch {
	case e.Counted && e.Classes:
		return fmt.Sprintf("the published count of classes is %d", e.Count)
	case e.Counted && e.By == Published:
		return fmt.Sprintf("the published count is %d", e.Count)
	case e.Counted:
		return fmt.Sprintf("%s counts %d", e.By.phrase(), e.Count)
	case e.By == Witness:
		return fmt.Sprintf("gini finds a solution, checked as a board: %s", shortPerm(e.Witness))
	}
	return fmt.Sprintf("%s gives a solution: %s", e.By.phrase(), shortPerm(e.Witness))
}

// shortPerm writes a solution as perm does, its first 16 columns only on
// a larger board, so that a message stays one short line.
func shortPerm(s board.Solution) string {
	const shown = 16
	if len(s) <= shown {
		return perm(s)
	}
	p := perm(s[:shown])
	return fmt.Sprintf("%s ...] (n = %d)", p[:len(p)-1], len(s))
}

// Referee checks what solvers and counters claim about one problem, the
// n×n board with queens pre-placed on the squares of Place, against what
// is known without trusting them: the published counts, the explicit
// construction, the backtracker and the bitboard counter, each within
// Budget, and, for a claim that there is no solution, a model that gini
// finds within Budget more (a solution is its own certificate, checked
// as a board). The zero Budget is [DefaultBudget].
type Referee struct {
	N      int
	Place  []board.Queen
	Budget time.Duration
}

// Check checks claim. A claim the referee refutes is a *[Refutation]
// error; one it confirms gets a verdict saying how; one it can neither
// confirm nor refute is verified by [Proof] if claim.Proved, else
// [Unverified] with the reason. Bad input (a size or placement
// board.CheckPlacement refuses) is an error, and so is ctx's end.
func (r Referee) Check(ctx context.Context, claim Claim) (Verdict, error) {
	if err := board.CheckSize(r.N, backtrack.MaxN); err != nil {
		return Verdict{}, err
	}
	if err := board.CheckPlacement(r.N, r.Place); err != nil {
		return Verdict{}, err
	}
	v, err := r.check(ctx, claim)
	if err != nil || v.Verified() {
		return v, err
	}
	if err := ctx.Err(); err != nil {
		return Verdict{}, err
	}
	if claim.Proved {
		return Verdict{By: Proof}, nil
	}
	return v, nil
}

func (r Referee) check(ctx context.Context, claim Claim) (Verdict, error) {
	if claim.Classes && claim.Solutions > 0 {
		// One solution per class: the published count of classes is the
		// referee of the classes; the completions, of their total.
		if c, ok := board.Known(r.N); ok && len(r.Place) == 0 {
			if c.Unique != claim.Solutions {
				return Verdict{}, &Refutation{By: Published, Counted: true, Classes: true, Count: c.Unique}
			}
			if c.Total != claim.Total {
				return Verdict{}, &Refutation{By: Published, Counted: true, Count: c.Total}
			}
			return Verdict{By: Published}, nil
		}
		v, err := r.counted(ctx, claim.Total)
		if err == nil && !v.Verified() && v.Why == TableLimit {
			v.Why = ClassesPlaced
		}
		return v, err
	}
	if claim.Solutions > 0 {
		return r.counted(ctx, claim.Solutions)
	}
	if claim.Count {
		if v, err := r.counted(ctx, 0); err != nil || v.Verified() {
			return v, err
		}
	}
	f, err := r.exists(ctx)
	switch {
	case err != nil:
		return Verdict{}, err
	case !f.Decided:
		return Verdict{Why: OverBudget}, nil
	case f.Exists:
		return Verdict{}, &Refutation{By: f.By, Witness: f.Witness}
	}
	return Verdict{By: f.By}, nil
}

// counted checks a claim of exactly want solutions against the
// completions the referee counts.
func (r Referee) counted(ctx context.Context, want uint64) (Verdict, error) {
	ctx, cancel := context.WithTimeout(ctx, r.budget())
	defer cancel()
	f, err := Completions(ctx, r.N, r.Place)
	switch {
	case err != nil:
		return Verdict{}, err
	case !f.Counted && len(r.Place) == 0:
		return Verdict{Why: TableLimit}, nil
	case !f.Counted && r.N > RefereeCountMax:
		return Verdict{Why: CountLimit}, nil
	case !f.Counted:
		return Verdict{Why: OverBudget}, nil
	case f.Count != want:
		return Verdict{}, &Refutation{By: f.By, Counted: true, Count: f.Count}
	}
	return Verdict{By: f.By}, nil
}

// exists decides whether the problem has a solution: [Exists] within the
// budget, then gini within the budget.
func (r Referee) exists(ctx context.Context) (Fact, error) {
	bctx, cancel := context.WithTimeout(ctx, r.budget())
	f, err := Exists(bctx, r.N, r.Place)
	cancel()
	if err != nil || f.Decided || ctx.Err() != nil {
		return f, err
	}
	gctx, cancel := context.WithTimeout(ctx, r.budget())
	defer cancel()
	s, err := giniWitness(gctx, r.N, r.Place)
	if err != nil || s == nil {
		// gini's UNSATISFIABLE is no better than the solver's: only a
		// model, checked, decides.
		return Fact{}, nil
	}
	return Fact{Decided: true, Exists: true, Witness: s, By: Witness}, nil
}

// giniWitness asks gini for a solution of the n×n board that holds
// place, checked as a board; nil if gini finds none before ctx ends.
func giniWitness(ctx context.Context, n int, place []board.Queen) (board.Solution, error) {
	e, err := encode.NewEncoder(n, encode.Options{Place: place})
	if err != nil {
		return nil, nil // beyond the encodings' limits: no witness
	}
	solver, err := sat.NewEncoded(ctx, e, 1)
	if err != nil {
		return nil, nil
	}
	s, err := solver.First(ctx)
	if err != nil || s == nil || !board.Valid(s) || !s.Contains(place) {
		return nil, nil
	}
	return s, nil
}

// The largest formula [Referee.Model] gives gini: gini keeps a few
// hundred bytes for each variable and clause (a formula of 1.3 million
// variables and clauses took 0.5 GB), so a hostile file cannot make the
// referee run out of memory.
const (
	ModelMaxVars     = 1 << 17 // variables that the clauses use
	ModelMaxLiterals = 1 << 21 // literals in all the clauses
)

// ErrModelSize is the error of [Referee.Model] for a formula beyond
// [ModelMaxVars] or [ModelMaxLiterals].
var ErrModelSize = errors.New("too large for the referee's model search")

// Model asks gini, within the budget, for a model of the clauses of cnf,
// any formula (not only a queens instance), checked against each of
// them: a model refutes a claim that cnf is unsatisfiable. It returns nil
// if gini finds none within the budget, or proves cnf unsatisfiable
// (which confirms nothing: gini is no referee of an UNSATISFIABLE
// answer). The errors are ctx's, or one wrapping [ErrModelSize] for a
// formula beyond the limits, found before gini starts.
func (r Referee) Model(ctx context.Context, cnf *encode.CNF) ([]int, error) {
	if err := modelSize(cnf); err != nil {
		return nil, err
	}
	gctx, cancel := context.WithTimeout(ctx, r.budget())
	defer cancel()
	model, err := sat.Model(gctx, cnf)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil || model == nil {
		return nil, nil
	}
	if ok, _ := cnf.Satisfies(model); !ok {
		return nil, nil // gini's mistake proves nothing either way
	}
	return model, nil
}

// modelSize checks cnf against ModelMaxLiterals and ModelMaxVars, with
// memory for at most ModelMaxVars variables.
func modelSize(cnf *encode.CNF) error {
	lits := 0
	for _, c := range cnf.Clauses {
		lits += len(c)
	}
	if lits > ModelMaxLiterals {
		return fmt.Errorf("%w: %d literals (at most %d)", ErrModelSize, lits, ModelMaxLiterals)
	}
	if cnf.Vars <= ModelMaxVars {
		return nil
	}
	used := make(map[int]struct{})
	for _, c := range cnf.Clauses {
		for _, lit := range c {
			used[max(lit, -lit)] = struct{}{}
			if len(used) > ModelMaxVars {
				return fmt.Errorf("%w: more than %d variables used", ErrModelSize, ModelMaxVars)
			}
		}
	}
	return nil
}

func (r Referee) budget() time.Duration {
	if r.Budget > 0 {
		return r.Budget
	}
	return DefaultBudget
}

// Fact is what [Exists] or [Completions] found about one problem (a
// board and its pre-placed queens) without any SAT solver, and By how.
type Fact struct {
	// Decided says whether it is known if a solution exists; Exists is
	// the answer, and Witness a solution when there is one.
	Decided bool
	Exists  bool
	Witness board.Solution
	// Counted says whether the number of solutions, Count, is known.
	Counted bool
	Count   uint64
	// By says how it was found: [Construction], [Published] or
	// [Backtracker].
	By Method
}

// Exists decides, without any SAT solver, whether the n×n board with
// queens on the squares of place has a solution, and finds one: without
// pre-placed queens, by the explicit construction of [Construct] for
// n >= 4 (every such board has solutions; the board built is checked) and
// the published counts for n <= 3; with them, by the backtracker's
// heuristic search ([backtrack.Heuristic]), which ends on ctx. A search
// stopped by ctx leaves the fact undecided (Decided false, nil error);
// bad input is an error.
func Exists(ctx context.Context, n int, place []board.Queen) (Fact, error) {
	if err := checkBoard(n, place); err != nil {
		return Fact{}, err
	}
	if len(place) == 0 {
		if n >= 4 {
			if s := Construct(n); s.Check() == nil {
				return Fact{Decided: true, Exists: true, Witness: s, By: Construction}, nil
			}
		} else if c, ok := board.Known(n); ok {
			v := Fact{Decided: true, Exists: c.Total > 0, Counted: true, Count: c.Total, By: Published}
			if v.Exists {
				v.Witness = board.Solution{0}
			}
			return v, nil
		}
	}
	var found board.Solution
	_, err := backtrack.Search(ctx, n, backtrack.Options{Place: place, Strategy: backtrack.Heuristic}, func(s board.Solution) bool {
		found = s
		return false
	})
	if err != nil {
		if ctx.Err() != nil && found == nil {
			return Fact{By: Backtracker}, nil
		}
		if found == nil {
			return Fact{}, err
		}
	}
	return Fact{Decided: true, Exists: found != nil, Witness: found, By: Backtracker}, nil
}

// checkBoard returns the error of a board size the referee's searches
// do not take (up to [backtrack.MaxN]) or of queens of place that lie
// off the n×n board or attack each other ([board.CheckPlacement]).
func checkBoard(n int, place []board.Queen) error {
	if err := board.CheckSize(n, backtrack.MaxN); err != nil {
		return err
	}
	return board.CheckPlacement(n, place)
}

// Completions counts, without any SAT solver, the solutions of the n×n
// board with queens on the squares of place: from the published table
// without pre-placed queens (n <= 27), with the bitboard counter
// ([backtrack.Count]) with them (n <= [RefereeCountMax]). Elsewhere, or
// if ctx ends the count, the count is unknown (Counted false, nil error).
// A count also decides whether a solution exists (Decided), without a
// witness.
func Completions(ctx context.Context, n int, place []board.Queen) (Fact, error) {
	if err := checkBoard(n, place); err != nil {
		return Fact{}, err
	}
	if len(place) == 0 {
		if c, ok := board.Known(n); ok {
			return Fact{Decided: true, Exists: c.Total > 0, Counted: true, Count: c.Total, By: Published}, nil
		}
		return Fact{By: Published}, nil
	}
	if n > RefereeCountMax {
		return Fact{By: Backtracker}, nil
	}
	res, err := backtrack.Count(ctx, n, backtrack.CountOptions{Place: place})
	if err != nil {
		if ctx.Err() != nil {
			return Fact{By: Backtracker}, nil
		}
		return Fact{}, err
	}
	return Fact{Decided: true, Exists: res.Total > 0, Counted: true, Count: res.Total, By: Backtracker}, nil
}

// Construct returns a solution of the n×n board for n >= 4 without any
// search, by the classic explicit construction (E. Pauls, 1874; in this
// form Hoffman, Loessi and Moore, 1969): the queens of columns 1..n, left to
// right, stand in rows 2, 4, 6, ... and then 1, 3, 5, ... (1-based), with
// a correction when n mod 6 is 2 or 3. It returns nil for n < 4, where
// none or only the trivial board exists. The caller should still check
// the board (it is a proof only once checked).
func Construct(n int) board.Solution {
	if n < 4 {
		return nil
	}
	var evens, odds []int
	for r := 2; r <= n; r += 2 {
		evens = append(evens, r)
	}
	for r := 1; r <= n; r += 2 {
		odds = append(odds, r)
	}
	switch n % 6 {
	case 2: // odds: swap 1 and 3, move 5 to the end
		odds[0], odds[1] = odds[1], odds[0]
		odds = append(append(odds[:2:2], odds[3:]...), 5)
	case 3: // evens: 2 to the end; odds: 1 and 3 to the end
		evens = append(evens[1:], 2)
		odds = append(odds[2:], 1, 3)
	}
	rows := append(evens, odds...)
	// Column c (0-based) holds a queen in row rows[c]-1; as a Solution
	// (s[row] == col) that is the inverse permutation.
	s := make(board.Solution, n)
	for col, r := range rows {
		s[r-1] = col
	}
	return s
}

// String describes a fact, e.g. "92 solutions (the published count)".
func (v Fact) String() string {
	switch {
	case v.Counted:
		return fmt.Sprintf("%d solutions (%s)", v.Count, v.By.phrase())
	case v.Decided && v.Exists:
		return fmt.Sprintf("a solution, %s (%s)", perm(v.Witness), v.By.phrase())
	case v.Decided:
		return fmt.Sprintf("no solution (%s)", v.By.phrase())
	}
	return fmt.Sprintf("undecided (%s)", v.By.phrase())
}
