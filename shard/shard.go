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
	ErrDamaged    = errors.New("damaged checkpoint")            // a checkpoint of this work whose contents are cut, changed or impossible (with ErrCheckpoint)
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

// Piece is one finished piece of a shard, or one finished unit of a
// piece of the join (a column set: see [join.Piece.Units]): which part
// of the count it is and what its count found. Its contents are the
// shard's business: a [Checkpoint] records it, [Options.Done] takes it
// back.
type Piece struct {
	sp   key
	t    backtrack.Tally
	unit int // 1 + the rank of the unit, or 0 for the whole piece
}

// String names the piece as messages do: a constellation by its four
// border queens, "top:bottom:left:right" (0-based columns and rows), a
// part of the join as [join.Piece.String] does, a unit of one with
// " unit U" after it.
func (p Piece) String() string {
	if p.unit > 0 {
		return p.sp.String() + " unit " + strconv.Itoa(p.unit-1)
	}
	return p.sp.String()
}

// Unit reports whether p is one unit of a piece of the join rather than
// a whole piece.
func (p Piece) Unit() bool { return p.unit > 0 }

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

	// OnUnit, if not nil, is called with each unit of a piece of the join
	// ([join.Piece.Units]: from n = [UnitMinN] on, a piece is counted a
	// column set at a time, on every thread, so that a large piece is
	// shared and a stopped one resumes where it was) as it finishes, one
	// call at a time, and with the piece itself (OnPiece) once its last
	// unit is done; an error from it stops the run. A [Checkpoint] takes
	// both.
	OnUnit func(Piece) error

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

// UnitMinN is the smallest board whose join pieces [Run] counts a unit
// (a column set, [join.Piece.Units]) at a time: below it a piece takes
// well under a second.
const UnitMinN = 20

// Run counts shard s, the pieces in opt.Threads goroutines, and returns its
// [Result]: the constellations of [Scheme] with the CPU search (or
// opt.Counter), the parts of [JoinScheme] with the half-board join, from
// n = [UnitMinN] on a column set at a time, so that every thread shares
// the largest pieces. When ctx is cancelled it stops within about a second
// (a column set of the join within a few milliseconds) and returns
// ctx.Err() (wrapped); the pieces and units finished before were passed
// to opt.OnPiece and opt.OnUnit. Errors wrap [board.ErrSize], [ErrShard]
// or [ErrCheckpoint].
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
	r := &run{s: s, opt: opt, threads: threads, res: &res, index: make(map[key]int, len(pieces))}
	for i, p := range pieces {
		r.index[p] = i
	}
	if err := r.resume(pieces); err != nil {
		return Result{}, fmt.Errorf("run %v: %w", s, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if opt.Counter != nil {
		err = r.onCounter(ctx)
	} else {
		err = r.onCPU(ctx, cancel)
	}
	if err == nil {
		err = ctx.Err() // Run's error, or a parent that ended as it returned
	}
	if err != nil {
		return Result{}, fmt.Errorf("run %v: %w", s, err)
	}
	if res.Sums, err = SumTallies(res.Tallies); err != nil {
		return Result{}, fmt.Errorf("run %v: %w", s, err)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// run is one call of [Run]: its shard, its result so far and the pieces
// left to count.
type run struct {
	s       Spec
	opt     Options
	threads int
	res     *Result
	index   map[key]int // a piece's place in res
	todo    []key       // the pieces not finished, in the shard's order
	units   map[key]*unitState
}

// unitState is how far a piece of the join counted by units is.
type unitState struct {
	done  []bool // the units finished
	left  int    // units not finished
	sum   backtrack.Tally
	whole bool // counted whole instead (a column set too large for the memory)
}

// resume takes the tallies of opt.Done: whole pieces into the result,
// units into the state of their piece.
func (r *run) resume(pieces []key) error {
	done := map[key]backtrack.Tally{}
	r.units = map[key]*unitState{}
	for _, p := range r.opt.Done {
		if _, ok := r.index[p.sp]; !ok {
			return fmt.Errorf("%w: piece %v is not one of the shard's", ErrCheckpoint, p)
		}
		if p.unit == 0 {
			done[p.sp] = p.t
			continue
		}
		st, err := r.unitsOf(p.sp)
		if err != nil {
			return err
		}
		if st == nil || p.unit > len(st.done) || st.done[p.unit-1] {
			return fmt.Errorf("%w: %v is not a unit of the piece, or appears twice", ErrCheckpoint, p)
		}
		st.done[p.unit-1] = true
		st.left--
		st.sum = addTally(st.sum, p.t)
	}
	for i, p := range pieces {
		if t, ok := done[p]; ok {
			r.res.Tallies[i] = t
			delete(r.units, p)
		} else {
			r.todo = append(r.todo, p)
		}
	}
	return nil
}

// unitsOf returns the state of piece p counted by units, made on first
// use, or nil for a piece counted whole.
func (r *run) unitsOf(p key) (*unitState, error) {
	if !p.join || r.s.N < UnitMinN || p.jp.Middle == join.Symmetric {
		return nil, nil
	}
	if st, ok := r.units[p]; ok {
		return st, nil
	}
	n, err := p.jp.Units(r.s.N)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrShard, err)
	}
	st := &unitState{done: make([]bool, n), left: n}
	r.units[p] = st
	return st, nil
}

// addTally returns the sum of two tallies of parts of one piece (which
// fits: the piece's does).
func addTally(a, b backtrack.Tally) backtrack.Tally {
	return backtrack.Tally{Total24: a.Total24 + b.Total24, Unique24: a.Unique24 + b.Unique24, Nodes: a.Nodes + b.Nodes}
}

// onCounter counts the pieces left with opt.Counter.
func (r *run) onCounter(ctx context.Context) error {
	todo := r.todo
	reported := make([]bool, len(todo))
	sps := make([]backtrack.Subproblem, len(todo))
	for i, k := range todo {
		sps[i] = k.sp
	}
	err := r.opt.Counter(ctx, r.s.N, sps, func(i int, t backtrack.Tally) error {
		if i < 0 || i >= len(todo) {
			return fmt.Errorf("the counter gave piece %d of %d", i, len(todo))
		}
		if reported[i] {
			return fmt.Errorf("the counter gave piece %v twice", todo[i])
		}
		reported[i] = true
		if err := todo[i].checkTally(r.s.N, t); err != nil {
			return fmt.Errorf("the counter's tally: %w", err)
		}
		return r.finish(todo[i], t)
	})
	if err == nil {
		err = ctx.Err()
	}
	if i := slices.Index(reported, false); err == nil && i >= 0 {
		err = fmt.Errorf("the counter returned without a tally for piece %v", todo[i])
	}
	return err
}

// finish stores the tally of piece p and passes it to opt.OnPiece.
func (r *run) finish(p key, t backtrack.Tally) error {
	r.res.Tallies[r.index[p]] = t
	if r.opt.OnPiece != nil {
		return r.opt.OnPiece(Piece{sp: p, t: t})
	}
	return nil
}

// task is one item of work of onCPU: a whole piece (unit 0), or unit
// unit-1 of one.
type task struct {
	p    key
	unit int
}

// onCPU counts the pieces left on the CPU, threads at a time, the units
// of a piece counted by units shared among them; the first error stops
// the others.
func (r *run) onCPU(ctx context.Context, cancel func()) error {
	var tasks []task
	for _, p := range r.todo {
		st, err := r.unitsOf(p)
		if err != nil {
			return err
		}
		if st == nil {
			tasks = append(tasks, task{p: p})
			continue
		}
		if st.left == 0 { // every unit in the checkpoint, the piece not
			if err := r.finish(p, st.sum); err != nil {
				return err
			}
			continue
		}
		for u, done := range st.done {
			if !done {
				tasks = append(tasks, task{p: p, unit: u + 1})
			}
		}
	}
	var (
		mu       sync.Mutex
		firstErr error
	)
	opt := join.Options{Threads: r.threads, Memory: r.opt.Memory}
	if opt.Memory == 0 && r.s.scheme() == JoinScheme {
		opt.Memory = join.DefaultMemory(r.s.N, r.threads) // once, not for each task
	}
	workers.Run(ctx, len(tasks), r.threads, nil, func() struct{} { return struct{}{} },
		func(_ struct{}, i int, stop *atomic.Bool) bool {
			err := r.count(ctx, tasks[i], opt, &mu)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
				stop.Store(true)
				cancel()
			}
			return firstErr == nil
		}, func(struct{}) {})
	return firstErr
}

// count counts task t and records it, under mu.
func (r *run) count(ctx context.Context, t task, opt join.Options, mu *sync.Mutex) error {
	if t.unit == 0 {
		tl, err := t.p.count(ctx, r.s.N, opt)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		return r.finish(t.p, tl)
	}
	mu.Lock()
	st := r.units[t.p]
	whole := st.whole
	mu.Unlock()
	if whole {
		return nil // counted whole by another task
	}
	tl, err := t.p.jp.CountUnits(ctx, r.s.N, opt, t.unit-1, t.unit)
	if errors.Is(err, join.ErrMemory) {
		// A column set too large for the memory: the whole piece splits
		// further (by rows), its units dropped.
		mu.Lock()
		whole, st.whole = st.whole, true
		mu.Unlock()
		if whole {
			return nil
		}
		if tl, err = t.p.count(ctx, r.s.N, opt); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		return r.finish(t.p, tl)
	}
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	if st.whole {
		return nil
	}
	st.done[t.unit-1] = true
	st.left--
	st.sum = addTally(st.sum, tl)
	if st.left > 0 {
		if r.opt.OnUnit != nil {
			return r.opt.OnUnit(Piece{sp: t.p, t: tl, unit: t.unit})
		}
		return nil
	}
	return r.finish(t.p, st.sum)
}
