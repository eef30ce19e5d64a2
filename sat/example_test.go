package sat_test

import (
	"context"
	"fmt"

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
