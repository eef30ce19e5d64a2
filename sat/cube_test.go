package sat_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/testutil"
	"github.com/queens-dev/queens/sat"
)

// collectParallel enumerates with a Parallel and checks every solution is
// valid, contains the pre-placed queens and is new.
func collectParallel(t *testing.T, cnf *encode.CNF, opt sat.Options) []board.Solution {
	t.Helper()
	p, err := sat.NewParallel(cnf, opt)
	if err != nil {
		t.Fatal(err)
	}
	var got []board.Solution
	seen := map[string]bool{}
	for sol, err := range p.All(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if err := sol.Check(); err != nil || !sol.Contains(cnf.Place) || seen[key(sol)] {
			t.Fatalf("%s n=%d %+v: bad or repeated solution %v (%v)", cnf.Encoding, cnf.N, opt, sol, err)
		}
		seen[key(sol)] = true
		got = append(got, slices.Clone(sol))
	}
	return got
}

// checkParallel checks that the parallel enumeration of cnf, with
// several depths and worker counts, with and without symmetry, emits
// each solution of want exactly once and nothing else, and counts total.
func checkParallel(t *testing.T, cnf *encode.CNF, want []board.Solution, total uint64) {
	t.Helper()
	for _, opt := range []sat.Options{{}, {Threads: 1, Depth: 1}, {Threads: 3, Depth: 2},
		{Threads: 2, Depth: 3, NoSymmetry: true}, {Threads: 2, Depth: cnf.N}} {
		what := fmt.Sprintf("%s n=%d %+v", cnf.Encoding, cnf.N, opt)
		got := collectParallel(t, cnf, opt)
		sameSet(t, what, got, want)
		p, _ := sat.NewParallel(cnf, opt)
		count, err := p.Count(context.Background())
		if err != nil || count != total || len(got) != int(total) {
			t.Errorf("%s: Count = %d, %v; All gave %d; want %d", what, count, err, len(got), total)
		}
	}
}

// TestParallelPlaced: with random pre-placed queens (n <= 10), the
// parallel enumeration gives the brute-force completions, each once.
func TestParallelPlaced(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 40 {
		cnf := randomPlaced(t, rng, i)
		opt := sat.Options{Threads: 1 + i%3, Depth: 1 + i%4}
		what := fmt.Sprintf("%s n=%d placed %v %+v", cnf.Encoding, cnf.N, cnf.Place, opt)
		sameSet(t, what, collectParallel(t, cnf, opt), testutil.Solutions(cnf.N, cnf.Place))
	}
}

// TestParallelOrder: the stream's order depends on the CNF and the depth
// only, not on the number of workers.
func TestParallelOrder(t *testing.T) {
	cnf, _ := encode.Queens(9, "pairwise", nil)
	one := collectParallel(t, cnf, sat.Options{Threads: 1})
	for _, w := range []int{2, 5} {
		if got := collectParallel(t, cnf, sat.Options{Threads: w}); !slices.EqualFunc(got, one, slices.Equal) {
			t.Errorf("Workers %d: order differs from one worker", w)
		}
	}
}

// TestParallelSequential: as sets, the parallel enumeration equals the
// sequential Solver's (one gini instance, global blocking clauses).
func TestParallelSequential(t *testing.T) {
	for _, name := range encode.Encodings() {
		cnf, _ := encode.Queens(10, name, nil)
		sameSet(t, string(name), collectParallel(t, cnf, sat.Options{}), collect(t, cnf))
	}
}

// TestParallelKnown counts n = 11 (and 12 unless -short) in parallel:
// the published counts.
func TestParallelKnown(t *testing.T) {
	ns := []int{11, 12}
	if testing.Short() {
		ns = ns[:1]
	}
	for _, n := range ns {
		cnf, _ := encode.Queens(n, "pairwise", nil)
		p, _ := sat.NewParallel(cnf, sat.Options{})
		count, err := p.Count(context.Background())
		if known, _ := board.Known(n); err != nil || count != known.Total {
			t.Errorf("n=%d: Count = %d, %v; published %d", n, count, err, known.Total)
		}
	}
}

// TestParallelStop: breaking out of the stream stops the workers (the
// race detector and the test's end would notice leaks); a cancelled
// context ends the stream with its error.
func TestParallelStop(t *testing.T) {
	cnf, _ := encode.Queens(11, "pairwise", nil)
	p, _ := sat.NewParallel(cnf, sat.Options{Threads: 3})
	got := 0
	for _, err := range p.All(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if got++; got == 5 {
			break
		}
	}
	if got != 5 {
		t.Errorf("stopped after %d", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Count(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Count(cancelled) = %v, want Canceled", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	seen := 0
	var end error
	for s, err := range p.All(ctx) {
		if err != nil {
			end = err
			break
		}
		if s == nil {
			t.Fatal("a nil solution without an error")
		}
		if seen++; seen == 100 {
			cancel()
		}
	}
	if !errors.Is(end, context.Canceled) || seen >= 2680 {
		t.Errorf("after cancel: %d solutions, stream ended with %v", seen, end)
	}
}

// TestCountClasses: a whole count enumerates the symmetry classes (one
// solve for each class, about, and the published unique count of
// solutions found), and sums their sizes to the published total; a
// count after part of the stream has been taken counts the rest of the
// mirror halves, and the two add up.
func TestCountClasses(t *testing.T) {
	for n := 1; n <= 11; n++ {
		known, _ := board.Known(n)
		cnf, err := encode.Queens(n, encode.Pairwise, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := sat.NewParallel(cnf, sat.Options{Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Count(context.Background())
		st := p.Stats()
		if err != nil || got != known.Total || uint64(st.Solutions) != known.Total {
			t.Errorf("n=%d: Count = %d, %v (stats %d); want %d", n, got, err, st.Solutions, known.Total)
		}
		if known.Unique > 0 && (uint64(st.Solves) < known.Unique || uint64(st.Solves) > known.Unique+uint64(st.Cubes)) {
			t.Errorf("n=%d: %d solves over %d cubes for %d classes", n, st.Solves, st.Cubes, known.Unique)
		}
		for range p.All(context.Background()) {
			t.Fatalf("n=%d: All yields a solution after Count", n)
		}
		p, _ = sat.NewParallel(cnf, sat.Options{Threads: 2})
		taken := uint64(0)
		for _, err := range p.All(context.Background()) {
			if err != nil {
				t.Fatal(err)
			}
			if taken++; taken >= known.Total/2 {
				break
			}
		}
		if rest, err := p.Count(context.Background()); err != nil || taken+rest != known.Total {
			t.Errorf("n=%d: %d taken, then Count = %d, %v; want %d in all", n, taken, rest, err, known.Total)
		}
	}
}
