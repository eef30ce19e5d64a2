package backtrack

import (
	"encoding/json"
	"errors"
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
	StepFail                      // Generate: a complete placement fails the test
	numStepKinds
)

// NumStepKinds is the number of step kinds, for arrays indexed by [StepKind].
const NumStepKinds = int(numStepKinds)

var stepKindNames = [...]string{"place", "reject", "dead-end", "backtrack", "solution", "fail"}

// String returns the kind's name in JSON traces: place, reject, dead-end,
// backtrack, solution or fail.
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
	Row, Col int            // 0-based square; dead end: the line only (Row, or Col in column order; the other -1)
	Attacker board.Queen    // StepReject and StepFail: the queen that attacks the square
	Line     string         // StepReject and StepFail: "row", "column", "diagonal" or "anti-diagonal"
	Queens   board.Solution // the placement after the step, -1 for an empty row
	Solution int            // StepSolution: its number, from 1
	Order    Order          // the lines the search fills (rows or columns)
	Strategy Strategy       // the search's strategy, as Narrator.Strategy says

	// After is, for StepBacktrack, what made the search step back:
	// StepDeadEnd (the next line had no free square), StepSolution, or
	// StepBacktrack when the queen taken away just before, at Prev, had
	// no free square left further along its line.
	After StepKind
	Prev  board.Queen
	// Asked is, for StepDeadEnd, the queen the search takes away next
	// (the last one it placed); Row -1 when there is none and the search
	// ends.
	Asked board.Queen
	// Over is set on the StepBacktrack that ends a search by lines (every
	// strategy but Cells and Generate): it took away the only queen the
	// search had placed, from the last square of its line, so no queen is
	// left to advance. Found is then the number of solutions found.
	Over  bool
	Found int
	// Stack is the search's stack at the step ([Event.Stack]); at a dead
	// end, the stack of its last try. [Step.StackText] tells it.
	Stack []board.Queen
}

// cloneStack copies a stack of the search, nil for none.
func cloneStack(s []board.Queen) []board.Queen {
	if s == nil {
		return nil
	}
	return append(make([]board.Queen, 0, len(s)), s...)
}

// StackText tells the step's stack in one line, 1-based like the squares
// of [Step.Text]: the calls of a recursive search, outermost first, each
// with its line and the square it is on, the last the one that runs,
//
//	calls: row 1 at 1:2 > row 2 at 2:4 > row 3 at 3:1
//
// ([Cells]: "queen 2 at 1:4", its levels), or the explicit stack of
// [Iterative], each level with its line and the next square it will try
// ("done" past the last), the last the top:
//
//	stack: row 1 next 1:3 | row 2 next 2:5 | row 3 next 3:1
//
// It is "" when the search keeps no stack (Heuristic, or before the
// first call).
func (st Step) StackText() string {
	if len(st.Stack) == 0 {
		return ""
	}
	word, _ := st.Order.lineWord()
	n := len(st.Queens)
	var b []byte
	for i, f := range st.Stack {
		switch {
		case st.Strategy == Iterative:
			if i > 0 {
				b = append(b, " | "...)
			}
			sq := f.String()
			if st.Order == Columns && f.Row >= n || st.Order != Columns && f.Col >= n {
				sq = "done"
			}
			b = fmt.Appendf(b, "%s %d next %s", word, st.Order.Line(f.Row, f.Col)+1, sq)
		case st.Strategy.cellsLike():
			if i > 0 {
				b = append(b, " > "...)
			}
			b = fmt.Appendf(b, "queen %d at %s", i+1, f)
		default:
			if i > 0 {
				b = append(b, " > "...)
			}
			b = fmt.Appendf(b, "%s %d at %s", word, st.Order.Line(f.Row, f.Col)+1, f)
		}
	}
	if st.Strategy == Iterative {
		return "stack: " + string(b)
	}
	return "calls: " + string(b)
}

// Narrator turns the backtracker's events into the steps of a trace: a
// try and its outcome make one step, and a line whose every square was
// rejected is reported as a dead end before the search steps back. Set
// Order to the order of the search (the zero value: rows) and Strategy to
// its strategy ([Cells] and [Generate] are told in their own words; the
// zero value tells the others).
type Narrator struct {
	Order      Order
	Strategy   Strategy
	tried      bool // a square was tried since the last place or backtrack
	tryLine    int
	afterPlace bool // the last place/backtrack/solution was a place
	placed     bool // some queen was placed at all
	solutions  int
	last       StepKind      // the last place, dead end, backtrack or solution
	lastBack   board.Queen   // the square of the last backtrack
	depth      int           // queens the search has on the board
	tryStack   []board.Queen // the stack at the last try, for a dead end
}

// Event returns the steps e completes (none for a try, whose outcome comes
// next). It copies e.Queens and e.Stack, which the search reuses.
func (nr *Narrator) Event(e Event) []Step {
	step := Step{Row: e.Row, Col: e.Col, Order: nr.Order, Strategy: nr.Strategy, Stack: cloneStack(e.Stack)}
	switch e.Kind {
	case EventTry:
		nr.tried, nr.tryLine = true, nr.Order.Line(e.Row, e.Col)
		nr.tryStack = step.Stack
		return nil
	case EventReject:
		step.Kind, step.Attacker, step.Line = StepReject, e.Attacker, attackLine(e.Attacker, e.Row, e.Col)
	case EventPlace:
		step.Kind = StepPlace
		nr.afterPlace, nr.placed, nr.tried = true, true, false
		nr.last = StepPlace
		nr.depth++
	case EventBacktrack:
		step.Kind = StepBacktrack
		// The dead end came before the queen was taken away.
		before := e.Queens.Clone()
		before[e.Row] = e.Col
		steps := nr.deadEnd(before, board.Queen{Row: e.Row, Col: e.Col})
		if len(steps) > 0 {
			nr.last = StepDeadEnd
		}
		step.After, step.Prev = nr.last, board.Queen{Row: -1, Col: -1}
		if nr.last == StepBacktrack {
			step.Prev = nr.lastBack
		}
		nr.afterPlace, nr.tried = false, false
		nr.last, nr.lastBack = StepBacktrack, board.Queen{Row: e.Row, Col: e.Col}
		nr.depth--
		if nr.depth == 0 && !nr.Strategy.cellsLike() && nr.Strategy != Generate &&
			nr.Order.Line(e.Col, e.Row) == len(e.Queens)-1 {
			step.Over, step.Found = true, nr.solutions
		}
		step.Queens = e.Queens.Clone()
		return append(steps, step)
	case EventSolution:
		nr.solutions++
		step.Kind, step.Solution = StepSolution, nr.solutions
		nr.afterPlace, nr.tried = false, false
		nr.last = StepSolution
	case EventFail:
		step.Kind, step.Attacker, step.Line = StepFail, e.Attacker, attackLine(e.Attacker, e.Row, e.Col)
		nr.afterPlace, nr.tried = false, false
		nr.last = StepFail
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
	steps := nr.deadEnd(nil, board.Queen{Row: -1, Col: -1})
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
func (nr *Narrator) deadEnd(queens board.Solution, asked board.Queen) []Step {
	if !nr.tried || (!nr.afterPlace && nr.placed) {
		return nil
	}
	st := Step{Kind: StepDeadEnd, Row: nr.tryLine, Col: -1, Queens: queens, Order: nr.Order, Strategy: nr.Strategy, Asked: asked, Stack: nr.tryStack}
	switch {
	case nr.Strategy.cellsLike(): // no line: the cells after Asked, see DeadSquares
		st.Row = -1
	case nr.Order == Columns:
		st.Row, st.Col = -1, nr.tryLine
	}
	return []Step{st}
}

// DeadSquares returns the squares a dead end speaks of, in reading
// order: the squares of its line (a row, or a column in column order),
// or for [Cells] every cell after the queen it asks to move (Asked; every
// cell of the board when there is none) that holds no queen, "after" in
// the order Cells scans them: reading order, or down the columns in
// column order. Other steps have none.
func (st Step) DeadSquares() []board.Queen {
	if st.Kind != StepDeadEnd {
		return nil
	}
	n := len(st.Queens)
	var out []board.Queen
	for row := range n {
		for col := range n {
			var on bool
			switch {
			case st.Strategy == Scan:
				on = st.Queens[row] != col
			case st.Strategy == Cells:
				on = (st.Asked.Row < 0 || st.Order.cell(n, row, col) > st.Order.cell(n, st.Asked.Row, st.Asked.Col)) && st.Queens[row] != col
			case st.Order == Columns:
				on = col == st.Col
			default:
				on = row == st.Row
			}
			if on {
				out = append(out, board.Queen{Row: row, Col: col})
			}
		}
	}
	return out
}

// cell returns the index of the square (row, col) of the n×n board in the
// order [Cells] scans: row by row, or column by column in column order.
func (o Order) cell(n, row, col int) int {
	if o == Columns {
		return col*n + row
	}
	return row*n + col
}

// cellsLike reports whether the strategy searches cells, not lines.
func (s Strategy) cellsLike() bool { return s == Cells || s == Scan }

// AgentsTell returns nil if [Step.AgentText] can tell the steps of the
// strategy, and otherwise an error that says why not: the agents live on
// lines and move to safe squares, so they cannot tell [Cells], which has
// no lines, nor [Generate], which places queens without looking.
func AgentsTell(s Strategy) error {
	switch s {
	case Cells, Scan:
		return errors.New("the agents live on lines (queen K on line K), and the any-free-cell search (cells) has none: tell it as steps")
	case Generate:
		return errors.New("the agents move only to safe squares and ask a neighbour when they find none, while generate-and-test places every queen without looking at the board and tests only complete placements: tell it as steps")
	}
	return nil
}

// attackLine names the line along which the queen a attacks (row, col).
func attackLine(a board.Queen, row, col int) string {
	switch {
	case a.Row == row:
		return "row"
	case a.Col == col:
		return "column"
	case a.Row-row == a.Col-col:
		return "diagonal"
	}
	return "anti-diagonal"
}

// lineWord names the lines of the order ("row" or "column") and the
// squares along one ("column" or "row").
func (o Order) lineWord() (line, along string) {
	if o == Columns {
		return "column", "row"
	}
	return "row", "column"
}

// line returns the 0-based line of the step's square (the row, or the
// column in column order).
func (st Step) line() int {
	if st.Order == Columns {
		return st.Col
	}
	return st.Row
}

// Text describes the step in one line, squares 1-based as ROW:COL like
// --place in either order:
//
//	try 2:3  place
//	try 3:2  rejected: attacked by the queen at 2:3 along the anti-diagonal
//	dead end at row 3: every square is attacked
//	backtrack to row 2: take away the queen at 2:3
//	solution #1: 1:2 2:4 3:1 4:3
//
// In column order a dead end and a backtrack name the column. [Cells]
// tries cells in reading order and meets a dead end when every cell
// after its last queen is attacked ("dead end: every cell after 2:3 is
// attacked"); [Generate] places without trying ("place 2:3 (not tested
// yet)") and tests each complete placement ("test 1:1 2:3 3:2 4:4
// fails: 4:4 is on the diagonal of 1:1").
func (st Step) Text() string {
	sq := board.Queen{Row: st.Row, Col: st.Col}
	word, _ := st.Order.lineWord()
	switch st.Kind {
	case StepPlace:
		if st.Strategy == Generate {
			return fmt.Sprintf("place %s (not tested yet)", sq)
		}
		return fmt.Sprintf("try %s  place", sq)
	case StepReject:
		return fmt.Sprintf("try %s  rejected: attacked by the queen at %s along the %s", sq, st.Attacker, st.Line)
	case StepFail:
		b, _ := board.Append(nil, st.Queens, board.FormatCoords)
		return fmt.Sprintf("test %s fails: %s is on the %s of %s", b[:len(b)-1], sq, st.Line, st.Attacker)
	case StepDeadEnd:
		if st.Strategy.cellsLike() {
			if st.Asked.Row < 0 || st.Strategy == Scan {
				return "dead end: every cell is attacked"
			}
			if st.Order == Columns {
				return fmt.Sprintf("dead end: every cell after %s down the columns is attacked", st.Asked)
			}
			return fmt.Sprintf("dead end: every cell after %s is attacked", st.Asked)
		}
		return fmt.Sprintf("dead end at %s %d: every square is attacked", word, st.line()+1)
	case StepBacktrack:
		return fmt.Sprintf("backtrack to %s %d: take away the queen at %s", word, st.line()+1, sq)
	}
	return st.solutionText()
}

func (st Step) solutionText() string {
	b, _ := board.Append(nil, st.Queens, board.FormatCoords)
	return fmt.Sprintf("solution #%d: %s", st.Solution, b[:len(b)-1])
}

// AgentText tells the step the way the object-oriented formulation of the
// puzzle does: queen k is an agent that lives on line k (column k in
// column order, row k otherwise, 1-based), moves along it, and when it
// finds no safe square asks its neighbour on the line before to advance.
// In column order:
//
//	queen 2 tries row 1: attacked by queen 1 along the row
//	queen 2 moves to row 3: safe
//	queen 3 finds no safe row and asks queen 2 to advance
//	queen 2 leaves row 3 to advance
//	queen 3 is at the last row and asks queen 2 to advance; queen 2 leaves row 4
//	every queen is safe: solution #1, queens 1 to 4 on rows 2 4 1 3
//
// The same search, the same steps as [Step.Text], in other words. The
// agents cannot tell the steps of [Cells] and [Generate] (see
// [AgentsTell]): for those AgentText returns Text.
func (st Step) AgentText() string {
	if AgentsTell(st.Strategy) != nil {
		return st.Text()
	}
	_, along := st.Order.lineWord()
	pos := func(q board.Queen) int { // the position of a queen along its line
		if st.Order == Columns {
			return q.Row + 1
		}
		return q.Col + 1
	}
	agent := func(q board.Queen) int { return st.Order.Line(q.Row, q.Col) + 1 }
	sq := board.Queen{Row: st.Row, Col: st.Col}
	n := len(st.Queens)
	switch st.Kind {
	case StepPlace:
		return fmt.Sprintf("queen %d moves to %s %d: safe", agent(sq), along, pos(sq))
	case StepReject:
		return fmt.Sprintf("queen %d tries %s %d: attacked by queen %d along the %s", agent(sq), along, pos(sq), agent(st.Attacker), st.Line)
	case StepDeadEnd:
		if st.Asked.Row < 0 {
			return fmt.Sprintf("queen %d finds no safe %s, and there is no queen to ask: the search is over", st.line()+1, along)
		}
		return fmt.Sprintf("queen %d finds no safe %s and asks queen %d to advance", st.line()+1, along, agent(st.Asked))
	case StepFail:
		return fmt.Sprintf("queen %d is attacked by queen %d along the %s: the placement fails the test", agent(sq), agent(st.Attacker), st.Line)
	case StepBacktrack:
		return st.agentBacktrack(along, agent, pos)
	}
	var at []byte
	for line := range n {
		for row, col := range st.Queens {
			if st.Order.Line(row, col) == line && col >= 0 {
				at = fmt.Appendf(at, " %d", pos(board.Queen{Row: row, Col: col}))
			}
		}
	}
	return fmt.Sprintf("every queen is safe: solution #%d, queens 1 to %d on %ss%s", st.Solution, n, along, at)
}

// agentBacktrack is AgentText of a StepBacktrack. A queen that leaves the
// last square of its line cannot advance, and says so before the next
// step has it ask its neighbour; the queen the search ends with has none.
func (st Step) agentBacktrack(along string, agent, pos func(board.Queen) int) string {
	sq := board.Queen{Row: st.Row, Col: st.Col}
	k, p, n := agent(sq), pos(sq), len(st.Queens)
	var text string
	switch st.After {
	case StepBacktrack:
		why := fmt.Sprintf("finds no safe %s after %s %d", along, along, pos(st.Prev))
		if pos(st.Prev) == n {
			why = "is at the last " + along
		}
		text = fmt.Sprintf("queen %d %s and asks queen %d to advance; queen %d leaves %s %d", agent(st.Prev), why, k, k, along, p)
	case StepSolution:
		text = fmt.Sprintf("queen %d leaves %s %d to look for the next solution", k, along, p)
	default:
		text = fmt.Sprintf("queen %d leaves %s %d", k, along, p)
		if p < n && !st.Over {
			text += " to advance"
		}
	}
	if p == n && st.After != StepSolution {
		text += ", the last " + along
	}
	if st.Over {
		found := "there is no solution"
		if st.Found > 0 {
			found = "it found " + pluralWord(st.Found, "solution")
		}
		text += fmt.Sprintf(": queen %d has no neighbour before it to ask, so the search is over: %s", k, found)
	}
	return text
}

// pluralWord returns "1 word" or "k words".
func pluralWord(k int, word string) string {
	if k == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", k, word)
}

// AppendJSON appends the step as one JSON object and a newline, 0-based,
// numbered number:
//
//	{"step":3,"event":"reject","row":1,"col":0,"attacker":{"row":0,"col":0},"line":"column","queens":[0,-1,-1,-1]}
//
// A dead end names its line only: "row", or "col" in column order; a
// dead end of [Cells] names the queen it asks to move ("after", left out
// when there is none) and the cells after it, all attacked ("squares",
// [row, col] pairs):
//
//	{"step":40,"event":"dead-end","after":{"row":2,"col":3},"squares":[[3,0],[3,1],[3,2],[3,3]],"queens":[1,3,-1,-1]}
//
// A step with a Stack ends with it ("stack", [row, col] pairs as
// [Event.Stack] has them).
func (st Step) AppendJSON(b []byte, number int) []byte {
	type queen struct {
		Row int `json:"row"`
		Col int `json:"col"`
	}
	v := struct {
		Step     int      `json:"step"`
		Event    string   `json:"event"`
		Solution int      `json:"solution,omitempty"`
		Row      *int     `json:"row,omitempty"`
		Col      *int     `json:"col,omitempty"`
		Attacker *queen   `json:"attacker,omitempty"`
		Line     string   `json:"line,omitempty"`
		After    *queen   `json:"after,omitempty"`
		Squares  [][2]int `json:"squares,omitempty"`
		Queens   []int    `json:"queens"`
		Stack    [][2]int `json:"stack,omitempty"`
	}{Step: number, Event: st.Kind.String(), Queens: st.Queens}
	for _, f := range st.Stack {
		v.Stack = append(v.Stack, [2]int{f.Row, f.Col})
	}
	switch st.Kind {
	case StepSolution:
		v.Solution = st.Solution
	case StepDeadEnd:
		if st.Strategy.cellsLike() {
			if st.Asked.Row >= 0 && st.Strategy == Cells {
				v.After = &queen{st.Asked.Row, st.Asked.Col}
			}
			v.Squares = [][2]int{}
			for _, q := range st.DeadSquares() {
				v.Squares = append(v.Squares, [2]int{q.Row, q.Col})
			}
		} else if st.Order == Columns {
			v.Col = &st.Col
		} else {
			v.Row = &st.Row
		}
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

// Caption tells the step in a few words, for the caption of a picture,
// numbered number ("12 place 2:3", "9 dead end row 3", "33 solution #1"),
// and with agents in the words of [Step.AgentText] ("12 queen 2 moves to
// row 3", "9 queen 3 asks queen 2 to advance"; not for [Cells] and
// [Generate], see [AgentsTell]).
func (st Step) Caption(number int, agents bool) string {
	sq := board.Queen{Row: st.Row, Col: st.Col}
	line, along := st.Order.lineWord()
	lineNo, pos := st.line()+1, st.Col+1
	if st.Order == Columns {
		pos = st.Row + 1
	}
	if agents && AgentsTell(st.Strategy) == nil {
		agent := st.Order.Line(st.Row, st.Col) + 1
		switch st.Kind {
		case StepPlace:
			return fmt.Sprintf("%d queen %d moves to %s %d", number, agent, along, pos)
		case StepReject:
			return fmt.Sprintf("%d queen %d: %s %d attacked", number, agent, along, pos)
		case StepDeadEnd:
			if st.Asked.Row < 0 {
				return fmt.Sprintf("%d queen %d: no safe %s, no one to ask", number, lineNo, along)
			}
			return fmt.Sprintf("%d queen %d asks queen %d to advance", number, lineNo, st.Order.Line(st.Asked.Row, st.Asked.Col)+1)
		case StepBacktrack:
			return fmt.Sprintf("%d queen %d leaves %s %d", number, agent, along, pos)
		}
		return fmt.Sprintf("%d every queen safe: solution #%d", number, st.Solution)
	}
	switch st.Kind {
	case StepPlace:
		if st.Strategy == Generate {
			return fmt.Sprintf("%d place %s untested", number, sq)
		}
		return fmt.Sprintf("%d place %s", number, sq)
	case StepReject:
		return fmt.Sprintf("%d reject %s", number, sq)
	case StepDeadEnd:
		if st.Strategy.cellsLike() {
			if st.Asked.Row < 0 || st.Strategy == Scan {
				return fmt.Sprintf("%d dead end: no free cell", number)
			}
			return fmt.Sprintf("%d dead end after %s", number, st.Asked)
		}
		return fmt.Sprintf("%d dead end %s %d", number, line, lineNo)
	case StepBacktrack:
		return fmt.Sprintf("%d backtrack %s", number, sq)
	case StepFail:
		return fmt.Sprintf("%d test fails %s", number, sq)
	}
	return fmt.Sprintf("%d solution #%d", number, st.Solution)
}
