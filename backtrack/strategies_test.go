package backtrack

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

// textbook are the strategies of strategies.go.
var textbook = []Strategy{Iterative, Cells, Generate}

// TestTextbookStrategies checks every solution of Iterative, Cells and
// Generate against the independent brute force, on the empty board up to
// n = 9 and with pre-placed queens, in both orders.
func TestTextbookStrategies(t *testing.T) {
	places := [][]board.Queen{nil, {{Row: 0, Col: 1}}, {{Row: 2, Col: 0}, {Row: 4, Col: 3}}}
	for _, st := range textbook {
		for n := 1; n <= 9; n++ {
			for _, place := range places {
				if board.CheckPlacement(n, place) != nil || st == Generate && n == 9 && place == nil {
					continue
				}
				want := testutil.Solutions(n, place)
				for _, order := range []Order{Rows, Columns} {
					t.Run(fmt.Sprintf("%v/n=%d/%v/%v", st, n, place, order), func(t *testing.T) {
						sols, stats := collect(t, n, Options{Strategy: st, Place: place, Order: order})
						slices.SortFunc(sols, board.Solution.Compare)
						if !slices.EqualFunc(sols, want, board.Solution.Equal) {
							t.Fatalf("%d solutions, the brute force %d", len(sols), len(want))
						}
						if stats.Solutions != uint64(len(want)) {
							t.Errorf("stats: %d solutions, want %d", stats.Solutions, len(want))
						}
					})
				}
			}
		}
	}
}

// TestIterativeIsLex checks that Iterative takes the same steps as Lex,
// event for event, including where a first solution stops it.
func TestIterativeIsLex(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for _, all := range []bool{false, true} {
			var events [2][]string
			var stats [2]Stats
			for i, st := range []Strategy{Lex, Iterative} {
				opt := Options{Strategy: st, Place: []board.Queen{{Row: n / 2, Col: 0}}, Observe: func(e Event) {
					events[i] = append(events[i], e.String())
				}}
				stats[i], _ = Search(context.Background(), n, opt, func(board.Solution) bool { return all })
				stats[i].Elapsed = 0
			}
			if !slices.Equal(events[0], events[1]) || stats[0] != stats[1] {
				t.Errorf("n=%d all=%v: lex %d events %+v, iterative %d events %+v", n, all, len(events[0]), stats[0], len(events[1]), stats[1])
			}
		}
	}
}

// TestTextbookEvents checks the events against the statistics: one
// EventPlace per node, one EventBacktrack per backtrack, one
// EventSolution per solution, and for Generate one test (EventSolution or
// EventFail) per candidate, n! of them on the empty board.
func TestTextbookEvents(t *testing.T) {
	for _, st := range textbook {
		for n := 1; n <= 7; n++ {
			var kinds [6]uint64
			stats, err := Search(context.Background(), n, Options{Strategy: st, Observe: func(e Event) {
				kinds[e.Kind]++
				if e.Kind == EventFail {
					d := e.Queens[e.Row] - e.Queens[e.Attacker.Row]
					if d != e.Row-e.Attacker.Row && d != e.Attacker.Row-e.Row {
						t.Fatalf("%v n=%d: %v: no diagonal", st, n, e)
					}
				}
			}}, func(board.Solution) bool { return true })
			if err != nil {
				t.Fatal(err)
			}
			if kinds[EventPlace] != stats.Nodes || kinds[EventBacktrack] != stats.Backtracks || kinds[EventSolution] != stats.Solutions {
				t.Errorf("%v n=%d: events %v, stats %+v", st, n, kinds, stats)
			}
			_, perms := SearchSpace(n)
			if st == Generate && (kinds[EventSolution]+kinds[EventFail] != stats.Candidates || stats.Candidates != perms.Uint64()) {
				t.Errorf("generate n=%d: %d candidates, %d tests, want %v", n, stats.Candidates, kinds[EventSolution]+kinds[EventFail], perms)
			}
		}
	}
}

// TestTextbookNodes pins the work of each strategy on n = 8, the numbers
// the docs quote: what pruning saves.
func TestTextbookNodes(t *testing.T) {
	for _, tc := range []struct {
		st                Strategy
		nodes, candidates uint64
	}{{Lex, 2056, 0}, {Iterative, 2056, 0}, {Cells, 118968, 0}, {Generate, 109600, 40320}} {
		stats, err := Search(context.Background(), 8, Options{Strategy: tc.st}, func(board.Solution) bool { return true })
		if err != nil || stats.Nodes != tc.nodes || stats.Candidates != tc.candidates || stats.Solutions != 92 {
			t.Errorf("%v: %+v, %v; want %d nodes, %d candidates", tc.st, stats, err, tc.nodes, tc.candidates)
		}
	}
	placements, perms := SearchSpace(8)
	if placements.String() != "4426165368" || perms.String() != "40320" {
		t.Errorf("SearchSpace(8) = %v, %v", placements, perms)
	}
}

// TestTextbookLimits checks that Cells and Generate refuse boards beyond
// their limits, and that a cancelled context stops them.
func TestTextbookLimits(t *testing.T) {
	for _, st := range []Strategy{Cells, Generate} {
		for _, order := range []Order{Rows, Columns} {
			_, err := Search(context.Background(), st.MaxN()+1, Options{Strategy: st, Order: order}, func(board.Solution) bool { return true })
			if !errors.Is(err, board.ErrSize) {
				t.Errorf("%v n=%d: %v, want ErrSize", st, st.MaxN()+1, err)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		seen := 0
		_, err := Search(ctx, st.MaxN(), Options{Strategy: st}, func(board.Solution) bool {
			seen++
			cancel()
			return true
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%v: cancelled search returned %v after %d solutions", st, err, seen)
		}
	}
	for _, name := range []string{"iterative", "cells", "generate"} {
		if s, err := ParseStrategy(name); err != nil || s.String() != name {
			t.Errorf("ParseStrategy(%q) = %v, %v", name, s, err)
		}
	}
}

// TestUniquePlace checks Unique with pre-placed queens: the classes of
// the completions under the symmetries that keep the placed queens in
// place, as many as Burnside's lemma counts from the brute force's
// completions (the mean number each of those symmetries fixes), in every
// order and strategy.
func TestUniquePlace(t *testing.T) {
	for _, tc := range []struct {
		n     int
		place []board.Queen
	}{
		{8, []board.Queen{{Row: 0, Col: 0}}},
		{8, []board.Queen{{Row: 0, Col: 3}}},
		{7, []board.Queen{{Row: 3, Col: 3}}},
		{6, []board.Queen{{Row: 0, Col: 1}, {Row: 5, Col: 4}}},
		{9, []board.Queen{{Row: 4, Col: 4}}},
	} {
		for _, rot := range []bool{false, true} {
			group := board.Stabilizer(tc.n, tc.place, rot)
			fixed := 0
			for _, s := range testutil.Solutions(tc.n, tc.place) {
				for _, g := range group {
					if g.Apply(s).Equal(s) {
						fixed++
					}
				}
			}
			want := fixed / len(group)
			for _, st := range []Strategy{Lex, Heuristic, Cells} {
				for _, order := range []Order{Rows, Columns} {
					sols, _ := collect(t, tc.n, Options{Strategy: st, Order: order, Place: tc.place, Unique: true, Rotations: rot})
					if len(sols) != want {
						t.Errorf("n=%d %v rotations=%v %v %v: %d classes, Burnside %d (group %v)", tc.n, tc.place, rot, st, order, len(sols), want, group)
					}
				}
			}
		}
	}
}
