package backtrack_test

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/backtrack"
)

// A trace of the textbook search in column order, told as the
// object-oriented formulation tells it: each queen lives in its column and
// asks its left neighbour to advance when it finds no safe row.
func ExampleStep_AgentText() {
	nr := backtrack.Narrator{Order: backtrack.Columns}
	var steps []backtrack.Step
	opt := backtrack.Options{Strategy: backtrack.Lex, Order: backtrack.Columns, Observe: func(e backtrack.Event) {
		steps = append(steps, nr.Event(e)...)
	}}
	backtrack.First(context.Background(), 4, opt)
	for i, st := range steps[6:11] {
		fmt.Printf("%2d  %s\n    %s\n", i+7, st.Text(), st.AgentText())
	}
	// Output:
	//  7  try 3:3  rejected: attacked by the queen at 3:2 along the row
	//     queen 3 tries row 3: attacked by queen 2 along the row
	//  8  try 4:3  rejected: attacked by the queen at 3:2 along the diagonal
	//     queen 3 tries row 4: attacked by queen 2 along the diagonal
	//  9  dead end at column 3: every square is attacked
	//     queen 3 finds no safe row and asks queen 2 to advance
	// 10  backtrack to column 2: take away the queen at 3:2
	//     queen 2 leaves row 3 to advance
	// 11  try 4:2  place
	//     queen 2 moves to row 4: safe
}
