package join

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/bits"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"

	"github.com/queens-dev/queens/internal/memlimit"
	"github.com/queens-dev/queens/internal/testutil"
)

// TestCountWithin counts boards up to n = 13 with caps of halves so small
// that the parts split two to five times over (sub-parts of sub-parts,
// the middle queen of odd boards moved out of the inner columns) and,
// from n = 12 (whose smallest parts hold 178), by the columns of their
// halves' outer row (60 halves) or two rows (20), against the published
// counts; a cap that not even those fit into is a too-big count, never a
// wrong one.
func TestCountWithin(t *testing.T) {
	ctx := context.Background()
	last := 13
	if testing.Short() {
		last = 12
	}
	for n := 5; n <= last; n++ {
		want, _ := board.Known(n)
		for _, capacity := range []int{20, 60, 2000} {
			pl := newPlan(n, outerColumns(n))
			pl.cap = capacity
			res, err := pl.count(ctx, Options{Threads: 2}, time.Now())
			if err != nil || res.Total != want.Total {
				t.Errorf("n=%d, at most %d halves a part: %d, %v; want %d", n, capacity, res.Total, err, want.Total)
			}
		}
		pl := newPlan(n, outerColumns(n))
		pl.cap = 1
		if res, err := pl.count(ctx, Options{Threads: 1}, time.Now()); n > 4 && !errors.Is(err, errTooBig) {
			t.Errorf("n=%d, one half a part: %d, %v; want too big", n, res.Total, err)
		}
	}
}

// TestSubparts checks that the sub-parts of every part of n = 9 to 12
// split its column choices exactly: their outer columns extend the
// part's by the two columns the deeper plan adds, and the middle queen
// of an inner part moves to an inner column of the deeper plan or to one
// of those two.
func TestSubparts(t *testing.T) {
	for n := 9; n <= 12; n++ {
		pl := newPlan(n, outerColumns(n))
		sub := &plan{n: n, h: pl.h, k: pl.k + 1, geo: pl.geo}
		for _, p := range pl.parts() {
			had, top := pl.columns(p.mid, p.outer)
			seen := map[part]bool{}
			for _, q := range pl.subparts(p, sub) {
				all, qtop := sub.columns(q.mid, q.outer)
				if seen[q] || q.weight != p.weight || all&had != had || qtop&had != top || sub.pattern(q.mid, qtop) != q.outer {
					t.Fatalf("n=%d: part %+v has sub-part %+v (columns %b of %b, the part's %b of %b)", n, p, q, qtop, all, top, had)
				}
				seen[q] = true
				if p.mid != innerMids && q.mid != p.mid || p.mid == innerMids && q.mid != innerMids && q.mid != pl.k && q.mid != n-1-pl.k {
					t.Fatalf("n=%d: part %+v has sub-part %+v", n, p, q)
				}
			}
			if want := map[bool]int{false: 4, true: 12}[p.mid == innerMids]; len(seen) != want {
				t.Errorf("n=%d: part %+v has %d sub-parts, want %d", n, p, len(seen), want)
			}
		}
	}
}

// TestDefaultMemory checks the default's range for every n and thread
// count, hostile ones included.
func TestDefaultMemory(t *testing.T) {
	for _, threads := range []int{-1, 0, 1, 2, 64, 1 << 20, math.MaxInt} {
		last := int64(0)
		for n := -1; n <= MaxN+2; n++ {
			m := DefaultMemory(n, threads)
			if m < MinMemory || m > 1<<50 || m < last {
				t.Fatalf("DefaultMemory(%d, %d) = %d (after %d)", n, threads, m, last)
			}
			last = m
			if h := HeapLimit(m); h <= 0 || h > m {
				t.Fatalf("HeapLimit(%d) = %d", m, h)
			}
		}
	}
	if m := DefaultMemory(19, 1); m > threadMemory+quarterBytes(19) {
		t.Errorf("DefaultMemory(19, 1) = %d, want at most %d", m, threadMemory+quarterBytes(19))
	}
	// Up to n = 21 the default leaves the quarter tables room beside the
	// workers (useQuarters takes them), and at n = 20 on two threads it is
	// within 256 MiB (where the machine's memory does not bound it first).
	for n := 16; n <= quarterMaxN; n++ {
		for _, threads := range []int{1, 2, 16} {
			m := DefaultMemory(n, threads)
			if m < int64(threads)*threadMemory+quarterBytes(n) {
				continue // bounded by this machine's memory
			}
			if quarterBytes(n) > m-reserve(m)-int64(threads)<<20 {
				t.Errorf("n=%d, %d threads: the default %d bytes leaves no room for the quarter tables (%d bytes)", n, threads, m, quarterBytes(n))
			}
		}
	}
	if m := DefaultMemory(20, 2); m > 256<<20 {
		t.Errorf("DefaultMemory(20, 2) = %d, want at most 256 MiB", m)
	}
}

// TestUlimit counts n = 15 in a process under ulimit -v 1500000 (1.5 GB
// of address space, of which the Go runtime reserves much at start):
// the default memory follows the limit, and --memory past it is an
// ErrMemory or a count, never a crash.
func TestUlimit(t *testing.T) {
	if os.Getenv("JOIN_ULIMIT") != "" {
		res, err := Count(context.Background(), 15, Options{Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := board.Known(15); res.Total != want.Total {
			t.Fatalf("n=15 under ulimit -v: %d, want %d", res.Total, want.Total)
		}
		if m := DefaultMemory(15, 2); m >= 1500000<<10/2 {
			t.Fatalf("DefaultMemory under ulimit -v 1500000: %d", m)
		}
		return
	}
	if testing.Short() {
		t.Skip("-short: a count in a subprocess")
	}
	if testutil.Race {
		t.Skip("-race: the race detector's shadow memory does not fit under ulimit -v")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	cmd := exec.Command("bash", "-c", `ulimit -v 1500000 && exec "$0" -test.run '^TestUlimit$' -test.v`, os.Args[0])
	cmd.Env = append(os.Environ(), "JOIN_ULIMIT=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("under ulimit -v 1500000: %v\n%s", err, out)
	}
}

// TestPieceCountWith counts every piece of n = 11 and 12 within 1 MiB
// shared by 64 threads (about 600 halves each, so the larger pieces split)
// to the tallies of the default memory, and refuses less than MinMemory.
func TestPieceCountWith(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{11, 12} {
		ps, err := Pieces(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			a, err1 := p.Count(ctx, n)
			b, err2 := p.CountWith(ctx, n, Options{Memory: MinMemory, Threads: 64})
			if err1 != nil || err2 != nil || a != b {
				t.Fatalf("n=%d piece %v: %v, %v by default, %v, %v in 1 MiB on 64 threads", n, p, a, err1, b, err2)
			}
		}
		if _, err := ps[0].CountWith(ctx, n, Options{Memory: MinMemory - 1}); !errors.Is(err, ErrMemory) {
			t.Errorf("n=%d in %d bytes: %v, want ErrMemory", n, MinMemory-1, err)
		}
	}
}

// TestDeepestPieces measures what bounds the join's memory at any n
// (docs/scale.md, "Memory"): on even boards of n = 12 to 16 (to 14 with
// -short; to the even n of JOIN_DEEPEST_N, e.g. 20, logged), the largest
// part of the deepest split (k = (n-2)/2), counted from the quarter tables
// and again by the search, and the largest piece of its three largest
// parts split by one and by two rows ([worker.countByRows]), against the
// figures the docs give.
func TestDeepestPieces(t *testing.T) {
	last := 16
	if testing.Short() {
		last = 14
	}
	if s := os.Getenv("JOIN_DEEPEST_N"); s != "" {
		var err error
		if last, err = strconv.Atoi(s); err != nil || last < 12 || last > quarterMaxN {
			t.Fatalf("JOIN_DEEPEST_N=%q: want an n from 12 to %d (the quarter tables' range)", s, quarterMaxN)
		}
	}
	// n: the largest part, its largest piece by one row and by two rows.
	want := map[int][3]uint64{12: {178, 47, 16}, 14: {750, 162, 54}, 16: {3798, 705, 161}, 18: {20945, 3271, 615}, 20: {134503, 17913, 3328}}
	for n := 12; n <= last; n += 2 {
		pl := newPlan(n, (n-2)/2)
		q := quartersFor(n, nil)
		type sized struct {
			p      part
			halves uint64
		}
		var parts []sized
		var out []uint64
		var pr []quarter
		for _, p := range pl.parts() {
			outer, mine, inner := pl.sides(p)
			var sum uint64
			for in := inner; ; in = (in - 1) & inner {
				if top := mine | in; bits.OnesCount32(top) == pl.h {
					out = q.halves(n, top, 0, false, out[:0], &pr)
					sum += uint64(len(out))
					out = q.halves(n, outer&^mine|inner&^in, 0, false, out[:0], &pr)
					sum += uint64(len(out))
				}
				if in == 0 {
					break
				}
			}
			parts = append(parts, sized{p, sum})
		}
		slices.SortFunc(parts, func(a, b sized) int { return cmp.Compare(b.halves, a.halves) })
		var got [3]uint64
		got[0] = parts[0].halves
		w := pl.newWorker()
		var stop atomic.Bool
		for _, s := range parts[:3] {
			p := s.p
			if c := w.countRows(p, &anyRows, &anyRows, &stop); c.halves != s.halves {
				t.Errorf("n=%d: part %+v: %d halves searched, %d from quarters", n, p, c.halves, s.halves)
			}
			outer, mine, inner := pl.sides(p)
			for a := inner | mine; a != 0; a &= a - 1 {
				for b := inner | outer&^mine; b != 0; b &= b - 1 {
					t1, u1 := anyRows, anyRows
					t1[0], u1[0] = a&-a, b&-b
					got[1] = max(got[1], w.countRows(p, &t1, &u1, &stop).halves)
					for a2 := (inner | mine) &^ (a & -a); a2 != 0; a2 &= a2 - 1 {
						for b2 := (inner | outer&^mine) &^ (b & -b); b2 != 0; b2 &= b2 - 1 {
							t2, u2 := t1, u1
							t2[1], u2[1] = a2&-a2, b2&-b2
							got[2] = max(got[2], w.countRows(p, &t2, &u2, &stop).halves)
						}
					}
				}
			}
		}
		t.Logf("n=%d, k=%d: the largest part holds %d halves, its pieces by one row %d, by two rows %d", n, pl.k, got[0], got[1], got[2])
		if w, ok := want[n]; ok && got != w {
			t.Errorf("n=%d: %v, want %v", n, got, w)
		}
	}
}

// TestSensibleMemory: at SensibleMemory a count of n = 20 and 21 still
// builds its halves from the quarter table (below it, a plan takes tables
// of exact columns under a heap tight enough to cost 3 times the CPU and
// more), the value grows with the threads, is within the default and
// never below MinMemory.
func TestSensibleMemory(t *testing.T) {
	for _, n := range []int{12, 19, 20, 21, 22, 23, 24, 28} {
		for _, threads := range []int{1, 2, 16} {
			m := SensibleMemory(n, threads)
			if m < MinMemory || m > SensibleMemory(n, threads+1) || m > DefaultMemory(n, threads) && DefaultMemory(n, threads) < memlimit.Usable()/2 {
				t.Errorf("SensibleMemory(%d, %d) = %d: below MinMemory, falling with threads or past the default %d", n, threads, m, DefaultMemory(n, threads))
			}
			if n > quarterMaxN || n < 20 {
				continue
			}
			pl := newPlan(n, pieceColumns(n))
			pl.useQuarters(nil, m, threads)
			if pl.q == nil {
				t.Errorf("n=%d, %d threads: at SensibleMemory %d the quarter table (%d bytes) does not fit", n, threads, m, quarterBytes(n))
			}
			pl.useQuarters(nil, m-2<<20, threads)
			if pl.q != nil {
				t.Errorf("n=%d, %d threads: 2 MiB below SensibleMemory %d the quarter table still fits: the value is not the smallest", n, threads, m)
			}
		}
	}
}
