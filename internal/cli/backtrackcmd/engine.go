package backtrackcmd

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/memlimit"
	"github.com/queens-dev/queens/internal/workers"
	"github.com/queens-dev/queens/shard"
	"github.com/urfave/cli/v2"
)

// The boards on which --engine auto counts with the half-board join: the
// sizes where it measured faster than the constellation counter on one
// thread (medians of 5 runs of --stats seconds: n = 6: 0.22 ms against
// 0.14 ms, n = 8: 0.17 against 0.33, n = 12: 1.7 against 3.4, n = 14: 13
// against 45; bench/count.sh for 16 to 18, 6 to 12 times faster; n = 20
// Counted by the join only, see docs/performance.md). Above 20 neither
// was timed here, and the join's parts grow past several GiB.
const joinAutoMin, joinAutoMax = 8, 20

// engineFlag is --engine of backtrack --count.
func engineFlag() cli.Flag {
	return &cli.StringFlag{Name: "engine", Value: "auto",
		Usage: fmt.Sprintf("--count engine `E`: join (half boards met in the middle; with --shard or --checkpoint its own pieces, merged only with join shards), constellations (the bitboard counter) or auto: join for %d <= N <= %d without --place, --gpu, --shard or --checkpoint, else constellations (the join takes the best SIMD path the CPU has; QUEENS_SIMD=avx512|avx2|go forces a lower one)", joinAutoMin, joinAutoMax)}
}

// countEngine resolves --engine for a count: the name of an engine of
// the engine table that counts whole boards on the CPU ("constellations"
// or "join"). The join counts whole boards only, on the CPU; sharded or
// checkpointed it counts its own pieces (shard.JoinScheme), so --engine
// auto keeps the constellations there, whose shards every other engine's
// merge with.
func (o *backtrackOptions) countEngine(onGPU bool) (string, error) {
	if _, err := join.SIMD(); err != nil {
		return "", cmdutil.Usagef("%v", err) // QUEENS_SIMD asks for more than this CPU has
	}
	other := ""
	switch {
	case len(o.Placed) > 0:
		other = "--place (completions use the constellation counter)"
	case onGPU:
		other = "--gpu"
	case o.strategySet || o.orderName != "rows":
		other = "--strategy and --order"
	}
	if o.engine == "auto" {
		return o.autoEngine(other)
	}
	e, ok := shard.LookupEngine(o.engine)
	switch {
	case !ok || e.Count == nil:
		return "", cmdutil.Usagef("unknown --engine %q: want %s or auto", o.engine, strings.Join(cmdutil.CountEngines(), ", "))
	case e.Scheme != shard.JoinScheme && o.memorySet:
		return "", cmdutil.Usagef("--memory is for --engine join (the constellation counter needs a few MiB)")
	case e.Scheme != shard.JoinScheme:
		return e.Name, nil
	case other != "":
		return "", cmdutil.Usagef("--engine %s does not go with %s", e.Name, other)
	case o.N > e.MaxN:
		return "", cmdutil.Usagef("-n %d is too large for --engine %s (at most %d)", o.N, e.Name, e.MaxN)
	}
	return e.Name, nil
}

// autoEngine is countEngine for --engine auto: the join where it is
// faster, or where --memory asks for it, unless other names what it does
// not go with.
func (o *backtrackOptions) autoEngine(other string) (string, error) {
	if o.memorySet {
		if other != "" {
			return "", cmdutil.Usagef("--memory is for the half-board join, which does not go with %s", other)
		}
		if o.pieces() {
			return "", cmdutil.Usagef("--memory with --shard or --checkpoint needs --engine join (with --engine auto they count constellations)")
		}
		return shard.EngineJoin, nil // only the join takes a memory limit
	}
	if other == "" && !o.pieces() && o.N >= joinAutoMin && o.N <= joinAutoMax {
		return shard.EngineJoin, nil
	}
	return shard.EngineConstellations, nil
}

// memoryFlag is --memory of backtrack --count.
func memoryFlag() cli.Flag {
	return &cli.StringFlag{Name: "memory", Usage: "with --engine join, the memory `M` the halves may take at once, e.g. 256MiB or 4GiB, at most half of what the process may use (RAM, cgroup limit, ulimit -v); default 20MiB a thread up to N = 19, 4 times more for each N to 21, 512MiB a thread from N = 22, and the table the halves are built from up to N = 21 (47MiB at N = 20 and 21); a smaller limit counts in more, smaller parts, to the same count, also with --shard and --checkpoint; from N = 20 a limit that would cost more than 3 times the CPU is refused with the least one worth giving (65MiB at N = 20 on one thread)"}
}

// parseMemory reads a --memory value: a number of bytes with an optional
// unit B, KiB, MiB, GiB, TiB or PiB (also K, M, G, T, P, KB, MB, GB, TB,
// PB, all powers of 1024), from join.MinMemory to 1 PiB.
func parseMemory(v string) (int64, error) {
	s := strings.TrimSpace(v)
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(s)
	}
	num, unit := s[:i], strings.ToUpper(strings.TrimSpace(s[i:]))
	shifts := map[string]uint{"": 0, "B": 0, "K": 10, "KB": 10, "KIB": 10, "M": 20, "MB": 20, "MIB": 20, "G": 30, "GB": 30, "GIB": 30, "T": 40, "TB": 40, "TIB": 40, "P": 50, "PB": 50, "PIB": 50}
	shift, ok := shifts[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	const most = int64(1) << 50
	if !ok || err != nil || n < 0 || n > most>>shift {
		return 0, cmdutil.Usagef("--memory %q: want a size such as 256MiB or 4GiB (at most 1PiB)", v)
	}
	if b := n << shift; b >= join.MinMemory {
		return b, nil
	}
	return 0, cmdutil.Usagef("--memory %s is too small for the half-board join: at least %dMiB", v, join.MinMemory>>20)
}

// limitHeap sets the Go runtime's soft memory limit to join.HeapLimit(mem),
// unless a lower one is set (GOMEMLIMIT),
// so that the half-board join keeps within its --memory; the function it
// returns puts the old limit back.
func limitHeap(mem int64) (restore func()) {
	if mem <= 0 {
		return func() {} // no limit to keep (a limit of 0 would collect without end)
	}
	mem = join.HeapLimit(mem)
	old := debug.SetMemoryLimit(-1)
	if mem >= old {
		return func() {}
	}
	debug.SetMemoryLimit(mem)
	return func() { debug.SetMemoryLimit(old) }
}

// joinMemory returns the memory of the half-board join on the n×n board:
// --memory, but at most half of what the process may use (the least of
// RAM, cgroup limit and what ulimit -v leaves, as the default), or the
// join's default for --threads.
func (o *backtrackOptions) joinMemory() (int64, error) {
	if !o.memorySet {
		return join.DefaultMemory(o.N, o.Threads), nil
	}
	mem, err := parseMemory(o.memory)
	if err != nil {
		return 0, err
	}
	if least := join.SensibleMemory(o.N, o.Threads); mem < least {
		return 0, cmdutil.Usagef("--memory %s would cost the count of N = %d more than 3 times its CPU (its halves in many small parts): give at least %dMiB for %s, or leave --memory out (%dMiB)",
			o.memory, o.N, least>>20, threadsText(workers.Threads(o.Threads, 1<<30)), join.DefaultMemory(o.N, o.Threads)>>20)
	}
	return min(mem, max(join.MinMemory, memlimit.Usable()/2)), nil
}

// joinCount runs --count with the half-board join.
func (o *backtrackOptions) joinCount(ctx context.Context, out *cmdutil.SolutionOutput, stderr io.Writer) error {
	mem, err := o.joinMemory()
	if err != nil {
		return err
	}
	defer limitHeap(mem)()
	parts, stop := countProgress(stderr, o.progressEvery, o.N)
	res, err := join.Count(ctx, o.N, join.Options{Threads: o.Threads, Unique: o.Unique.On, Memory: mem, Progress: parts})
	stop()
	return o.finishCount(ctx, out, stderr, engineCount{
		engine: shard.EngineJoin, total: res.Total, unique: res.Unique, rotations: res.Rotations,
		done: res.Done, parts: res.Parts, elapsed: res.Elapsed, work: []cmdutil.Stat{{Name: "simd", Value: res.SIMD}, {Name: "halves", Value: res.Halves}, {Name: "pairs", Value: res.Pairs}},
	}, err)
}

// threadsText is "1 thread" or "N threads".
func threadsText(n int) string {
	if n == 1 {
		return "1 thread"
	}
	return strconv.Itoa(n) + " threads"
}
