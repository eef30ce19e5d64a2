package join_test

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/backtrack/join"
)

// The pieces of a board are counted apart (on many machines, say) and
// their tallies, in 24ths, added up.
func ExamplePieces() {
	pieces, err := join.Pieces(10)
	if err != nil {
		fmt.Println(err)
		return
	}
	var total24, unique24 uint64
	for _, p := range pieces {
		t, err := p.Count(context.Background(), 10)
		if err != nil {
			fmt.Println(err)
			return
		}
		total24 += t.Total24
		unique24 += t.Unique24
	}
	fmt.Println(len(pieces), "pieces, the first", pieces[0], "and the last", pieces[len(pieces)-1])
	fmt.Println(total24/24, "solutions,", unique24/24, "unique")
	// Output:
	// 9 pieces, the first -:3:2 and the last sym
	// 724 solutions, 92 unique
}
