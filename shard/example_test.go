package shard_test

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/shard"
)

// Example counts the 8×8 board in three shards, as three machines would,
// sends each result through its line of JSON and merges them.
func Example() {
	var results []shard.Result
	for i := range 3 {
		r, err := shard.Run(context.Background(), shard.Spec{N: 8, Index: i, Shards: 3, Version: "v1"}, shard.Options{})
		if err != nil {
			panic(err)
		}
		line := r.AppendLine(nil) // what `queens backtrack --shard` prints
		if r, err = shard.Parse(line); err != nil {
			panic(err)
		}
		results = append(results, r)
	}
	sum, err := shard.Merge(results)
	fmt.Printf("%d solutions (%d unique), %v\n", sum.Total, sum.Unique, err)
	_, err = shard.Merge(results[:2])
	fmt.Println(err)
	// Output:
	// 92 solutions (12 unique), <nil>
	// merge: missing shard: 1 of 3 shards absent (0-based: 2; a Slurm array numbered from 1 reruns them with --array=3)
}
