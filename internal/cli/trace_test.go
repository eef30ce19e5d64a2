package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	imagedraw "image/draw"
	"image/gif"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
)

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
}

// TestTraceReplaysTheSearch runs whole traces and replays them on a board
// of its own: every place is a free square, every reject names a queen
// that really attacks the square along the named line, every dead end is a
// row all of whose squares were rejected, every solution is valid, and the
// numbers of places, backtracks and solutions equal the backtracker's
// statistics (and the published counts).
func TestTraceReplaysTheSearch(t *testing.T) {
	cases := []struct {
		n     int
		place []string
	}{{1, nil}, {2, nil}, {3, nil}, {4, nil}, {5, nil}, {6, nil}, {7, nil}, {8, nil},
		{6, []string{"1:2"}}, {8, []string{"3:5", "8:1"}}, {3, []string{"1:2"}}}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("n=%d/%v", tc.n, tc.place), func(t *testing.T) {
			args := []string{"trace", "-n", fmt.Sprint(tc.n), "--all", "--max-steps", "0", "--format", "json"}
			var placed []board.Queen
			for _, p := range tc.place {
				args = append(args, "--place", p)
				q, _ := board.ParseQueen(p)
				placed = append(placed, q)
			}
			out, errs, code := runCLI(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			queens := make(board.Solution, tc.n)
			for i := range queens {
				queens[i] = -1
			}
			for _, q := range placed {
				queens[q.Row] = q.Col
			}
			counts := map[string]int{}
			rejected := map[[2]int]bool{} // squares rejected since the last place
			deadEnd := false              // reported since the last place
			fullRow := func() bool {
				for r := range tc.n {
					k := 0
					for c := range tc.n {
						if rejected[[2]int{r, c}] {
							k++
						}
					}
					if k == tc.n {
						return true
					}
				}
				return false
			}
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
				counts[st.Event]++
				if st.Step != i+1 {
					t.Fatalf("line %d is step %d", i+1, st.Step)
				}
				switch st.Event {
				case "place":
					r, c := *st.Row, *st.Col
					if queens[r] >= 0 || attacker(queens, r, c) >= 0 {
						t.Fatalf("step %d: place %d:%d on %v", st.Step, r+1, c+1, queens)
					}
					queens[r] = c
					clear(rejected)
					deadEnd = false
				case "reject":
					r, c, a := *st.Row, *st.Col, st.Attacker
					if queens[a.Row] != a.Col || wantLine(a.Row, a.Col, r, c) != st.Line ||
						!(a.Col == c || a.Row-r == a.Col-c || a.Row-r == c-a.Col) {
						t.Fatalf("step %d: %d:%d is not attacked by %d:%d along the %s", st.Step, r+1, c+1, a.Row+1, a.Col+1, st.Line)
					}
					rejected[[2]int{r, c}] = true
				case "dead-end":
					for c := range tc.n {
						if !rejected[[2]int{*st.Row, c}] {
							t.Fatalf("step %d: dead end at row %d, but %d:%d was not rejected", st.Step, *st.Row+1, *st.Row+1, c+1)
						}
					}
					deadEnd = true
				case "backtrack":
					r, c := *st.Row, *st.Col
					if queens[r] != c {
						t.Fatalf("step %d: backtrack %d:%d, but the board is %v", st.Step, r+1, c+1, queens)
					}
					if fullRow() != deadEnd {
						t.Fatalf("step %d: a row was rejected whole: %v, reported as a dead end: %v", st.Step, fullRow(), deadEnd)
					}
					queens[r] = -1
					clear(rejected)
					deadEnd = false
				case "solution":
					if !board.Valid(queens) || !board.Solution(st.Queens).Contains(placed) {
						t.Fatalf("step %d: solution %v", st.Step, queens)
					}
				}
				if !queens.Equal(st.Queens) {
					t.Fatalf("step %d: board %v, replayed %v", st.Step, st.Queens, queens)
				}
			}
			opt := backtrack.Options{Place: placed, Strategy: backtrack.Lex}
			stats, err := backtrack.Search(context.Background(), tc.n, opt, func(board.Solution) bool { return true })
			if err != nil {
				t.Fatal(err)
			}
			if uint64(counts["place"]) != stats.Nodes || uint64(counts["backtrack"]) != stats.Backtracks ||
				uint64(counts["solution"]) != stats.Solutions {
				t.Errorf("trace: %v; backtracker: %+v", counts, stats)
			}
			if sum.Places != counts["place"] || sum.Backtracks != counts["backtrack"] || sum.Solutions != counts["solution"] ||
				sum.Steps != len(lines)-1 || sum.Stopped {
				t.Errorf("summary %q, counted %v", lines[len(lines)-1], counts)
			}
			if known, _ := board.Known(tc.n); placed == nil && uint64(counts["solution"]) != known.Total {
				t.Errorf("%d solutions, published %d", counts["solution"], known.Total)
			}
		})
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
	} {
		t.Run(fmt.Sprintf("n=%d/%v", tc.n, tc.args), func(t *testing.T) {
			file := filepath.Join(dir, fmt.Sprintf("trace-%d-%d.gif", tc.n, len(tc.args)))
			args := append([]string{"trace", "-n", fmt.Sprint(tc.n), "--gif", file}, tc.args...)
			out, errs, code := runCLI(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			steps := strings.Count(out, "\n") - 1 // the summary line
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			g, err := gif.DecodeAll(f)
			if err != nil {
				t.Fatalf("decode GIF: %v", err)
			}
			want, _ := draw.Image(make(board.Solution, tc.n), &draw.Options{Square: gifSquare(tc.n)})
			if len(g.Image) != steps || g.Config.Width != want.Rect.Dx() || g.Config.Height != want.Rect.Dy() {
				t.Fatalf("%d frames of %dx%d, want %d of %v", len(g.Image), g.Config.Width, g.Config.Height, steps, want.Rect)
			}
			// Drawn one over the other, the frames end on the last step.
			canvas := image.NewPaletted(want.Rect, draw.Palette())
			for _, fr := range g.Image {
				imagedraw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, imagedraw.Src)
			}
			if tc.solution != nil {
				var placed []board.Queen
				if len(tc.args) > 0 {
					placed = []board.Queen{{Row: 0, Col: 0}}
				}
				last, _ := draw.Image(tc.solution, &draw.Options{Square: gifSquare(tc.n), Attacks: true, Placed: placed})
				for i := range last.Pix {
					if last.Pix[i] != canvas.Pix[i] {
						t.Fatalf("the last frame is not the solution %v", tc.solution)
					}
				}
				if g.Delay[len(g.Delay)-1] <= g.Delay[0] {
					t.Errorf("the solution is shown for %d, a step for %d", g.Delay[len(g.Delay)-1], g.Delay[0])
				}
			}
		})
	}
}

// wantLine names the line joining (ar, ac) and (r, c) the way the trace
// must: a column, a diagonal (down and right) or an anti-diagonal.
func wantLine(ar, ac, r, c int) string {
	switch {
	case ac == c:
		return "column"
	case ar-r == ac-c:
		return "diagonal"
	}
	return "anti-diagonal"
}
