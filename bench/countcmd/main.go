// Command countcmd is a stand-in for "queens backtrack --count" while that
// command is built elsewhere: it takes the same command line (a leading
// "backtrack" word, -n, --count, --threads, --unique) and prints the same
// line, so that bench/count.sh can time the counter with QUEENS_BIN set to
// it: go build -o /tmp/countcmd ./bench/countcmd.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/queens-dev/queens/backtrack"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "backtrack" {
		args = args[1:]
	}
	fs := flag.NewFlagSet("countcmd", flag.ExitOnError)
	n := fs.Int("n", 8, "board size")
	threads := fs.Int("threads", 0, "worker goroutines (0: all cores)")
	unique := fs.Bool("unique", false, "also count distinct solutions")
	fs.Bool("count", true, "count (the only mode)")
	stats := fs.Bool("stats", false, "print nodes and time on stderr")
	_ = fs.Parse(args)
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
		fmt.Fprintf(os.Stderr, "nodes %d, parts %d, %v\n", res.Nodes, res.Parts, res.Elapsed)
	}
}
