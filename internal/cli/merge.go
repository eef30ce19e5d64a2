package cli

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/big"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/quote"
	"github.com/queens-dev/queens/shard"
	"github.com/urfave/cli/v2"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:  "merge",
		Usage: "sum the shard results of queens backtrack --shard, refusing gaps, overlaps and mismatches",
		UsageText: "queens merge [--format text|json] [--stats] [--verify K|P%] [--record FILE] FILE... | -\n" +
			"queens merge --check-record RECORD FILE... | -\n" +
			"queens merge --progress DIR...",
		Description: `merge reads the JSON lines that "queens backtrack -n N --count --shard I/K --json"
prints, from the files given (- for stdin; blank lines are skipped), checks that
they are every shard of one count exactly once, and prints the count like --count
--unique does ("T solutions (U unique)"), then whether it matches the published
table (OEIS A000170, A002562). With --format json it prints one JSON line instead,
the count's fields and "published": "matches", "differs" or "unknown" (n beyond
the table), e.g. {"n":8,"total":92,"unique":12,"published":"matches"}.

It refuses, with exit status 1 and a message naming the problem: a line that is not
a shard result, a line whose checksum does not match (changed or cut), tallies that
no count can give, a missing shard (listed as a job array resubmits them, with the
command that does it), a shard given twice with different results (the same result
twice, from another run, is a confirmation), shards of different n, split, shard
count or version, and pieces that are not those this version of queens deals to
each shard. A count that differs from the published table is a failed check too
(exit status 1). Lines of different engines (the CPU's constellations, the GPU)
merge: every engine finds the same tallies, and only those are compared. The
half-board join (--engine join --shard) splits the count into its own pieces
(scheme join-parts-3): its lines merge with each other, never with the
constellations' (a clear error), and --verify recounts them with the join.

A checksum guards against accidents only: anyone can recompute it. --verify K
recounts K pieces drawn at random and compares them with the lines: the check
against a worker that lies or has a bug, and for n beyond the published table (no
count is published for n >= 28) the only check of the count with confirmations.
The draw's seed is random unless --seed gives it, and is printed so that the draw
can be repeated. merge prints the probability that the recount would have caught a
worker that forged one piece and one that forged 1% of the pieces (--forged F: F
pieces, or P% of them, instead); --verify P% recounts as many pieces as catch a
worker that forged --forged of them (default 1%) with probability P.

--record FILE writes the record of the merge (one JSON line: the count, versions,
engines, the recount's K, seed and pieces, each line's checksum, host and elapsed
time); --check-record FILE checks it against the lines it was made from, recounting
the same pieces. --progress DIR... reads the parts directories of a running count
(the .jsonl results and the .ckpt checkpoints of count.sbatch) and prints the
pieces done, the percentage of the work (pieces weighted by their expected cost),
an ETA, and the shards whose checkpoint has not changed for --stale.`,
		Flags: []cli.Flag{formatFlag("text", "json"), statsFlag(),
			&cli.StringFlag{Name: "verify", Usage: "recount `K` pieces drawn at random and compare them with the lines (0: none); P% (such as 99%): as many as catch a forger with probability P"},
			&cli.Uint64Flag{Name: "seed", DefaultText: "random, printed", Usage: "the seed `S` of --verify's draw"}, maxInputFlag(),
			&cli.StringFlag{Name: "forged", DefaultText: "1 and 1%", Usage: "the forger --verify is measured against: `F` pieces, or P% of them"},
			&cli.StringFlag{Name: "record", Usage: "write the record of the merge to `FILE` (one JSON line)"},
			&cli.StringFlag{Name: "check-record", Usage: "check the record `FILE` against the lines given"},
			&cli.BoolFlag{Name: "progress", Usage: "report the progress of the counts whose parts directories are given"},
			&cli.DurationFlag{Name: "stale", Value: 10 * time.Minute, Usage: "with --progress: call a shard stale when its checkpoint is older than `D`"},
		},
		Action: mergeAction,
	}
}

// mergeAction checks the arguments, then merges, checks a record or
// reports progress.
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
	if c.Bool("progress") {
		return progressAction(c)
	}
	if i := slices.Index(c.Args().Slice(), "-"); i >= 0 && slices.Contains(c.Args().Slice()[i+1:], "-") {
		return usagef("merge: - (stdin) given twice")
	}
	if c.IsSet("check-record") {
		return checkRecordAction(c)
	}
	rc, err := parseVerify(c)
	if err != nil {
		return err
	}
	results, err := readAllResults(c)
	if err != nil {
		return err
	}
	sum, err := shard.Merge(results)
	if err != nil {
		return failf("%v%s", err, resubmission(err, results))
	}
	if err := rc.recount(c, sum, results); err != nil {
		return err
	}
	if err := writeVerdict(c.App.Writer, format, sum, rc); err != nil {
		return err
	}
	if path := c.String("record"); path != "" {
		if err := writeRecord(c, path, shard.NewRecord(sum, results, rc.checked, rc.seed, version())); err != nil {
			return err
		}
	}
	if c.Bool("stats") { // the result first, then the statistics about it
		writeMergeStats(c.App.ErrWriter, sum)
	}
	if shard.Published(sum) == "differs" {
		return failf("merge: the count of n = %d differs from the published one", sum.N)
	}
	return nil
}

// readAllResults reads the shard results of every input given.
func readAllResults(c *cli.Context) ([]shard.Result, error) {
	var results []shard.Result
	for _, name := range c.Args().Slice() {
		var r io.Reader = c.App.Reader
		if name != "-" {
			f, err := openInput(c, name)
			if err != nil {
				return nil, usagef("merge: cannot read %s: %v", name, unwrapPath(err))
			}
			defer f.Close()
			r = f
		} else {
			var err error
			if r, err = stdinInput(c, r); err != nil {
				return nil, usagef("merge: stdin: %v", err)
			}
		}
		rs, err := readResults(r, name)
		if err != nil {
			return nil, err
		}
		results = append(results, rs...)
	}
	return results, nil
}

// maxShardLine is the longest line merge reads: a shard's line holds its
// pieces' tallies (1.1 MiB for one shard of all of n = 28's pieces),
// under the least default of --max-input (16 MiB);
// anything past this is no shard result, refused before it takes more
// memory.
const maxShardLine = 8 << 20

// readResults reads the shard results of one input, skipping blank lines.
func readResults(r io.Reader, name string) ([]shard.Result, error) {
	if name == "-" {
		name = "stdin"
	}
	var results []shard.Result
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than the reader's buffer
	for line := 1; ; line++ {
		b, err := br.ReadSlice('\n')
		for err == bufio.ErrBufferFull && len(long) <= maxShardLine {
			long = append(long, b...)
			b, err = br.ReadSlice('\n')
		}
		if len(long) > 0 {
			b, long = append(long, b...), long[:0]
		}
		if len(bytes.TrimRight(b, "\r\n")) > maxShardLine {
			return nil, usagef("merge: %s:%d: a line longer than a shard line may be (%d MiB): %s",
				name, line, maxShardLine>>20, quote.Bytes(b))
		}
		if err != nil && err != io.EOF {
			return nil, usagef("merge: read %s: %v", name, unwrapPath(err))
		}
		if len(bytes.TrimSpace(b)) > 0 {
			res, perr := shard.Parse(bytes.TrimRight(b, "\r\n"))
			if perr != nil {
				return nil, failf("merge: %s:%d: %v", name, line, perr)
			}
			res.Source = fmt.Sprintf("%s:%d", name, line)
			results = append(results, res)
		}
		if err == io.EOF {
			break
		}
	}
	return results, nil
}

// resubmission returns, for a merge that misses shards, the command that
// counts them with deploy/slurm/count.sbatch (K given, so that a part of
// the array counts the shards of the whole split), in the parts
// directory the lines were read from when they share one.
func resubmission(err error, results []shard.Result) string {
	var miss *shard.MissingError
	if !errors.As(err, &miss) {
		return ""
	}
	env := fmt.Sprintf("QUEENS_N=%d QUEENS_SHARDS=%d", miss.N, miss.Shards)
	if len(results) > 0 && results[0].Split > 0 {
		env += fmt.Sprintf(" QUEENS_SPLIT=%d", results[0].Split) // merge saw every line agree on it
	}
	dir := ""
	for i, r := range results {
		file, _, _ := strings.Cut(r.Source, ":")
		d := filepath.Dir(file)
		if file == "stdin" || i > 0 && d != dir {
			dir = ""
			break
		}
		dir = d
	}
	if dir != "" && dir != "." {
		env += " QUEENS_PARTS=" + shellQuote(dir)
	}
	return fmt.Sprintf("; resubmit them: %s sbatch --array=%s deploy/slurm/count.sbatch", env, shard.Ranges(miss.Missing, 0))
}

// shellQuote quotes s for a POSIX shell where it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// forger is a worker that forged some of its pieces: count of them, or
// percent of all.
type forger struct {
	count   int
	percent float64 // used when count is 0
}

// pieces returns how many of parts the forger forged, at least 1.
func (f forger) pieces(parts int) int {
	if f.count > 0 {
		return min(f.count, parts)
	}
	return max(1, min(parts, int(f.percent*float64(parts)/100)))
}

// describe names the forger for a count of parts pieces: "1 piece", "1%
// of the pieces (95)".
func (f forger) describe(parts int) string {
	switch {
	case f.count == 1:
		return "1 piece"
	case f.count > 0:
		return fmt.Sprintf("%d pieces", f.count)
	}
	return fmt.Sprintf("%s%% of the pieces (%d)", strconv.FormatFloat(f.percent, 'g', -1, 64), f.pieces(parts))
}

// parsePercent reads "P%" (0 < P < 100) as P; ok is false when s does
// not end in %.
func parsePercent(flag, s string) (p float64, ok bool, err error) {
	v, ok := strings.CutSuffix(s, "%")
	if !ok {
		return 0, false, nil
	}
	p, err = strconv.ParseFloat(v, 64)
	if err != nil || !(p > 0 && p < 100) {
		return 0, true, usagef("merge: --%s %q: want a percentage above 0%% and below 100%%", flag, s)
	}
	return p, true, nil
}

// forgers reads --forged: the forgers --verify is measured against
// (default: one piece, and 1% of the pieces).
func forgers(c *cli.Context) ([]forger, error) {
	if !c.IsSet("forged") {
		return []forger{{count: 1}, {percent: 1}}, nil
	}
	s := c.String("forged")
	if p, ok, err := parsePercent("forged", s); ok || err != nil {
		return []forger{{percent: p}}, err
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 || k > shard.MaxShards*64 {
		return nil, usagef("merge: --forged %q: want a number of pieces, 1 or more, or a percentage such as 1%%", s)
	}
	return []forger{{count: k}}, nil
}

// recounted is what --verify asks for and did.
type recounted struct {
	k       int     // pieces asked for
	p       float64 // or, when k is 0, the probability asked for (0 to 1)
	seed    uint64
	checked []shard.Checked
	forgers []forger
}

// parseVerify reads --verify, --forged and --seed (a random seed unless
// given), before any work.
func parseVerify(c *cli.Context) (recounted, error) {
	var rc recounted
	var err error
	if rc.forgers, err = forgers(c); err != nil {
		return rc, err
	}
	v := cmp.Or(c.String("verify"), "0")
	if p, ok, err := parsePercent("verify", v); err != nil {
		return rc, err
	} else if ok {
		rc.p = p / 100
		rc.forgers = rc.forgers[len(rc.forgers)-1:] // --forged, or 1%
	} else if rc.k, err = strconv.Atoi(v); err != nil || rc.k < 0 {
		return rc, usagef("merge: --verify %q: want a number of pieces, 0 or more, or a probability such as 99%%", v)
	}
	rc.seed = c.Uint64("seed")
	if !c.IsSet("seed") {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return rc, fmt.Errorf("merge --verify: draw a seed: %w", err)
		}
		rc.seed = binary.LittleEndian.Uint64(b[:]) >> 1
	}
	return rc, nil
}

// recount runs --verify: K pieces (given, or as many as the probability
// asked for needs) drawn with the seed.
func (rc *recounted) recount(c *cli.Context, sum shard.Sum, results []shard.Result) error {
	if rc.p > 0 {
		var err error
		if rc.k, err = shard.PiecesFor(sum.Parts, rc.forgers[0].pieces(sum.Parts), rc.p); err != nil {
			return usagef("merge: --verify: %v", err)
		}
	}
	if rc.k == 0 {
		return nil
	}
	var err error
	rc.checked, err = shard.Verify(c.Context, results, rc.k, rc.seed)
	if errors.Is(err, shard.ErrVerify) {
		return failf("merge --verify (--seed %d): %v", rc.seed, err)
	}
	return err
}

// writeVerdict prints the count and what checked it.
func writeVerdict(w io.Writer, format string, sum shard.Sum, rc recounted) error {
	published := shard.Published(sum)
	if format == "json" {
		var seed *uint64
		if len(rc.checked) > 0 {
			seed = &rc.seed
		}
		return writeJSONLine(w, struct {
			N         int           `json:"n"`
			Total     shard.Uint128 `json:"total"`
			Unique    shard.Uint128 `json:"unique"`
			Published string        `json:"published"`
			Verified  int           `json:"verified"`
			Confirmed int           `json:"confirmed"`
			Seed      *uint64       `json:"seed,omitempty"`
		}{sum.N, sum.Total, sum.Unique, published, len(rc.checked), sum.Confirmed, seed})
	}
	noun := "solutions"
	if sum.Total == shard.From64(1) {
		noun = "solution"
	}
	b := fmt.Appendf(nil, "%v %s (%v unique)\n", sum.Total, noun, sum.Unique)
	want, _ := board.Known(sum.N)
	switch {
	case published == "unknown" && len(rc.checked) == 0:
		b = fmt.Appendf(b, "no count is published for n = %d: nothing checked this count but its lines; recount with --verify K, and run shards twice to confirm them\n", sum.N)
	case published == "unknown":
		b = fmt.Appendf(b, "no count is published for n = %d: the recount of --verify and the confirmations are its only checks\n", sum.N)
	case published == "matches":
		b = fmt.Appendf(b, "matches the published count for n = %d\n", sum.N)
	default:
		b = fmt.Appendf(b, "DIFFERS from the published count for n = %d: %d solutions (%d unique)\n", sum.N, want.Total, want.Unique)
	}
	if len(rc.checked) > 0 {
		b = fmt.Appendf(b, "recounted %d of %d pieces drawn at random (--seed %d): all agree\n", len(rc.checked), sum.Parts, rc.seed)
		for _, f := range rc.forgers {
			b = fmt.Appendf(b, "a worker that forged %s would have been caught with probability %s\n",
				f.describe(sum.Parts), percent(shard.Detection(sum.Parts, f.pieces(sum.Parts), len(rc.checked))))
		}
	}
	if sum.Confirmed > 0 {
		b = fmt.Appendf(b, "%d of %d shards confirmed by a second line with the same result\n", sum.Confirmed, sum.Shards)
	}
	_, err := w.Write(b)
	return err
}

// percent writes a probability as a percentage with enough digits to
// tell it from 0 and 100.
func percent(p float64) string {
	switch {
	case p >= 1:
		return "100%"
	case p <= 0:
		return "0%"
	case p > 0.9999:
		return "> 99.99%"
	case p < 0.0001:
		return strconv.FormatFloat(100*p, 'g', 2, 64) + "%"
	}
	return strconv.FormatFloat(100*p, 'f', 2, 64) + "%"
}

// writeRecord writes the record of the merge to path, atomically.
func writeRecord(c *cli.Context, path string, rec shard.Record) error {
	out, err := openOutput(path, c.App.Writer)
	if err != nil {
		return err
	}
	out.Write(rec.AppendLine(nil))
	return out.Commit()
}

// checkRecordAction runs --check-record: the record against the lines.
func checkRecordAction(c *cli.Context) error {
	path := c.String("check-record")
	f, err := openInput(c, path)
	if err != nil {
		return usagef("merge: cannot read %s: %v", path, unwrapPath(err))
	}
	defer f.Close()
	data, err := io.ReadAll(f) // capped by openInput (--max-input)
	if err != nil {
		return usagef("merge: read %s: %v", path, unwrapPath(err))
	}
	rec, err := shard.ParseRecord(data)
	if err != nil {
		return failf("merge: %s: %v", path, err)
	}
	results, err := readAllResults(c)
	if err != nil {
		return err
	}
	if err := shard.CheckRecord(c.Context, rec, results); err != nil {
		if errors.Is(err, c.Context.Err()) {
			return err
		}
		return failf("merge: %s: %v", path, err)
	}
	_, err = fmt.Fprintf(c.App.Writer, "record %s checks: %s solutions (%s unique) of n = %d from %d lines of %d shards; recounted the same %d pieces (--seed %d): all agree\n",
		path, rec.Total, rec.Unique, rec.N, len(rec.Lines), rec.Shards, rec.Verify, rec.Seed)
	return err
}

// writeMergeStats prints merge --stats on e.
func writeMergeStats(e io.Writer, sum shard.Sum) {
	fmt.Fprintf(e, "merge: n=%d shards=%d pieces=%d nodes=%v time=%v (summed over the shards; longest %v)\n",
		sum.N, sum.Shards, sum.Parts, sum.Nodes, sum.Elapsed, sum.Longest)
	// The imbalance: how much longer the last shard runs than an even
	// split would, by time and by the work (queens placed).
	byTime, byNodes := 0.0, 0.0
	if sum.Elapsed > 0 {
		byTime = float64(sum.Longest) * float64(sum.Shards) / float64(sum.Elapsed)
	}
	if !sum.Nodes.IsZero() {
		most, _ := new(big.Float).SetInt(sum.MostNodes.Big()).Float64()
		all, _ := new(big.Float).SetInt(sum.Nodes.Big()).Float64()
		byNodes = most * float64(sum.Shards) / all
	}
	fmt.Fprintf(e, "merge: imbalance (largest shard / mean) %.2f by time, %.2f by queens placed\n", byTime, byNodes)
	for _, r := range sum.Slowest {
		fmt.Fprintf(e, "merge: slow: shard %d %v on %s, %d threads, started %s (%s)\n", r.Shard, r.Elapsed,
			quote.Text(cmp.Or(r.Host, "?")), r.Threads, r.Start.Format(time.RFC3339), r.Source)
	}
}
