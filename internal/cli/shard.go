package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/quote"
	"github.com/queens-dev/queens/shard"
	"github.com/urfave/cli/v2"
)

// The flags of a sharded or checkpointed count (queens backtrack --count).
// Their actions run before the command's: they refuse the flags without
// --count, and --json selects --format json.
func shardFlag() cli.Flag {
	return &cli.StringFlag{Name: "shard", Action: needCount[string]("shard"),
		Usage: "count only shard `I/K` (I of K shards, I from --shard-base, default 0) and print one JSON line for queens merge; " +
			"without /K: --shard-count or SLURM_ARRAY_TASK_COUNT; without --shard: JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID"}
}
func shardCountFlag() cli.Flag {
	return &cli.IntFlag{Name: "shard-count", Action: needCount[int]("shard-count"),
		Usage: "the number of shards `K` (with --shard I, or with the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID)"}
}
func shardBaseFlag() cli.Flag {
	return &cli.IntFlag{Name: "shard-base", Action: needCount[int]("shard-base"), DefaultText: "0; SLURM_ARRAY_TASK_MIN for SLURM_ARRAY_TASK_ID",
		Usage: "the number of the first shard `B`: 1 for GNU parallel's {#} or a Slurm array 1-K"}
}
func splitFlag() cli.Flag {
	return &cli.StringFlag{Name: "split", Action: needCount[string]("split"), DefaultText: "0",
		Usage: fmt.Sprintf("split each constellation into `M` sub-parts (2 to %d; 0: whole constellations; auto: 0 below n = %d, else 2^(N-16)), "+
			"the pieces of --shard and --checkpoint, for boards whose constellations are too large to be a piece of work each; "+
			"every shard of a count takes the same M (on the CPU: --gpu counts whole constellations)", backtrack.MaxParts, shard.AutoSplitFrom)}
}
func checkpointFlag() cli.Flag {
	return &cli.StringFlag{Name: "checkpoint", Action: needCount[string]("checkpoint"),
		Usage: "record finished pieces of the count in `FILE`; the same command run again continues where it stopped (not the -o file)"}
}
func jsonFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "same as --format json", Action: func(c *cli.Context, on bool) error {
		if !on {
			return nil
		}
		if c.IsSet("format") && c.String("format") != "json" {
			return usagef("--json and --format %s cannot be used together", c.String("format"))
		}
		return c.Set("format", "json")
	}}
}

// needCount returns a flag action refusing flag without --count or with
// --place.
func needCount[T any](flag string) func(*cli.Context, T) error {
	return func(c *cli.Context, _ T) error {
		if !c.Bool("count") {
			return usagef("--%s needs --count", flag)
		}
		if c.IsSet("place") {
			return usagef("--%s cannot be combined with --place", flag)
		}
		return nil
	}
}

// lookupEnv reads the environment; tests replace it.
var lookupEnv = os.LookupEnv

// version is the version of queens written into shard results and
// checkpoints, so that results of different builds are not merged
// (versionOf of the binary's build information).
var version = sync.OnceValue(func() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi, executableHash)
})

// versionOf names the build bi describes: the module version the go
// command stamps (a tag, or a pseudo-version naming the commit), else
// "devel" with the commit the binary was built from. A build that names
// no code by itself is also named by hash, the start of the SHA-256 of the
// executable, so that two different builds never share a name: one with
// no commit stamped (go run, go test, -buildvcs=false, a build outside a
// repository) is "devel+HASH", and one from a modified checkout (Go's
// "+dirty" pseudo-versions, or vcs.modified) gets "+HASH" after its name.
func versionOf(bi *debug.BuildInfo, hash func() string) string {
	if bi == nil {
		return "devel+" + hash()
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = "-" + s.Value[:min(12, len(s.Value))]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = true
		}
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		if dirty || strings.HasSuffix(v, "+dirty") {
			// A modified tree: the commit does not name the code.
			return v + "+" + hash()
		}
		return v
	}
	switch {
	case rev != "" && !dirty:
		return "devel" + rev
	case rev != "":
		return "devel" + rev + "-dirty+" + hash()
	}
	return "devel+" + hash()
}

// executableHash returns the first 12 hex digits of the SHA-256 of the
// running executable, or "unknown" if it cannot be read.
func executableHash() string {
	path, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(path)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// checkpointApart refuses -o naming the checkpoint or its lock file, by
// any path or link: the count written at the end would replace the
// checkpoint it was resumed from (or break its lock).
func checkpointApart(c *cli.Context) error {
	ckpt, out := c.String("checkpoint"), c.String("output")
	if ckpt == "" || out == "" || out == "-" {
		return nil
	}
	for _, f := range []string{ckpt, shard.LockPath(ckpt)} {
		if sameFile(out, f) {
			return usagef("-o %s would replace the checkpoint's file %s: write the count elsewhere", quote.Text(out), quote.Text(f))
		}
	}
	return nil
}

// pieceCounter counts pieces with another engine than the CPU search (see
// shard.Options.Counter).
type pieceCounter = func(ctx context.Context, n int, pieces []backtrack.Subproblem, done func(int, backtrack.Tally) error) error

// countCommand runs --count: with --shard (or --shard-count) one shard,
// printed as a JSON line; with --checkpoint resumable; otherwise the plain
// counter.
func countCommand(ctx context.Context, c *cli.Context, out *output, format board.Format, n int, place []board.Queen, counter pieceCounter, engine string) error {
	sharded := c.IsSet("shard") || c.IsSet("shard-count")
	if !sharded && !c.IsSet("checkpoint") && counter == nil {
		return backtrackCount(ctx, c, out, format, n, place)
	}
	spec := shard.Spec{N: n, Shards: 1, Version: version()}
	if engine == shard.EngineJoin {
		spec.Scheme = shard.JoinScheme // the join's own pieces
	}
	if sharded {
		if c.IsSet("format") && format != board.FormatJSON {
			return usagef("--shard prints a JSON line; --format %s does not apply", c.String("format"))
		}
		var err error
		if spec.Index, spec.Shards, err = shardIndex(c); err != nil {
			return err
		}
	}
	var err error
	if spec.Split, err = splitOf(c, n, counter != nil); err != nil {
		return err
	}
	if _, _, err := spec.Covered(); err != nil {
		return usageErr(err)
	}
	opt := shard.Options{Threads: c.Int("threads"), Counter: counter, Engine: engine}
	if engine == shard.EngineJoin {
		if opt.Memory, err = joinMemory(c, n); err != nil {
			return err
		}
		defer limitHeap(opt.Memory)()
	}
	path := c.String("checkpoint")
	var ckpt *shard.Checkpoint
	if path != "" {
		var err error
		if ckpt, err = shard.OpenCheckpoint(path, spec); err != nil {
			return usageErr(err)
		}
		defer ckpt.Close()
		opt.Done = ckpt.Done()
	}
	resumed, finished := len(opt.Done), 0
	pieces, _, _ := spec.Covered()
	prog := startPieceProgress(c.App.ErrWriter, c.Duration("progress-every"), fmt.Sprintf("n=%d shard %d/%d", n, spec.Index, spec.Shards), resumed, pieces)
	defer prog.Stop()
	opt.OnPiece = func(p shard.Piece) error {
		finished++
		prog.Piece()
		if ckpt != nil {
			return ckpt.Record(p)
		}
		return nil
	}
	res, err := shard.Run(ctx, spec, opt)
	prog.Stop()
	if ckpt != nil {
		res.Elapsed += ckpt.Earlier() // the processes before this one too
		// However the run ended, keep every piece that finished.
		if ferr := ckpt.Flush(); ferr != nil && err == nil {
			err = ferr
		}
	}
	if err != nil {
		far := fmt.Sprintf("after %d of %d pieces", resumed+finished, pieces)
		if saved := 0; ckpt != nil {
			saved = ckpt.Saved()
			switch {
			case saved == resumed+finished && saved > 0:
				far += fmt.Sprintf(" (%s keeps them: run the same command again to continue)", path)
			case saved > 0:
				far += fmt.Sprintf(" (%s keeps %d of them: run the same command again to continue)", path, saved)
			}
		}
		return stoppedErr(ctx, far, err)
	}
	if sharded {
		_, err = out.Write(res.AppendLine(nil))
		if err == nil && ckpt != nil {
			// The line written (renamed into place, or flushed), the
			// checkpoint and its lock are spent: a count of millions of
			// shards would leave millions of files.
			if err = out.Commit(); err == nil {
				if rerr := ckpt.Remove(); rerr != nil {
					fmt.Fprintf(c.App.ErrWriter, "queens: warning: the line is written; %v\n", rerr)
				}
			}
		}
	} else {
		// n <= 27 here: 24 × the count fits 64 bits, unless a forged
		// checkpoint adds up past it, which the table check below names.
		total24, ok1 := res.Total24.Uint64()
		unique24, ok2 := res.Unique24.Uint64()
		if !ok1 || !ok2 {
			return failf("the count of n = %d passes 2^64 / 24 solutions: the checkpoint %s holds a forged or damaged piece (remove it and count again)", n, path)
		}
		var unique *uint64
		if c.Bool("unique") {
			u := unique24 / 24
			unique = &u
		}
		err = writeCount(out, format, n, total24/24, unique, nil)
		if err == nil {
			err = checkPublished(n, total24, unique24, resumed, path)
		}
	}
	if err != nil || !c.Bool("stats") {
		return err
	}
	out.Flush() // the result first, then the statistics about it
	return writeStats(c.App.ErrWriter, format, stat{"n", n}, stat{"engine", res.Engine}, stat{"scheme", res.Scheme}, stat{"shard", spec.Index}, stat{"shards", spec.Shards},
		stat{"pieces", pieces}, stat{"resumed", resumed}, stat{"nodes", res.Nodes},
		stat{"threads", c.Int("threads")}, stat{"seconds", res.Elapsed})
}

// checkPublished checks a whole count made of pieces (a checkpoint's, the
// GPU's) against the published table, as merge checks a merged one: a
// count resumed from a checkpoint is only as good as the checkpoint, whose
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
	return failf("the count of n = %d, %s solutions (%s unique), differs from the published %d (%d unique)%s",
		n, fraction(total24), fraction(unique24), want.Total, want.Unique, why)
}

// fraction writes x/24 for a message, as a whole number where it is one.
func fraction(x24 uint64) string {
	if x24%24 == 0 {
		return strconv.FormatUint(x24/24, 10)
	}
	return fmt.Sprintf("%d/24", x24)
}

// shardIndex works out the 0-based shard index and the shard count from
// --shard I[/K], --shard-count K and --shard-base B, or from the batch
// engine's environment: JOB_COMPLETION_INDEX (a Kubernetes Indexed Job,
// from 0), SLURM_ARRAY_TASK_ID (a Slurm job array, from
// SLURM_ARRAY_TASK_MIN) and SLURM_ARRAY_TASK_COUNT. Flags win.
func shardIndex(c *cli.Context) (index, count int, err error) {
	atoi := func(what, s string) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return 0, usagef("bad %s %q: want a whole number", what, s)
		}
		return v, nil
	}
	base, src, idx, cnt := 0, "", "", ""
	switch v := c.String("shard"); {
	case c.IsSet("shard"):
		src = "--shard"
		idx, cnt, _ = strings.Cut(v, "/")
		if strings.Contains(v, "/") && cnt == "" {
			return 0, 0, usagef("bad --shard %q: want I/K or I", v)
		}
	default:
		for _, name := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
			if s, ok := lookupEnv(name); ok && s != "" {
				src, idx = name, s
				break
			}
		}
		if src == "" {
			return 0, 0, usagef("no shard index: give --shard I/K, or run where JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID is set")
		}
		if s, ok := lookupEnv("SLURM_ARRAY_TASK_MIN"); ok && src == "SLURM_ARRAY_TASK_ID" {
			if base, err = atoi("SLURM_ARRAY_TASK_MIN", s); err != nil {
				return 0, 0, err
			}
		}
	}
	if index, err = atoi("shard index from "+src, idx); err != nil {
		return 0, 0, err
	}
	switch s, ok := lookupEnv("SLURM_ARRAY_TASK_COUNT"); {
	case cnt != "":
		if count, err = atoi("shard count in --shard", cnt); err != nil {
			return 0, 0, err
		}
		if c.IsSet("shard-count") && c.Int("shard-count") != count {
			return 0, 0, usagef("--shard %s and --shard-count %d disagree", c.String("shard"), c.Int("shard-count"))
		}
	case c.IsSet("shard-count"):
		count = c.Int("shard-count")
	case ok:
		if count, err = atoi("SLURM_ARRAY_TASK_COUNT", s); err != nil {
			return 0, 0, err
		}
	default:
		return 0, 0, usagef("no shard count: give --shard I/K or --shard-count K")
	}
	if c.IsSet("shard-base") {
		base = c.Int("shard-base")
	}
	// Every number in range before any arithmetic, so nothing overflows.
	if count < 1 || count > shard.MaxShards {
		return 0, 0, usagef("the shard count must be 1 to %d, not %d", shard.MaxShards, count)
	}
	if base < -shard.MaxShards || base > shard.MaxShards {
		return 0, 0, usagef("the number of the first shard must be %d to %d, not %d", -shard.MaxShards, shard.MaxShards, base)
	}
	if index < base || index > base+count-1 {
		return 0, 0, usagef("shard %d (from %s) is not one of the %d shards numbered from %d", index, src, count, base)
	}
	return index - base, count, nil
}

// splitOf reads --split for a count of the n×n board: the sub-parts per
// constellation of the shard's pieces (0 for whole ones). onGPU: the
// GPU counts whole constellations only.
func splitOf(c *cli.Context, n int, onGPU bool) (int, error) {
	if !c.IsSet("split") {
		return 0, nil
	}
	v := c.String("split")
	m := 0
	if v == "auto" {
		m = shard.AutoSplit(n)
	} else {
		var err error
		if m, err = strconv.Atoi(v); err != nil || m != 0 && (m < 2 || m > backtrack.MaxParts) {
			return 0, usagef("--split: want auto, 0 or 2 to %d sub-parts per constellation, not %s", backtrack.MaxParts, quote.Token(v))
		}
	}
	if m > 0 && onGPU {
		return 0, usagef("--split %s: --gpu counts whole constellations (on a count that mixes GPU and CPU shards, leave --split out on all of them)", v)
	}
	return m, nil
}
