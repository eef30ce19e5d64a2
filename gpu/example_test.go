package gpu_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/gpu"
)

// Count on the GPU when there is one, and on the CPU otherwise.
func Example() {
	const n = 10
	res, err := gpu.Count(context.Background(), n, gpu.Options{})
	if errors.Is(err, gpu.ErrNoDevice) || errors.Is(err, gpu.ErrKernel) {
		res, err = gpu.Reference(context.Background(), n, gpu.Options{})
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d solutions (%d unique)\n", res.Total, res.Unique)
	// Output: 724 solutions (92 unique)
}

// Count the pieces in two shards (on two machines, say) and merge their
// tallies, which come in 24ths as backtrack's do.
func ExampleReference_shards() {
	const n = 8
	sps, _ := backtrack.Subproblems(n)
	half := len(sps) / 2
	var total24, unique24 uint64
	for _, shard := range [][]backtrack.Subproblem{sps[:half], sps[half:]} {
		res, err := gpu.Reference(context.Background(), n, gpu.Options{Pieces: shard})
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, t := range res.Pieces {
			total24 += t.Total24
			unique24 += t.Unique24
		}
		fmt.Printf("%d pieces: %d solutions\n", len(shard), res.Total)
	}
	fmt.Printf("merged: %d solutions (%d unique)\n", total24/24, unique24/24)
	// Output:
	// 39 pieces: 52 solutions
	// 40 pieces: 40 solutions
	// merged: 92 solutions (12 unique)
}

// The second kernel design, persistent threads in one uniform loop, is
// picked by Options.Design; Reference runs its Go twin, with the same
// counts piece by piece.
func ExampleDesign() {
	res, err := gpu.Reference(context.Background(), 11, gpu.Options{Design: gpu.DesignLoop})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v: %d solutions (%d unique)\n", res.Design, res.Total, res.Unique)
	// Output: loop: 2680 solutions (341 unique)
}
