package backtrack_test

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/backtrack"
)

// A constellation split into sub-parts: their counts add up to its own.
func ExampleSubproblem_Split() {
	const n = 14
	sps, _ := backtrack.Subproblems(n)
	c := sps[0] // the largest constellation
	whole, _ := c.Count(context.Background(), n)
	var sum uint64
	for _, p := range c.Split(4) {
		t, _ := p.Count(context.Background(), n)
		fmt.Printf("%v: %d/24 solutions\n", p, t.Total24)
		sum += t.Total24
	}
	fmt.Println(sum == whole.Total24)
	// Output:
	// 0:3:0:11#0/4: 4800/24 solutions
	// 0:3:0:11#1/4: 4416/24 solutions
	// 0:3:0:11#2/4: 5760/24 solutions
	// 0:3:0:11#3/4: 6144/24 solutions
	// true
}
