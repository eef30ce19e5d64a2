package backtrack

import (
	"fmt"

	"github.com/queens-dev/queens/board"
)

// EventKind says what the search did at one step.
type EventKind uint8

// The steps of a search, in the order they occur for one square: the
// search tries (Row, Col); if a queen already on the board attacks it, it
// rejects it; otherwise it places a queen there and goes on with the next
// row, and when that subtree is exhausted it backtracks, taking the queen
// away again. When every row holds a queen it reports a solution.
const (
	EventTry       EventKind = iota // the search considers (Row, Col)
	EventReject                     // (Row, Col) is attacked by Attacker; nothing changes
	EventPlace                      // a queen now stands on (Row, Col)
	EventBacktrack                  // the queen on (Row, Col) is taken away
	EventSolution                   // Queens is a complete solution; Row and Col are -1
	// EventFail is the test of [Generate] failing: Queens is a complete
	// placement, one queen per row and column, and the queen on (Row,
	// Col) shares a diagonal with Attacker (the first such pair, top to
	// bottom).
	EventFail
)

var eventNames = [...]string{"try", "reject", "place", "backtrack", "solution", "fail"}

// String returns the lowercase name of the event kind, e.g. "place".
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", k)
}

// Event is one step of a search, given to [Options.Observe].
//
// Row and Col (0-based) are the square concerned; both are -1 for
// EventSolution. In column order ([Columns]) they are still the square's
// row and column: the search fills columns, and its events say where. Attacker is set for EventReject only: the queen that
// attacks (Row, Col), looked up in the order column, diagonal,
// anti-diagonal.
//
// Queens is the placement at the time of the event, -1 for a row without a
// queen: for EventTry and EventReject the square is still empty, for
// EventPlace the new queen is on it, and for EventBacktrack it has already
// been taken away. Pre-placed queens are in Queens from the first event on;
// they are never tried, placed or taken away. Queens is the search's own
// slice, valid only during the call: clone it to keep it.
//
// The number of EventPlace events equals [Stats.Nodes], the number of
// EventBacktrack events equals [Stats.Backtracks], and the number of
// EventSolution events equals [Stats.Solutions]. [Generate] places queens
// without trying the squares (no EventTry or EventReject), so that its
// Queens may attack each other along a diagonal until the test; it emits
// an EventSolution or an EventFail for each of its [Stats.Candidates].
//
// Stack is the search's stack at the event, outermost first: for [Lex],
// [Cells] and [Generate], which recurse, the calls still running, each
// with its line and the square it is on (Lex and Generate: the row it
// fills and the column it tries or holds a queen on; Cells: the cell of
// its level's queen or try); for [Iterative] its explicit stack, levels 0
// to k, each with its row and the next column it will try (Col may be n:
// the level is done). In column order both are told on the board itself:
// a frame fills a column, and Row is the row it tries (Iterative: the
// next row). [Heuristic] keeps none (nil). Stack is the search's own
// slice, valid only during the call.
type Event struct {
	Kind     EventKind
	Row, Col int
	Attacker board.Queen
	Queens   board.Solution
	Stack    []board.Queen
}

// String describes the event with 1-based coordinates, as users write
// them: "try 2:3", "reject 2:3 (attacked by 1:2)", "solution 2 4 1 3".
func (e Event) String() string {
	switch e.Kind {
	case EventReject:
		return fmt.Sprintf("reject %s (attacked by %s)", board.Queen{Row: e.Row, Col: e.Col}, e.Attacker)
	case EventSolution:
		b, _ := board.Append([]byte("solution "), e.Queens, board.FormatPerm)
		return string(b[:len(b)-1])
	case EventFail:
		return fmt.Sprintf("fail %s (diagonal with %s)", board.Queen{Row: e.Row, Col: e.Col}, e.Attacker)
	}
	return fmt.Sprintf("%s %s", e.Kind, board.Queen{Row: e.Row, Col: e.Col})
}
