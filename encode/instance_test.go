package encode_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
)

// TestIdentifyAnyCandidate: every instance queens writes is identified
// from its clauses alone, shuffled and with clauses repeated, among all
// the candidates (every encoding, with and without symmetry breaking,
// the placement given or none), as an instance with the same clauses;
// and one clause removed or one added makes it no instance. The encoder
// itself repeats clauses (lex-leader clauses of symmetry breaking), so
// clauses are compared as sets on both sides.
func TestIdentifyAnyCandidate(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 7; n++ {
		for _, enc := range encode.Encodings() {
			for _, sym := range []bool{false, true} {
				for _, place := range [][]board.Queen{nil, {{Row: 0, Col: n / 2}}} {
					e, err := encode.NewEncoder(n, encode.Options{Encoding: enc, Symmetry: sym, Place: place})
					if err != nil {
						continue
					}
					var clauses [][]int
					e.Emit(ctx, func(c []int) error {
						clauses = append(clauses, append([]int(nil), c...))
						return nil
					})
					rng.Shuffle(len(clauses), func(i, j int) { clauses[i], clauses[j] = clauses[j], clauses[i] })
					vars, _ := e.Size()
					var h encode.ClauseHash
					for i, c := range clauses {
						h.Add(c)
						if i%3 == 0 { // repeated, its literals reversed
							r := append([]int(nil), c...)
							for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
								r[a], r[b] = r[b], r[a]
							}
							h.Add(r)
						}
					}
					places := [][]board.Queen{nil, place}
					opt, ok, err := encode.Identify(ctx, &h, vars, n, nil, nil, places)
					if err != nil || !ok {
						t.Fatalf("n=%d %s sym=%v place=%v: not identified (%v)", n, enc, sym, place, err)
					}
					got, _ := encode.NewEncoder(n, opt)
					if gh, _ := got.Hash(ctx); !gh.Equal(&h) {
						t.Fatalf("n=%d %s sym=%v place=%v: identified as %+v, whose clauses differ", n, enc, sym, place, opt)
					}
					// Its repeats dropped (the encoder repeats lex-leader
					// clauses): still the instance, as a set.
					var once encode.ClauseHash
					seen := make(map[string]bool)
					for _, c := range clauses {
						k := fmt.Sprint(sortedSet(c))
						if !seen[k] {
							seen[k] = true
							once.Add(c)
						}
					}
					if _, ok, err := encode.Identify(ctx, &once, vars, n, nil, nil, places); !ok || err != nil {
						t.Fatalf("n=%d %s sym=%v place=%v: its %d distinct clauses are not identified (%v)", n, enc, sym, place, once.Clauses, err)
					}
					// One clause removed: no candidate is it.
					var less encode.ClauseHash
					for _, c := range clauses[1:] {
						less.Add(c)
					}
					if len(clauses) > 1 {
						if opt, ok, _ := encode.Identify(ctx, &less, vars, n, nil, nil, places); ok {
							if gh, _ := mustEncoder(t, n, opt).Hash(ctx); !gh.Equal(&less) {
								t.Fatalf("n=%d %s sym=%v: a clause removed, still identified as %+v", n, enc, sym, opt)
							}
						}
					}
					// One clause added: no candidate is it.
					h.Add([]int{-1, -2, -3, 1000})
					if opt, ok, _ := encode.Identify(ctx, &h, vars, n, nil, nil, places); ok {
						t.Fatalf("n=%d %s sym=%v: a clause added, still identified as %+v", n, enc, sym, opt)
					}
				}
			}
		}
	}
}

func sortedSet(c []int) []int {
	s := slices.Clone(c)
	slices.Sort(s)
	return slices.Compact(s)
}

func mustEncoder(t *testing.T, n int, opt encode.Options) *encode.Encoder {
	t.Helper()
	e, err := encode.NewEncoder(n, opt)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
