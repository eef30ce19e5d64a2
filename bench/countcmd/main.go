// Command countcmd is a stand-in for "queens backtrack --count" used by
// bench/count.sh until the real command is available (QUEENS_BIN).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/queens-dev/queens/backtrack"
)

func main() {
	n := flag.Int("n", 8, "board size")
	threads := flag.Int("threads", 0, "worker goroutines (0: all cores)")
	unique := flag.Bool("unique", false, "also count distinct solutions")
	stats := flag.Bool("stats", false, "print nodes and time on stderr")
	flag.Parse()
	res, err := backtrack.Count(context.Background(), *n, backtrack.CountOptions{Threads: *threads, Unique: *unique})
	if err != nil {
		fmt.Fprintln(os.Stderr, "countcmd:", err)
		os.Exit(2)
	}
	if *unique {
		fmt.Printf("%d solutions (%d unique)\n", res.Total, res.Unique)
	} else {
		fmt.Printf("%d solutions\n", res.Total)
	}
	if *stats {
		fmt.Fprintf(os.Stderr, "nodes %d, parts %d, %v, %.2f ns/node\n", res.Nodes, res.Parts, res.Elapsed, float64(res.Elapsed.Nanoseconds())/float64(res.Nodes))
	}
}
