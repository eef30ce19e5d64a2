package backtrack

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"

	"github.com/queens-dev/queens/internal/testutil"
)

// TestNarrationTrue reads every line a trace prints (Step.Text, and
// Step.AgentText where the agents can tell the strategy), for every
// strategy the trace takes, both orders, with and without pre-placed
// queens, and checks each claim of the words against the board itself,
// with a geometry of its own: a square called safe is attacked by no
// queen, one called attacked is attacked by the queen named along the
// line named, a dead end's squares are all attacked, a backtrack takes
// away a queen that stood there, a solution is valid, a failed test names
// two queens on one diagonal, and "the search is over" ends the trace.
// Narrations the agents cannot tell must be refused by AgentsTell, and
// fall back to Text.
func TestNarrationTrue(t *testing.T) {
	if testutil.Race {
		t.Skip("-race: one goroutine's search, 20 to 30 s under the detector; the plain run checks it whole")
	}
	places := [][]board.Queen{nil, {{Row: 1, Col: 2}}}
	for _, strategy := range []Strategy{Lex, Iterative, Cells, Generate, Scan} {
		for _, order := range []Order{Rows, Columns} {
			for _, agents := range []bool{false, true} {
				for n := 1; n <= 6 && (n <= 5 || strategy != Scan); n++ {
					for _, place := range places {
						if board.CheckPlacement(n, place) != nil {
							continue
						}
						name := fmt.Sprintf("%v/%v/agents=%v/n=%d/%v", strategy, order, agents, n, place)
						t.Run(name, func(t *testing.T) {
							checkNarration(t, n, place, strategy, order, agents)
						})
					}
				}
			}
		}
	}
}

// attackLine2 names the line along which a and b (distinct squares)
// attack each other, "" if they do not: the test's own geometry.
func attackLine2(a, b board.Queen) string {
	dr, dc := a.Row-b.Row, a.Col-b.Col
	switch {
	case dr == 0:
		return "row"
	case dc == 0:
		return "column"
	case dr == dc:
		return "diagonal"
	case dr == -dc:
		return "anti-diagonal"
	}
	return ""
}

// attackedBy returns a queen of qs (not on sq) that attacks sq, ok false
// if none does.
func attackedBy(qs board.Solution, sq board.Queen) (board.Queen, bool) {
	for row, col := range qs {
		q := board.Queen{Row: row, Col: col}
		if col >= 0 && q != sq && attackLine2(q, sq) != "" {
			return q, true
		}
	}
	return board.Queen{}, false
}

var (
	reSquare = `(\d+):(\d+)`
	reLine   = `(row|column|diagonal|anti-diagonal)`
	textRes  = map[string]*regexp.Regexp{
		"place":    regexp.MustCompile(`^try ` + reSquare + `  place$`),
		"untested": regexp.MustCompile(`^place ` + reSquare + ` \(not tested yet\)$`),
		"reject":   regexp.MustCompile(`^try ` + reSquare + `  rejected: attacked by the queen at ` + reSquare + ` along the ` + reLine + `$`),
		"fail":     regexp.MustCompile(`^test ([0-9: ]+) fails: ` + reSquare + ` is on the ` + reLine + ` of ` + reSquare + `$`),
		"cells":    regexp.MustCompile(`^dead end: every cell (after ` + reSquare + ` (down the columns )?)?is attacked$`),
		"dead":     regexp.MustCompile(`^dead end at (row|column) (\d+): every square is attacked$`),
		"back":     regexp.MustCompile(`^backtrack to (row|column) (\d+): take away the queen at ` + reSquare + `$`),
		"solution": regexp.MustCompile(`^solution #(\d+): ([0-9: ]+)$`),
	}
	agentRes = map[string]*regexp.Regexp{
		"place":    regexp.MustCompile(`^queen (\d+) moves to (row|column) (\d+): safe$`),
		"reject":   regexp.MustCompile(`^queen (\d+) tries (row|column) (\d+): attacked by queen (\d+) along the ` + reLine + `$`),
		"dead":     regexp.MustCompile(`^queen (\d+) finds no safe (row|column)( and asks queen (\d+) to advance|, and there is no queen to ask: the search is over)$`),
		"back":     regexp.MustCompile(`^(queen (\d+) (finds no safe (row|column) after (row|column) (\d+)|is at the last (row|column)) and asks queen (\d+) to advance; )?queen (\d+) leaves (row|column) (\d+)( to advance| to look for the next solution)?(, the last (row|column))?(: queen (\d+) has no neighbour before it to ask, so the search is over: (there is no solution|it found (\d+) solutions?))?$`),
		"solution": regexp.MustCompile(`^every queen is safe: solution #(\d+), queens 1 to (\d+) on (row|column)s((?: \d+)+)$`),
	}
)

func atoi(t *testing.T, s string) int {
	t.Helper()
	k, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return k
}

// sq1 reads a 1-based ROW:COL from two submatches.
func sq1(t *testing.T, r, c string) board.Queen {
	return board.Queen{Row: atoi(t, r) - 1, Col: atoi(t, c) - 1}
}

func checkNarration(t *testing.T, n int, place []board.Queen, strategy Strategy, order Order, agents bool) {
	if agents && AgentsTell(strategy) != nil {
		agents = false // refused: AgentText must be Text, checked below
	}
	nr := Narrator{Order: order, Strategy: strategy}
	var steps []Step
	_, err := Search(context.Background(), n, Options{Place: place, Strategy: strategy, Order: order, Observe: func(e Event) {
		steps = append(steps, nr.Event(e)...)
	}}, func(board.Solution) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	steps = append(steps, nr.End(n, place)...)
	prev := make(board.Solution, n)
	for i := range prev {
		prev[i] = -1
	}
	for _, p := range place {
		prev[p.Row] = p.Col
	}
	// onLine returns the square at position pos (1-based) of line k
	// (1-based) of the order.
	onLine := func(k, pos int) board.Queen {
		if order == Columns {
			return board.Queen{Row: pos - 1, Col: k - 1}
		}
		return board.Queen{Row: k - 1, Col: pos - 1}
	}
	lineWord, alongWord := "row", "column"
	if order == Columns {
		lineWord, alongWord = "column", "row"
	}
	// lineAttacked checks that every square of line k from position
	// from+1 on is attacked on qs.
	lineAttacked := func(what string, qs board.Solution, k, from int) {
		t.Helper()
		for pos := from + 1; pos <= n; pos++ {
			if _, ok := attackedBy(qs, onLine(k, pos)); !ok {
				t.Fatalf("%s, but %s is free on %v", what, onLine(k, pos), qs)
			}
		}
	}
	// queenOf checks that line k holds a queen on qs and returns it.
	queenOf := func(what string, qs board.Solution, k int) board.Queen {
		t.Helper()
		for pos := 1; pos <= n; pos++ {
			if q := onLine(k, pos); qs[q.Row] == q.Col {
				return q
			}
		}
		t.Fatalf("%s, but line %d has no queen on %v", what, k, qs)
		return board.Queen{}
	}
	solutions := 0
	for i, st := range steps {
		cur := st.Queens
		text := st.Text()
		if a := st.AgentText(); !agents && a != text && AgentsTell(strategy) != nil {
			t.Fatalf("step %d: AgentText %q of a strategy the agents cannot tell, want Text %q", i+1, a, text)
		}
		if agents {
			text = st.AgentText()
		}
		what := fmt.Sprintf("step %d %q", i+1, text)
		if strings.Contains(text, "safe") && !strings.Contains(text, "no safe") {
			// Whatever the words, "safe" is a claim on the board.
			if !agents || st.Kind != StepPlace && st.Kind != StepSolution {
				t.Fatalf("%s: calls something safe", what)
			}
		}
		if st.Kind == StepSolution {
			solutions++
		}
		m := func(res map[string]*regexp.Regexp, key string) []string {
			t.Helper()
			re := res[key]
			if re == nil {
				t.Fatalf("%s: a %v step that cannot be told that way", what, st.Kind)
			}
			sm := re.FindStringSubmatch(text)
			if sm == nil {
				t.Fatalf("%s: a %v step, not told as %s", what, st.Kind, res[key])
			}
			return sm
		}
		res := textRes
		if agents {
			res = agentRes
		}
		switch st.Kind {
		case StepPlace:
			var sq board.Queen
			if agents {
				sm := m(res, "place")
				if sm[2] != alongWord {
					t.Fatalf("%s: moves along a %s", what, sm[2])
				}
				sq = onLine(atoi(t, sm[1]), atoi(t, sm[3]))
			} else if strategy == Generate {
				sm := m(res, "untested")
				sq = sq1(t, sm[1], sm[2])
			} else {
				sm := m(res, "place")
				sq = sq1(t, sm[1], sm[2])
			}
			if cur[sq.Row] != sq.Col || prev[sq.Row] >= 0 {
				t.Fatalf("%s: no queen put there: %v then %v", what, prev, cur)
			}
			if a, ok := attackedBy(prev, sq); ok && strategy != Generate {
				t.Fatalf("%s: %s is attacked by %s on %v", what, sq, a, prev)
			}
		case StepReject:
			var sq, by board.Queen
			var line string
			if agents {
				sm := m(res, "reject")
				sq = onLine(atoi(t, sm[1]), atoi(t, sm[3]))
				by = queenOf(what, cur, atoi(t, sm[4]))
				line = sm[5]
			} else {
				sm := m(res, "reject")
				sq, by, line = sq1(t, sm[1], sm[2]), sq1(t, sm[3], sm[4]), sm[5]
			}
			if cur[by.Row] != by.Col || cur[sq.Row] == sq.Col || attackLine2(by, sq) != line || !cur.Equal(prev) {
				t.Fatalf("%s: not so on %v", what, cur)
			}
		case StepDeadEnd:
			if !cur.Equal(prev) {
				t.Fatalf("%s: the board changed", what)
			}
			if strategy == Cells || strategy == Scan {
				sm := m(res, "cells")
				from := -1
				if sm[1] != "" {
					after := sq1(t, sm[2], sm[3])
					if cur[after.Row] != after.Col {
						t.Fatalf("%s: no queen on %s", what, after)
					}
					if (sm[4] != "") != (order == Columns) {
						t.Fatalf("%s: the scan order is %v", what, order)
					}
					from = after.Row*n + after.Col
					if order == Columns {
						from = after.Col*n + after.Row
					}
				}
				for i := from + 1; i < n*n; i++ {
					sq := board.Queen{Row: i / n, Col: i % n}
					if order == Columns {
						sq = board.Queen{Row: i % n, Col: i / n}
					}
					if _, ok := attackedBy(cur, sq); !ok && cur[sq.Row] != sq.Col {
						t.Fatalf("%s: %s is free on %v", what, sq, cur)
					}
				}
				if len(st.DeadSquares()) != n*n-1-from-countQueensAfter(cur, from, order) {
					t.Fatalf("%s: DeadSquares %v", what, st.DeadSquares())
				}
				break
			}
			sm := m(res, "dead")
			word, num := sm[1], sm[2] // dead end at WORD K
			if agents {
				word, num = sm[2], sm[1] // queen K finds no safe WORD
			}
			k := atoi(t, num)
			if word != map[bool]string{true: alongWord, false: lineWord}[agents] {
				t.Fatalf("%s: the wrong kind of line", what)
			}
			lineAttacked(what, cur, k, 0)
			if dead := st.DeadSquares(); len(dead) != n || dead[0] != onLine(k, 1) || dead[n-1] != onLine(k, n) {
				t.Fatalf("%s: DeadSquares %v", what, dead)
			}
			if agents {
				over := sm[4] == ""
				if over != (i == len(steps)-1) {
					t.Fatalf("%s: over %v at step %d of %d", what, over, i+1, len(steps))
				}
				if !over {
					queenOf(what, cur, atoi(t, sm[4]))
				}
			}
		case StepBacktrack:
			var sq board.Queen
			if agents {
				sm := m(res, "back")
				k, pos := atoi(t, sm[9]), atoi(t, sm[11])
				sq = onLine(k, pos)
				if sm[1] != "" { // the neighbour's reason
					j := atoi(t, sm[2])
					if atoi(t, sm[8]) != k || j != k+1 && strategy == Lex && len(place) == 0 {
						t.Fatalf("%s: queen %s asks queen %d", what, sm[2], k)
					}
					if sm[6] != "" {
						lineAttacked(what, prev, j, atoi(t, sm[6]))
					}
				}
				if sm[12] == " to advance" && pos == n || sm[13] != "" && pos != n {
					t.Fatalf("%s: advance/last wrong at position %d", what, pos)
				}
				if sm[15] != "" {
					if i != len(steps)-1 {
						t.Fatalf("%s: the search is over at step %d of %d", what, i+1, len(steps))
					}
					found := 0
					if sm[18] != "" {
						found = atoi(t, sm[18])
					}
					if found != solutions {
						t.Fatalf("%s: found %d solutions", what, solutions)
					}
				}
			} else {
				sm := m(res, "back")
				sq = sq1(t, sm[3], sm[4])
				if sm[1] != lineWord || atoi(t, sm[2])-1 != order.Line(sq.Row, sq.Col) {
					t.Fatalf("%s: the wrong line", what)
				}
			}
			if prev[sq.Row] != sq.Col || cur[sq.Row] != -1 {
				t.Fatalf("%s: %v then %v", what, prev, cur)
			}
		case StepSolution:
			if !board.Valid(cur) || !cur.Equal(prev) {
				t.Fatalf("%s: %v is no solution", what, cur)
			}
			if agents {
				sm := m(res, "solution")
				for k, pos := range strings.Fields(sm[4]) {
					if q := onLine(k+1, atoi(t, pos)); cur[q.Row] != q.Col {
						t.Fatalf("%s: not %v", what, cur)
					}
				}
			} else {
				sm := m(res, "solution")
				if b, _ := board.Append(nil, cur, board.FormatCoords); string(b[:len(b)-1]) != sm[2] {
					t.Fatalf("%s: not %v", what, cur)
				}
			}
			if sm := res["solution"].FindStringSubmatch(text); atoi(t, sm[1]) != solutions {
				t.Fatalf("%s: solution %d", what, solutions)
			}
		case StepFail:
			sm := m(res, "fail")
			sq, by := sq1(t, sm[2], sm[3]), sq1(t, sm[5], sm[6])
			if b, _ := board.Append(nil, cur, board.FormatCoords); string(b[:len(b)-1]) != sm[1] {
				t.Fatalf("%s: not %v", what, cur)
			}
			if cur[sq.Row] != sq.Col || cur[by.Row] != by.Col || attackLine2(sq, by) != sm[4] || board.Valid(cur) {
				t.Fatalf("%s: not so on %v", what, cur)
			}
		}
		prev = cur
	}
}

// countQueensAfter returns the queens of qs on the cells after index
// from in the order Cells scans.
func countQueensAfter(qs board.Solution, from int, order Order) int {
	k := 0
	for row, col := range qs {
		if col >= 0 && order.cell(len(qs), row, col) > from {
			k++
		}
	}
	return k
}

// TestStackTrue checks the stacks the steps show against the board: the
// recursive search's calls are one per line it fills, in order, each
// below the top on the queen of its line and the top on the step's
// square; Iterative, taking the same steps, keeps a level per call with
// the next square after each queen below the top.
func TestStackTrue(t *testing.T) {
	steps := func(n int, opt Options) []Step {
		nr := Narrator{Order: opt.Order, Strategy: opt.Strategy}
		var out []Step
		opt.Observe = func(e Event) { out = append(out, nr.Event(e)...) }
		if _, err := Search(context.Background(), n, opt, func(board.Solution) bool { return true }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, order := range []Order{Rows, Columns} {
		for n := 1; n <= 6; n++ {
			for _, place := range [][]board.Queen{nil, {{Row: 1, Col: 2}}} {
				if board.CheckPlacement(n, place) != nil {
					continue
				}
				fixed := map[int]bool{}
				for _, p := range place {
					fixed[order.Line(p.Row, p.Col)] = true
				}
				lex := steps(n, Options{Strategy: Lex, Order: order, Place: place})
				iter := steps(n, Options{Strategy: Iterative, Order: order, Place: place})
				if len(lex) != len(iter) {
					t.Fatalf("n=%d %v: %d steps, iterative %d", n, order, len(lex), len(iter))
				}
				for i, st := range lex {
					what := fmt.Sprintf("n=%d %v %v step %d %q calls %v, iterative %v", n, order, place, i+1, st.Text(), st.Stack, iter[i].Stack)
					sq := board.Queen{Row: st.Row, Col: st.Col}
					if len(iter[i].Stack) != len(st.Stack) {
						t.Fatalf("%s: levels and calls differ", what)
					}
					last := -1
					for j, f := range st.Stack {
						line := order.Line(f.Row, f.Col)
						if line <= last || fixed[line] {
							t.Fatalf("%s: frame %d fills line %d", what, j, line)
						}
						for l := last + 1; l < line; l++ {
							if !fixed[l] {
								t.Fatalf("%s: no call for line %d", what, l)
							}
						}
						last = line
						top := j == len(st.Stack)-1
						onQueen := st.Queens[f.Row] == f.Col
						switch {
						case !top && !onQueen, top && st.Kind == StepPlace && (!onQueen || f != sq),
							top && (st.Kind == StepReject || st.Kind == StepBacktrack) && f != sq,
							top && st.Kind == StepSolution && !onQueen:
							t.Fatalf("%s: frame %d", what, j)
						}
						g := iter[i].Stack[j]
						if order.Line(g.Row, g.Col) != line {
							t.Fatalf("%s: iterative's level %d on another line", what, j)
						}
						next := board.Queen{Row: f.Row, Col: f.Col + 1}
						if order == Columns {
							next = board.Queen{Row: f.Row + 1, Col: f.Col}
						}
						if (!top || st.Kind == StepPlace || st.Kind == StepSolution) && g != next {
							t.Fatalf("%s: iterative's level %d is not after its queen", what, j)
						}
					}
					if st.Kind == StepSolution && len(st.Stack) != n-len(place) {
						t.Fatalf("%s: a solution with %d calls", what, len(st.Stack))
					}
				}
			}
		}
	}
}
