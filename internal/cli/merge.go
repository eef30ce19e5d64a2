package cli

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

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
a shard result, a line whose checksum does not match (changed or cut), tallies that
no count can give, a missing shard (listed as a job array resubmits them), a shard
given twice with different results (the same result twice is a confirmation), shards
of different n, split, shard count or version, and pieces that are not those this
version of queens deals to each shard. A count that differs from the published table
is a failed check too (exit status 1).

A checksum guards against accidents only: anyone can recompute it. --verify K
recounts K pieces drawn at random (--seed makes the draw repeatable) and compares
them with the lines: the check against a worker that lies or has a bug, and for n
beyond the published table the only check of the count.`,
		Flags: []cli.Flag{formatFlag("text", "json"), statsFlag(),
			&cli.IntFlag{Name: "verify", Usage: "recount `K` pieces drawn at random and compare them with the lines (0: none)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "the seed `S` of --verify's draw"}, maxInputFlag(),
		},
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
	if err := flagsFirst(c, "merge", "the files"); err != nil {
		return err
	}
	if i := slices.Index(c.Args().Slice(), "-"); i >= 0 && slices.Contains(c.Args().Slice()[i+1:], "-") {
		return usagef("merge: - (stdin) given twice")
	}
	var results []shard.Result
	for _, name := range c.Args().Slice() {
		var r io.Reader = c.App.Reader
		if name != "-" {
			f, err := openInput(c, name)
			if err != nil {
				return usagef("merge: cannot read %s: %v", name, unwrapPath(err))
			}
			defer f.Close()
			r = f
		} else {
			var err error
			if r, err = stdinInput(c, r); err != nil {
				return usagef("merge: stdin: %v", err)
			}
		}
		rs, err := readResults(r, name)
		if err != nil {
			return err
		}
		results = append(results, rs...)
	}
	if c.Int("verify") < 0 {
		return usagef("merge: --verify %d: want a number of pieces, 0 or more", c.Int("verify"))
	}
	sum, err := shard.Merge(results)
	if err != nil {
		return failf("%v", err)
	}
	verified := 0
	if k := c.Int("verify"); k > 0 {
		checked, err := shard.Verify(c.Context, results, k, c.Uint64("seed"))
		if err != nil {
			if errors.Is(err, shard.ErrVerify) {
				return failf("merge --verify: %v", err)
			}
			return err
		}
		verified = len(checked)
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
			Verified  int    `json:"verified"`
			Confirmed int    `json:"confirmed"`
		}{sum.N, sum.Total, sum.Unique, published, verified, sum.Confirmed})
	} else {
		err = writeCount(w, board.FormatPerm, sum.N, sum.Total, &sum.Unique, nil)
		switch {
		case err != nil:
		case !known && verified == 0:
			_, err = fmt.Fprintf(w, "not in the published table (n = %d): nothing checked this count but its lines; use --verify K\n", sum.N)
		case !known:
			_, err = fmt.Fprintf(w, "not in the published table (n = %d): the recount of --verify is its only check\n", sum.N)
		case matches:
			_, err = fmt.Fprintf(w, "matches the published count for n = %d\n", sum.N)
		default:
			_, err = fmt.Fprintf(w, "DIFFERS from the published count for n = %d: %d solutions (%d unique)\n", sum.N, want.Total, want.Unique)
		}
	}
	if err == nil && format == "text" && verified > 0 {
		_, err = fmt.Fprintf(w, "recounted %d of %d pieces drawn at random (--seed %d): all agree\n", verified, sum.Parts, c.Uint64("seed"))
	}
	if err == nil && format == "text" && sum.Confirmed > 0 {
		_, err = fmt.Fprintf(w, "%d of %d shards confirmed by a second line with the same result\n", sum.Confirmed, sum.Shards)
	}
	if err != nil {
		return err
	}
	if c.Bool("stats") { // the result first, then the statistics about it
		e := c.App.ErrWriter
		fmt.Fprintf(e, "merge: n=%d shards=%d pieces=%d nodes=%d time=%v (summed over the shards; longest %v)\n",
			sum.N, sum.Shards, sum.Parts, sum.Nodes, sum.Elapsed, sum.Longest)
		// The imbalance: how much longer the last shard runs than an even
		// split would, by time and by the work (queens placed).
		byTime, byNodes := 0.0, 0.0
		if sum.Elapsed > 0 {
			byTime = float64(sum.Longest) * float64(sum.Shards) / float64(sum.Elapsed)
		}
		if sum.Nodes > 0 {
			byNodes = float64(sum.MostNodes) * float64(sum.Shards) / float64(sum.Nodes)
		}
		fmt.Fprintf(e, "merge: imbalance (largest shard / mean) %.2f by time, %.2f by queens placed\n", byTime, byNodes)
		for _, r := range sum.Slowest {
			fmt.Fprintf(e, "merge: slow: shard %d %v on %s, %d threads, started %s (%s)\n", r.Shard, r.Elapsed,
				cmp.Or(r.Host, "?"), r.Threads, r.Start.Format(time.RFC3339), r.Source)
		}
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
	line := 0
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		res, err := shard.Parse(sc.Bytes())
		if err != nil {
			return nil, failf("merge: %s:%d: %v", name, line, err)
		}
		res.Source = fmt.Sprintf("%s:%d", name, line)
		results = append(results, res)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, failf("merge: %s:%d: %v", name, line+1, err)
		}
		return nil, usagef("merge: read %s: %v", name, unwrapPath(err))
	}
	return results, nil
}
