package board_test

import (
	"fmt"

	"github.com/queens-dev/queens/board"
)

// The attack counts of a partial board, as the classic applets show it:
// Q a queen, 0 a free square, k a square k queens attack; and the pairs
// of queens that attack each other.
func ExampleAttacks() {
	partial := board.Solution{-1, 1, -1, 3, -1} // queens at 2:2 and 4:4
	b, _ := board.Append(nil, partial, board.FormatAttacks)
	fmt.Print(string(b))
	for _, c := range board.Conflicts(partial.PlacedQueens()) {
		fmt.Println(c.Error())
	}
	// Output:
	//  2  1  1  1  0
	//  1  Q  1  2  1
	//  1  1  2  1  1
	//  1  2  1  Q  1
	//  0  1  1  1  2
	// queens at 2:2 and 4:4 share a diagonal
}
