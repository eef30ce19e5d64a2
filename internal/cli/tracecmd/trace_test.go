package tracecmd_test

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	imagedraw "image/draw"
	"image/gif"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
	"github.com/queens-dev/queens/internal/cli"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// TestGIFDelayClamped: the longest --delay gives GIF frames of at most
// 655.35 s (16 bits of hundredths), even the solutions held six times
// as long, instead of delays wrapped round to short ones.
func TestGIFDelayClamped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.gif")
	if _, stderr, code := clitest.Run(t, "", "trace", "-n", "4", "--gif", path, "--delay", "655s"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	g := readGIF(t, path)
	if len(g.Delay) == 0 {
		t.Fatal("no frames")
	}
	for i, d := range g.Delay {
		if d < 65500 || d > math.MaxUint16 {
			t.Errorf("frame %d: delay %d, want 65500..65535", i, d)
		}
	}
}

// jsonStep is one line of queens trace --format json.
type jsonStep struct {
	Step     int    `json:"step"`
	Event    string `json:"event"`
	Row      *int   `json:"row"`
	Col      *int   `json:"col"`
	Attacker *struct {
		Row, Col int
	} `json:"attacker"`
	Line     string `json:"line"`
	Queens   []int  `json:"queens"`
	Solution int    `json:"solution"`
	// the summary line
	N, Steps, Places, Backtracks, Solutions int
	Stopped                                 bool
	Order                                   string
}

// TestTraceReplaysTheSearch runs whole traces and replays them on a board
// of its own: every place is a free square, every reject names a queen
// that really attacks the square along the named line, every dead end is a
// row all of whose squares were rejected, every solution is valid, and the
// numbers of places, backtracks and solutions equal the backtracker's
// statistics (and the published counts).
func TestTraceReplaysTheSearch(t *testing.T) {
	cases := []struct {
		n       int
		place   []string
		columns bool
	}{{1, nil, false}, {2, nil, false}, {3, nil, false}, {4, nil, false}, {5, nil, false}, {6, nil, false}, {7, nil, false}, {8, nil, false},
		{6, []string{"1:2"}, false}, {8, []string{"3:5", "8:1"}, false}, {3, []string{"1:2"}, false},
		{1, nil, true}, {4, nil, true}, {6, nil, true}, {8, nil, true},
		{6, []string{"1:2"}, true}, {8, []string{"3:5", "8:1"}, true}, {3, []string{"1:2"}, true}}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("n=%d/%v/columns=%v", tc.n, tc.place, tc.columns), func(t *testing.T) {
			args := []string{"trace", "-n", fmt.Sprint(tc.n), "--all", "--max-steps", "0", "--format", "json"}
			order := backtrack.Rows
			if tc.columns {
				args = append(args, "--order", "columns")
				order = backtrack.Columns
			}
			args, placed := clitest.WithPlace(args, tc.place)
			out, errs, code := clitest.Run(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			rp := newTraceReplay(tc.n, placed, tc.columns)
			var sum jsonStep
			for i, line := range lines {
				var st jsonStep
				if err := json.Unmarshal([]byte(line), &st); err != nil {
					t.Fatalf("line %d %q: %v", i+1, line, err)
				}
				if i == len(lines)-1 {
					sum = st
					break
				}
				rp.counts[st.Event]++
				if st.Step != i+1 {
					t.Fatalf("line %d is step %d", i+1, st.Step)
				}
				rp.step(t, st, line)
			}
			counts := rp.counts
			opt := backtrack.Options{Place: placed, Strategy: backtrack.Lex, Order: order}
			stats, err := backtrack.Search(context.Background(), tc.n, opt, func(board.Solution) bool { return true })
			if err != nil {
				t.Fatal(err)
			}
			if uint64(counts["place"]) != stats.Nodes || uint64(counts["backtrack"]) != stats.Backtracks ||
				uint64(counts["solution"]) != stats.Solutions {
				t.Errorf("trace: %v; backtracker: %+v", counts, stats)
			}
			if sum.Places != counts["place"] || sum.Backtracks != counts["backtrack"] || sum.Solutions != counts["solution"] ||
				sum.Steps != len(lines)-1 || sum.Stopped || (sum.Order == "columns") != tc.columns {
				t.Errorf("summary %q, counted %v", lines[len(lines)-1], counts)
			}
			if known := clitest.Known(t, tc.n); placed == nil && uint64(counts["solution"]) != known.Total {
				t.Errorf("%d solutions, published %d", counts["solution"], known.Total)
			}
		})
	}
}

// traceReplay replays the steps of a trace of an n×n board, searched by
// rows or by columns, on a board of its own, failing the test at the
// first step the board does not bear out.
type traceReplay struct {
	n        int
	columns  bool
	placed   []board.Queen
	queens   board.Solution  // the board so far (-1: an empty row)
	counts   map[string]int  // steps by event
	rejected map[[2]int]bool // squares rejected since the last place
	deadEnd  bool            // reported since the last place
}

func newTraceReplay(n int, placed []board.Queen, columns bool) *traceReplay {
	rp := &traceReplay{n: n, columns: columns, placed: placed, queens: make(board.Solution, n),
		counts: map[string]int{}, rejected: map[[2]int]bool{}}
	for i := range rp.queens {
		rp.queens[i] = -1
	}
	for _, q := range placed {
		rp.queens[q.Row] = q.Col
	}
	return rp
}

// square returns the i-th square of line l in the search's order.
func (rp *traceReplay) square(l, i int) [2]int {
	if rp.columns {
		return [2]int{i, l}
	}
	return [2]int{l, i}
}

// fullLine reports whether every square of some line was rejected.
func (rp *traceReplay) fullLine() bool {
	for l := range rp.n {
		k := 0
		for i := range rp.n {
			if rp.rejected[rp.square(l, i)] {
				k++
			}
		}
		if k == rp.n {
			return true
		}
	}
	return false
}

// step replays st, the trace's line line.
func (rp *traceReplay) step(t *testing.T, st jsonStep, line string) {
	t.Helper()
	queens := rp.queens
	switch st.Event {
	case "place":
		r, c := *st.Row, *st.Col
		if queens[r] >= 0 || attacker(queens, r, c) >= 0 || slices.Contains(queens, c) {
			t.Fatalf("step %d: place %d:%d on %v", st.Step, r+1, c+1, queens)
		}
		queens[r] = c
		clear(rp.rejected)
		rp.deadEnd = false
	case "reject":
		r, c, a := *st.Row, *st.Col, st.Attacker
		if queens[a.Row] != a.Col || wantLine(a.Row, a.Col, r, c) != st.Line ||
			!((rp.columns && a.Row == r) || a.Col == c || a.Row-r == a.Col-c || a.Row-r == c-a.Col) {
			t.Fatalf("step %d: %d:%d is not attacked by %d:%d along the %s", st.Step, r+1, c+1, a.Row+1, a.Col+1, st.Line)
		}
		rp.rejected[[2]int{r, c}] = true
	case "dead-end":
		l := st.Row
		if rp.columns {
			l = st.Col
		}
		if l == nil || (st.Row != nil && st.Col != nil) {
			t.Fatalf("step %d: dead end %q does not name its line alone", st.Step, line)
		}
		for i := range rp.n {
			if sq := rp.square(*l, i); !rp.rejected[sq] {
				t.Fatalf("step %d: dead end at line %d, but %d:%d was not rejected", st.Step, *l+1, sq[0]+1, sq[1]+1)
			}
		}
		rp.deadEnd = true
	case "backtrack":
		r, c := *st.Row, *st.Col
		if queens[r] != c {
			t.Fatalf("step %d: backtrack %d:%d, but the board is %v", st.Step, r+1, c+1, queens)
		}
		if rp.fullLine() != rp.deadEnd {
			t.Fatalf("step %d: a line was rejected whole: %v, reported as a dead end: %v", st.Step, rp.fullLine(), rp.deadEnd)
		}
		queens[r] = -1
		clear(rp.rejected)
		rp.deadEnd = false
	case "solution":
		if !board.Valid(queens) || !board.Solution(st.Queens).Contains(rp.placed) {
			t.Fatalf("step %d: solution %v", st.Step, queens)
		}
	}
	if !queens.Equal(st.Queens) {
		t.Fatalf("step %d: board %v, replayed %v", st.Step, st.Queens, queens)
	}
}

// attacker returns the row of a queen attacking (row, col), or -1.
func attacker(queens board.Solution, row, col int) int {
	for r, c := range queens {
		if c >= 0 && r != row && (c == col || r-row == c-col || r-row == col-c) {
			return r
		}
	}
	return -1
}

func TestTraceGIF(t *testing.T) {
	clitest.SkipShort(t, "GIFs of whole searches")
	dir := t.TempDir()
	for _, tc := range []struct {
		n        int
		args     []string
		solution board.Solution // the last frame's
	}{
		{4, nil, board.Solution{1, 3, 0, 2}},
		{5, []string{"--all"}, nil},
		{6, []string{"--max-steps", "50"}, nil},
		{6, []string{"--place", "1:1"}, nil}, // no solution: the whole search
		{7, []string{"--place", "1:1"}, board.Solution{0, 2, 4, 6, 1, 3, 5}},
		{6, []string{"--no-rejects", "--max-steps", "100"}, nil},
		{3, []string{"--place", "1:2", "--no-rejects", "--max-steps", "2"}, nil}, // no step shown: one frame
		{8, []string{"--order", "columns", "--no-rejects"}, nil},
	} {
		t.Run(fmt.Sprintf("n=%d/%v", tc.n, tc.args), func(t *testing.T) {
			file := filepath.Join(dir, fmt.Sprintf("trace-%d-%d.gif", tc.n, len(tc.args)))
			args := append([]string{"trace", "-n", fmt.Sprint(tc.n), "--gif", file}, tc.args...)
			out, errs, code := clitest.Run(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			steps := strings.Count(out, "\n") - 1 // the summary line
			var placed []board.Queen
			if slices.Contains(tc.args, "--place") {
				placed = []board.Queen{{Row: 0, Col: int(tc.args[1][2] - '1')}}
			}
			// The frames' options: those of draw.NewTraceGIF.
			lg := draw.LegendQueen | draw.LegendAttacked | draw.LegendTried | draw.LegendRejected | draw.LegendEmptied | draw.LegendRejectDot | draw.LegendAttackDot
			if placed != nil {
				lg |= draw.LegendPlaced
			}
			cs := 2
			if draw.TraceSquare(tc.n)*tc.n < 320 {
				cs = 1
			}
			g := readGIF(t, file)
			want, err := draw.Image(make(board.Solution, tc.n), &draw.Options{Square: draw.TraceSquare(tc.n), Caption: "caption", CaptionScale: cs, Legend: lg})
			if err != nil {
				t.Fatal(err)
			}
			// The start frame, then one per step shown.
			if len(g.Image) != steps+1 || g.Config.Width != want.Rect.Dx() || g.Config.Height != want.Rect.Dy() {
				t.Fatalf("%d frames of %dx%d, want %d of %v", len(g.Image), g.Config.Width, g.Config.Height, steps, want.Rect)
			}
			// Drawn one over the other, the frames end on the last step.
			canvas := image.NewPaletted(want.Rect, draw.Palette())
			for _, fr := range g.Image {
				imagedraw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, imagedraw.Src)
			}
			if tc.solution != nil {
				st := backtrack.Step{Kind: backtrack.StepSolution, Solution: 1}
				last, err := draw.Image(tc.solution, &draw.Options{Square: draw.TraceSquare(tc.n), Attacks: true, Place: placed, Caption: st.Caption(steps, false), CaptionScale: cs, Legend: lg})
				if err != nil {
					t.Fatal(err)
				}
				for i := range last.Pix {
					if last.Pix[i] != canvas.Pix[i] {
						t.Fatalf("the last frame is not the solution %v", tc.solution)
					}
				}
				if g.Delay[len(g.Delay)-1] <= g.Delay[1] || g.Delay[0] <= g.Delay[1] {
					t.Errorf("the start is shown for %d, the solution for %d, a step for %d", g.Delay[0], g.Delay[len(g.Delay)-1], g.Delay[1])
				}
			}
		})
	}
}

// wantLine names the line joining (ar, ac) and (r, c) the way the trace
// must: a column, a diagonal (down and right) or an anti-diagonal.
func wantLine(ar, ac, r, c int) string {
	switch {
	case ar == r:
		return "row"
	case ac == c:
		return "column"
	case ar-r == ac-c:
		return "diagonal"
	}
	return "anti-diagonal"
}

// TestTraceAgents tells whole searches both ways and checks that the agent
// wording tells the same steps: the same numbers, the same kinds, the
// queen named is the one of the square's line (its column in column
// order), and a queen that asks names its left neighbour that is then
// taken away.
func TestTraceAgents(t *testing.T) {
	kinds := []struct{ steps, agents string }{
		{"  place", " moves to "},
		{"rejected: attacked by the queen at", " tries "},
		{"dead end at ", " finds no safe "},
		{"backtrack to ", " leaves "},
		{"solution #", "every queen is safe: solution #"},
	}
	square := regexp.MustCompile(`(\d+):(\d+)`)
	for _, tc := range []struct {
		n     int
		order string
		args  []string
	}{{4, "columns", nil}, {6, "columns", []string{"--all"}}, {8, "columns", nil}, {8, "rows", nil}, {6, "columns", []string{"--place", "1:2", "--all"}}} {
		t.Run(fmt.Sprintf("n=%d/%s/%v", tc.n, tc.order, tc.args), func(t *testing.T) {
			base := append([]string{"trace", "-n", fmt.Sprint(tc.n), "--order", tc.order}, tc.args...)
			steps, _, code1 := clitest.Run(t, "", base...)
			agents, _, code2 := clitest.Run(t, "", append(base, "--narrate", "agents")...)
			a, b := strings.Split(steps, "\n"), strings.Split(agents, "\n")
			if code1 != 0 || code2 != 0 || len(a) != len(b) || len(a) < 3 {
				t.Fatalf("exit %d and %d, %d and %d lines", code1, code2, len(a), len(b))
			}
			for i := range len(a) - 2 { // the summary and the final empty line are the same
				sa, sb := a[i], b[i]
				if sa[:4] != sb[:4] {
					t.Fatalf("line %d: step %q, agents %q", i+1, sa, sb)
				}
				k := slices.IndexFunc(kinds, func(k struct{ steps, agents string }) bool { return strings.Contains(sa, k.steps) })
				if k < 0 || !strings.Contains(sb, kinds[k].agents) {
					t.Fatalf("line %d: %q told as %q", i+1, sa, sb)
				}
				m := square.FindStringSubmatch(sa)
				if m == nil || k == 2 || k == 4 {
					continue
				}
				row, _ := strconv.Atoi(m[1]) // digits, as the pattern matched
				col, _ := strconv.Atoi(m[2])
				queen, along := row, col
				if tc.order == "columns" {
					queen, along = col, row
				}
				if k == 3 && strings.Contains(sb, "asks queen") {
					// "queen K ... asks queen K' to advance; queen K' leaves ..."
					if !strings.Contains(sb, fmt.Sprintf("asks queen %d to advance; queen %d leaves ", queen, queen)) {
						t.Fatalf("line %d: %q told as %q", i+1, sa, sb)
					}
					continue
				}
				if !strings.HasPrefix(sb[6:], fmt.Sprintf("queen %d ", queen)) || !strings.Contains(sb, fmt.Sprintf(" %d", along)) {
					t.Fatalf("line %d: %q told as %q (queen %d at %d)", i+1, sa, sb, queen, along)
				}
			}
		})
	}
	out := clitest.Output(t, "", "trace", "-n", "4", "--narrate", "agents")
	for _, want := range []string{
		"   9  queen 3 finds no safe row and asks queen 2 to advance\n  10  queen 2 leaves row 3 to advance\n",
		"  23  queen 2 is at the last row and asks queen 1 to advance; queen 1 leaves row 1\n",
		"  33  every queen is safe: solution #1, queens 1 to 4 on rows 2 4 1 3\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("trace -n 4 --narrate agents has no %q:\n%s", want, out)
		}
	}
}

// TestTraceLimits checks the default --max-steps: every n the command
// takes reaches its first solution, --all stops at traceAllSteps and says
// why, and --no-rejects keeps the step numbers.
func TestTraceLimits(t *testing.T) {
	for n := 1; n <= cmdutil.TraceFirstN; n++ {
		out, errs, code := clitest.Run(t, "", "trace", "-n", fmt.Sprint(n), "--format", "json")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var sum jsonStep
		json.Unmarshal([]byte(lines[len(lines)-1]), &sum)
		if code != 0 || sum.Stopped || (sum.Solutions != 1) != (n == 2 || n == 3) {
			t.Errorf("n=%d: exit %d %s, summary %s", n, code, errs, lines[len(lines)-1])
		}
		if n == 8 && sum.Steps != 1024 {
			t.Errorf("n=8: the first solution after %d steps, want 1024", sum.Steps)
		}
	}
	out, _, code := clitest.Run(t, "", "trace", "-n", "11", "--all", "--no-rejects")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if code != 0 || !strings.HasPrefix(last, fmt.Sprintf("stopped after %d steps (the limit of --all;", cmdutil.TraceAllSteps)) {
		t.Errorf("trace -n 11 --all ends %q", last)
	}
	if strings.Contains(out, "rejected") || !strings.HasPrefix(lines[1], "   4  try 2:3  place") {
		t.Errorf("--no-rejects: %q", lines[:2])
	}
	// The page's limit, n = 32, and above n = 16 the step limit.
	out, errs, code := clitest.Run(t, "", "trace", "-n", "20", "--no-rejects")
	if last := strings.TrimSpace(out[strings.LastIndex(strings.TrimRight(out, "\n"), "\n")+1:]); code != 0 || !strings.HasPrefix(last, fmt.Sprintf("stopped after %d steps (the step limit above n = 16;", cmdutil.TraceAllSteps)) {
		t.Errorf("trace -n 20: exit %d %s, ends %q", code, errs, last)
	}
	if _, errs, code := clitest.Run(t, "", "trace", "-n", "32", "--max-steps", "3"); code != 0 {
		t.Errorf("trace -n 32: exit %d %s", code, errs)
	}
	if _, errs, code := clitest.Run(t, "", "trace", "-n", "33"); code != 2 || !strings.Contains(errs, "1 <= n <= 32") {
		t.Errorf("trace -n 33: exit %d %s", code, errs)
	}
}

// BenchmarkTraceGIF draws the trace of the first solution as a GIF and
// reports the file's size per frame (the bound maxGIFSteps is on the file)
// and the time per frame.
func BenchmarkTraceGIF(b *testing.B) {
	for _, n := range []int{8, 12} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			file := filepath.Join(b.TempDir(), "t.gif")
			frames := 0
			for b.Loop() {
				var out, errs strings.Builder
				if code := cli.Run([]string{"queens", "trace", "-n", fmt.Sprint(n), "--gif", file}, &out, &errs); code != 0 {
					b.Fatalf("exit %d: %s", code, errs.String())
				}
				frames = strings.Count(out.String(), "\n") - 1
			}
			st, err := os.Stat(file)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(st.Size())/float64(frames), "bytes/frame")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*frames), "ns/frame")
		})
	}
}

// TestTraceStrategies traces the textbook strategies: iterative takes
// lex's steps, and the summaries of cells and generate count what the
// backtracker's statistics say, every solution checked.
func TestTraceStrategies(t *testing.T) {
	lex := clitest.Output(t, "", "trace", "-n", "6", "--all")
	iter, _, code := clitest.Run(t, "", "trace", "-n", "6", "--all", "--strategy", "iterative")
	if code != 0 || lex != iter {
		t.Errorf("iterative (exit %d) differs from lex", code)
	}
	for _, st := range []backtrack.Strategy{backtrack.Cells, backtrack.Generate} {
		for _, args := range [][]string{nil, {"--place", "2:3"}, {"--order", "columns"}} {
			stats, err := backtrack.Search(context.Background(), 6, backtrack.Options{Strategy: st, Place: tracePlace(args)}, func(board.Solution) bool { return true })
			if err != nil {
				t.Fatal(err)
			}
			out, errs, code := clitest.Run(t, "", append([]string{"trace", "-n", "6", "--all", "--format", "json", "--strategy", st.String()}, args...)...)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			var sum struct {
				jsonStep
				Tests    int    `json:"tests"`
				Strategy string `json:"strategy"`
			}
			json.Unmarshal([]byte(lines[len(lines)-1]), &sum)
			if code != 0 || sum.Places != int(stats.Nodes) || sum.Solutions != int(stats.Solutions) || sum.Tests != int(stats.Candidates) || sum.Strategy != st.String() {
				t.Errorf("%v %v: exit %d %s, summary %s, stats %+v", st, args, code, errs, lines[len(lines)-1], stats)
			}
			for _, line := range lines[:len(lines)-1] {
				var step jsonStep
				json.Unmarshal([]byte(line), &step)
				if step.Event == "solution" && board.Solution(step.Queens).Check() != nil {
					t.Errorf("%v: invalid solution %v", st, step.Queens)
				}
			}
		}
	}
	if _, errs, code := clitest.Run(t, "", "trace", "-n", "11", "--strategy", "generate"); code != 2 || !strings.Contains(errs, "at most 10") {
		t.Errorf("generate n=11: exit %d %s", code, errs)
	}
	if _, errs, code := clitest.Run(t, "", "trace", "-n", "6", "--strategy", "cells", "--narrate", "agents"); code != 2 {
		t.Errorf("cells with agents: exit %d %s", code, errs)
	}
}

// tracePlace reads the --place of args (one queen at most), 0-based.
func tracePlace(args []string) []board.Queen {
	if len(args) < 2 || args[0] != "--place" {
		return nil
	}
	return []board.Queen{{Row: int(args[1][0] - '1'), Col: int(args[1][2] - '1')}}
}

// readGIF decodes the animated GIF in the file path, or fails the test.
func readGIF(t *testing.T, path string) *gif.GIF {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatalf("decode GIF %s: %v", path, err)
	}
	return g
}

// TestTraceStack checks --stack: a calls line under every step of the
// recursive search, a stack line under iterative's, and "stack" in JSON
// (the stacks themselves are checked against the board in backtrack's
// TestStackTrue).
func TestTraceStack(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"trace", "-n", "5", "--stack"}, "      calls: row 1 at 1:1"},
		{[]string{"trace", "-n", "5", "--stack", "--strategy", "iterative"}, "      stack: row 1 next 1:2"},
		{[]string{"trace", "-n", "5", "--stack", "--strategy", "cells"}, "      calls: queen 1 at 1:1"},
		{[]string{"trace", "-n", "5", "--stack", "--format", "json"}, `"stack":[[0,0]]}`},
	} {
		out, errs, code := clitest.Run(t, "", tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d %s, no %q in\n%s", tc.args, code, errs, tc.want, out)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if tc.args[len(tc.args)-1] != "json" && len(lines)%2 != 1 {
			t.Errorf("%v: %d lines, want a stack line under every step and the summary", tc.args, len(lines))
		}
	}
	if out := clitest.Output(t, "", "trace", "-n", "5"); strings.Contains(out, "calls:") {
		t.Errorf("a stack without --stack:\n%s", out)
	}
}

// TestTraceScan checks --strategy scan, the course text's cells program:
// each solution n! times (48 for n = 4, told in steps the narration
// tests check), refused by backtrack, and --grid's 0/1/2 boards.
func TestTraceScan(t *testing.T) {
	out, errs, code := clitest.Run(t, "", "trace", "-n", "4", "--strategy", "scan", "--all", "--max-steps", "0", "--no-rejects")
	if code != 0 || !strings.HasSuffix(out, "296 queens placed, 296 backtracks, 48 solutions\n") {
		t.Errorf("scan n = 4: exit %d %s\n%s", code, errs, out[max(0, len(out)-200):])
	}
	if _, errs, code := clitest.Run(t, "", "backtrack", "-n", "4", "--strategy", "scan", "--count"); code != 2 || !strings.Contains(errs, "n! times") {
		t.Errorf("backtrack --strategy scan: exit %d %s", code, errs)
	}
	if _, errs, code := clitest.Run(t, "", "trace", "-n", "9", "--strategy", "scan"); code != 2 || !strings.Contains(errs, "at most 8") {
		t.Errorf("trace -n 9 --strategy scan: exit %d %s", code, errs)
	}
	if _, errs, code := clitest.Run(t, "", "trace", "-n", "4", "--grid"); code != 2 {
		t.Errorf("--grid without --boards: exit %d %s", code, errs)
	}
	out = clitest.Output(t, "", "trace", "-n", "4", "--strategy", "cells", "--boards", "--grid", "--max-steps", "1")
	if !strings.Contains(out, "       1  1 2 2 2\n       2  2 2 0 0\n") {
		t.Errorf("--grid:\n%s", out)
	}
}
