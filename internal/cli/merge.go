package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/shard"
	"github.com/urfave/cli/v2"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "sum the shard results of queens backtrack --shard, refusing gaps, overlaps and mismatches",
		UsageText: "queens merge [--format text|json] [--stats] FILE... | -",
		Description: `merge reads the JSON lines that "queens backtrack -n N --count --shard I/K --json"
prints, from the files given (- for stdin; blank lines are skipped), checks that
they are every shard of one count exactly once, and prints the count like --count
--unique does ("T solutions (U unique)"), then whether it matches the published
table (OEIS A000170, A002562). With --format json it prints one JSON line instead,
the count's fields and "published": "matches", "differs" or "unknown" (n beyond
the table), e.g. {"n":8,"total":92,"unique":12,"published":"matches"}.

It refuses, with exit status 1 and a message naming the problem: a line that is not
a shard result, a line whose checksum does not match (changed or cut), a missing or
duplicated shard, shards of different n, split, shard count or version, and pieces
that are not those this version of queens deals to each shard. A count that differs
from the published table is a failed check too (exit status 1).`,
		Flags:  []cli.Flag{formatFlag("text", "json"), statsFlag()},
		Action: mergeAction,
	}
}

func mergeAction(c *cli.Context) error {
	format := c.String("format")
	if format != "text" && format != "json" {
		return usagef("merge: --format %q: want text or json", format)
	}
	if !c.Args().Present() {
		return usagef("merge: no input: give the files of shard results, or - for stdin")
	}
	if i := slices.Index(c.Args().Slice(), "-"); i >= 0 && slices.Contains(c.Args().Slice()[i+1:], "-") {
		return usagef("merge: - (stdin) given twice")
	}
	var results []shard.Result
	for _, name := range c.Args().Slice() {
		var r io.Reader = os.Stdin
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				return usagef("merge: cannot read %s: %v", name, unwrapPath(err))
			}
			defer f.Close()
			r = f
		}
		rs, err := readResults(r, name)
		if err != nil {
			return err
		}
		results = append(results, rs...)
	}
	sum, err := shard.Merge(results)
	if err != nil {
		return failf("%v", err)
	}
	want, known := board.Known(sum.N)
	matches := known && want.Total == sum.Total && want.Unique == sum.Unique
	w := c.App.Writer
	if format == "json" {
		published := "unknown"
		switch {
		case matches:
			published = "matches"
		case known:
			published = "differs"
		}
		err = writeJSONLine(w, struct {
			N         int    `json:"n"`
			Total     uint64 `json:"total"`
			Unique    uint64 `json:"unique"`
			Published string `json:"published"`
		}{sum.N, sum.Total, sum.Unique, published})
	} else {
		err = writeCount(w, board.FormatPerm, sum.N, sum.Total, &sum.Unique)
		switch {
		case err != nil:
		case !known:
			_, err = fmt.Fprintf(w, "not in the published table (n = %d)\n", sum.N)
		case matches:
			_, err = fmt.Fprintf(w, "matches the published count for n = %d\n", sum.N)
		default:
			_, err = fmt.Fprintf(w, "DIFFERS from the published count for n = %d: %d solutions (%d unique)\n", sum.N, want.Total, want.Unique)
		}
	}
	if err != nil {
		return err
	}
	if c.Bool("stats") { // the result first, then the statistics about it
		fmt.Fprintf(c.App.ErrWriter, "merge: n=%d shards=%d pieces=%d nodes=%d time=%v (summed over the shards; longest %v)\n",
			sum.N, sum.Shards, sum.Parts, sum.Nodes, sum.Elapsed, sum.Longest)
	}
	if known && !matches {
		return failf("merge: the count of n = %d differs from the published one", sum.N)
	}
	return nil
}

// readResults reads the shard results of one input, skipping blank lines.
func readResults(r io.Reader, name string) ([]shard.Result, error) {
	if name == "-" {
		name = "stdin"
	}
	var results []shard.Result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		res, err := shard.Parse(sc.Bytes())
		if err != nil {
			return nil, failf("merge: %s:%d: %v", name, line, err)
		}
		results = append(results, res)
	}
	if err := sc.Err(); err != nil {
		return nil, failf("merge: read %s: %v", name, err)
	}
	return results, nil
}
