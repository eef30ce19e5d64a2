package backtrack

import (
	"encoding/json"
	"fmt"

	"github.com/queens-dev/queens/board"
)

// StepKind is what one step of a trace says.
type StepKind uint8

// The kinds of [Step], in the words of the trace.
const (
	StepPlace     StepKind = iota // a square was tried and is free: a queen goes there
	StepReject                    // a square was tried and a queen attacks it
	StepDeadEnd                   // every square of a row was rejected
	StepBacktrack                 // a queen is taken away; its row goes on
	StepSolution                  // every row has a queen
	numStepKinds
)

// NumStepKinds is the number of step kinds, for arrays indexed by [StepKind].
const NumStepKinds = int(numStepKinds)

var stepKindNames = [...]string{"place", "reject", "dead-end", "backtrack", "solution"}

// String returns the kind's name in JSON traces: place, reject, dead-end,
// backtrack or solution.
func (k StepKind) String() string {
	if int(k) < len(stepKindNames) {
		return stepKindNames[k]
	}
	return fmt.Sprintf("StepKind(%d)", k)
}

// Step is one step of a trace, as [Narrator] tells the search: what
// happened on which square, and the placement after it.
type Step struct {
	Kind     StepKind
	Row, Col int            // 0-based square; dead end: Row only (Col -1)
	Attacker board.Queen    // StepReject: the queen that attacks the square
	Line     string         // StepReject: "column", "diagonal" or "anti-diagonal"
	Queens   board.Solution // the placement after the step, -1 for an empty row
	Solution int            // StepSolution: its number, from 1
}

// Narrator turns the backtracker's events into the steps of a trace: a
// try and its outcome make one step, and a row whose every square was
// rejected is reported as a dead end before the search steps back.
type Narrator struct {
	tried      bool // a square was tried since the last place or backtrack
	tryRow     int
	afterPlace bool // the last place/backtrack/solution was a place
	placed     bool // some queen was placed at all
	solutions  int
}

// Event returns the steps e completes (none for a try, whose outcome comes
// next). It copies e.Queens, which the search reuses.
func (nr *Narrator) Event(e Event) []Step {
	step := Step{Row: e.Row, Col: e.Col}
	switch e.Kind {
	case EventTry:
		nr.tried, nr.tryRow = true, e.Row
		return nil
	case EventReject:
		step.Kind, step.Attacker, step.Line = StepReject, e.Attacker, attackLine(e.Attacker, e.Row, e.Col)
	case EventPlace:
		step.Kind = StepPlace
		nr.afterPlace, nr.placed, nr.tried = true, true, false
	case EventBacktrack:
		step.Kind = StepBacktrack
		// The dead end came before the queen was taken away.
		before := e.Queens.Clone()
		before[e.Row] = e.Col
		steps := nr.deadEnd(before)
		nr.afterPlace, nr.tried = false, false
		step.Queens = e.Queens.Clone()
		return append(steps, step)
	case EventSolution:
		nr.solutions++
		step.Kind, step.Solution = StepSolution, nr.solutions
		nr.afterPlace, nr.tried = false, false
	default:
		return nil
	}
	step.Queens = e.Queens.Clone()
	return []Step{step}
}

// End returns the steps that end a search of the n×n board with the
// pre-placed queens placed: the dead end of a search that rejected every
// square of its first row and so never placed a queen (nothing otherwise).
// Call it once the search has returned.
func (nr *Narrator) End(n int, placed []board.Queen) []Step {
	steps := nr.deadEnd(nil)
	for i := range steps {
		q := make(board.Solution, n)
		for row := range q {
			q[row] = -1
		}
		for _, p := range placed {
			q[p.Row] = p.Col
		}
		steps[i].Queens = q
	}
	return steps
}

// deadEnd returns the dead-end step, showing queens (which it keeps), if
// the squares tried since the last place (or since the start, when
// nothing was ever placed) were all rejected.
func (nr *Narrator) deadEnd(queens board.Solution) []Step {
	if !nr.tried || (!nr.afterPlace && nr.placed) {
		return nil
	}
	return []Step{{Kind: StepDeadEnd, Row: nr.tryRow, Col: -1, Queens: queens}}
}

// attackLine names the line along which the queen a attacks (row, col).
func attackLine(a board.Queen, row, col int) string {
	switch {
	case a.Col == col:
		return "column"
	case a.Row-row == a.Col-col:
		return "diagonal"
	}
	return "anti-diagonal"
}

// Text describes the step in one line, 1-based like --place.
func (st Step) Text() string {
	sq := board.Queen{Row: st.Row, Col: st.Col}
	switch st.Kind {
	case StepPlace:
		return fmt.Sprintf("try %s  place", sq)
	case StepReject:
		return fmt.Sprintf("try %s  rejected: attacked by the queen at %s along the %s", sq, st.Attacker, st.Line)
	case StepDeadEnd:
		return fmt.Sprintf("dead end at row %d: every square is attacked", st.Row+1)
	case StepBacktrack:
		return fmt.Sprintf("backtrack to row %d: take away the queen at %s", st.Row+1, sq)
	}
	b, _ := board.Append(nil, st.Queens, board.FormatCoords)
	return fmt.Sprintf("solution #%d: %s", st.Solution, b[:len(b)-1])
}

// AppendJSON appends the step as one JSON object and a newline, 0-based,
// numbered number:
//
//	{"step":3,"event":"reject","row":1,"col":0,"attacker":{"row":0,"col":0},"line":"column","queens":[0,-1,-1,-1]}
func (st Step) AppendJSON(b []byte, number int) []byte {
	type queen struct {
		Row int `json:"row"`
		Col int `json:"col"`
	}
	v := struct {
		Step     int    `json:"step"`
		Event    string `json:"event"`
		Solution int    `json:"solution,omitempty"`
		Row      *int   `json:"row,omitempty"`
		Col      *int   `json:"col,omitempty"`
		Attacker *queen `json:"attacker,omitempty"`
		Line     string `json:"line,omitempty"`
		Queens   []int  `json:"queens"`
	}{Step: number, Event: st.Kind.String(), Queens: st.Queens}
	switch st.Kind {
	case StepSolution:
		v.Solution = st.Solution
	case StepDeadEnd:
		v.Row = &st.Row
	default:
		v.Row, v.Col = &st.Row, &st.Col
	}
	if st.Kind == StepReject {
		v.Attacker, v.Line = &queen{st.Attacker.Row, st.Attacker.Col}, st.Line
	}
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // unreachable: ints and strings always marshal
	}
	return append(append(b, data...), '\n')
}
