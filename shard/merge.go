package shard

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Sum is the merged count of all the shards of a count.
type Sum struct {
	N, Shards, Parts int
	Total, Unique    uint64 // solutions, and solutions distinct up to symmetry
	Nodes            uint64
	Elapsed          time.Duration // summed over the shards
	Longest          time.Duration // of the slowest shard
}

// Merge adds up the results of all the shards of one count, each
// checked by [Parse] or made by [Run]. It refuses (with an error naming the
// shards) results of different boards, schemes, shard counts or versions
// ([ErrMismatch]), a shard index given twice ([ErrDuplicate]) or not at all
// ([ErrMissing]), pieces that are not those of the split of this version
// of the program ([ErrCoverage]), and sums that are not whole
// ([ErrCorrupt]).
func Merge(results []Result) (Sum, error) {
	if len(results) == 0 {
		return Sum{}, fmt.Errorf("merge: %w: no shard results", ErrMissing)
	}
	r0 := results[0]
	if err := r0.Spec().check(); err != nil {
		return Sum{}, fmt.Errorf("merge: %w", err)
	}
	seen := make([]bool, r0.Shards)
	var sum Sum
	var t24, u24 uint64
	for _, r := range results {
		for _, f := range []struct {
			name string
			a, b any
		}{
			{"n", r0.N, r.N}, {"shard count", r0.Shards, r.Shards}, {"scheme", r0.Scheme, r.Scheme},
			{"pieces in the split", r0.Parts, r.Parts}, {"version", r0.Version, r.Version},
		} {
			if f.a != f.b {
				return Sum{}, fmt.Errorf("merge: %w: shard %d has %s %v, shard %d has %v", ErrMismatch, r0.Shard, f.name, f.a, r.Shard, f.b)
			}
		}
		if err := r.Spec().check(); err != nil {
			return Sum{}, fmt.Errorf("merge: %w", err)
		}
		if seen[r.Shard] {
			return Sum{}, fmt.Errorf("merge: %w: shard %d of %d appears twice", ErrDuplicate, r.Shard, r.Shards)
		}
		seen[r.Shard] = true
		pieces, parts, err := r.Spec().Pieces()
		if err != nil {
			return Sum{}, fmt.Errorf("merge: %w", err)
		}
		if parts != r.Parts || !slices.Equal(pieces, r.Pieces) || fingerprint(r.Spec(), pieces) != r.Fingerprint {
			return Sum{}, fmt.Errorf("merge: %w: shard %d of %d (version %s) does not cover the pieces this version's split gives it",
				ErrCoverage, r.Shard, r.Shards, r.Version)
		}
		t24 += r.Total24
		u24 += r.Unique24
		sum.Nodes += r.Nodes
		sum.Elapsed += r.Elapsed
		sum.Longest = max(sum.Longest, r.Elapsed)
	}
	var missing []string
	for i, ok := range seen {
		if !ok {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if k := len(missing); k > 0 {
		if k > 10 {
			missing = append(missing[:10], "...")
		}
		return Sum{}, fmt.Errorf("merge: %w: %d of %d shards absent (0-based: %s)", ErrMissing, k, r0.Shards, strings.Join(missing, ", "))
	}
	if t24%24 != 0 || u24%24 != 0 {
		return Sum{}, fmt.Errorf("merge: %w: the sums %s and %s are not whole", ErrCorrupt, fraction24(t24), fraction24(u24))
	}
	sum.N, sum.Shards, sum.Parts = r0.N, r0.Shards, r0.Parts
	sum.Total, sum.Unique = t24/24, u24/24
	return sum, nil
}
