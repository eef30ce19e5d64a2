package join

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
)

// TestPublished checks the totals and unique counts against the published
// table: n <= 14 always, 15 to 17 without -short (n = 18 is checked by
// BenchmarkCount).
func TestPublished(t *testing.T) {
	maxN := 17
	if testing.Short() {
		maxN = 14
	}
	for n := 1; n <= maxN; n++ {
		want, _ := board.Known(n)
		res, err := Count(context.Background(), n, Options{Unique: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != want.Total || res.Unique != want.Unique || res.Rotations != backtrack.RotationClasses(n, want.Unique) {
			t.Errorf("n=%d: %d (%d unique, %d up to rotation), want %d (%d)", n, res.Total, res.Unique, res.Rotations, want.Total, want.Unique)
		}
		if res.Done != res.Parts || res.Parts == 0 {
			t.Errorf("n=%d: %d of %d parts done", n, res.Done, res.Parts)
		}
	}
}

// paths returns the matcher paths this machine runs, the best first.
func paths() []simd {
	var ps []simd
	for s := bestSIMD(); s >= simdGo; s-- {
		ps = append(ps, s)
	}
	return ps
}

// TestPaths counts on every path this machine runs but the one the
// other tests take (the best, unless QUEENS_SIMD says otherwise),
// against the published table (n <= 14 always, up to 17 without -short)
// and the constellation counter (n <= 12).
func TestPaths(t *testing.T) {
	maxN := 17
	if testing.Short() {
		maxN = 14
	}
	def, _ := envSIMD()
	for _, s := range paths() {
		if s == def {
			continue
		}
		t.Run(s.String(), func(t *testing.T) {
			t.Setenv(SIMDEnv, s.String())
			for n := 1; n <= maxN; n++ {
				want, _ := board.Known(n)
				res, err := Count(context.Background(), n, Options{Threads: 2, Unique: true})
				if err != nil || res.Total != want.Total || res.Unique != want.Unique || res.SIMD != s.String() {
					t.Errorf("n=%d: %d (%d unique) on %s, %v; want %d (%d)", n, res.Total, res.Unique, res.SIMD, err, want.Total, want.Unique)
				}
				if n > 12 {
					continue
				}
				con, err := backtrack.Count(context.Background(), n, backtrack.CountOptions{})
				if err != nil || con.Total != res.Total {
					t.Errorf("n=%d: join %d, constellations %d, %v", n, res.Total, con.Total, err)
				}
			}
		})
	}
}

// TestPickSIMD checks QUEENS_SIMD's values: each path up to the best,
// and a clear error for an unknown one or one above the best.
func TestPickSIMD(t *testing.T) {
	best := bestSIMD()
	for s := simdGo; s <= simdAVX512; s++ {
		got, err := pickSIMD(s.String())
		if s <= best && (err != nil || got != s) {
			t.Errorf("%s=%s: %s, %v", SIMDEnv, s, got, err)
		}
		if s > best && !errors.Is(err, ErrSIMD) {
			t.Errorf("%s=%s on a CPU with at most %s: %s, error %v, want ErrSIMD", SIMDEnv, s, best, got, err)
		}
	}
	if got, err := pickSIMD(""); err != nil || got != best {
		t.Errorf("unset: %s, %v; want %s", got, err, best)
	}
	for _, bad := range []string{"sse", "AVX2", " go", "avx-512"} {
		if _, err := pickSIMD(bad); !errors.Is(err, ErrSIMD) {
			t.Errorf("%s=%q: error %v, want ErrSIMD", SIMDEnv, bad, err)
		}
	}
}

// TestAgainstConstellations compares the join with the constellation
// counter of package backtrack, an independent algorithm.
func TestAgainstConstellations(t *testing.T) {
	for n := 1; n <= 13; n++ {
		want, err := backtrack.Count(context.Background(), n, backtrack.CountOptions{Unique: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Count(context.Background(), n, Options{Unique: true, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got.Total != want.Total || got.Unique != want.Unique {
			t.Errorf("n=%d: join %d (%d unique), constellations %d (%d)", n, got.Total, got.Unique, want.Total, want.Unique)
		}
	}
}

// TestSplits counts random small boards with parts named by random
// numbers of outer columns on random numbers of threads, their halves
// searched, built from the quarter table and from tables of exact
// columns: every split must give the constellation counter's count.
func TestSplits(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 1))
	for range 40 {
		n := 1 + r.IntN(13)
		k := r.IntN(n/2 + 1) // up to every shared column outer
		want, err := backtrack.Count(context.Background(), n, backtrack.CountOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for source := range 3 {
			pl := newPlan(n, k)
			if 2*k > 2*pl.h {
				continue
			}
			switch source {
			case 1:
				pl.q = quartersFor(n, nil)
			case 2:
				pl.exact = true
			}
			got, err := pl.count(context.Background(), Options{Threads: 1 + r.IntN(3)}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != want.Total {
				t.Errorf("n=%d, %d outer columns a side, halves %s: %d, want %d", n, k, []string{"searched", "from the quarter table", "from tables of exact columns"}[source], got.Total, want.Total)
			}
		}
	}
}

func TestSize(t *testing.T) {
	for _, n := range []int{-1, 0, MaxN + 1} {
		if _, err := Count(context.Background(), n, Options{}); !errors.Is(err, board.ErrSize) {
			t.Errorf("n=%d: error %v, want board.ErrSize", n, err)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Count(ctx, 16, Options{Threads: 2, Unique: true})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if res.Done == res.Parts {
		t.Errorf("all %d parts done after cancel", res.Parts)
	}
}

// TestProgress checks that Progress ends with every part done.
func TestProgress(t *testing.T) {
	var last, parts int
	if _, err := Count(context.Background(), 12, Options{Progress: func(d, p int) { last, parts = d, p }}); err != nil {
		t.Fatal(err)
	}
	if last != parts || parts == 0 {
		t.Errorf("progress ended at %d of %d", last, parts)
	}
}

// TestMemory counts with the least memory allowed, which splits the
// boards into more parts than the default, and checks the limit's range.
func TestMemory(t *testing.T) {
	for _, n := range []int{13, 14} {
		want, _ := board.Known(n)
		res, err := Count(context.Background(), n, Options{Threads: 2, Memory: MinMemory})
		if err != nil || res.Total != want.Total {
			t.Errorf("n=%d in %d bytes: %d, %v; want %d", n, MinMemory, res.Total, err, want.Total)
		}
	}
	if _, err := Count(context.Background(), 8, Options{Memory: MinMemory - 1}); !errors.Is(err, ErrMemory) {
		t.Errorf("%d bytes: error %v, want ErrMemory", MinMemory-1, err)
	}
}

// TestDisjoint matches random lists, sorted into buckets by every number
// of key bits (and by the number the sizes choose), and filtered by a
// random middle queen, against a count pair by pair on every path, each
// pair weighed by its patterns' long diagonals (the top patterns may have
// the diagonal's bit, the bottom ones the anti-diagonal's); it checks
// that no more pairs are tested than there are, and every pair without
// key bits.
func TestDisjoint(t *testing.T) {
	// The widths of n = 8 (h = 4), n = 16 and 17, 18 and 19, 28 (the widest):
	// each picks other chunks and numbers of tables.
	for _, width := range []int{14, 30, 34, 54} {
		t.Run(fmt.Sprintf("width=%d", width), func(t *testing.T) { testDisjoint(t, width) })
	}
}

func testDisjoint(t *testing.T, width int) {
	r := rand.New(rand.NewPCG(22, uint64(width)))
	m := newMatcher(width, simdGo)
	anti, diag := uint64(1)<<(width/4), uint64(1)<<(width/2+width/4)
	if m.wbits != anti|diag {
		t.Fatalf("weight bits %x, want %x", m.wbits, anti|diag)
	}
	weight := func(p uint64) uint64 {
		if p&(anti|diag) != 0 {
			return 2
		}
		return 1
	}
	for round := range 2 * (maxKeyBits + 2) {
		kb := round%(maxKeyBits+2) - 1 // -1: chosen by the sizes
		n := []int{3, 40, 300, 2000, 5000}[round%5]
		gen := func(never uint64) []uint64 {
			pats := make([]uint64, n)
			for i := range pats {
				for range 6 + r.IntN(8) {
					pats[i] |= 1 << uint(r.IntN(width))
				}
				pats[i] &^= never
			}
			return pats
		}
		xs, ys := gen(anti), gen(diag)
		z := uint64(1)<<uint(r.IntN(width)) | 1<<uint(r.IntN(width))
		var want, wantZ uint64
		for _, x := range xs {
			for _, y := range ys {
				if x&y == 0 {
					want += weight(x) * weight(y)
					if (x|y)&z == 0 {
						wantZ += weight(x) * weight(y)
					}
				}
			}
		}
		m.forceKB = kb
		for _, s := range paths() {
			m.setPath(s)
			got, pairs := m.disjoint(slices.Clone(xs), slices.Clone(ys))
			if got != want || pairs > uint64(n*n) || kb == 0 && n*n > direct && pairs != uint64(n*n) {
				t.Errorf("%d halves a side, %d key bits, path %s: %d disjoint pairs of %d tested, want %d of at most %d", n, kb, s, got, pairs, want, n*n)
			}
			x, y := clearOf(z, xs, nil), clearOf(z, ys, nil)
			if got, _ := m.disjoint(x, y); got != wantZ {
				t.Errorf("%d halves a side, %d key bits, clear of %x, path %s: %d disjoint pairs, want %d", n, kb, z, s, got, wantZ)
			}
		}
	}
}

// TestTransposeWide checks the AVX-512 transpose against the pure-Go one
// on random words, for every number of bytes of bits.
func TestTransposeWide(t *testing.T) {
	if !hasAVX512 {
		t.Skip("this machine has no AVX-512 with VPOPCNTQ: the 512-lane path is not used here")
	}
	r := rand.New(rand.NewPCG(27, 5))
	for nbytes := 1; nbytes <= 8; nbytes++ {
		var src [64]uint64
		for i := range src {
			src[i] = r.Uint64()
		}
		var dst [64][8]uint64
		transposeWide(&dst[0][nbytes-1], &src, nbytes)
		var want [64]uint64
		transpose(&want, src[:])
		for j := range 8 * nbytes {
			if dst[j][nbytes-1] != want[j] {
				t.Fatalf("%d bytes, bit %d: %x, want %x", nbytes, j, dst[j][nbytes-1], want[j])
			}
		}
		for j := 8 * nbytes; j < 64; j++ {
			if dst[j][nbytes-1] != 0 {
				t.Fatalf("%d bytes: bit %d written", nbytes, j)
			}
		}
	}
}

// TestTransposeAVX2 checks the AVX2 transpose against the words it
// turns, for every number of bytes of bits: its lanes come in some fixed
// order, so each lane, read back from the rows, must be one of the
// words (distinct by their low byte), each word once, with bit 63 of
// each word in the valid row.
func TestTransposeAVX2(t *testing.T) {
	if !hasAVX2 {
		t.Skip("this machine has no AVX2 with BMI2 and POPCNT: the AVX2 path is not used here")
	}
	r := rand.New(rand.NewPCG(32, 7))
	for nbytes := 1; nbytes <= 7; nbytes++ {
		var src [64]uint64
		for i := range src {
			src[i] = r.Uint64()&^0xff | uint64(i)
		}
		var dst [64][8]uint64
		var valid [8]uint64
		transposeAVX2(&dst[0][3], &src, nbytes, &valid[3])
		mask := uint64(1)<<uint(8*nbytes) - 1
		seen := make(map[uint64]bool)
		for l := range 64 {
			var w uint64
			for j := range 8 * nbytes {
				w |= dst[j][3] >> uint(l) & 1 << uint(j)
			}
			i := w & 0xff
			if i >= 64 || seen[i] || w != src[i]&mask || valid[3]>>uint(l)&1 != src[i]>>63 {
				t.Fatalf("%d bytes, lane %d: %x (valid %d), not one of the words or a word twice", nbytes, l, w, valid[3]>>uint(l)&1)
			}
			seen[i] = true
		}
		for j := 8 * nbytes; j < 64; j++ {
			if dst[j][3] != 0 {
				t.Fatalf("%d bytes: bit %d written", nbytes, j)
			}
		}
		for b, v := range valid {
			if b != 3 && v != 0 {
				t.Fatalf("%d bytes: valid word %d written", nbytes, b)
			}
		}
	}
}
