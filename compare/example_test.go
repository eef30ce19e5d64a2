package compare_test

import (
	"context"
	"fmt"
	"iter"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/encode"
)

// Cross-check the backtracker against gini (pairwise CNF) on the 6×6
// board, and against an engine that has lost a solution.
func ExampleCheck() {
	lossy := func(ctx context.Context, n int, place []board.Queen) iter.Seq2[board.Solution, error] {
		return func(yield func(board.Solution, error) bool) {
			for s, err := range compare.Backtrack(ctx, n, place) {
				if err == nil && s[0] == 1 {
					continue // the bug: never a queen at 1:2
				}
				if !yield(s, err) {
					return
				}
			}
		}
	}
	ctx := context.Background()
	r := compare.Check(ctx, 6, nil, []compare.Engine{
		{Name: "backtrack", Solutions: compare.Backtrack},
		{Name: "sat/pairwise", Solutions: compare.SAT("pairwise")},
	})
	fmt.Println(r.OK(), r.Outcomes[1].Fingerprint.Count, r.Outcomes[1].Unique)

	r = compare.Check(ctx, 6, nil, []compare.Engine{
		{Name: "sat/pairwise", Solutions: compare.SAT("pairwise")},
		{Name: "lossy", Solutions: lossy},
	})
	fmt.Println(r.OK(), r.Findings[0])
	for _, m := range r.Mismatches {
		fmt.Println("only", m.Have, "has", []int(m.Solution))
	}
	// Output:
	// true 4 1
	// false lossy: 3 solutions, published 4
	// only sat/pairwise has [1 3 5 0 2 4]
}

// Compare two streams of solutions exactly: the backtracker's and a
// stream that repeats one solution and lost another.
func ExampleSets() {
	ctx := context.Background()
	buggy := func(yield func(board.Solution, error) bool) {
		for s, err := range compare.Backtrack(ctx, 5, nil) {
			if err == nil && s[0] == 4 {
				continue // lost: the solutions with a queen at 1:5
			}
			if !yield(s, err) {
				return
			}
		}
		yield(board.Solution{0, 2, 4, 1, 3}, nil) // a second copy
	}
	d, err := compare.Sets(compare.Backtrack(ctx, 5, nil), buggy)
	fmt.Println(d.Empty(), err)
	fmt.Println("only in the first:", d.OnlyA)
	fmt.Println("only in the second:", d.OnlyB)
	// Output:
	// false <nil>
	// only in the first: [[4 1 3 0 2] [4 2 0 3 1]]
	// only in the second: [[0 2 4 1 3]]
}

// Referee a solver's answers about the 8×8 board with a queen on 1:1: a
// claim of no solution is refuted with a solution, a count checked
// against the bitboard counter, and a count beyond the referee's reach
// stays unverified unless a checked proof backs it.
func ExampleReferee() {
	ctx := context.Background()
	r := compare.Referee{N: 8, Place: []board.Queen{{Row: 0, Col: 0}}}
	_, err := r.Check(ctx, compare.Claim{Solutions: 0})
	fmt.Println(err)
	v, err := r.Check(ctx, compare.Claim{Solutions: 4})
	fmt.Println(v.Verified(), v.By, err)
	big := compare.Referee{N: 20, Place: r.Place}
	v, _ = big.Check(ctx, compare.Claim{Solutions: 5})
	fmt.Println(v.Verified(), v.Why)
	v, _ = big.Check(ctx, compare.Claim{Solutions: 5, Proved: true})
	fmt.Println(v.Verified(), v.By)
	// Output:
	// the backtracker gives a solution: [1 5 8 6 3 7 2 4]
	// true backtracker <nil>
	// false it counts completions of pre-placed queens only up to n = 16
	// true proof
}

// Refute a solver's UNSATISFIABLE about a formula that is no queens
// instance: gini's model of its clauses, checked against each of them,
// is the certificate.
func ExampleReferee_Model() {
	php := &encode.CNF{Vars: 6, Clauses: [][]int{{1, 2}, {3, 4}, {5, 6}, {-1, -3}, {-1, -5}, {-3, -5}, {-2, -4}, {-2, -6}, {-4, -6}}}
	model, err := compare.Referee{}.Model(context.Background(), php) // 3 pigeons, 2 holes
	fmt.Println(model, err)
	php.Clauses = php.Clauses[1:] // the first pigeon may stay out
	model, err = compare.Referee{}.Model(context.Background(), php)
	ok, _ := php.Satisfies(model)
	fmt.Println(model != nil, ok, err)
	// Output:
	// [] <nil>
	// true true <nil>
}
