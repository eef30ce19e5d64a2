package backtrack_test

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
)

// What pruning saves: every strategy finds the 92 solutions of the
// 8-queens puzzle, and the statistics say how many queens each placed.
// Generate places queens without looking and tests every one of the 8!
// permutations; a test of every placement of 8 queens on the 64 squares
// would run through C(64, 8) of them.
func ExampleSearch_strategies() {
	for _, st := range []backtrack.Strategy{backtrack.Lex, backtrack.Iterative, backtrack.Cells, backtrack.Generate} {
		stats, err := backtrack.Search(context.Background(), 8, backtrack.Options{Strategy: st}, func(board.Solution) bool { return true })
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-9s %3d solutions, %6d queens placed, %5d placements tested\n", st, stats.Solutions, stats.Nodes, stats.Candidates)
	}
	placements, permutations := backtrack.SearchSpace(8)
	fmt.Println("C(64, 8) =", placements, " 8! =", permutations)
	// Output:
	// lex        92 solutions,   2056 queens placed,     0 placements tested
	// iterative  92 solutions,   2056 queens placed,     0 placements tested
	// cells      92 solutions, 118968 queens placed,     0 placements tested
	// generate   92 solutions, 109600 queens placed, 40320 placements tested
	// C(64, 8) = 4426165368  8! = 40320
}

// Generate's trace: queens go down without a look at the board, and each
// complete placement is tested.
func ExampleStep_Text_generate() {
	nr := backtrack.Narrator{Strategy: backtrack.Generate}
	var steps []backtrack.Step
	opt := backtrack.Options{Strategy: backtrack.Generate, Observe: func(e backtrack.Event) {
		steps = append(steps, nr.Event(e)...)
	}}
	backtrack.First(context.Background(), 4, opt)
	for i, st := range steps[:6] {
		fmt.Printf("%d  %s\n", i+1, st.Text())
	}
	// Output:
	// 1  place 1:1 (not tested yet)
	// 2  place 2:2 (not tested yet)
	// 3  place 3:3 (not tested yet)
	// 4  place 4:4 (not tested yet)
	// 5  test 1:1 2:2 3:3 4:4 fails: 2:2 is on the diagonal of 1:1
	// 6  backtrack to row 4: take away the queen at 4:4
}
