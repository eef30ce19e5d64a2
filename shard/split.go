package shard

import (
	"fmt"
	"sync"

	"github.com/queens-dev/queens/backtrack"
)

// SchemeSplit names the scheme of shards whose pieces are sub-parts of
// the constellations ([backtrack.Subproblem.Split]), for boards whose
// constellations are too large to be one piece of work each: with
// [Spec.Split] = m, the split lists each constellation of
// [backtrack.Subproblems] (in that order) as its m sub-parts, 0 to m-1,
// then the symmetric piece whole, C·m + 1 pieces for C constellations;
// shard I of K takes the pieces at positions I, I+K, I+2K, ... of that
// list, as [Scheme] does. A line of this scheme says "split": m and
// writes each piece as [top, bottom, left, right, part] (the symmetric
// piece with part 0).
const SchemeSplit = "round-robin-split"

// AutoSplitFrom is the smallest board that [AutoSplit] splits: from n =
// 24 a constellation is a core-day or more of work on average.
const AutoSplitFrom = 24

// AutoSplit returns the sub-parts per constellation a count of the n×n
// board is split into when the user names none: 0 (whole
// constellations, [Scheme]) below [AutoSplitFrom], else 2^(n-16), up to
// [backtrack.MaxParts] (256 for n = 24, 4096 for n = 28): about as many
// as the work grows between boards, so that a sub-part stays below about
// half a core-hour at n = 28 (see docs/scale.md, "Sizing").
func AutoSplit(n int) int {
	if n < AutoSplitFrom {
		return 0
	}
	return min(1<<max(0, n-16), backtrack.MaxParts)
}

// scheme returns the name of the scheme of s: [SchemeSplit] for a split
// of the constellations.
func (s Spec) scheme() string {
	if sc := schemeOf(s.Scheme); s.Split == 0 || family(sc) != Scheme {
		return sc
	}
	return SchemeSplit
}

// family returns the scheme whose engines count the pieces of scheme:
// [Scheme] for [SchemeSplit] (its sub-parts are counted by the same
// search), scheme itself otherwise.
func family(scheme string) string {
	if scheme == SchemeSplit {
		return Scheme
	}
	return scheme
}

// checkSplit validates s.Split, and the size of the shard it makes
// (s.N and s.Shards in range): at most [MaxPieces], so that no shard
// count or split read from a line or a checkpoint makes a shard list
// billions of pieces.
func (s Spec) checkSplit() error {
	if s.scheme() != SchemeSplit {
		if s.Split != 0 {
			return fmt.Errorf("%w: scheme %s has no sub-parts (split %d)", ErrShard, s.scheme(), s.Split)
		}
		return nil
	}
	if s.Split < 2 || s.Split > backtrack.MaxParts {
		return fmt.Errorf("%w: %d sub-parts per constellation (want 2 to %d, or 0 for whole ones)", ErrShard, s.Split, backtrack.MaxParts)
	}
	all, err := subproblems(s.N)
	if err != nil {
		return err
	}
	if parts := (len(all)-1)*s.Split + 1; (parts+s.Shards-1)/s.Shards > MaxPieces {
		return fmt.Errorf("%w: %d shards of the %d pieces of n=%d split %d ways cover more than %d pieces each (use at least %d shards, or a smaller split)",
			ErrShard, s.Shards, parts, s.N, s.Split, MaxPieces, (parts+MaxPieces-1)/MaxPieces)
	}
	return nil
}

// subproblems returns [backtrack.Subproblems](n), listed once and shared
// (never changed): each line a merge reads asks for it, and at n = 28 a
// copy of the list is megabytes.
func subproblems(n int) ([]backtrack.Subproblem, error) {
	if n < 0 || n > backtrack.CountMaxN {
		return backtrack.Subproblems(n) // its error
	}
	return subproblemLists[n]()
}

var subproblemLists = func() (f [backtrack.CountMaxN + 1]func() ([]backtrack.Subproblem, error)) {
	for n := range f {
		f[n] = sync.OnceValues(func() ([]backtrack.Subproblem, error) { return backtrack.Subproblems(n) })
	}
	return f
}()

// splitKeys returns the pieces of shard s of the scheme [SchemeSplit]
// (checked), without listing the whole split (C·m + 1 pieces: 187
// million at n = 28), and the number of pieces in it.
func splitKeys(s Spec) ([]key, int) {
	all, _ := subproblems(s.N) // checked by checkSplit
	m := s.Split
	parts := (len(all)-1)*m + 1
	keys := make([]key, 0, max(0, (parts-s.Index+s.Shards-1)/s.Shards))
	for i := s.Index; i < parts; i += s.Shards {
		if i == parts-1 {
			keys = append(keys, key{sp: all[len(all)-1]})
			continue
		}
		sp := all[i/m]
		sp.Part, sp.Parts = i%m, m
		keys = append(keys, key{sp: sp})
	}
	return keys, parts
}

// formOf returns piece k as a line or a checkpoint writes it: as
// [key.ints] does, with the sub-part after the constellation in the
// scheme [SchemeSplit] (split > 0; 0 for the symmetric piece).
func formOf(split int, k key) []int64 {
	if split == 0 || k.join {
		return k.ints()
	}
	return append(k.ints(), int64(k.sp.Part))
}

// splitKeyOf reads a piece in the form of [formOf] for a piece of scheme
// (with split sub-parts per constellation in [SchemeSplit]),
// range-checking its numbers; whether it is a piece of the split is the
// caller's check.
func splitKeyOf(scheme string, split int, a []int64) (key, error) {
	if scheme != SchemeSplit {
		return keyOf(scheme, a)
	}
	if len(a) != 5 {
		return key{}, fmt.Errorf("piece %v: want [top, bottom, left, right, part]", a)
	}
	k, err := keyOf(Scheme, a[:4])
	if err != nil {
		return k, err
	}
	switch part := a[4]; {
	case k.sp.Symmetric() && part != 0:
		return k, fmt.Errorf("piece %v: the symmetric piece has no sub-parts", a)
	case k.sp.Symmetric():
	case part < 0 || part >= int64(split):
		return k, fmt.Errorf("piece %v: sub-part %d of %d (want 0 to %d)", a, part, split, split-1)
	default:
		k.sp.Part, k.sp.Parts = int(part), split
	}
	return k, nil
}
