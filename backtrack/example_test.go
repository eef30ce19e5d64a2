package backtrack_test

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
)

func ExampleFirst() {
	s, stats, err := backtrack.First(context.Background(), 8, backtrack.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(s.Board())
	fmt.Println(stats.Nodes, "queens placed,", stats.Backtracks, "taken back")
	// Output:
	//     1 2 3 4 5 6 7 8
	//  1  Q . . . . . . .
	//  2  . . . . Q . . .
	//  3  . . . . . . . Q
	//  4  . . . . . Q . .
	//  5  . . Q . . . . .
	//  6  . . . . . . Q .
	//  7  . Q . . . . . .
	//  8  . . . Q . . . .
	// 113 queens placed, 105 taken back
}

func ExampleAll() {
	// The completions of a 6×6 board with a queen on row 1, column 2.
	opt := backtrack.Options{Place: []board.Queen{{Row: 0, Col: 1}}}
	for s, err := range backtrack.All(context.Background(), 6, opt) {
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(s.Queens()) // 1-based R:C
	}
	// Output:
	// [1:2 2:4 3:6 4:1 5:3 6:5]
}

func ExampleOptions_observe() {
	opt := backtrack.Options{Observe: func(e backtrack.Event) {
		if e.Kind != backtrack.EventTry {
			fmt.Println(e)
		}
	}}
	backtrack.First(context.Background(), 4, opt)
	// Output:
	// place 1:1
	// reject 2:1 (attacked by 1:1)
	// reject 2:2 (attacked by 1:1)
	// place 2:3
	// reject 3:1 (attacked by 1:1)
	// reject 3:2 (attacked by 2:3)
	// reject 3:3 (attacked by 2:3)
	// reject 3:4 (attacked by 2:3)
	// backtrack 2:3
	// place 2:4
	// reject 3:1 (attacked by 1:1)
	// place 3:2
	// reject 4:1 (attacked by 1:1)
	// reject 4:2 (attacked by 3:2)
	// reject 4:3 (attacked by 3:2)
	// reject 4:4 (attacked by 2:4)
	// backtrack 3:2
	// reject 3:3 (attacked by 2:4)
	// reject 3:4 (attacked by 2:4)
	// backtrack 2:4
	// backtrack 1:1
	// place 1:2
	// reject 2:1 (attacked by 1:2)
	// reject 2:2 (attacked by 1:2)
	// reject 2:3 (attacked by 1:2)
	// place 2:4
	// place 3:1
	// reject 4:1 (attacked by 3:1)
	// reject 4:2 (attacked by 1:2)
	// place 4:3
	// solution 2 4 1 3
}

// Count the 8-queens solutions, and the classes up to symmetry, with the
// bitboard counter.
func ExampleCount() {
	res, err := backtrack.Count(context.Background(), 8, backtrack.CountOptions{Unique: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d solutions (%d unique)\n", res.Total, res.Unique)
	// Output: 92 solutions (12 unique)
}

// Split the 8-queens count into the pieces a sharded count hands out, and
// add up what each piece finds (in 24ths, as shards report it).
func ExampleSubproblems() {
	sps, _ := backtrack.Subproblems(8)
	var sum backtrack.Tally
	productive := 0
	for _, sp := range sps {
		t, _ := sp.Count(context.Background(), 8)
		sum.Total24 += t.Total24
		sum.Unique24 += t.Unique24
		if t.Total24 > 0 {
			productive++
		}
	}
	fmt.Printf("%d pieces (%d with solutions): %d solutions, %d unique\n", len(sps), productive, sum.Total24/24, sum.Unique24/24)
	// Output: 79 pieces (12 with solutions): 92 solutions, 12 unique
}
