package backtrackcmd

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/quote"
	"github.com/queens-dev/queens/shard"
	"github.com/urfave/cli/v2"
)

// The flags of a sharded or checkpointed count (queens backtrack --count).
// Their actions run before the command's: they refuse the flags without
// --count, and --json selects --format json.
func shardFlag() cli.Flag {
	return &cli.StringFlag{Name: "shard",
		Usage: "count only shard `I/K` (I of K shards, I from --shard-base, default 0) and print one JSON line for queens merge; " +
			"without /K: --shard-count or SLURM_ARRAY_TASK_COUNT; without --shard: JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID"}
}

func shardCountFlag() cli.Flag {
	return &cli.IntFlag{Name: "shard-count",
		Usage: "the number of shards `K` (with --shard I, or with the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID)"}
}

func shardBaseFlag() cli.Flag {
	return &cli.IntFlag{Name: "shard-base", DefaultText: "0; SLURM_ARRAY_TASK_MIN for SLURM_ARRAY_TASK_ID",
		Usage: "the number of the first shard `B`: 1 for GNU parallel's {#} or a Slurm array 1-K"}
}

func splitFlag() cli.Flag {
	return &cli.StringFlag{Name: "split", DefaultText: "0",
		Usage: fmt.Sprintf("split each constellation into `M` sub-parts (2 to %d; 0: whole constellations; auto: 0 below n = %d, else 2^(N-16)), "+
			"the pieces of --shard and --checkpoint, for boards whose constellations are too large to be a piece of work each; "+
			"every shard of a count takes the same M (on the CPU: --gpu counts whole constellations)", backtrack.MaxParts, shard.AutoSplitFrom)}
}

func checkpointFlag() cli.Flag {
	return &cli.StringFlag{Name: "checkpoint",
		Usage: "record finished pieces of the count in `FILE`; the same command run again continues where it stopped (not the -o file)"}
}

func jsonFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "same as --format json"}
}

// The flags of a count made of pieces (--shard, --checkpoint), as
// backtrack's options hold them: what check finds of them.

// sharded reports whether the count is one shard (--shard or
// --shard-count).
func (o *backtrackOptions) sharded() bool { return o.shardSet || o.shardCountSet }

// pieces reports whether the count is made of pieces: a shard, or
// checkpointed.
func (o *backtrackOptions) pieces() bool { return o.sharded() || o.checkpoint != "" }

// checkCountFlags refuses the flags of a count made of pieces without
// --count or with --place, and --json with another --format (which it
// selects).
func (o *backtrackOptions) checkCountFlags() error {
	for _, f := range []cmdutil.FlagOn{{Name: "shard", On: o.shardSet}, {Name: "shard-count", On: o.shardCountSet}, {Name: "shard-base", On: o.shardBaseSet}, {Name: "split", On: o.splitSet}, {Name: "checkpoint", On: o.checkpoint != ""}} {
		switch {
		case !f.On:
		case !o.Count:
			return cmdutil.Usagef("--%s needs --count", f.Name)
		case len(o.Place) > 0:
			return cmdutil.Usagef("--%s cannot be combined with --place", f.Name)
		}
	}
	if o.json {
		if o.FormatSet && o.FormatName != "json" {
			return cmdutil.Usagef("--json and --format %s cannot be used together", o.FormatName)
		}
		o.FormatName, o.FormatSet = "json", true
	}
	return nil
}

// checkShard checks the shard's flags (and environment, see shardIndex)
// and --split.
func (o *backtrackOptions) checkShard() error {
	var err error
	if o.sharded() {
		if o.FormatSet && o.FormatName != "json" {
			return cmdutil.Usagef("--shard prints a JSON line; --format %s does not apply", o.FormatName)
		}
		if o.shardIndex, o.shards, err = o.shardOf(); err != nil {
			return err
		}
	}
	o.splitParts, err = splitOf(o.split, o.splitSet, o.N)
	return err
}

// lookupEnv reads the environment; tests replace it.
var lookupEnv = os.LookupEnv

// checkpointApart refuses -o naming the checkpoint or its lock file, by
// any path or link: the count written at the end would replace the
// checkpoint it was resumed from (or break its lock).
func checkpointApart(ckpt, out string) error {
	if ckpt == "" || out == "" || out == "-" {
		return nil
	}
	for _, f := range []string{ckpt, shard.LockPath(ckpt)} {
		if cmdutil.SameFile(out, f) {
			return cmdutil.Usagef("-o %s would replace the checkpoint's file %s: write the count elsewhere", quote.Text(out), quote.Text(f))
		}
	}
	return nil
}

// pieceCounter counts pieces with another engine than the CPU search (see
// shard.Options.Counter).
type pieceCounter = func(ctx context.Context, n int, pieces []backtrack.Subproblem, done func(int, backtrack.Tally) error) error

// countPieces runs a count made of pieces: with --shard (or
// --shard-count) one shard, printed as a JSON line; with --checkpoint
// resumable; with a counter (the GPU's) the pieces counted by it.
func (o *backtrackOptions) countPieces(ctx context.Context, out *cmdutil.SolutionOutput, stderr io.Writer, counter pieceCounter, engine string) error {
	spec := shard.Spec{N: o.N, Shards: 1, Version: cmdutil.Version(), Split: o.splitParts}
	if engine == shard.EngineJoin {
		spec.Scheme = shard.JoinScheme // the join's own pieces
	}
	if o.sharded() {
		spec.Index, spec.Shards = o.shardIndex, o.shards
	}
	if spec.Split > 0 && counter != nil {
		return cmdutil.Usagef("--split %s: --gpu counts whole constellations (on a count that mixes GPU and CPU shards, leave --split out on all of them)", o.split)
	}
	if _, _, err := spec.Covered(); err != nil {
		return cmdutil.UsageErr(err)
	}
	opt := shard.Options{Threads: o.Threads, Counter: counter, Engine: engine}
	if engine == shard.EngineJoin {
		var err error
		if opt.Memory, err = o.joinMemory(); err != nil {
			return err
		}
		defer limitHeap(opt.Memory)()
	}
	if err := o.keepOtherLine(spec, engine); err != nil {
		return err
	}
	var ckpt *shard.Checkpoint
	if o.checkpoint != "" {
		var err error
		if ckpt, err = openCheckpoint(o.checkpoint, spec, stderr); err != nil {
			return err
		}
		defer ckpt.Close()
		opt.Done = ckpt.Done()
	}
	run, err := o.runPieces(ctx, stderr, spec, opt, ckpt)
	if errors.Is(err, join.ErrMemory) && !o.memorySet {
		return cmdutil.TempFail(err) // the machine's memory, not the user's limit: another node may have more
	}
	if err != nil {
		return err
	}
	if o.sharded() {
		err = o.writeShardLine(out, stderr, run.res, ckpt)
	} else {
		err = o.writePiecesCount(out, run)
	}
	if err != nil || !o.Stats {
		return err
	}
	out.Flush() // the result first, then the statistics about it
	return cmdutil.WriteStats(stderr, o.Format, cmdutil.Stat{Name: "n", Value: o.N}, cmdutil.Stat{Name: "engine", Value: run.res.Engine}, cmdutil.Stat{Name: "scheme", Value: run.res.Scheme}, cmdutil.Stat{Name: "shard", Value: spec.Index}, cmdutil.Stat{Name: "shards", Value: spec.Shards},
		cmdutil.Stat{Name: "pieces", Value: run.pieces}, cmdutil.Stat{Name: "resumed", Value: run.resumed}, cmdutil.Stat{Name: "nodes", Value: run.res.Nodes},
		cmdutil.Stat{Name: "threads", Value: o.Threads}, cmdutil.Stat{Name: "seconds", Value: run.res.Elapsed})
}

// piecesRun is what runPieces counted: the result, the pieces of the
// shard and how many of them the checkpoint held before.
type piecesRun struct {
	res             shard.Result
	pieces, resumed int
}

// runPieces counts the shard spec with opt, recording each piece in ckpt
// (if not nil) and reporting progress on stderr; a count cut short says
// how far it got.
func (o *backtrackOptions) runPieces(ctx context.Context, stderr io.Writer, spec shard.Spec, opt shard.Options, ckpt *shard.Checkpoint) (piecesRun, error) {
	resumed, finished := 0, 0
	all, pieces, _ := spec.Work()
	added := map[string]float64{} // the work of the units of a piece, by piece
	var work float64
	for _, p := range opt.Done {
		if !p.Unit() {
			resumed++
		}
		work += p.Cost(o.N)
		added[p.Name()] += p.Cost(o.N)
	}
	prog := startPieceProgress(stderr, o.progressEvery, fmt.Sprintf("n=%d shard %d/%d", o.N, spec.Index, spec.Shards), resumed, pieces, work, all)
	defer prog.Stop()
	// A piece counted by units adds to the work the units not yet added.
	record := func(p shard.Piece) error {
		w := p.Cost(o.N)
		if p.Unit() {
			added[p.Name()] += w
		} else {
			finished++
			w -= added[p.Name()]
			delete(added, p.Name())
		}
		prog.Piece(p.String(), w, !p.Unit())
		if ckpt != nil {
			return ckpt.Record(p)
		}
		return nil
	}
	opt.OnPiece, opt.OnUnit = record, record
	res, err := shard.Run(ctx, spec, opt)
	prog.Stop()
	if ckpt != nil {
		res.Elapsed += ckpt.Earlier() // the processes before this one too
		// However the run ended, keep every piece that finished.
		if ferr := ckpt.Flush(); ferr != nil && err == nil {
			err = ferr
		}
	}
	if err == nil {
		return piecesRun{res: res, pieces: pieces, resumed: resumed}, nil
	}
	far := fmt.Sprintf("after %d of %d pieces", resumed+finished, pieces)
	if saved := 0; ckpt != nil {
		saved = ckpt.Saved()
		switch {
		case saved == resumed+finished && saved > 0:
			far += fmt.Sprintf(" (%s keeps them: run the same command again to continue)", o.checkpoint)
		case saved > 0:
			far += fmt.Sprintf(" (%s keeps %d of them: run the same command again to continue)", o.checkpoint, saved)
		}
	}
	return piecesRun{}, stoppedErr(ctx, far, err)
}

// writeShardLine writes the shard's JSON line; then the checkpoint, if
// any, is spent and removed.
func (o *backtrackOptions) writeShardLine(out *cmdutil.SolutionOutput, stderr io.Writer, res shard.Result, ckpt *shard.Checkpoint) error {
	_, err := out.Write(res.AppendLine(nil))
	if err != nil || ckpt == nil {
		return err
	}
	// The line written (renamed into place, or flushed), the checkpoint
	// and its lock are spent: a count of millions of shards would leave
	// millions of files.
	if err = out.Commit(); err == nil {
		if rerr := ckpt.Remove(); rerr != nil {
			fmt.Fprintf(stderr, "queens: warning: the line is written; %v\n", rerr)
		}
	}
	return err
}

// writePiecesCount writes the count of the whole board the pieces make
// up, and checks it against the published table.
func (o *backtrackOptions) writePiecesCount(out *cmdutil.SolutionOutput, run piecesRun) error {
	// N <= 27 here: 24 × the count fits 64 bits, unless a forged
	// checkpoint adds up past it, which the table check below names.
	total24, ok1 := run.res.Total24.Uint64()
	unique24, ok2 := run.res.Unique24.Uint64()
	if !ok1 || !ok2 {
		return cmdutil.Failf("the count of n = %d passes 2^64 / 24 solutions: the checkpoint %s holds a forged or damaged piece (remove it and count again)", o.N, o.checkpoint)
	}
	var unique *uint64
	if o.Unique.On {
		u := unique24 / 24
		unique = &u
	}
	if err := cmdutil.WriteCount(out, o.Format, o.N, total24/24, unique, nil); err != nil {
		return err
	}
	return checkPublished(o.N, total24, unique24, run.resumed, o.checkpoint)
}

// checkPublished checks a whole count made of pieces (a checkpoint's, the
// GPU's) against the published table, as merge checks a merged one: a
// Count resumed from a checkpoint is only as good as the checkpoint, whose
// checksum anyone can recompute. The count has been printed; a difference
// fails the run (exit status 1), naming the checkpoint when pieces came
// from it.
func checkPublished(n int, total24, unique24 uint64, resumed int, path string) error {
	want, ok := board.Known(n)
	if !ok || 24*want.Total == total24 && 24*want.Unique == unique24 {
		return nil
	}
	why := ""
	if resumed > 0 {
		why = fmt.Sprintf(": %d pieces came from the checkpoint %s, which holds a damaged or forged piece (remove it and count again)", resumed, path)
	}
	return cmdutil.Failf("the count of n = %d, %s solutions (%s unique), differs from the published %d (%d unique)%s",
		n, fraction(total24), fraction(unique24), want.Total, want.Unique, why)
}

// fraction writes x/24 for a message, as a whole number where it is one.
func fraction(x24 uint64) string {
	if x24%24 == 0 {
		return strconv.FormatUint(x24/24, 10)
	}
	return fmt.Sprintf("%d/24", x24)
}

// shardOf works out the 0-based shard index and the shard count from
// --shard I[/K], --shard-count K and --shard-base B, or from the batch
// engine's environment: JOB_COMPLETION_INDEX (a Kubernetes Indexed Job,
// from 0), SLURM_ARRAY_TASK_ID (a Slurm job array, from
// SLURM_ARRAY_TASK_MIN) and SLURM_ARRAY_TASK_COUNT. Flags win.
func (o *backtrackOptions) shardOf() (index, count int, err error) {
	base, src, idx, cnt := 0, "--shard", "", ""
	if o.shardSet {
		idx, cnt, _ = strings.Cut(o.shard, "/")
		if strings.Contains(o.shard, "/") && cnt == "" {
			return 0, 0, cmdutil.Usagef("bad --shard %q: want I/K or I", o.shard)
		}
	} else if src, idx, base, err = shardFromEnv(); err != nil {
		return 0, 0, err
	}
	if index, err = atoiFlag("shard index from "+src, idx); err != nil {
		return 0, 0, err
	}
	if count, err = o.shardCountOf(cnt); err != nil {
		return 0, 0, err
	}
	if o.shardBaseSet {
		base = o.shardBase
	}
	// Every number in range before any arithmetic, so nothing overflows.
	if count < 1 || count > shard.MaxShards {
		return 0, 0, cmdutil.Usagef("the shard count must be 1 to %d, not %d", shard.MaxShards, count)
	}
	if base < -shard.MaxShards || base > shard.MaxShards {
		return 0, 0, cmdutil.Usagef("the number of the first shard must be %d to %d, not %d", -shard.MaxShards, shard.MaxShards, base)
	}
	if index < base || index > base+count-1 {
		return 0, 0, cmdutil.Usagef("shard %d (from %s) is not one of the %d shards numbered from %d", index, src, count, base)
	}
	return index - base, count, nil
}

// shardFromEnv reads the shard index without --shard: its source
// (JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID), its text, and the number
// of the first shard (SLURM_ARRAY_TASK_MIN for SLURM_ARRAY_TASK_ID).
func shardFromEnv() (src, idx string, base int, err error) {
	for _, name := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
		if s, ok := lookupEnv(name); ok && s != "" {
			src, idx = name, s
			break
		}
	}
	if src == "" {
		return "", "", 0, cmdutil.Usagef("no shard index: give --shard I/K, or run where JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID is set")
	}
	if s, ok := lookupEnv("SLURM_ARRAY_TASK_MIN"); ok && src == "SLURM_ARRAY_TASK_ID" {
		if base, err = atoiFlag("SLURM_ARRAY_TASK_MIN", s); err != nil {
			return "", "", 0, err
		}
	}
	return src, idx, base, nil
}

// shardCountOf reads the shard count: cnt, the K of --shard I/K, which
// --shard-count must agree with; else --shard-count, else
// SLURM_ARRAY_TASK_COUNT.
func (o *backtrackOptions) shardCountOf(cnt string) (int, error) {
	switch s, ok := lookupEnv("SLURM_ARRAY_TASK_COUNT"); {
	case cnt != "":
		count, err := atoiFlag("shard count in --shard", cnt)
		if err == nil && o.shardCountSet && o.shardCount != count {
			return 0, cmdutil.Usagef("--shard %s and --shard-count %d disagree", o.shard, o.shardCount)
		}
		return count, err
	case o.shardCountSet:
		return o.shardCount, nil
	case ok:
		return atoiFlag("SLURM_ARRAY_TASK_COUNT", s)
	}
	return 0, cmdutil.Usagef("no shard count: give --shard I/K or --shard-count K")
}

// atoiFlag reads the whole number s, what, for shardOf.
func atoiFlag(what, s string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, cmdutil.Usagef("bad %s %q: want a whole number", what, s)
	}
	return v, nil
}

// splitOf reads --split (v; set: given) for a count of the n×n board: the
// sub-parts per constellation of the shard's pieces (0 for whole ones).
func splitOf(v string, set bool, n int) (int, error) {
	if !set {
		return 0, nil
	}
	if v == "auto" {
		return shard.AutoSplit(n), nil
	}
	m, err := strconv.Atoi(v)
	if err != nil || m != 0 && (m < 2 || m > backtrack.MaxParts) {
		return 0, cmdutil.Usagef("--split: want auto, 0 or 2 to %d sub-parts per constellation, not %s", backtrack.MaxParts, quote.Token(v))
	}
	return m, nil
}

// openCheckpoint opens the checkpoint at path for spec. One in use by
// another process is exit status 75 (retry the shard later or elsewhere);
// a damaged one (cut, changed, holding an impossible tally) is moved
// aside to PATH.damaged-TIME, said on stderr, and the shard counted
// afresh, so that a resubmission does not fail on it for ever; one of
// other work (another n, shard, engine or version) or not a checkpoint at
// all is a usage error, left as it is.
func openCheckpoint(path string, spec shard.Spec, stderr io.Writer) (*shard.Checkpoint, error) {
	ckpt, err := shard.OpenCheckpoint(path, spec)
	switch {
	case err == nil:
		return ckpt, nil
	case errors.Is(err, shard.ErrLocked):
		return nil, cmdutil.TempFail(err)
	case !errors.Is(err, shard.ErrDamaged):
		return nil, cmdutil.UsageErr(err)
	}
	aside := fmt.Sprintf("%s.damaged-%s", path, time.Now().UTC().Format("20060102T150405.000000000"))
	if rerr := os.Rename(path, aside); rerr != nil {
		return nil, cmdutil.TempFail(fmt.Errorf("%w (and it cannot be moved aside: %v)", err, rerr))
	}
	fmt.Fprintf(stderr, "queens: %v: moved to %s, counting the shard afresh\n", err, quote.Line(aside, 4096))
	if ckpt, err = shard.OpenCheckpoint(path, spec); errors.Is(err, shard.ErrLocked) {
		return nil, cmdutil.TempFail(err)
	}
	return ckpt, cmdutil.UsageErr(err)
}

// keepOtherLine refuses -o FILE for a shard when FILE, a regular file,
// already holds something other than this shard's line (another n,
// shard, shard count, engine or split: another count's work, which the
// new line would replace), unless --force: counting a shard again over
// its own line is fine. Devices and pipes are written directly.
func (o *backtrackOptions) keepOtherLine(spec shard.Spec, engine string) error {
	if !o.sharded() || o.force || o.Output == "" || o.Output == "-" {
		return nil
	}
	st, err := os.Stat(o.Output)
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		return nil
	}
	engine = cmp.Or(engine, shard.EngineConstellations)
	what := "something that is not a shard line"
	if line, err := firstLine(o.Output, maxLineCheck); err == nil {
		if r, err := shard.Parse(line); err == nil {
			if r.N == spec.N && r.Shard == spec.Index && r.Shards == spec.Shards && cmp.Or(r.Scheme, shard.Scheme) == cmp.Or(spec.Scheme, shard.Scheme) && r.Split == spec.Split && cmp.Or(r.Engine, shard.EngineConstellations) == engine {
				return nil
			}
			what = fmt.Sprintf("the line of n=%d shard %d/%d (engine %s)", r.N, r.Shard, r.Shards, cmp.Or(r.Engine, shard.EngineConstellations))
		}
	}
	return cmdutil.Usagef("-o %s holds %s, not this count's (n=%d shard %d/%d, engine %s): give another -o, or --force to replace it", quote.Line(o.Output, 1024), what, spec.N, spec.Index, spec.Shards, engine)
}

// maxLineCheck bounds what keepOtherLine reads of an -o file.
const maxLineCheck = 64 << 20

// firstLine returns the first line of the file at path, without its
// newline, reading at most limit bytes.
func firstLine(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit))
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return line, err
}

func forceFlag() cli.Flag {
	return &cli.BoolFlag{Name: "force", Usage: "with --shard: let -o replace a file that holds another count's shard line (another n, shard, engine or split); without it that is refused, and a shard's own line is replaced when it is counted again"}
}
