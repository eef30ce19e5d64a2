package shard

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/queens-dev/queens/backtrack"
)

// Checked is one piece that [Verify] recounted.
type Checked struct {
	Shard  int    `json:"shard"` // the shard whose line holds the piece
	Source string `json:"-"`     // where that line was read
	Piece  string `json:"piece"` // the piece, "top:bottom:left:right" (or a join part, "middle:outer:weight")
}

// Verify recounts k pieces chosen at random (with the given seed, so
// that a check can be repeated) among the pieces of results, recounts each
// with the [Engine] its line names (its Recount) and compares the
// solutions and classes with the tally the line claims; the nodes, one
// engine's work, are shown in a message but not compared. A checksum only
// guards against accidents: anyone can recompute it, so a recount is the
// check against a worker that lies or has a bug, and for boards beyond the
// published table the only one. k larger than the number of pieces
// recounts them all; of a shard given twice only the first line counts.
// The draw depends on the seed and the shards' pieces only, not on the
// order of results.
// It returns the pieces checked; an error wraps
// [ErrVerify] naming the first piece, shard and source that disagree, or
// is ctx's error.
func Verify(ctx context.Context, results []Result, k int, seed uint64) ([]Checked, error) {
	type ref struct {
		r int // index in results
		i int // index of the piece in that result
	}
	var all []ref
	seen := map[int]bool{}
	// By shard, so that the draw of a seed does not depend on the order
	// the lines were given in.
	order := make([]int, len(results))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(results[a].Shard, results[b].Shard) })
	for _, ri := range order {
		r := results[ri]
		if seen[r.Shard] {
			continue // a second line of a shard: Merge checked it agrees
		}
		seen[r.Shard] = true
		if len(r.Tallies) != len(r.keys()) {
			return nil, fmt.Errorf("verify shard %d%s: %w: %d tallies for %d pieces", r.Shard, from(r), ErrCorrupt, len(r.Tallies), len(r.keys()))
		}
		for i := range r.Tallies {
			all = append(all, ref{ri, i})
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x71756565)) // "quee"
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	var checked []Checked
	for _, x := range all[:min(max(k, 0), len(all))] {
		r := results[x.r]
		p, claimed := r.keys()[x.i], r.Tallies[x.i]
		e, ok := LookupEngine(engineOf(r))
		if !ok {
			return checked, fmt.Errorf("verify piece %v of shard %d%s: unknown engine %q", p, r.Shard, from(r), r.Engine)
		}
		var got backtrack.Tally
		var err error
		switch {
		case p.join != (schemeOf(e.Scheme) == JoinScheme):
			err = fmt.Errorf("engine %s counts the pieces of scheme %s", e.Name, schemeOf(e.Scheme))
		case p.join:
			got, err = e.RecountJoin(ctx, r.N, p.jp)
		default:
			got, err = e.Recount(ctx, r.N, p.sp)
		}
		if err != nil {
			return checked, fmt.Errorf("verify piece %v of shard %d%s: %w", p, r.Shard, from(r), err)
		}
		// Every correct engine finds the same tallies; the nodes are the
		// work of one engine's search, reported but not judged.
		if !sameCount(got, claimed) {
			return checked, fmt.Errorf("%w: piece %v of shard %d%s (engine %s): the line says %s, a recount %s",
				ErrVerify, p, r.Shard, from(r), engineOf(r), describe(claimed), describe(got))
		}
		checked = append(checked, Checked{Shard: r.Shard, Source: r.Source, Piece: p.String()})
	}
	return checked, nil
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

// firstDifference returns the first piece whose tallies differ in a and b
// (two lines of one shard), or -1.
func firstDifference(a, b []backtrack.Tally) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if !sameCount(a[i], b[i]) {
			return i
		}
	}
	return -1
}
