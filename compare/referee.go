package compare

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
)

// RefereeCountMax is the largest board on which [Completions] counts the
// completions of pre-placed queens with the bitboard counter; without
// pre-placed queens it knows the published counts up to n = 27.
const RefereeCountMax = 16

// Verdict is what the referee knows about one problem (a board and its
// pre-placed queens), found without any SAT solver.
type Verdict struct {
	// Decided says whether the referee knows if a solution exists;
	// Exists is the answer, and Witness a solution when there is one.
	Decided bool
	Exists  bool
	Witness board.Solution
	// Counted says whether the referee knows the number of solutions,
	// Count.
	Counted bool
	Count   uint64
	// How says how the referee decided, for messages: "the backtracker",
	// "the published count", "an explicit construction".
	How string
}

// Exists decides, without any SAT solver, whether the n×n board with
// queens on the squares of place has a solution, and finds one: without
// pre-placed queens, by the explicit construction of [Construct] for
// n >= 4 (every such board has solutions; the board built is checked) and
// the published counts for n <= 3; with them, by the backtracker's
// heuristic search ([backtrack.Heuristic]), which ends on ctx. A search
// stopped by ctx leaves the verdict undecided (Decided false, nil error);
// bad input is an error.
func Exists(ctx context.Context, n int, place []board.Queen) (Verdict, error) {
	if err := board.CheckSize(n, backtrack.MaxN); err != nil {
		return Verdict{}, err
	}
	if err := board.CheckPlacement(n, place); err != nil {
		return Verdict{}, err
	}
	if len(place) == 0 {
		if n >= 4 {
			if s := Construct(n); s.Check() == nil {
				return Verdict{Decided: true, Exists: true, Witness: s, How: "an explicit construction"}, nil
			}
		} else if c, ok := board.Known(n); ok {
			v := Verdict{Decided: true, Exists: c.Total > 0, Counted: true, Count: c.Total, How: "the published count"}
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
			return Verdict{How: "the backtracker"}, nil
		}
		if found == nil {
			return Verdict{}, err
		}
	}
	return Verdict{Decided: true, Exists: found != nil, Witness: found, How: "the backtracker"}, nil
}

// Completions counts, without any SAT solver, the solutions of the n×n
// board with queens on the squares of place: from the published table
// without pre-placed queens (n <= 27), with the bitboard counter
// ([backtrack.Count]) with them (n <= [RefereeCountMax]). Elsewhere, or
// if ctx ends the count, the count is unknown (Counted false, nil error).
// A count also decides whether a solution exists (Decided), without a
// witness.
func Completions(ctx context.Context, n int, place []board.Queen) (Verdict, error) {
	if err := board.CheckSize(n, backtrack.MaxN); err != nil {
		return Verdict{}, err
	}
	if err := board.CheckPlacement(n, place); err != nil {
		return Verdict{}, err
	}
	if len(place) == 0 {
		if c, ok := board.Known(n); ok {
			return Verdict{Decided: true, Exists: c.Total > 0, Counted: true, Count: c.Total, How: "the published count"}, nil
		}
		return Verdict{How: "the published count"}, nil
	}
	if n > RefereeCountMax {
		return Verdict{How: "the backtracker"}, nil
	}
	res, err := backtrack.Count(ctx, n, backtrack.CountOptions{Place: place})
	if err != nil {
		if ctx.Err() != nil {
			return Verdict{How: "the backtracker"}, nil
		}
		return Verdict{}, err
	}
	return Verdict{Decided: true, Exists: res.Total > 0, Counted: true, Count: res.Total, How: "the backtracker"}, nil
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

// String describes a verdict, e.g. "92 solutions (the published count)".
func (v Verdict) String() string {
	switch {
	case v.Counted:
		return fmt.Sprintf("%d solutions (%s)", v.Count, v.How)
	case v.Decided && v.Exists:
		return fmt.Sprintf("a solution, %s (%s)", perm(v.Witness), v.How)
	case v.Decided:
		return fmt.Sprintf("no solution (%s)", v.How)
	}
	return fmt.Sprintf("undecided (%s)", v.How)
}
