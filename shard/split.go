package shard

import (
	"fmt"

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

// scheme returns the name of the scheme of s.
func (s Spec) scheme() string {
	if s.Split > 0 {
		return SchemeSplit
	}
	return Scheme
}

// MaxShardPieces is the most pieces one shard of the scheme
// [SchemeSplit] may cover (a few hundred MiB to list them): a split
// whose pieces outnumber K × MaxShardPieces is refused, so that no shard
// count or split read from a line or a checkpoint makes a shard list
// billions of pieces.
const MaxShardPieces = 1 << 22

// checkSplit validates s.Split, and the size of the shard it makes
// (s.N and s.Shards in range).
func (s Spec) checkSplit() error {
	if s.Split == 0 {
		return nil
	}
	if s.Split < 2 || s.Split > backtrack.MaxParts {
		return fmt.Errorf("%w: %d sub-parts per constellation (want 2 to %d, or 0 for whole ones)", ErrShard, s.Split, backtrack.MaxParts)
	}
	all, err := backtrack.Subproblems(s.N)
	if err != nil {
		return err
	}
	if parts := (len(all)-1)*s.Split + 1; (parts+s.Shards-1)/s.Shards > MaxShardPieces {
		return fmt.Errorf("%w: %d shards of the %d pieces of n=%d split %d ways cover more than %d pieces each (use at least %d shards, or a smaller split)",
			ErrShard, s.Shards, parts, s.N, s.Split, MaxShardPieces, (parts+MaxShardPieces-1)/MaxShardPieces)
	}
	return nil
}

// splitPieces returns the pieces of shard s of the scheme [SchemeSplit],
// of the constellations all (the symmetric piece last), without listing
// the whole split (C·m + 1 pieces: 187 million at n = 28), and the number
// of pieces in it.
func splitPieces(s Spec, all []backtrack.Subproblem) ([]backtrack.Subproblem, int) {
	m := s.Split
	parts := (len(all)-1)*m + 1
	var pieces []backtrack.Subproblem
	for i := s.Index; i < parts; i += s.Shards {
		if i == parts-1 {
			pieces = append(pieces, all[len(all)-1])
			continue
		}
		sp := all[i/m]
		sp.Part, sp.Parts = i%m, m
		pieces = append(pieces, sp)
	}
	return pieces, parts
}

// pieceForm returns piece p as a line or a checkpoint writes it: four
// numbers, or five with the sub-part in the scheme [SchemeSplit].
func pieceForm(split int, p backtrack.Subproblem) []int {
	if split == 0 {
		return []int{p.Top, p.Bottom, p.Left, p.Right}
	}
	return []int{p.Top, p.Bottom, p.Left, p.Right, p.Part}
}

// pieceOf reads a piece in the form of [pieceForm], range-checking the
// sub-part; the constellation itself is checked against the split by the
// caller.
func pieceOf(split int, f []int) (backtrack.Subproblem, error) {
	want := 4
	if split > 0 {
		want = 5
	}
	if len(f) != want {
		return backtrack.Subproblem{}, fmt.Errorf("piece %v has %d numbers, want %d", f, len(f), want)
	}
	sp := backtrack.Subproblem{Top: f[0], Bottom: f[1], Left: f[2], Right: f[3]}
	if split == 0 || sp.Symmetric() {
		if split > 0 && f[4] != 0 {
			return sp, fmt.Errorf("piece %v: the symmetric piece has no sub-parts", f)
		}
		return sp, nil
	}
	if f[4] < 0 || f[4] >= split {
		return sp, fmt.Errorf("piece %v: sub-part %d of %d (want 0 to %d)", f, f[4], split, split-1)
	}
	sp.Part, sp.Parts = f[4], split
	return sp, nil
}
