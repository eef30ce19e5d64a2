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

// ExampleDetection says how strong a recount of 16 pieces of n = 20's
// 9523 is, and how many pieces catch a worker that forged 1% of them with
// probability 99%.
func ExampleDetection() {
	fmt.Printf("one forged piece: %.4f\n", shard.Detection(9523, 1, 16))
	fmt.Printf("95 forged pieces: %.4f\n", shard.Detection(9523, 95, 16))
	k, _ := shard.PiecesFor(9523, 95, 0.99)
	fmt.Printf("for 99%%: recount %d pieces\n", k)
	// Output:
	// one forged piece: 0.0017
	// 95 forged pieces: 0.1483
	// for 99%: recount 449 pieces
}

// ExampleEngines lists the counting engines, the scheme of the pieces
// each counts, and the count of each that counts whole boards here.
func ExampleEngines() {
	for _, e := range shard.Engines() {
		fmt.Printf("%s (scheme %q, n <= %d)", e.Name, e.Scheme, e.MaxN)
		if e.Count != nil {
			total, unique, err := e.Count(context.Background(), 8, true)
			fmt.Print(": n = 8 has ", total, " solutions, ", unique, " unique, ", err)
		}
		fmt.Println()
	}
	// Output:
	// constellations (scheme "", n <= 32): n = 8 has 92 solutions, 12 unique, <nil>
	// join (scheme "join-parts-3", n <= 28): n = 8 has 92 solutions, 12 unique, <nil>
	// gpu (scheme "", n <= 32)
}
