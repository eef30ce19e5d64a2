package sat_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
)

// Count the solutions of the 8-queens puzzle by cube and conquer, and
// list those of n = 6: the order depends only on the CNF.
func ExampleParallel() {
	cnf, _ := encode.Queens(8, "pairwise", nil)
	p, _ := sat.NewParallel(cnf, sat.Options{})
	count, _ := p.Count(context.Background())
	fmt.Println(count)

	cnf, _ = encode.Queens(6, "pairwise", nil)
	p, _ = sat.NewParallel(cnf, sat.Options{Threads: 2})
	for s, err := range p.All(context.Background()) {
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println([]int(s))
	}
	// Output:
	// 92
	// [1 3 5 0 2 4]
	// [4 2 0 5 3 1]
	// [2 5 1 4 0 3]
	// [3 0 4 1 5 2]
}

// Find one solution of the 8-queens puzzle with gini, then ask the same
// solver for more: each solution is blocked once returned.
func ExampleNew() {
	cnf, _ := encode.Queens(8, "pairwise", nil)
	s, err := sat.New(cnf)
	if err != nil {
		fmt.Println(err)
		return
	}
	first, _ := s.Next(context.Background())
	second, _ := s.Next(context.Background())
	fmt.Println(board.Valid(first), board.Valid(second), first.Equal(second))
	rest, _ := s.Count(context.Background())
	fmt.Println(2+rest, "solutions")
	// Output:
	// true true false
	// 92 solutions
}

// Enumerate every solution of the 6-queens puzzle with gini. The stream
// can be ranged over again: each range starts a new solver.
func ExampleAll() {
	cnf, _ := encode.Queens(6, "seq", nil)
	var sols []string
	for s, err := range sat.All(context.Background(), cnf) {
		if err != nil {
			fmt.Println(err)
			return
		}
		sols = append(sols, s.String())
	}
	slices.Sort(sols)
	fmt.Println(sols)
	// Output:
	// [[1 3 5 0 2 4] [2 5 1 4 0 3] [3 0 4 1 5 2] [4 2 0 5 3 1]]
}

// Find a model of any formula, here one whose header claims 2^31-2
// variables but whose clauses use three: only those go to gini, and the
// model lists them (a variable it does not list is false).
func ExampleModel() {
	cnf := &encode.CNF{Vars: 1<<31 - 2, Clauses: [][]int{{1, 1<<31 - 2}, {-1}, {-1, 7}}}
	model, err := sat.Model(context.Background(), cnf)
	ok, _ := cnf.Satisfies(model)
	fmt.Println(len(model), model[0], model[1], ok, err)
	// Output:
	// 3 -1 2147483646 true <nil>
}
