package shard

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/queens-dev/queens/backtrack"
)

// Checked is one piece that [Verify] recounted.
type Checked struct {
	Shard  int    `json:"shard"` // the shard whose line holds the piece
	Source string `json:"-"`     // where that line was read
	Piece  string `json:"piece"` // the piece, "top:bottom:left:right" (or a join part, "middle:outer:weight")
}

// Verify recounts k pieces chosen at random (with the given seed, so
// that a check can be repeated) among the pieces of results (every shard
// of one count, as [Merge] takes them), recounts each with the [Engine]
// its line names (its Recount) and compares the solutions and classes
// with the tally the line claims; the nodes, one engine's work, are shown
// in a message but not compared. A checksum only guards against
// accidents: anyone can recompute it, so a recount is the check against a
// worker that lies or has a bug, and for boards beyond the published
// table the only one. k larger than the number of pieces recounts them
// all. The draw depends on the seed and the split only (see
// [Merger.Verify]), not on the lines or their order. It returns the
// pieces checked, in the order drawn; an error is one of [Merge]'s (a
// piece drawn of a shard absent: [ErrMissing]), or
// wraps [ErrVerify] naming the first piece, shard and source that
// disagree, or is ctx's error.
func Verify(ctx context.Context, results []Result, k int, seed uint64) ([]Checked, error) {
	m := Merger{Verify: func(int) (int, error) { return k, nil }, Seed: seed}
	for _, r := range results {
		if err := m.Add(r); err != nil {
			return nil, err
		}
	}
	return m.Recount(ctx, 1)
}

// sameCount reports whether two tallies of a piece agree in what every
// correct engine finds (the solutions and classes), whatever their work.
func sameCount(a, b backtrack.Tally) bool {
	return a.Total24 == b.Total24 && a.Unique24 == b.Unique24
}

// describe writes a tally for messages: "12 solutions (3/2 unique; 57
// nodes)".
func describe(t backtrack.Tally) string {
	return fmt.Sprintf("%s solutions (%s unique; %d nodes)", fraction24(t.Total24), fraction24(t.Unique24), t.Nodes)
}

// VerifyLine recounts k of the pieces of one line r (drawn at random
// with seed and r's shard index, so that a check can be repeated; k at
// least the line's pieces, or k < 0: all of them), each with the
// [Engine] the line names, on threads goroutines (<= 0: 1), and compares
// them with its tallies as [Verify] does, needing no other line: the
// check of a line counted alone (a sample of a count). It returns the
// pieces checked, in the order drawn; an error is r's not being a shard
// of this version's split ([ErrCoverage], or the split's own error), or
// wraps [ErrVerify] naming the first piece drawn that disagrees, or is
// ctx's error.
func VerifyLine(ctx context.Context, r Result, k int, seed uint64, threads int) ([]Checked, error) {
	if err := r.Spec().check(); err != nil {
		return nil, err
	}
	keys, err := r.covered()
	if err != nil {
		return nil, err
	}
	if k < 0 || k > len(keys) {
		k = len(keys)
	}
	// A partial Fisher-Yates shuffle of the line's positions: a line
	// holds a few thousand pieces at most, so the whole list is fine.
	pos := make([]int, len(keys))
	for i := range pos {
		pos[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, uint64(r.Shard)))
	picks := make([]pick, k)
	for i := range k {
		j := i + rng.IntN(len(pos)-i)
		pos[i], pos[j] = pos[j], pos[i]
		picks[i] = pick{key: keys[pos[i]], claimed: r.Tallies[pos[i]], shard: r.Shard, source: r.Source, engine: engineOf(r), n: r.N, set: true}
	}
	m := Merger{picks: picks, groups: 1}
	return m.Recount(ctx, threads)
}
