package shard

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Sum is the merged count of all the shards of a count.
type Sum struct {
	N, Shards, Parts int
	Total, Unique    Uint128 // solutions, and solutions distinct up to symmetry
	Nodes            Uint128
	Elapsed          time.Duration // summed over the shards
	Longest          time.Duration // of the slowest shard
	// Confirmed counts the shards run more than once, on another host,
	// at another time or by another engine, whose lines agree: the same work, the same tallies
	// (a quorum of independent runs, as volunteer computing checks its
	// workers). The same line given twice confirms nothing.
	Confirmed int
	// Slowest lists up to 5 shards, the slowest first.
	Slowest []Result
	// MostNodes is the largest number of queens one shard placed: with
	// Nodes/Shards, the imbalance of the split that does not depend on the
	// machines.
	MostNodes Uint128
}

// Merge adds up the results of all the shards of one count, each
// checked by [Parse] or made by [Run]. It refuses (with an error naming the
// shards) results of different boards, schemes, shard counts or versions
// ([ErrMismatch]), a shard index given twice with different tallies
// ([ErrDuplicate], naming both lines' sources, the first piece that
// differs and its figures; the same tallies again, whatever the nodes,
// are a confirmation, see [Sum.Confirmed]) or not at all ([ErrMissing], listing
// the shards to run again), pieces that are not those of the split of
// this version of the program ([ErrCoverage]), and sums that are not
// whole, overflow, or are impossible (more classes than solutions, or
// more than 8 solutions per class: [ErrCorrupt]).
func Merge(results []Result) (Sum, error) {
	if len(results) == 0 {
		return Sum{}, fmt.Errorf("merge: %w: no shard results", ErrMissing)
	}
	r0 := results[0]
	if err := r0.Spec().check(); err != nil {
		return Sum{}, fmt.Errorf("merge: %w", err)
	}
	first := map[int]Result{} // the first line of each shard
	confirmed := map[int]bool{}
	var sum Sum
	var total Sums
	for _, r := range results {
		if r.Scheme != r0.Scheme && r.Engine != r0.Engine {
			// Engines mix only when they count the same pieces.
			return Sum{}, fmt.Errorf("merge: %w: shard %d%s was counted by engine %s with scheme %s, shard %d%s by engine %s with scheme %s: "+
				"the two split the count into different pieces, so their lines do not add up (count every shard of one count with one of them)",
				ErrMismatch, r0.Shard, from(r0), engineOf(r0), r0.Scheme, r.Shard, from(r), engineOf(r), r.Scheme)
		}
		for _, f := range []struct {
			name string
			a, b any
		}{
			{"n", r0.N, r.N}, {"shard count", r0.Shards, r.Shards}, {"scheme", r0.Scheme, r.Scheme}, {"split", r0.Split, r.Split},
			{"pieces in the split", r0.Parts, r.Parts}, {"version", r0.Version, r.Version},
		} {
			if f.a != f.b {
				return Sum{}, fmt.Errorf("merge: %w: shard %d%s has %s %v, shard %d%s has %v", ErrMismatch,
					r0.Shard, from(r0), f.name, f.a, r.Shard, from(r), f.b)
			}
		}
		if err := r.Spec().check(); err != nil {
			return Sum{}, fmt.Errorf("merge: %w", err)
		}
		pieces, parts, err := r.Spec().keys()
		if err != nil {
			return Sum{}, fmt.Errorf("merge: %w", err)
		}
		if parts != r.Parts || !slices.Equal(pieces, r.keys()) || fingerprint(r.Spec(), pieces) != r.Fingerprint {
			return Sum{}, fmt.Errorf("merge: %w: shard %d of %d%s (version %s) does not cover the pieces this version's split gives it",
				ErrCoverage, r.Shard, r.Shards, from(r), r.Version)
		}
		if prev, ok := first[r.Shard]; ok {
			// The tallies of each piece must agree; the nodes are each
			// engine's (or run's) own work.
			if i := firstDifference(prev.Tallies, r.Tallies); i >= 0 {
				return Sum{}, fmt.Errorf("merge: %w: shard %d of %d%s and%s disagree on piece %v: %s (engine %s) and %s (engine %s)",
					ErrDuplicate, r.Shard, r.Shards, from(prev), from(r), r.keys()[i],
					describe(prev.Tallies[i]), engineOf(prev), describe(r.Tallies[i]), engineOf(r))
			}
			// The same line twice (one file given twice, a copy) is no
			// second opinion: a confirmation is another run, on another
			// host, at another time or by another engine.
			if prev.Host != r.Host || !prev.Start.Equal(r.Start) || engineOf(prev) != engineOf(r) {
				confirmed[r.Shard] = true
			}
			continue
		}
		first[r.Shard] = r
		if total, err = total.add(r.Sums); err != nil {
			return Sum{}, fmt.Errorf("merge: %w", err)
		}
		sum.Elapsed = min(sum.Elapsed+r.Elapsed, math.MaxInt64/2) // saturates: 146 years
		sum.Longest = max(sum.Longest, r.Elapsed)
		if r.Nodes.Cmp(sum.MostNodes) > 0 {
			sum.MostNodes = r.Nodes
		}
		sum.Slowest = append(sum.Slowest, r)
	}
	if missing := r0.Shards - len(first); missing > 0 {
		var idx []int
		for i := range r0.Shards {
			if _, ok := first[i]; !ok {
				idx = append(idx, i)
			}
		}
		return Sum{}, &MissingError{N: r0.N, Shards: r0.Shards, Missing: idx}
	}
	var r1, r2 uint64
	sum.Total, r1 = total.Total24.DivMod(24)
	sum.Unique, r2 = total.Unique24.DivMod(24)
	if r1 != 0 || r2 != 0 {
		return Sum{}, fmt.Errorf("merge: %w: the sums %s and %s are not whole", ErrCorrupt, fraction24Of(total.Total24), fraction24Of(total.Unique24))
	}
	sum.N, sum.Shards, sum.Parts, sum.Nodes = r0.N, r0.Shards, r0.Parts, total.Nodes
	if most, over := sum.Unique.Mul64(8); sum.Unique.Cmp(sum.Total) > 0 || !over && sum.Total.Cmp(most) > 0 {
		return Sum{}, fmt.Errorf("merge: %w: %v solutions in %v classes is impossible (a class holds 1 to 8 solutions)", ErrCorrupt, sum.Total, sum.Unique)
	}
	sum.Confirmed = len(confirmed)
	slices.SortStableFunc(sum.Slowest, func(a, b Result) int { return cmp.Compare(b.Elapsed, a.Elapsed) })
	sum.Slowest = sum.Slowest[:min(5, len(sum.Slowest))]
	return sum, nil
}

// engineOf returns the engine of r: [EngineConstellations] when r names
// none.
func engineOf(r Result) string { return cmp.Or(r.Engine, EngineConstellations) }

// MissingError is the error of [Merge] when shards are absent: it wraps
// [ErrMissing] and lists them, so that a caller can resubmit them.
type MissingError struct {
	N, Shards int
	Missing   []int // the absent shards, 0-based, sorted
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("merge: %v: %d of %d shards absent (0-based: %s; a Slurm array numbered from 1 reruns them with --array=%s)",
		ErrMissing, len(e.Missing), e.Shards, Ranges(e.Missing, 0), Ranges(e.Missing, 1))
}

// Unwrap returns [ErrMissing].
func (e *MissingError) Unwrap() error { return ErrMissing }

// from names where r was read, for messages: " (FILE:LINE)", or "".
func from(r Result) string {
	if r.Source == "" {
		return ""
	}
	return " (" + r.Source + ")"
}

// Ranges writes sorted shard indexes as a job array does, each plus base,
// runs of three or more as ranges: Ranges([]int{2, 16, 39, 40, 41}, 1) is
// "3,17,40-42".
func Ranges(idx []int, base int) string {
	var b strings.Builder
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		switch {
		case j-i >= 2:
			fmt.Fprintf(&b, "%d-%d", idx[i]+base, idx[j]+base)
		case j > i:
			fmt.Fprintf(&b, "%d,%d", idx[i]+base, idx[j]+base)
		default:
			fmt.Fprintf(&b, "%d", idx[i]+base)
		}
		i = j + 1
	}
	return b.String()
}
