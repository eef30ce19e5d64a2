package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/testutil"
	"github.com/queens-dev/queens/sat"
	"github.com/queens-dev/queens/sat/engine"
	"github.com/queens-dev/queens/sat/external"
)

// engines are the implementations of the contract, each built anew for
// a CNF.
var engines = []struct {
	name  string
	needs string // a program the engine runs, or ""
	open  func(*encode.CNF) (engine.Interface, error)
}{
	{"sat.New", "", func(cnf *encode.CNF) (engine.Interface, error) { return sat.New(cnf) }},
	{"sat.NewSeeded", "", func(cnf *encode.CNF) (engine.Interface, error) { return sat.NewSeeded(cnf, 7) }},
	{"sat.NewParallel", "", func(cnf *encode.CNF) (engine.Interface, error) {
		return sat.NewParallel(cnf, sat.Options{Threads: 2, Depth: 2})
	}},
	{"sat.NewParallel/NoSymmetry", "", func(cnf *encode.CNF) (engine.Interface, error) {
		return sat.NewParallel(cnf, sat.Options{Threads: 3, Depth: 1, NoSymmetry: true})
	}},
	{"external cadical", "cadical", func(cnf *encode.CNF) (engine.Interface, error) { return external.New(cnf, "cadical -q") }},
	{"external minisat", "minisat", func(cnf *encode.CNF) (engine.Interface, error) { return external.New(cnf, "minisat") }},
}

// TestContract runs the contract of [engine.Interface] against every
// engine: All and Count cover the solutions not yet returned (a second
// All after an early stop continues, nothing is left after a whole
// enumeration or a Count), every solution is a valid board given once,
// the union is the brute-force set, and Stats describes the formula and
// the work.
func TestContract(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			if e.needs != "" {
				if _, err := exec.LookPath(e.needs); err != nil {
					t.Skipf("%s not installed", e.needs)
				}
			}
			ctx := context.Background()
			for _, tc := range []struct {
				n     int
				place []board.Queen
				first int // solutions taken before the stop
			}{{6, nil, 1}, {6, nil, 3}, {5, nil, 7}, {8, []board.Queen{{Row: 0, Col: 1}}, 2}, {3, nil, 1}} {
				if testing.Short() && e.needs != "" && tc.n != 6 {
					continue // a run of the solver per solution
				}
				what := fmt.Sprintf("n=%d place %v first %d", tc.n, tc.place, tc.first)
				cnf, err := encode.Queens(tc.n, encode.Pairwise, tc.place)
				if err != nil {
					t.Fatal(err)
				}
				want := testutil.Solutions(tc.n, tc.place)
				// A fresh engine counts everything, then nothing is left.
				x := open(t, e.open, cnf)
				if got, err := x.Count(ctx); err != nil || got != uint64(len(want)) {
					t.Errorf("%s: Count = %d, %v; want %d", what, got, err, len(want))
				}
				if got, err := x.Count(ctx); err != nil || got != 0 {
					t.Errorf("%s: Count after Count = %d, %v; want 0", what, got, err)
				}
				checkStats(t, what, x.Stats(), cnf, len(want))

				// All stopped early, then All again: the rest, each once.
				x = open(t, e.open, cnf)
				seen := map[string]bool{}
				take(t, what, x.All(ctx), tc.first, tc.place, seen)
				if got := x.Stats().Solutions; got != len(seen) {
					t.Errorf("%s: Stats().Solutions = %d after %d returned, want %d: the solutions emitted, exactly", what, got, len(seen), len(seen))
				}
				if rest := len(want) - len(seen); rest > 0 {
					// Count after a partial All: what is left.
					y := open(t, e.open, cnf)
					take(t, what, y.All(ctx), tc.first, tc.place, map[string]bool{})
					if got, err := y.Count(ctx); err != nil || got != uint64(rest) {
						t.Errorf("%s: Count after %d = %d, %v; want %d", what, len(seen), got, err, rest)
					}
					if got := y.Stats().Solutions; got != len(want) {
						t.Errorf("%s: Stats().Solutions = %d after %d returned and %d counted, want %d", what, got, len(seen), rest, len(want))
					}
				}
				take(t, what, x.All(ctx), -1, tc.place, seen)
				if len(seen) != len(want) {
					t.Errorf("%s: %d solutions in all, want %d", what, len(seen), len(want))
				}
				for _, s := range want {
					if !seen[fmt.Sprint(s)] {
						t.Errorf("%s: solution %v missing", what, s)
					}
				}
				for s, err := range x.All(ctx) {
					t.Errorf("%s: All after the end yields %v, %v", what, s, err)
				}
				checkStats(t, what, x.Stats(), cnf, len(want))
			}
		})
	}
}

// TestContractCancel: every engine's All and Count return ctx's error
// when ctx has ended.
func TestContractCancel(t *testing.T) {
	cnf, _ := encode.Queens(8, encode.Pairwise, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, e := range engines {
		if e.needs != "" {
			if _, err := exec.LookPath(e.needs); err != nil {
				continue
			}
		}
		if _, err := open(t, e.open, cnf).Count(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Count(ended ctx) = %v, want %v", e.name, err, context.Canceled)
		}
		for s, err := range open(t, e.open, cnf).All(ctx) {
			if s != nil || !errors.Is(err, context.Canceled) {
				t.Errorf("%s: All(ended ctx) yields %v, %v; want nil, %v", e.name, s, err, context.Canceled)
			}
		}
	}
}

func open(t *testing.T, f func(*encode.CNF) (engine.Interface, error), cnf *encode.CNF) engine.Interface {
	t.Helper()
	x, err := f(cnf)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// take reads up to max solutions of seq (all with max < 0), checking
// each is a valid board with the placed queens and not in seen, and
// adds them to seen.
func take(t *testing.T, what string, seq func(func(board.Solution, error) bool), max int, place []board.Queen, seen map[string]bool) {
	t.Helper()
	got := 0
	for s, err := range seq {
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := s.Check(); err != nil || !s.Contains(place) || seen[fmt.Sprint(s)] {
			t.Fatalf("%s: bad or repeated solution %v (%v)", what, s, err)
		}
		seen[fmt.Sprint(s)] = true
		if got++; got == max {
			break
		}
	}
}

// checkStats checks what every engine's Stats must say after returning
// every one of found solutions: Solutions is found, exactly (what was
// emitted or counted, not what a cube or a solve held beyond it); the
// blocking clauses are work, at most one a solve (a cube solved again
// after an early stop blocks its solutions again).
func checkStats(t *testing.T, what string, st engine.Stats, cnf *encode.CNF, found int) {
	t.Helper()
	if st.Vars != cnf.Vars || st.Clauses != len(cnf.Clauses) || st.Solutions != found || st.Solves < min(found, 1) ||
		st.Blocking < 0 || st.Blocking > st.Solves || st.Cubes < 0 || st.Proofs != 0 || st.Elapsed <= 0 {
		t.Errorf("%s: Stats = %+v; want the formula's %d vars, %d clauses, %d solutions found, no proof", what, st, cnf.Vars, len(cnf.Clauses), found)
	}
}
