package backtrack

import (
	"context"
	"fmt"
	"testing"

	"github.com/queens-dev/queens/board"
)

// TestEvents replays the events on a board of its own and checks them
// against the search: every Place lands on a safe empty square, every
// Reject names a queen that is really there and attacks, Backtrack removes
// a queen that is there, Queens always mirrors the replayed board, and the
// counts of Place, Backtrack and Solution equal the statistics.
func TestEvents(t *testing.T) {
	cases := []struct {
		n     int
		opt   Options
		limit int
	}{
		{4, Options{Strategy: Lex}, 0},
		{6, Options{Strategy: Lex}, 0},
		{8, Options{Strategy: Lex}, 1},
		{8, Options{Strategy: Heuristic}, 0},
		{8, Options{Strategy: Lex, Place: []board.Queen{{Row: 2, Col: 3}}}, 0},
		{9, Options{Strategy: Heuristic, Place: []board.Queen{{Row: 4, Col: 4}, {Row: 0, Col: 2}}}, 3},
		{40, Options{Strategy: Heuristic}, 1},
		{6, Options{Strategy: Lex, Order: Columns}, 0},
		{8, Options{Strategy: Lex, Order: Columns, Place: []board.Queen{{Row: 2, Col: 3}}}, 0},
		{9, Options{Strategy: Heuristic, Order: Columns, Place: []board.Queen{{Row: 4, Col: 4}, {Row: 0, Col: 2}}}, 3},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("n=%d/%v/%v/place=%v/limit=%d", tc.n, tc.opt.Strategy, tc.opt.Order, tc.opt.Place, tc.limit), func(t *testing.T) {
			n := tc.n
			replay := make(board.Solution, n)
			for i := range replay {
				replay[i] = -1
			}
			for _, p := range tc.opt.Place {
				replay[p.Row] = p.Col
			}
			var counts [5]uint64
			var last Event
			opt := tc.opt
			opt.Observe = func(e Event) {
				counts[e.Kind]++
				switch e.Kind {
				case EventTry:
					if tc.opt.Order == Columns {
						for r, c := range replay {
							if c == e.Col {
								t.Fatalf("%v: column not empty: queen at %d:%d", e, r+1, c+1)
							}
						}
					} else if replay[e.Row] != -1 {
						t.Fatalf("%v: row not empty in %v", e, replay)
					}
				case EventReject:
					if last.Kind != EventTry || last.Row != e.Row || last.Col != e.Col {
						t.Fatalf("%v not right after its try (%v)", e, last)
					}
					a := e.Attacker
					if replay[a.Row] != a.Col || !attacks(a, board.Queen{Row: e.Row, Col: e.Col}) {
						t.Fatalf("%v: attacker not on %v or not attacking", e, replay)
					}
				case EventPlace:
					if last.Kind != EventTry || last.Row != e.Row || last.Col != e.Col {
						t.Fatalf("%v not right after its try (%v)", e, last)
					}
					for r, c := range replay {
						if c >= 0 && attacks(board.Queen{Row: r, Col: c}, board.Queen{Row: e.Row, Col: e.Col}) {
							t.Fatalf("%v: attacked by %d:%d", e, r+1, c+1)
						}
					}
					replay[e.Row] = e.Col
				case EventBacktrack:
					if replay[e.Row] != e.Col {
						t.Fatalf("%v: no such queen on %v", e, replay)
					}
					replay[e.Row] = -1
				case EventSolution:
					if e.Queens.Check() != nil {
						t.Fatalf("%v: not a solution", e)
					}
				}
				if !e.Queens.Equal(replay) {
					t.Fatalf("%v: Queens = %v, replayed %v", e, e.Queens, replay)
				}
				last = e
			}
			found := 0
			stats, err := Search(context.Background(), n, opt, func(board.Solution) bool {
				found++
				return tc.limit == 0 || found < tc.limit
			})
			if err != nil {
				t.Fatal(err)
			}
			if counts[EventPlace] != stats.Nodes || counts[EventBacktrack] != stats.Backtracks || counts[EventSolution] != stats.Solutions {
				t.Errorf("events place/backtrack/solution = %d/%d/%d, stats %+v", counts[EventPlace], counts[EventBacktrack], counts[EventSolution], stats)
			}
			if counts[EventTry] != counts[EventPlace]+counts[EventReject] {
				t.Errorf("%d tries != %d places + %d rejects", counts[EventTry], counts[EventPlace], counts[EventReject])
			}
			if stats.Nodes == 0 && n > 1 {
				t.Errorf("no nodes")
			}
		})
	}
}

func attacks(p, q board.Queen) bool {
	dr, dc := p.Row-q.Row, p.Col-q.Col
	return p != q && (dr == 0 || dc == 0 || dr == dc || dr == -dc)
}

func TestEventString(t *testing.T) {
	tests := []struct {
		e    Event
		want string
	}{
		{Event{Kind: EventTry, Row: 1, Col: 2}, "try 2:3"},
		{Event{Kind: EventReject, Row: 1, Col: 2, Attacker: board.Queen{Row: 0, Col: 1}}, "reject 2:3 (attacked by 1:2)"},
		{Event{Kind: EventPlace, Row: 0, Col: 0}, "place 1:1"},
		{Event{Kind: EventBacktrack, Row: 3, Col: 0}, "backtrack 4:1"},
		{Event{Kind: EventSolution, Row: -1, Col: -1, Queens: board.Solution{1, 3, 0, 2}}, "solution 2 4 1 3"},
	}
	for _, tt := range tests {
		if got := tt.e.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.e, got, tt.want)
		}
	}
	if got := EventKind(9).String(); got != "EventKind(9)" {
		t.Errorf("EventKind(9).String() = %q", got)
	}
}
