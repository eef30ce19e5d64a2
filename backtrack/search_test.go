package backtrack

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

var strategies = []Strategy{Lex, Heuristic}

// collect runs a full search and checks every solution: valid, containing
// the pre-placed queens, distinct. It returns the solutions.
func collect(t *testing.T, n int, opt Options) ([]board.Solution, Stats) {
	t.Helper()
	var sols []board.Solution
	seen := map[string]bool{}
	stats, err := Search(context.Background(), n, opt, func(s board.Solution) bool {
		if err := s.Check(); err != nil || len(s) != n {
			t.Fatalf("n=%d %v: invalid solution %v: %v", n, opt.Strategy, s, err)
		}
		if !s.Contains(opt.Place) {
			t.Fatalf("n=%d: solution %v lacks pre-placed %v", n, s, opt.Place)
		}
		key := fmt.Sprint(s)
		if seen[key] {
			t.Fatalf("n=%d %v: solution %v twice", n, opt.Strategy, s)
		}
		seen[key] = true
		sols = append(sols, s)
		return true
	})
	if err != nil {
		t.Fatalf("Search(%d): %v", n, err)
	}
	return sols, stats
}

func TestKnownCounts(t *testing.T) {
	for n := 1; n <= 12; n++ {
		want, _ := board.Known(n)
		for _, st := range strategies {
			if st == Heuristic && n > 10 {
				continue // the same code path, slower per node; n <= 10 suffices
			}
			t.Run(fmt.Sprintf("n=%d/%v", n, st), func(t *testing.T) {
				sols, stats := collect(t, n, Options{Strategy: st})
				if uint64(len(sols)) != want.Total || stats.Solutions != want.Total {
					t.Errorf("All(%d) = %d solutions (stats %d), want %d", n, len(sols), stats.Solutions, want.Total)
				}
				if st == Lex && !slices.IsSortedFunc(sols, func(a, b board.Solution) int {
					if a.Less(b) {
						return -1
					}
					return 1
				}) {
					t.Errorf("Lex solutions of n=%d not in lexicographic order", n)
				}
				first, _, err := First(context.Background(), n, Options{Strategy: st})
				if err != nil || (want.Total == 0) != (first == nil) || (first != nil && !first.Equal(sols[0])) {
					t.Errorf("First(%d) = %v, %v; want %v", n, first, err, sols[:min(1, len(sols))])
				}
			})
		}
	}
}

// TestUnique counts orbits of all solutions (n <= 10): the canonical ones,
// and the sum of 1/orbit size, both give the published unique count, and
// Options.Unique yields exactly the canonical solutions.
func TestUnique(t *testing.T) {
	for n := 1; n <= 10; n++ {
		want, _ := board.Known(n)
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			canon := map[string]bool{}
			var orbits float64
			for s := range testutil.Values(t, All(context.Background(), n, Options{})) {
				canon[fmt.Sprint(board.Canonical(s))] = true
				orbits += 1 / float64(board.OrbitSize(s))
			}
			if uint64(len(canon)) != want.Unique || uint64(orbits+0.5) != want.Unique {
				t.Errorf("orbits of n=%d: %d canonical, %.2f by orbit size; want %d", n, len(canon), orbits, want.Unique)
			}
			sols, _ := collect(t, n, Options{Unique: true, Strategy: Heuristic})
			for _, s := range sols {
				if !canon[fmt.Sprint(s)] {
					t.Errorf("Unique yielded %v, not canonical", s)
				}
			}
			if uint64(len(sols)) != want.Unique {
				t.Errorf("All(%d, Unique) = %d, want %d", n, len(sols), want.Unique)
			}
		})
	}
}

// TestPlace checks completions against a brute-force filter of the full
// solution set, for random pre-placements (fixed seed).
func TestPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 8; n++ {
		all := slices.Collect(testutil.Values(t, All(context.Background(), n, Options{})))
		for trial := range 12 {
			var qs []board.Queen
			for range 1 + rng.IntN(3) {
				q := board.Queen{Row: rng.IntN(n), Col: rng.IntN(n)}
				if board.CheckPlacement(n, append(qs, q)) == nil {
					qs = append(qs, q)
				}
			}
			want := 0
			for _, s := range all {
				if s.Contains(qs) {
					want++
				}
			}
			for _, st := range strategies {
				t.Run(fmt.Sprintf("n=%d/%d/%v", n, trial, st), func(t *testing.T) {
					sols, _ := collect(t, n, Options{Place: qs, Strategy: st})
					if len(sols) != want {
						t.Errorf("n=%d place %v: %d solutions, want %d", n, qs, len(sols), want)
					}
				})
			}
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		n    int
		opt  Options
		want error
	}{
		{"n=0", 0, Options{}, board.ErrSize},
		{"n=-5", -5, Options{}, board.ErrSize},
		{"off board", 8, Options{Place: []board.Queen{{Row: 8, Col: 8}}}, board.ErrPlacement},
		{"negative", 8, Options{Place: []board.Queen{{Row: -1, Col: 0}}}, board.ErrPlacement},
		{"attacking", 8, Options{Place: []board.Queen{{Row: 0, Col: 0}, {Row: 1, Col: 1}}}, board.ErrPlacement},
		{"same row", 8, Options{Place: []board.Queen{{Row: 0, Col: 0}, {Row: 0, Col: 5}}}, board.ErrPlacement},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, err := First(context.Background(), tt.n, tt.opt)
			if !errors.Is(err, tt.want) || s != nil {
				t.Errorf("First(%d, %+v) = %v, %v; want error %v", tt.n, tt.opt, s, err, tt.want)
			}
		})
	}
	// No completion is an answer, not an error: 1:1 and 2:3 on n=4.
	s, _, err := First(context.Background(), 4, Options{Place: []board.Queen{{Row: 0, Col: 0}, {Row: 1, Col: 2}}})
	if s != nil || err != nil {
		t.Errorf("First(context.Background(), 4, 1:1 2:3) = %v, %v; want nil, nil", s, err)
	}
}

// TestHeuristicFirst checks the first heuristic solution for the boards up
// to 60, and a few large ones, among them those that need the second pass.
func TestHeuristicFirst(t *testing.T) {
	if testutil.Race {
		t.Skip("-race: one goroutine's search, 20 to 30 s under the detector; the plain run checks it whole")
	}
	sizes := []int{100, 120, 500, 822, 854, 1000}
	for n := 1; n <= 60; n++ {
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		s, stats, err := First(context.Background(), n, Options{Strategy: Auto})
		if n == 2 || n == 3 {
			if s != nil || err != nil {
				t.Errorf("First(%d) = %v, %v; want no solution", n, s, err)
			}
			continue
		}
		if err != nil || s.Check() != nil {
			t.Fatalf("First(%d) = %v, %v", n, s, err)
		}
		if stats.Nodes-stats.Backtracks != uint64(n) {
			t.Errorf("First(%d): %d placed - %d taken back != %d queens", n, stats.Nodes, stats.Backtracks, n)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, 8, Options{}, func(board.Solution) bool { return true }); !errors.Is(err, context.Canceled) {
		t.Errorf("Search with a cancelled context: %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	found := 0
	stats, err := Search(ctx, 14, Options{}, func(board.Solution) bool {
		if found++; found == 10 {
			cancel()
		}
		return true
	})
	want, _ := board.Known(14)
	if !errors.Is(err, context.Canceled) || stats.Solutions >= want.Total || stats.Nodes == 0 {
		t.Errorf("Search cancelled mid-way: %v, %+v", err, stats)
	}
}

func TestStrategy(t *testing.T) {
	for _, s := range []Strategy{Auto, Lex, Heuristic} {
		got, err := ParseStrategy(s.String())
		if got != s || err != nil {
			t.Errorf("ParseStrategy(%q) = %v, %v", s.String(), got, err)
		}
	}
	if _, err := ParseStrategy("fast"); !errors.Is(err, ErrStrategy) {
		t.Errorf("ParseStrategy(fast): %v, want ErrStrategy", err)
	}
	if Auto.Resolve(AutoLexMax) != Lex || Auto.Resolve(AutoLexMax+1) != Heuristic {
		t.Errorf("Auto does not switch at AutoLexMax")
	}
}

// TestFirstCancelled: First stops when its context ends, with ctx's
// error: n = 30 under Lex takes far longer than the 20 ms given.
func TestFirstCancelled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	s, _, err := First(ctx, 30, Options{Strategy: Lex})
	if s != nil && err == nil {
		t.Skip("n = 30 under Lex finished within 20 ms")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("First = %v, %v; want context.DeadlineExceeded", s, err)
	}
}
