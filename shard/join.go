package shard

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/internal/quote"
)

// JoinScheme names the split of the half-board join ([EngineJoin]): its
// pieces are those of [join.Pieces] (the parts of the join, named by the
// middle-row queen and the outer columns its top half takes, and the
// symmetric piece), shard I of K taking those at positions I, I+K, I+2K,
// ... of that list, as [Scheme] deals the constellations. The two
// schemes cut the count differently, so lines of one never merge with
// lines of the other.
const JoinScheme = "join-parts-3"

// EngineJoin names the half-board join of package join, the engine of
// [JoinScheme]: its pieces are recounted by the join too.
const EngineJoin = "join"

// key names one piece of either scheme: a constellation of [Scheme] or a
// part of [JoinScheme].
type key struct {
	sp   backtrack.Subproblem
	jp   join.Piece
	join bool
}

// String names the piece as lines and messages do: "top:bottom:left:right"
// for a constellation, [join.Piece.String] for a part of the join.
func (k key) String() string {
	if k.join {
		return k.jp.String()
	}
	return k.sp.String()
}

// appendString appends String's text to b, without fmt for the
// constellations (the pieces of every line a merge reads).
func (k key) appendString(b []byte) []byte {
	if k.join {
		return append(b, k.jp.String()...)
	}
	sp := k.sp
	for i, x := range [4]int{sp.Top, sp.Bottom, sp.Left, sp.Right} {
		if i > 0 {
			b = append(b, ':')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	if sp.Parts != 0 || sp.Part != 0 {
		b = strconv.AppendInt(append(b, '#'), int64(sp.Part), 10)
		b = strconv.AppendInt(append(b, '/'), int64(sp.Parts), 10)
	}
	return b
}

// ints returns the piece's form in a line or checkpoint: [top, bottom,
// left, right] or [middle, outer, weight].
func (k key) ints() []int64 {
	if k.join {
		return k.jp.Ints()
	}
	return []int64{int64(k.sp.Top), int64(k.sp.Bottom), int64(k.sp.Left), int64(k.sp.Right)}
}

// keyOf reads the form ints writes for a piece of scheme, range-checking
// its numbers (whether it is a piece of the split is the caller's check).
func keyOf(scheme string, a []int64) (key, error) {
	if scheme == JoinScheme {
		p, err := join.PieceOf(a)
		return key{jp: p, join: true}, err
	}
	if len(a) != 4 {
		return key{}, fmt.Errorf("piece %v: want [top, bottom, left, right]", a)
	}
	for _, x := range a {
		if x < -1 || x >= backtrack.CountMaxN {
			return key{}, fmt.Errorf("piece %v: want numbers from -1 to %d", a, backtrack.CountMaxN-1)
		}
	}
	return key{sp: backtrack.Subproblem{Top: int(a[0]), Bottom: int(a[1]), Left: int(a[2]), Right: int(a[3])}}, nil
}

// checkTally reports a tally that the piece cannot have on an n×n board.
func (k key) checkTally(n int, t backtrack.Tally) error {
	if k.join {
		return k.jp.CheckTally(n, t)
	}
	return k.sp.CheckTally(n, t)
}

// count counts the piece on the CPU: a constellation with the bitboard
// search, a part with the join, within opt's memory and threads.
func (k key) count(ctx context.Context, n int, opt join.Options) (backtrack.Tally, error) {
	if k.join {
		return k.jp.CountWith(ctx, n, opt)
	}
	return k.sp.Count(ctx, n)
}

// schemeOf returns the scheme a line or spec names: "" is [Scheme].
func schemeOf(s string) string { return cmp.Or(s, Scheme) }

// checkScheme refuses a scheme this package does not know, and boards
// past what the scheme's engine counts.
func checkScheme(scheme string, n int) error {
	switch scheme {
	case Scheme, SchemeSplit:
		return nil
	case JoinScheme:
		if n > join.MaxN {
			return fmt.Errorf("%w: -n %d is past the half-board join's %d (scheme %s)", ErrShard, n, join.MaxN, JoinScheme)
		}
		return nil
	}
	return fmt.Errorf("%w: unknown scheme %s (known: %s, %s, %s)", ErrShard, quote.Token(scheme), Scheme, SchemeSplit, JoinScheme)
}

var (
	joinMu    sync.Mutex
	joinLists = map[int][]key{}
)

// allKeys returns the pieces of the whole split of scheme for n, in the
// order the scheme deals them (checked by checkScheme first).
func allKeys(scheme string, n int) ([]key, error) {
	if scheme != JoinScheme {
		all, err := backtrack.Subproblems(n)
		keys := make([]key, len(all))
		for i, sp := range all {
			keys[i] = key{sp: sp}
		}
		return keys, err
	}
	joinMu.Lock()
	defer joinMu.Unlock()
	if keys, ok := joinLists[n]; ok {
		return keys, nil
	}
	all, err := join.Pieces(n)
	if err != nil {
		return nil, err
	}
	keys := make([]key, len(all))
	for i, p := range all {
		keys[i] = key{jp: p, join: true}
	}
	joinLists[n] = keys
	return keys, nil
}

// keys returns the pieces of shard s and the number in the whole split.
func (s Spec) keys() ([]key, int, error) {
	if err := s.check(); err != nil {
		return nil, 0, fmt.Errorf("shard pieces: %w", err)
	}
	if s.scheme() == SchemeSplit {
		keys, parts := splitKeys(s)
		return keys, parts, nil
	}
	all, err := allKeys(s.scheme(), s.N)
	if err != nil {
		return nil, 0, fmt.Errorf("shard pieces: %w", err)
	}
	var keys []key
	for i := s.Index; i < len(all); i += s.Shards {
		keys = append(keys, all[i])
	}
	return keys, len(all), nil
}

// JoinPieces returns the pieces of [JoinScheme] that shard s covers
// (possibly none) and the number of pieces in the whole split; s.Scheme
// must be JoinScheme. Errors wrap [board.ErrSize] or [ErrShard].
func (s Spec) JoinPieces() (pieces []join.Piece, parts int, err error) {
	if schemeOf(s.Scheme) != JoinScheme {
		return nil, 0, fmt.Errorf("shard join pieces: %w: scheme %s is not %s", ErrShard, schemeOf(s.Scheme), JoinScheme)
	}
	keys, parts, err := s.keys()
	for _, k := range keys {
		pieces = append(pieces, k.jp)
	}
	return pieces, parts, err
}

// Covered returns the number of pieces shard s covers and the number in
// the whole split, of either scheme.
func (s Spec) Covered() (covered, parts int, err error) {
	keys, parts, err := s.keys()
	return len(keys), parts, err
}

// keys returns the pieces r covers, of its scheme.
func (r Result) keys() []key {
	if schemeOf(r.Scheme) == JoinScheme {
		keys := make([]key, len(r.JoinPieces))
		for i, p := range r.JoinPieces {
			keys[i] = key{jp: p, join: true}
		}
		return keys
	}
	keys := make([]key, len(r.Pieces))
	for i, sp := range r.Pieces {
		keys[i] = key{sp: sp}
	}
	return keys
}

// setKeys stores keys as r's pieces, of its scheme.
func (r *Result) setKeys(keys []key) {
	r.Pieces, r.JoinPieces = nil, nil
	if len(keys) > 0 && keys[0].join {
		r.JoinPieces = make([]join.Piece, 0, len(keys))
	} else if len(keys) > 0 {
		r.Pieces = make([]backtrack.Subproblem, 0, len(keys))
	}
	for _, k := range keys {
		if k.join {
			r.JoinPieces = append(r.JoinPieces, k.jp)
		} else {
			r.Pieces = append(r.Pieces, k.sp)
		}
	}
}

// joinRecount recounts a part with the join: the Recount of [EngineJoin].
func joinRecount(ctx context.Context, n int, p join.Piece) (backtrack.Tally, error) {
	return p.Count(ctx, n)
}

// cost returns the expected cost of piece k on an n×n board, in the
// units of [join.Piece.Cost] for a part of the join (the joins it makes),
// 1 for a constellation (whose costs the split does not know ahead).
func (k key) cost(n int) float64 {
	if k.join {
		return float64(max(1, k.jp.Cost(n)))
	}
	return 1
}

// Cost returns the expected cost of p, a piece or unit of a shard of an
// n×n board: for the join [join.Piece.Cost] (a unit its share of it), for
// a constellation 1. Progress weighted by it tells the time left where
// counting pieces does not: the pieces come largest first.
func (p Piece) Cost(n int) float64 {
	c := p.sp.cost(n)
	if p.unit > 0 {
		if units, err := p.sp.jp.Units(n); err == nil && units > 0 {
			return c / float64(units)
		}
	}
	return c
}

// Work returns the expected cost of the pieces of shard s (see
// [Piece.Cost]) and the number of them.
func (s Spec) Work() (work float64, pieces int, err error) {
	keys, _, err := s.keys()
	for _, k := range keys {
		work += k.cost(s.N)
	}
	return work, len(keys), err
}

// Name names the piece p is or is a unit of, as [Piece.String] names the
// whole piece.
func (p Piece) Name() string { return p.sp.String() }
