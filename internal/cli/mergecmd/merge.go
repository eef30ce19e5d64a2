package mergecmd

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/quote"
	"github.com/queens-dev/queens/shard"
	"github.com/urfave/cli/v2"
)

// mergeDescription is the help text of merge.
var mergeDescription = `merge reads the JSON lines that "queens backtrack -n N --count --shard I/K --json"
prints, from the files given (- for stdin, a directory for its *.jsonl files;
blank lines are skipped), one line at a time (parsed on --threads), checks that
they are every shard of one count exactly once, and prints the count like --count
--unique does ("T solutions (U unique)"), then whether it matches the published
table (OEIS A000170, A002562). With --format json it prints one JSON line instead,
the count's fields and "published": "matches", "differs" or "unknown" (n beyond
the table), e.g. {"n":8,"total":92,"unique":12,"published":"matches"}.

It refuses, with exit status 1 and a message naming the problem: a line that is not
a shard result, a line whose checksum does not match (changed or cut), tallies that
no count can give, a missing shard (listed as a job array resubmits them, with the
sbatch commands that do it: task ids under the cluster's MaxArraySize, from
QUEENS_MAX_ARRAY_SIZE, count.sbatch's submission file or scontrol; with the
settings that file records; on stdout, one a line, when too long for the
message), a shard given twice with different results (the same result
again is a repeat when the same search found it: the same engine, or the GPU
after the constellations, whose search it runs; only engines that share no
counting code confirm each other), shards of different n, split, shard
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

--verify K|P%|all --partial FILE... checks lines on their own, needing no other
shard (the lines of a sample, or of a count not yet whole): each line's
pieces, K of them (P% of them, at least one, or all), drawn with --seed, are
recounted with the engine it names, and each line is reported verified or not
(with --format json one JSON line each); the exit status is 0 only when every
line is verified, 1 when a recount disagrees.

--record FILE writes the record of the merge (one JSON line: the count, versions,
engines, the recount's K, seed and pieces, each line's checksum, host and elapsed
time); --check-record FILE checks it against the lines it was made from, recounting
the same pieces (on --threads), then --recount K more drawn at random
(--seed, printed) with the plain search, a third way to count a piece that
shares no counting code with the constellations, the GPU or the join, so that
a forged tally or an edited engine field is caught by arithmetic, not taken on
the line's word. K's default is 16, or as many as fit in an estimated core-hour
(the plain search's mean cost a piece, measured at n = 14 to 19 and
extrapolated; of the constellations' split 16 up to n = 21, 5 at n = 22, none
from n = 23, where the check says "not recounted: pass --recount K (estimated
X core-hours a piece ...)" and its exit status is unchanged; the join's
smaller pieces allow 16 up to n = 23). --confirm RECORD_A RECORD_B FILE... checks two
records of one count, by engines of different splits (the constellations and
the join), each against its lines, and exits 0 only when both check and their
counts agree. --progress DIR... reads the parts directories of a running count
(the .jsonl results and the .ckpt checkpoints of count.sbatch) and prints the
pieces done, the percentage of the work (pieces weighted by their expected cost),
an ETA, and the shards whose checkpoint has not changed for --stale.`

// Command returns queens merge.
func Command() *cli.Command { return newMergeCommand(runMerge) }

// newMergeCommand returns the merge command; its action reads the flags
// into mergeOptions and hands them to run (tests pass their own).
func newMergeCommand(run func(ctx context.Context, o mergeOptions, stdin io.Reader, stdout, stderr io.Writer) error) *cli.Command {
	return &cli.Command{
		Name:  "merge",
		Usage: "sum the shard results of queens backtrack --shard, refusing gaps, overlaps and mismatches",
		UsageText: "queens merge [--format text|json] [--stats] [--verify K|P%] [--record FILE] FILE... | -\n" +
			"queens merge --check-record RECORD FILE... | -\n" +
			"queens merge --confirm RECORD_A RECORD_B FILE... | -\n" +
			"queens merge --verify K|P%|all --partial FILE... | -\n" +
			"queens merge --progress DIR...",
		Description: mergeDescription,
		Flags: []cli.Flag{cmdutil.FormatFlag("text", "json"), cmdutil.StatsFlag(),
			&cli.StringFlag{Name: "verify", Usage: "recount `K` pieces drawn at random and compare them with the lines (0: none); P% (such as 99%): as many as catch a forger with probability P"},
			&cli.Uint64Flag{Name: "seed", DefaultText: "random, printed", Usage: "the seed `S` of --verify's draw (with --check-record and --confirm: of --recount's)"}, cmdutil.MaxInputFlag(),
			&cli.IntFlag{Name: "recount", Value: defaultRecount, DefaultText: "16, or what fits in an estimated core-hour", Usage: "with --check-record and --confirm: recount `K` pieces of each record drawn at random (--seed) with the plain search, which shares no counting code with any engine (0: none)"},
			&cli.StringFlag{Name: "forged", DefaultText: "1 and 1%", Usage: "the forger --verify is measured against: `F` pieces, or P% of them"},
			&cli.StringFlag{Name: "record", Usage: "write the record of the merge to `FILE` (one JSON line)"},
			&cli.StringFlag{Name: "check-record", Usage: "check the record `FILE` against the lines given"},
			&cli.BoolFlag{Name: "partial", Usage: "with --verify K, P% or all: recount K pieces of each line given (P% of them, or all) with the engine it names, and say of each whether it is verified, needing no other shard (lines of a sample)"},
			&cli.BoolFlag{Name: "confirm", Usage: "check the records RECORD_A RECORD_B (the first two files) of one count by two independent engines against the lines that follow, and compare them"},
			cmdutil.ThreadsFlag(),
			&cli.BoolFlag{Name: "progress", Usage: "report the progress of the counts whose parts directories are given"},
			&cli.DurationFlag{Name: "stale", Value: 10 * time.Minute, Usage: "with --progress: call a shard stale when its checkpoint is older than `D`"},
		},
		Action: func(c *cli.Context) error {
			o := mergeFlags(c)
			if err := o.check(); err != nil {
				return err
			}
			return run(c.Context, o, c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// mergeOptions are the flags and arguments of queens merge: read once
// (mergeFlags), then checked (check).
type mergeOptions struct {
	args           []string // the inputs; with --confirm, the two records first
	format         string
	stats          bool
	verify         string
	seed           uint64
	seedSet        bool
	recount        int // --recount K
	recountSet     bool
	maxInput       int // MiB
	forged         string
	forgedSet      bool
	record         string // --record FILE
	checkRecord    string // --check-record FILE
	checkRecordSet bool
	confirm        bool
	partial        bool // --partial: each line recounted on its own
	threads        int
	progress       bool
	stale          time.Duration

	// Set by check, for a merge: what --verify asks for (its seed is
	// drawn as the merge starts, unless --seed gives it).
	rc recounted
}

// mergeFlags reads merge's flags: the one place that looks them up by
// name.
func mergeFlags(c *cli.Context) mergeOptions {
	return mergeOptions{
		args: c.Args().Slice(), format: c.String("format"), stats: c.Bool("stats"),
		verify: c.String("verify"), seed: c.Uint64("seed"), seedSet: c.IsSet("seed"), recount: c.Int("recount"), recountSet: c.IsSet("recount"), maxInput: c.Int("max-input"),
		forged: c.String("forged"), forgedSet: c.IsSet("forged"), record: c.String("record"),
		checkRecord: c.String("check-record"), checkRecordSet: c.IsSet("check-record"), confirm: c.Bool("confirm"), partial: c.Bool("partial"),
		threads: c.Int("threads"), progress: c.Bool("progress"), stale: c.Duration("stale"),
	}
}

// Check checks the options (usage errors, exit status 2): the format,
// the inputs, and for a merge --verify and --forged.
func (o *mergeOptions) check() error {
	if o.format != "text" && o.format != "json" {
		return cmdutil.Usagef("merge: --format %q: want text or json", o.format)
	}
	if len(o.args) == 0 {
		return cmdutil.Usagef("merge: no input: give the files of shard results, or - for stdin")
	}
	if err := cmdutil.FlagsBefore(o.args, "merge", "the files"); err != nil {
		return err
	}
	if o.progress && o.partial {
		return cmdutil.Usagef("merge: --partial with --progress: one recounts lines, the other reports a running count")
	}
	if o.progress {
		return nil
	}
	if i := slices.Index(o.args, "-"); i >= 0 && slices.Contains(o.args[i+1:], "-") {
		return cmdutil.Usagef("merge: - (stdin) given twice")
	}
	if o.record != "" && (o.checkRecordSet || o.confirm) {
		what := "--check-record"
		if o.confirm {
			what = "--confirm"
		}
		return cmdutil.Usagef("merge: --record with %s: a check writes no record (merge the lines with --record, then check that record)", what)
	}
	if o.partial {
		if o.record != "" || o.checkRecordSet || o.confirm {
			return cmdutil.Usagef("merge: --partial checks lines, one at a time: not with --record, --check-record or --confirm")
		}
		_, err := parsePartialVerify(o.verify)
		return err
	}
	if o.recount < 0 || o.recount > maxRecount {
		return cmdutil.Usagef("merge: --recount %d: want a number of pieces, 0 to %d", o.recount, maxRecount)
	}
	if o.checkRecordSet || o.confirm {
		return nil
	}
	var err error
	o.rc, err = parseVerify(o.verify, o.forged, o.forgedSet)
	return err
}

// mergeRun is one run of merge: its options, its input and output.
type mergeRun struct {
	mergeOptions
	stdin          io.Reader
	stdout, stderr io.Writer
}

// Limit is the cap on a record read whole, in bytes (--max-input).
func (m *mergeRun) limit() int64 { return int64(m.maxInput) << 20 }

// runMerge merges, checks a record, confirms two or reports progress.
func runMerge(ctx context.Context, o mergeOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	m := &mergeRun{mergeOptions: o, stdin: stdin, stdout: stdout, stderr: stderr}
	switch {
	case o.progress:
		return m.progressAction()
	case o.checkRecordSet:
		return m.checkRecordAction(ctx)
	case o.confirm:
		return m.confirmAction(ctx)
	case o.partial:
		return m.partialAction(ctx)
	}
	return m.merge(ctx)
}

// merge sums the lines, recounts what --verify asks for, and prints the
// Count and, with --record, writes its record.
func (m *mergeRun) merge(ctx context.Context) error {
	rc := m.rc
	if err := rc.drawSeed(m.seed, m.seedSet); err != nil {
		return err
	}
	in, err := newInputs(m.stdin, m.args, m.record)
	if err != nil {
		return err
	}
	mg := &shard.Merger{Seed: rc.seed, Verify: rc.pieces}
	if err := in.each(ctx, m.threads, in.explained(ctx, mg.Add)); err != nil {
		return err
	}
	sum, err := mg.Sum()
	if err != nil {
		return mergeFailed(m.stdout, m.format, err, in.dirs)
	}
	if rc.checked, err = mg.Recount(ctx, m.threads); err != nil {
		if errors.Is(err, shard.ErrVerify) {
			return cmdutil.Failf("merge --verify (--seed %d): %v", rc.seed, err)
		}
		return err
	}
	if err := writeVerdict(m.stdout, m.format, sum, rc); err != nil {
		return err
	}
	if m.record != "" {
		if err := writeRecord(m.stdout, m.record, mg.Record(sum, rc.checked, rc.seed, cmdutil.Version())); err != nil {
			return err
		}
	}
	if m.stats { // the result first, then the statistics about it
		writeMergeStats(m.stderr, sum)
	}
	if shard.Published(sum) == "differs" {
		return cmdutil.Failf("merge: the count of n = %d differs from the published one", sum.N)
	}
	return nil
}

// mergeFailed reports a merge that failed (err, from [shard.Merger.Sum]):
// with missing shards, the command that counts them; with --format json,
// also as a JSON object on stdout. The exit status is 1 either way.
func mergeFailed(stdout io.Writer, format string, err error, dirs []string) error {
	var miss *shard.MissingError
	if format == "json" {
		v := struct {
			Error   string `json:"error"`
			N       int    `json:"n,omitempty"`
			Shards  int    `json:"shards,omitempty"`
			Count   int    `json:"missing_count,omitempty"`
			Missing string `json:"missing,omitempty"` // 0-based, as ranges
		}{Error: err.Error()}
		if errors.As(err, &miss) {
			v.N, v.Shards, v.Count, v.Missing = miss.N, miss.Shards, miss.Count, miss.Ranges(0)
		}
		if werr := cmdutil.WriteJSONLine(stdout, v); werr != nil {
			return werr
		}
	}
	var w io.Writer // the commands that resubmit missing shards, when they are long
	if format == "text" {
		w = stdout
	}
	return cmdutil.Failf("%v%s", err, resubmission(w, err, dirs))
}

// inputs are the inputs of merge: files, directories of them, stdin.
type inputs struct {
	names  []string
	stdin  io.Reader   // the input -
	record os.FileInfo // the file --record names, when it exists: no input may be it
	dirs   []string    // the directories lines were read from ("" for stdin), in the order first read
	any    bool        // an input was read
	// The inputs are read one at a time, each through the same two
	// buffers: a parts directory of millions of one-line files
	// allocates none a file.
	opener cmdutil.InputOpener
	br     *bufio.Reader
}

// newInputs checks merge's inputs (names) against the record it writes
// (recordPath, "" for none) before anything is read: an input that is
// the record (by any path or link) would be lost to it.
func newInputs(stdin io.Reader, names []string, recordPath string) (*inputs, error) {
	in := &inputs{names: names, stdin: stdin}
	if recordPath == "" {
		return in, nil
	}
	st, err := os.Stat(recordPath)
	if err != nil || !st.Mode().IsRegular() {
		return in, nil // Written fresh: no input is it
	}
	in.record = st
	for _, name := range in.names {
		var ist os.FileInfo
		if name == "-" {
			if f, ok := stdin.(*os.File); ok {
				ist, err = f.Stat()
			}
		} else {
			ist, err = os.Stat(name)
		}
		if err == nil && ist != nil {
			if err := in.notRecord(name, ist); err != nil {
				return nil, err
			}
		}
		if err == nil && ist != nil && ist.IsDir() {
			if dst, derr := os.Stat(filepath.Dir(recordPath)); derr == nil && os.SameFile(dst, ist) && isLines(recordPath) {
				return nil, cmdutil.Usagef("merge: --record %s is in the directory %s, whose lines merge reads: write it elsewhere", recordPath, name)
			}
		}
	}
	return in, nil
}

// notRecord refuses the input name (st) if it is the record's file.
func (in *inputs) notRecord(name string, st os.FileInfo) error {
	if in.record != nil && os.SameFile(in.record, st) {
		return cmdutil.Usagef("merge: --record names the input %s (the same file): it would replace the lines; write the record elsewhere", name)
	}
	return nil
}

// isLines reports whether a directory's file name is one merge reads:
// shard lines, *.jsonl, or compressed, *.jsonl.gz, *.jsonl.xz,
// *.jsonl.zst. Anything else (a record such as merged.json, a
// checkpoint, a log) is skipped by its name.
func isLines(name string) bool {
	for _, suffix := range []string{".jsonl", ".jsonl.gz", ".jsonl.xz", ".jsonl.zst"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// recordPrefix starts a merge record (see [shard.Record]).
const recordPrefix = `{"kind":"queens-merge-record"`

// each reads the shard results of every input, in the order given (a
// directory's *.jsonl files in the order the directory lists them), and
// calls add with each in that order, from one goroutine: nothing holds
// the lines. With threads > 1 the lines are parsed (the most of a
// merge's work) on threads goroutines, a few batches at a time.
func (in *inputs) each(ctx context.Context, threads int, add func(shard.Result) error) error {
	if threads <= 1 {
		return in.walk(ctx, func(name string, line int, text []byte) error {
			r, err := parseLine(name, line, text)
			if err == nil {
				err = addFailed(add(r))
			}
			return err
		})
	}
	p := newParsePipeline(threads, add)
	werr := in.walk(ctx, p.emit)
	if err := p.close(); err != nil {
		return err
	}
	return werr
}

// explained wraps add (a [shard.Merger]'s) so that a conflicting
// duplicate line names the earlier line too: the Merger keeps no lines,
// so on that error, and only then, the inputs are read again up to the
// later line for the first line of its shard (stdin is not read again:
// the earlier line stays unnamed when it came from there).
func (in *inputs) explained(ctx context.Context, add func(shard.Result) error) func(shard.Result) error {
	return func(r shard.Result) error {
		err := add(r)
		var dup *shard.DuplicateError
		if errors.As(err, &dup) && dup.Earlier == nil {
			if earlier, ok := in.firstOf(ctx, dup.Line); ok {
				dup.Earlier = &earlier
			}
		}
		return err
	}
}

// errFound stops firstOf's reading once it found the line.
var errFound = errors.New("found")

// firstOf returns the first line of later's shard in the inputs, read
// again, before later itself; ok is false when none is found (it came
// from stdin, or a file changed since).
func (in *inputs) firstOf(ctx context.Context, later shard.Result) (first shard.Result, ok bool) {
	again := &inputs{names: slices.DeleteFunc(slices.Clone(in.names), func(name string) bool { return name == "-" })}
	again.walk(ctx, func(name string, line int, text []byte) error {
		r, err := parseLine(name, line, text)
		switch {
		case r.Source == later.Source:
			return errFound
		case err != nil || r.Shard != later.Shard || r.Shards != later.Shards:
			return nil
		}
		first, ok = r, true
		return errFound
	})
	return first, ok
}

// addFailed returns the error of adding a line to a merge as the failed
// Check it is (exit status 1), or as it is when it has its status (a
// usage error of --verify).
func addFailed(err error) error {
	var exit *cmdutil.ExitError
	if err == nil || errors.As(err, &exit) {
		return err
	}
	return cmdutil.Failf("%v", err)
}

// parseLine parses the line (text, without its newline) number line of
// the input name.
func parseLine(name string, line int, text []byte) (shard.Result, error) {
	r, err := shard.Parse(text)
	if err != nil && bytes.HasPrefix(text, []byte(recordPrefix)) {
		return r, cmdutil.Usagef("merge: %s:%d: a merge record, not shard lines: give it to --check-record or --confirm, and the lines it was made from as the inputs", name, line)
	}
	if err != nil {
		return r, cmdutil.Failf("merge: %s:%d: %v", name, line, err)
	}
	r.Source = name + ":" + strconv.Itoa(line)
	return r, nil
}

// walk reads the lines of every input, in the order given, and calls
// emit with each that is not blank (text without its newline, valid only
// during the call; name "stdin" for -).
func (in *inputs) walk(ctx context.Context, emit func(name string, line int, text []byte) error) error {
	for _, name := range in.names {
		if name == "-" {
			r, err := cmdutil.InputReader(ctx, &cmdutil.AsyncReader{Ctx: ctx, R: in.stdin}, unlimitedInput)
			if err != nil {
				return cmdutil.Usagef("merge: stdin: %v", err)
			}
			if err := in.read(r, "-", emit); err != nil {
				return err
			}
			continue
		}
		if st, err := os.Stat(name); err == nil && st.IsDir() {
			if err := in.eachInDir(ctx, name, emit); err != nil {
				return err
			}
			continue
		}
		if err := in.readFile(ctx, name, emit); err != nil {
			return err
		}
	}
	return nil
}

// eachInDir reads the *.jsonl files of the directory dir, a few hundred
// names at a time: a parts directory of millions of shards is never
// listed whole.
func (in *inputs) eachInDir(ctx context.Context, dir string, emit func(string, int, []byte) error) error {
	d, err := os.Open(dir)
	if err != nil {
		return cmdutil.Usagef("merge: cannot read %s: %v", dir, cmdutil.UnwrapPath(err))
	}
	defer d.Close()
	files := 0
	for {
		names, err := d.Readdirnames(256)
		for _, name := range names {
			if !isLines(name) || strings.HasPrefix(name, ".") { // temporaries are hidden
				continue
			}
			files++
			if err := in.readFile(ctx, filepath.Join(dir, name), emit); err != nil {
				return err
			}
		}
		if err == io.EOF && files == 0 {
			return cmdutil.Usagef("merge: %s is a directory with no shard results in it (*.jsonl files)", dir)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return cmdutil.Usagef("merge: read %s: %v", dir, cmdutil.UnwrapPath(err))
		}
	}
}

// readFile reads the shard results of the file name.
func (in *inputs) readFile(ctx context.Context, name string, emit func(string, int, []byte) error) error {
	f, err := in.opener.Open(ctx, name, unlimitedInput)
	if err != nil {
		return cmdutil.Usagef("merge: cannot read %s: %v", name, cmdutil.UnwrapPath(err))
	}
	defer f.Close()
	if in.record == nil {
		return in.read(f, name, emit) // no record to tell it from
	}
	if st, err := f.F.Stat(); err == nil {
		if err := in.notRecord(name, st); err != nil {
			return err
		}
	}
	return in.read(f, name, emit)
}

// unlimitedInput caps merge's inputs (a PiB: none that matters): merge
// holds one line at a time, so its inputs may be of any length, where
// --max-input caps what is held whole (a record).
const unlimitedInput = 1 << 50

// maxShardLine is the longest line merge reads: a shard's line holds its
// pieces' tallies (1.1 MiB for one shard of all of n = 28's pieces);
// anything past this is no shard result, refused before it takes more
// memory. A merge holds one line at a time, so its inputs may be of any
// length.
const maxShardLine = 8 << 20

// maxBlankRun bounds the blank bytes in a row (blank lines, white space)
// an input may hold: a plan's lines are never apart by more than a few,
// and an input of nothing else (a gzip of gigabytes of newlines) would
// cost a minute before saying it holds no shard result.
const maxBlankRun = 64 << 20

// read reads the lines of one input and emits those that are not blank.
func (in *inputs) read(r io.Reader, name string, emit func(string, int, []byte) error) error {
	if name == "-" {
		name = "stdin"
	}
	dir := "" // stdin's lines come from no directory
	if name != "stdin" {
		dir = filepath.Dir(name)
	}
	if !slices.Contains(in.dirs, dir) {
		in.dirs = append(in.dirs, dir)
	}
	in.any = true
	if in.br == nil {
		in.br = bufio.NewReaderSize(r, 64<<10)
	} else {
		in.br.Reset(r)
	}
	br := in.br
	var long []byte // a line longer than the reader's buffer
	blank := 0      // the blank bytes since the last line that is not
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
			return cmdutil.Usagef("merge: %s:%d: a line longer than a shard line may be (%d MiB): %s",
				name, line, maxShardLine>>20, quote.Bytes(b))
		}
		if err != nil && err != io.EOF {
			return cmdutil.Usagef("merge: read %s: %v", name, cmdutil.UnwrapPath(err))
		}
		if len(bytes.TrimSpace(b)) > 0 {
			blank = 0
			if err := emit(name, line, bytes.TrimRight(b, "\r\n")); err != nil {
				return err
			}
		} else if blank += len(b); blank > maxBlankRun {
			return cmdutil.Usagef("merge: %s:%d: more than %d MiB of blank lines in a row: not shard results", name, line, maxBlankRun>>20)
		}
		if err == io.EOF {
			return nil
		}
	}
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
		return 0, true, cmdutil.Usagef("merge: --%s %q: want a percentage above 0%% and below 100%%", flag, s)
	}
	return p, true, nil
}

// forgers reads --forged (forged; set: given): the forgers --verify is
// measured against (default: one piece, and 1% of the pieces).
func forgers(forged string, set bool) ([]forger, error) {
	if !set {
		return []forger{{count: 1}, {percent: 1}}, nil
	}
	if p, ok, err := parsePercent("forged", forged); ok || err != nil {
		return []forger{{percent: p}}, err
	}
	k, err := strconv.Atoi(forged)
	if err != nil || k < 1 || k > min(shard.MaxShards*64, math.MaxInt) {
		return nil, cmdutil.Usagef("merge: --forged %q: want a number of pieces, 1 or more, or a percentage such as 1%%", forged)
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

// parseVerify reads --verify and --forged (forged; forgedSet: given),
// before any work.
func parseVerify(verify, forged string, forgedSet bool) (recounted, error) {
	var rc recounted
	var err error
	if rc.forgers, err = forgers(forged, forgedSet); err != nil {
		return rc, err
	}
	v := cmp.Or(verify, "0")
	if p, ok, err := parsePercent("verify", v); err != nil {
		return rc, err
	} else if ok {
		rc.p = p / 100
		rc.forgers = rc.forgers[len(rc.forgers)-1:] // --forged, or 1%
	} else if rc.k, err = strconv.Atoi(v); err != nil || rc.k < 0 || rc.k > maxRecount {
		return rc, cmdutil.Usagef("merge: --verify %q: want a number of pieces, 0 to %d, or a probability such as 99%%", v, maxRecount)
	}
	return rc, nil
}

// drawSeed sets the seed of --verify's draw: seed if set (--seed), else
// a random one.
func (rc *recounted) drawSeed(seed uint64, set bool) error {
	rc.seed = seed
	if !set {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return fmt.Errorf("merge --verify: draw a seed: %w", err)
		}
		rc.seed = binary.LittleEndian.Uint64(b[:]) >> 1
	}
	return nil
}

// pieces returns the pieces --verify recounts of parts: K, or as many as
// the probability asked for needs (for [shard.Merger.Verify]).
func (rc *recounted) pieces(parts int) (int, error) {
	if rc.p > 0 {
		k, err := shard.PiecesFor(parts, rc.forgers[0].pieces(parts), rc.p)
		if err != nil {
			return 0, cmdutil.Usagef("merge: --verify: %v", err)
		}
		if k > maxRecount {
			return 0, cmdutil.Usagef("merge: --verify %s%% would recount %d of the %d pieces, more than %d: that is a second count (run one, and --confirm)",
				strconv.FormatFloat(100*rc.p, 'g', -1, 64), k, parts, maxRecount)
		}
		return k, nil
	}
	return rc.k, nil
}

// maxRecount bounds the pieces --verify recounts.
const maxRecount = shard.MaxRecount

// writeVerdict prints the count and what checked it.
func writeVerdict(w io.Writer, format string, sum shard.Sum, rc recounted) error {
	published := shard.Published(sum)
	if format == "json" {
		var seed *uint64
		if len(rc.checked) > 0 {
			seed = &rc.seed
		}
		return cmdutil.WriteJSONLine(w, struct {
			N         int           `json:"n"`
			Total     shard.Uint128 `json:"total"`
			Unique    shard.Uint128 `json:"unique"`
			Published string        `json:"published"`
			Verified  int           `json:"verified"`
			Confirmed int           `json:"confirmed"`
			Repeated  int           `json:"repeated"`
			Seed      *uint64       `json:"seed,omitempty"`
		}{sum.N, sum.Total, sum.Unique, published, len(rc.checked), sum.Confirmed, sum.Repeated, seed})
	}
	noun := "solutions"
	if sum.Total == shard.From64(1) {
		noun = "solution"
	}
	b := fmt.Appendf(nil, "%v %s (%v unique)\n", sum.Total, noun, sum.Unique)
	want, _ := board.Known(sum.N)
	switch {
	case published == "unknown" && len(rc.checked) == 0:
		b = fmt.Appendf(b, "no count is published for n = %d: nothing checked this count but its lines; recount with --verify K, and count it again with the join to --confirm it\n", sum.N)
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
		b = fmt.Appendf(b, "%d of %d shards confirmed by a line of another engine with the same result\n", sum.Confirmed, sum.Shards)
	}
	if sum.Repeated > 0 {
		b = fmt.Appendf(b, "%d of %d shards repeated by the same engine with the same result (a repeat, not a confirmation)\n", sum.Repeated, sum.Shards)
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
func writeRecord(stdout io.Writer, path string, rec shard.Record) error {
	out, err := cmdutil.OpenOutput(path, stdout)
	if err != nil {
		return err
	}
	out.Write(rec.AppendLine(nil))
	return out.Commit()
}

// checkRecordAction runs --check-record: the record against the lines.
func (m *mergeRun) checkRecordAction(ctx context.Context) error {
	path := m.checkRecord
	rec, err := readRecord(ctx, path, m.limit())
	if err != nil {
		return err
	}
	in, err := newInputs(m.stdin, m.args, "")
	if err != nil {
		return err
	}
	pl, err := m.newPlain()
	if err != nil {
		return err
	}
	mg := rec.Merger()
	if err := in.each(ctx, m.threads, in.explained(ctx, func(r shard.Result) error {
		if err := mg.Add(r); err != nil {
			return err
		}
		return pl.add(r)
	})); err != nil {
		return err
	}
	if err := mg.Check(ctx, rec, m.threads); err != nil {
		if errors.Is(err, ctx.Err()) {
			return err
		}
		return cmdutil.Failf("merge: %s: %v", path, err)
	}
	if err := pl.recount(ctx, path, m.threads); err != nil {
		return err
	}
	_, err = fmt.Fprintf(m.stdout, "record %s checks: %s solutions (%s unique) of n = %d from %d lines of %d shards; recounted the same %d pieces (--seed %d): all agree\n%s"+
		"not checked: merged_by %s (the version that merged: no line gives it)\n",
		path, rec.Total, rec.Unique, rec.N, rec.LineCount, rec.Shards, rec.Verify, rec.Seed, pl.report(), quote.Text(rec.MergedBy))
	return err
}

// defaultRecount is --recount's default: 16 pieces, as many of them as
// fit in recountBudget by [shard.PlainSeconds]' estimate, none when one
// piece does not: of the constellations, milliseconds at n = 16 (3207
// pieces), 16 pieces up to n = 21, 5 at 22, none from 23 (an estimated
// 7,100 core-hours a piece at n = 28 would otherwise start unasked).
const defaultRecount = 16

// recountBudget bounds the estimated CPU seconds of --recount's default.
const recountBudget = 3600

// plainCheck is the recount of --check-record and --confirm: --recount
// pieces of a record's lines, drawn with --seed (or a random seed,
// printed), recounted with the plain search.
type plainCheck struct {
	mg      *shard.Merger
	k       int  // --recount, or its default once the split is known
	set     bool // --recount given: k is the user's
	n       int  // of the first line
	join    bool // the first line is of the join's split
	each    float64
	seed    uint64
	checked []shard.Checked
}

// newPlain returns the recount of --recount and --seed, its seed drawn.
func (m *mergeRun) newPlain() (*plainCheck, error) {
	var rc recounted
	if err := rc.drawSeed(m.seed, m.seedSet); err != nil {
		return nil, err
	}
	return m.newPlainSeeded(rc.seed), nil
}

// newPlainSeeded returns the recount of --recount with the seed given.
func (m *mergeRun) newPlainSeeded(seed uint64) *plainCheck {
	pl := &plainCheck{k: m.recount, set: m.recountSet, seed: seed}
	pl.mg = &shard.Merger{Verify: pl.pieces, Seed: pl.seed, Plain: true}
	return pl
}

// add adds a line of the record's count to the recount's draw.
func (pl *plainCheck) add(r shard.Result) error {
	if pl.n == 0 {
		pl.n, pl.join = r.N, r.Scheme == shard.JoinScheme
	}
	return pl.mg.Add(r)
}

// pieces returns the pieces to recount of the split's wholes (for
// [shard.Merger.Verify]): --recount K, or by default 16, fewer where their
// estimated cost passes recountBudget.
func (pl *plainCheck) pieces(wholes int) (int, error) {
	pl.each = shard.PlainSeconds(pl.n, pl.join, wholes)
	if !pl.set {
		pl.k = min(pl.k, int(min(recountBudget/pl.each, defaultRecount)))
	}
	return pl.k, nil
}

// recount recounts the pieces drawn of the lines of the record path,
// once every line was added and the record checked.
func (pl *plainCheck) recount(ctx context.Context, path string, threads int) error {
	if _, err := pl.mg.Sum(); err != nil {
		return cmdutil.Failf("merge: %s: %v", path, err)
	}
	var err error
	if pl.checked, err = pl.mg.Recount(ctx, threads); err != nil {
		if ctx.Err() != nil {
			return err
		}
		return cmdutil.Failf("merge: %s: the recount with the plain search (--recount %d --seed %d): %v", path, pl.k, pl.seed, err)
	}
	return nil
}

// cut reports whether the default recount was cut below defaultRecount by
// its estimated cost.
func (pl *plainCheck) cut() bool { return !pl.set && pl.k < defaultRecount }

// note says why the default recount was cut ("" when it was not): the
// estimated cost of a piece, and how to ask for more.
func (pl *plainCheck) note() string {
	if !pl.cut() {
		return ""
	}
	what := fmt.Sprintf("only %d", pl.k)
	if pl.k == 0 {
		what = "none"
	}
	return fmt.Sprintf("not recounted: pass --recount K (estimated %s core-hours a piece with the plain search at n = %d; the default recounts %s of the 16 pieces, what fits in an estimated %d core-hour)",
		coreHours(pl.each), pl.n, what, recountBudget/3600)
}

// coreHours writes seconds as core-hours: whole from 10, else two
// significant digits.
func coreHours(s float64) string {
	if h := s / 3600; h >= 10 {
		return strconv.FormatFloat(math.Round(h), 'f', 0, 64)
	}
	return strconv.FormatFloat(s/3600, 'g', 2, 64)
}

// report says what the recount did, a line, or that it was asked for none.
func (pl *plainCheck) report() string {
	switch {
	case pl.k == 0 && pl.cut():
		return pl.note() + "\n"
	case pl.k == 0:
		return "not recounted with the plain search (--recount 0): nothing but the lines' engines checked the pieces\n"
	}
	s := fmt.Sprintf("recounted %d more pieces drawn at random (--recount %d --seed %d; a split's whole constellations) with the plain search, which shares no counting code with any engine: all agree\n",
		len(pl.checked), pl.k, pl.seed)
	if pl.cut() {
		s += pl.note() + "\n"
	}
	return s
}

// readRecord reads and parses the record in the file path, of at most
// Limit bytes (--max-input).
func readRecord(ctx context.Context, path string, limit int64) (shard.Record, error) {
	f, err := cmdutil.OpenInputLimit(ctx, path, limit)
	if err != nil {
		return shard.Record{}, cmdutil.Usagef("merge: cannot read %s: %v", path, cmdutil.UnwrapPath(err))
	}
	defer f.Close()
	data, err := io.ReadAll(f) // capped by openInputLimit (--max-input)
	if err != nil {
		return shard.Record{}, cmdutil.Usagef("merge: read %s: %v", path, cmdutil.UnwrapPath(err))
	}
	rec, err := shard.ParseRecord(data)
	if err != nil {
		return rec, cmdutil.Failf("merge: %s: %v", path, err)
	}
	return rec, nil
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
