package board_test

import (
	"fmt"

	"github.com/queens-dev/queens/board"
)

// The two solutions of the 4×4 board, drawn, checked, and seen as one
// class up to symmetry.
func Example() {
	a := board.Solution{1, 3, 0, 2}
	b := board.MirrorCols.Apply(a)
	fmt.Print(a.Board(), "\n", b.Board())
	fmt.Println(board.Valid(a), board.Valid(b))
	fmt.Println([]int(board.Canonical(a)), board.OrbitSize(a))
	// Output:
	//     1 2 3 4
	//  1  . Q . .
	//  2  . . . Q
	//  3  Q . . .
	//  4  . . Q .
	//
	//     1 2 3 4
	//  1  . . Q .
	//  2  Q . . .
	//  3  . . . Q
	//  4  . Q . .
	// true true
	// [1 3 0 2] 2
}

func ExampleSolution_Check() {
	err := board.Solution{0, 2, 4, 1, 3, 3}.Check()
	fmt.Println(err)
	// Output: queens at 4:2 and 6:4 share a diagonal
}

func ExampleParse() {
	s, err := board.Parse(board.FormatPerm, "2 4 1 3")
	fmt.Println([]int(s), err)
	out, _ := board.Append(nil, s, board.FormatCoords)
	fmt.Print(string(out))
	// Output:
	// [1 3 0 2] <nil>
	// 1:2 2:4 3:1 4:3
}

func ExampleKnown() {
	c, _ := board.Known(8)
	fmt.Printf("n=%d: %d solutions, %d distinct up to symmetry\n", c.N, c.Total, c.Unique)
	// Output: n=8: 92 solutions, 12 distinct up to symmetry
}

// The symmetries that keep a corner queen in place are the identity and
// the transpose; the completions of 1:1 on the 8×8 board fall into classes
// under those two, and one canonical completion stands for each.
func ExampleStabilizer() {
	placed := []board.Queen{{Row: 0, Col: 0}}
	group := board.Stabilizer(8, placed, false)
	fmt.Println(group)
	for _, s := range []board.Solution{{0, 4, 7, 5, 2, 6, 1, 3}, {0, 5, 7, 2, 6, 3, 1, 4}, {0, 6, 3, 5, 7, 1, 4, 2}} {
		fmt.Println([]int(s), board.IsCanonicalUnder(s, group))
	}
	// Output:
	// [identity transpose]
	// [0 4 7 5 2 6 1 3] true
	// [0 5 7 2 6 3 1 4] true
	// [0 6 3 5 7 1 4 2] false
}
