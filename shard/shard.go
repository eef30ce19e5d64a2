package shard

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/workers"
)

// Scheme names the way shards take their pieces: shard I of K takes the
// pieces at positions I, I+K, I+2K, ... of [backtrack.Subproblems]. The
// list starts with the largest pieces, so dealing them round-robin gives
// every shard a similar share.
const Scheme = "round-robin"

// Errors of this package, wrapped with details; test for them with
// [errors.Is].
var (
	ErrShard      = errors.New("bad shard")                     // index or shard count out of range
	ErrNotShard   = errors.New("not a shard result")            // a line that is not a result of this package
	ErrChecksum   = errors.New("checksum does not match")       // a line changed or cut after it was written
	ErrCorrupt    = errors.New("inconsistent shard result")     // fields that contradict each other
	ErrMismatch   = errors.New("shards of different work")      // n, split, shard count or version differ
	ErrMissing    = errors.New("missing shard")                 // a shard index absent from a merge
	ErrDuplicate  = errors.New("duplicate shard")               // a shard index twice in a merge, the two lines disagreeing
	ErrVerify     = errors.New("recount disagrees")             // merge --verify: a piece recounted differs from its line
	ErrCoverage   = errors.New("pieces do not match the split") // pieces not those of this version's split
	ErrCheckpoint = errors.New("bad checkpoint")                // a checkpoint of other work, or damaged
	ErrLocked     = errors.New("checkpoint in use")             // another process has the checkpoint open
)

// MaxShards is the largest number of shards a count is split into: more
// than the pieces of any board the counter takes in whole constellations
// (n = 32 has a few hundred thousand) and room for shards of a few
// core-hours at n = 28 ([SchemeSplit]: K = 2^24 there), so that no shard
// count a user means is refused, and small enough that a number read
// from a file cannot size anything large.
const MaxShards = 1 << 25

// Spec names one shard of a count: shard Index (0-based) of Shards, of the
// count of the n×n board, made by the program version Version.
type Spec struct {
	N       int    // board size, 1 <= N <= [backtrack.CountMaxN]
	Index   int    // this shard, 0 <= Index < Shards
	Shards  int    // the number of shards K, at least 1
	Version string // the version of the program; results of different versions are not merged
	// Scheme is the split the pieces are of: "" or [Scheme] for the
	// constellations, [JoinScheme] for the parts of the half-board join.
	Scheme string

	// Split is the number of sub-parts each constellation is split into
	// (the scheme [SchemeSplit], which it implies), 2 to
	// [backtrack.MaxParts]; 0 counts whole constellations. See
	// [AutoSplit].
	Split int
}

// String describes the shard for messages, e.g. "n=16 shard 3/64".
func (s Spec) String() string { return fmt.Sprintf("n=%d shard %d/%d", s.N, s.Index, s.Shards) }

// check validates s.
func (s Spec) check() error {
	if err := board.CheckSize(s.N, backtrack.CountMaxN); err != nil {
		return err
	}
	if err := checkScheme(s.scheme(), s.N); err != nil {
		return err
	}
	if s.Shards < 1 || s.Shards > MaxShards {
		return fmt.Errorf("%w: %d shards (want 1 to %d)", ErrShard, s.Shards, MaxShards)
	}
	if s.Index < 0 || s.Index >= s.Shards {
		return fmt.Errorf("%w: shard %d of %d (want 0 to %d)", ErrShard, s.Index, s.Shards, s.Shards-1)
	}
	return s.checkSplit()
}

// Pieces returns the constellations (or their sub-parts, of
// [SchemeSplit]) of the count that shard s covers (possibly none) and the
// number of pieces in the whole split, for s of [Scheme] or [SchemeSplit]
// (see [Spec.JoinPieces] for [JoinScheme]). Errors wrap
// [board.ErrSize] or [ErrShard].
func (s Spec) Pieces() (pieces []backtrack.Subproblem, parts int, err error) {
	if family(s.scheme()) != Scheme {
		return nil, 0, fmt.Errorf("shard pieces: %w: scheme %s has no constellations (see JoinPieces)", ErrShard, s.Scheme)
	}
	keys, parts, err := s.keys()
	for _, k := range keys {
		pieces = append(pieces, k.sp)
	}
	return pieces, parts, err
}

// fingerprint is the hash of the work of shard s covering pieces. Every
// line a merge reads is fingerprinted twice (by Parse and Merger.Add), so
// it is written with appends rather than fmt; the text is that of
//
//	queens shard\nn %d\nscheme %s\nshards %d\nshard %d\nversion %s\n[split %d\n]pieces[ %v...]
func fingerprint(s Spec, pieces []key) string {
	b := make([]byte, 0, 128+24*len(pieces))
	b = append(b, "queens shard\nn "...)
	b = strconv.AppendInt(b, int64(s.N), 10)
	b = append(b, "\nscheme "...)
	b = append(b, s.scheme()...)
	b = append(b, "\nshards "...)
	b = strconv.AppendInt(b, int64(s.Shards), 10)
	b = append(b, "\nshard "...)
	b = strconv.AppendInt(b, int64(s.Index), 10)
	b = append(b, "\nversion "...)
	b = append(b, s.Version...)
	b = append(b, '\n')
	if s.Split > 0 {
		b = append(b, "split "...)
		b = strconv.AppendInt(b, int64(s.Split), 10)
		b = append(b, '\n')
	}
	b = append(b, "pieces"...)
	for _, p := range pieces {
		b = p.appendString(append(b, ' '))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// Piece is one finished piece of a shard: which part of the count it is
// and what its count found. Its contents are the shard's business: a
// [Checkpoint] records it, [Options.Done] takes it back.
type Piece struct {
	sp key
	t  backtrack.Tally
}

// String names the piece as messages do: a constellation by its four
// border queens, "top:bottom:left:right" (0-based columns and rows), a
// part of the join as [join.Piece.String] does.
func (p Piece) String() string { return p.sp.String() }

// Options configures [Run].
type Options struct {
	Threads int // pieces counted at once; <= 0 means runtime.GOMAXPROCS(0)

	// Done holds pieces already counted (from a [Checkpoint]); Run takes
	// their tallies instead of counting them again. Pieces that are not
	// the shard's are an error wrapping [ErrCheckpoint].
	Done []Piece

	// OnPiece, if not nil, is called with each piece as it finishes, one
	// call at a time; an error from it stops the run and is returned.
	OnPiece func(Piece) error

	// Counter, if not nil, counts the pieces instead of the CPU search of
	// [backtrack.Subproblem.Count] (a GPU, say): it must call done with
	// the index in pieces and the tally of each piece as it finishes, one
	// call at a time, stop when ctx ends and return done's first error.
	// The tallies are checked as those of a line are
	// ([backtrack.Subproblem.CheckTally]).
	Counter func(ctx context.Context, n int, pieces []backtrack.Subproblem, done func(i int, t backtrack.Tally) error) error

	// Engine is the name of the engine written into the line (see
	// [Engine]): one of [Engines], such as
	// [EngineGPU] for a Counter on a GPU; "" means
	// [EngineConstellations]. Its scheme must be the Spec's:
	// [EngineJoin] counts the pieces of [JoinScheme] with the join.
	Engine string

	// Memory bounds the bytes the join's pieces ([JoinScheme]) hold at once,
	// shared by the Threads (0: [join.DefaultMemory]); a piece too large
	// for its share is counted in smaller parts ([join.Piece.CountWith]),
	// to the same tally. The constellations need a few MiB and ignore it.
	Memory int64
}

// Run counts shard s, the pieces in opt.Threads goroutines, and returns its
// [Result]: the constellations of [Scheme] with the CPU search (or
// opt.Counter), the parts of [JoinScheme] with the half-board join. When ctx is cancelled it stops within about a second and
// returns ctx.Err() (wrapped); the pieces finished before were passed to
// opt.OnPiece. Errors wrap [board.ErrSize], [ErrShard] or [ErrCheckpoint].
func Run(ctx context.Context, s Spec, opt Options) (Result, error) {
	start := time.Now()
	pieces, parts, err := s.keys()
	if err != nil {
		return Result{}, err
	}
	engine := cmp.Or(opt.Engine, EngineConstellations)
	e, ok := LookupEngine(engine)
	if !ok {
		return Result{}, fmt.Errorf("run %v: unknown engine %q (known: %s)", s, engine, strings.Join(engineNames(), ", "))
	}
	if family(schemeOf(e.Scheme)) != family(s.scheme()) {
		return Result{}, fmt.Errorf("run %v: %w: engine %s counts the pieces of scheme %s, not %s", s, ErrShard, engine, schemeOf(e.Scheme), s.scheme())
	}
	if opt.Counter != nil && s.scheme() != Scheme {
		return Result{}, fmt.Errorf("run %v: %w: a Counter counts constellations, not the pieces of scheme %s", s, ErrShard, s.Scheme)
	}
	threads := opt.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	host, _ := os.Hostname()
	res := Result{
		N: s.N, Shard: s.Index, Shards: s.Shards, Scheme: s.scheme(), Split: s.Split, Engine: engine,
		Parts: parts, Tallies: make([]backtrack.Tally, len(pieces)),
		Version: s.Version, Fingerprint: fingerprint(s, pieces),
		Host: host, Threads: threads, Start: start.UTC().Truncate(time.Second),
	}
	res.setKeys(pieces)
	index := make(map[key]int, len(pieces))
	for i, p := range pieces {
		index[p] = i
	}
	done := map[key]backtrack.Tally{}
	for _, p := range opt.Done {
		if _, ok := index[p.sp]; !ok {
			return Result{}, fmt.Errorf("run %v: %w: piece %v is not one of the shard's", s, ErrCheckpoint, p.sp)
		}
		done[p.sp] = p.t
	}
	var todo []key
	for i, p := range pieces {
		if t, ok := done[p]; ok {
			res.Tallies[i] = t
		} else {
			todo = append(todo, p)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if opt.Counter != nil {
		reported := make([]bool, len(todo))
		sps := make([]backtrack.Subproblem, len(todo))
		for i, k := range todo {
			sps[i] = k.sp
		}
		err := opt.Counter(ctx, s.N, sps, func(i int, t backtrack.Tally) error {
			if i < 0 || i >= len(todo) {
				return fmt.Errorf("the counter gave piece %d of %d", i, len(todo))
			}
			if reported[i] {
				return fmt.Errorf("the counter gave piece %v twice", todo[i])
			}
			reported[i] = true
			if err := todo[i].checkTally(s.N, t); err != nil {
				return fmt.Errorf("the counter's tally: %w", err)
			}
			res.Tallies[index[todo[i]]] = t
			if opt.OnPiece != nil {
				return opt.OnPiece(Piece{sp: todo[i], t: t})
			}
			return nil
		})
		if err == nil {
			err = ctx.Err()
		}
		if i := slices.Index(reported, false); err == nil && i >= 0 {
			err = fmt.Errorf("the counter returned without a tally for piece %v", todo[i])
		}
		if err != nil {
			return Result{}, fmt.Errorf("run %v: %w", s, err)
		}
		todo = nil
	}
	// The pieces on threads workers (the counters' pool); the first
	// error stops the others.
	var (
		mu       sync.Mutex
		firstErr error
	)
	workers.Run(ctx, len(todo), threads, nil, func() struct{} { return struct{}{} },
		func(_ struct{}, i int, stop *atomic.Bool) bool {
			p := todo[i]
			t, err := p.count(ctx, s.N, join.Options{Threads: threads, Memory: opt.Memory})
			mu.Lock()
			defer mu.Unlock()
			if err == nil && firstErr == nil {
				res.Tallies[index[p]] = t
				if opt.OnPiece != nil {
					err = opt.OnPiece(Piece{sp: p, t: t})
				}
			}
			if err != nil && firstErr == nil {
				firstErr = err
				stop.Store(true)
				cancel()
			}
			return firstErr == nil
		}, func(struct{}) {})
	if firstErr == nil {
		firstErr = ctx.Err() // Run's error, or a parent that ended as it returned
	}
	if firstErr != nil {
		return Result{}, fmt.Errorf("run %v: %w", s, firstErr)
	}
	if res.Sums, err = SumTallies(res.Tallies); err != nil {
		return Result{}, fmt.Errorf("run %v: %w", s, err)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}
