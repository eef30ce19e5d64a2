package serve

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/testutil"
)

var update = flag.Bool("update", false, "take the screenshot docs/serve.png again")

// browser starts headless Chromium on a fresh profile and returns its
// context, and the JavaScript errors seen so far (exceptions, console
// errors, errors in the browser's log), or skips the test when Chromium
// is not installed.
// skipShort skips a browser test under go test -short, the quick loop:
// each starts a Chromium of its own (3 to 9 s on 2 cores), and
// TestBrowser, which -short keeps, drives every part of the page once.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: TestBrowser covers the page; this one starts a browser of its own")
	}
}

func browser(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if path, err = exec.LookPath("/usr/bin/chromium"); err != nil {
			t.Skip("chromium not found: the browser tests need it (Debian: apt-get install chromium)")
		}
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1000, 1200),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelTime(); cancelCtx(); cancelAlloc() })

	var mu sync.Mutex
	var errs []string
	err = chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			msg = "exception: " + ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				msg += " " + ev.ExceptionDetails.Exception.Description
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
				return
			}
			msg = "console." + string(ev.Type) + ":"
			for _, a := range ev.Args {
				msg += " " + string(a.Value) + a.Description
			}
		case *log.EventEntryAdded:
			if ev.Entry.Level != log.EntryLevelError {
				return
			}
			msg = "log: " + ev.Entry.Text + " " + ev.Entry.URL
		default:
			return
		}
		mu.Lock()
		errs = append(errs, msg)
		mu.Unlock()
	})
	if err != nil {
		t.Fatalf("chromium does not start: %v", err)
	}
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("chromium does not start: %v", err)
	}
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), errs...)
	}
}

// waitJS waits until the JavaScript expression is true.
func waitJS(expr string) chromedp.Action[chromedp.Void] {
	return void(chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(15*time.Second)))
}

// void drops the value of an action, for chromedp.Do.
func void[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}

// eval returns the value of a JavaScript expression.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func sqSel(row, col int) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf(`#board .sq[data-row="%d"][data-col="%d"]`, row, col))
}

// boardQueens reads the queens shown on the board, -1 for an empty row
// (two queens in a row fail the test).
func boardQueens(t *testing.T, ctx context.Context, n int) board.Solution {
	t.Helper()
	cells := eval[[]struct{ Row, Col int }](t, ctx, `[...document.querySelectorAll("#board .sq.queen")].map(d => ({Row: +d.dataset.row, Col: +d.dataset.col}))`)
	s := make(board.Solution, n)
	for i := range s {
		s[i] = -1
	}
	for _, c := range cells {
		if s[c.Row] != -1 {
			t.Fatalf("two queens in row %d", c.Row)
		}
		s[c.Row] = c.Col
	}
	return s
}

func run(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(sel)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBrowser drives the page in headless Chromium as a user would: it
// places queens by clicking and with the keyboard, reads the attack counts
// from the page, solves, counts, steps through the search, opens the
// gallery and exports, and checks that no JavaScript error occurred.
func TestBrowser(t *testing.T) {
	ctx, jsErrors := browser(t)
	srv := httptest.NewServer(Handler(Options{}))
	defer srv.Close()
	const n = 8

	run(t, ctx, chromedp.Navigate(srv.URL), waitJS(`document.querySelectorAll("#board .sq[data-attacks]").length === 64`))

	browserPlace(t, ctx, n)
	browserSolve(t, ctx, n)
	browserTrace(t, ctx, n)
	browserGallery(t, ctx, n)
	browserEdges(t, ctx)

	if errs := jsErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors:\n%s", strings.Join(errs, "\n"))
	}
}

// browserPlace places queens by clicking and with the keyboard and checks the
// attack counts on the page, shown and hidden.
func browserPlace(t *testing.T, ctx context.Context, n int) {
	// Two queens by clicking, then a third that attacks the first.
	queens := [][]int{{0, 3}, {4, 4}}
	for _, q := range queens {
		run(t, ctx, chromedp.Click(sqSel(q[0], q[1])))
	}
	run(t, ctx, waitJS(`document.querySelectorAll("#board .sq.queen").length === 2 && document.querySelector('`+string(sqSel(0, 0))+`').dataset.attacks !== "0"`))
	checkAttacks(t, ctx, n, queens)

	run(t, ctx, chromedp.Click(sqSel(1, 4)),
		waitJS(`document.querySelector('`+string(sqSel(1, 4))+`').classList.contains("conflict")`))
	if s := text(t, ctx, "#status"); !strings.Contains(s, "conflict") || !strings.Contains(s, "1:4 and 2:5 share a diagonal") {
		t.Errorf("status %q does not name the conflict", s)
	}
	// The keyboard: Space takes the attacking queen away again (the
	// focus is on it), then arrows and Enter place one on (2, 0).
	run(t, ctx, chromedp.KeyEvent(" "), waitJS(`document.querySelectorAll("#board .sq.queen").length === 2`))
	run(t, ctx, chromedp.KeyEvent(kb.ArrowDown))
	for range 5 {
		run(t, ctx, chromedp.KeyEvent(kb.ArrowLeft))
	}
	run(t, ctx, chromedp.KeyEvent(kb.Enter), waitJS(`document.querySelector('`+string(sqSel(2, 0))+`').classList.contains("queen")`))
	queens = append(queens, []int{2, 0})
	run(t, ctx, waitJS(`document.querySelector('`+string(sqSel(2, 1))+`').dataset.attacks === "2"`))
	checkAttacks(t, ctx, n, queens)

	// Hiding the numbers keeps them in the page, out of sight.
	// (Clicked from the page itself: a mouse click at the checkbox's
	// place can miss it while the page is still laying out on a loaded
	// machine. The page hides them once the click's handler has run.)
	eval[bool](t, ctx, `(document.querySelector('#show-numbers').click(), true)`)
	run(t, ctx, waitJS(`getComputedStyle(document.querySelector('`+string(sqSel(7, 7))+`')).color === "rgba(0, 0, 0, 0)"`))
	if n := eval[string](t, ctx, `document.querySelector('`+string(sqSel(7, 7))+`').textContent`); n == "" {
		t.Error("numbers hidden: the square's number is gone from the page, want it kept out of sight")
	}
	eval[bool](t, ctx, `(document.querySelector('#show-numbers').click(), true)`)

	if *update {
		screenshot(t, ctx)
	}
}

// browserSolve solves from the queens placed (a completion), from four that
// leave none (no completion), and counts the empty board.
func browserSolve(t *testing.T, ctx context.Context, n int) {
	// Solve from here with gini.
	run(t, ctx, chromedp.SetValue(chromedp.CSS("#engine"), "sat"), chromedp.Click(chromedp.CSS("#solve")),
		waitJS(`document.querySelector("#solve-result").textContent.startsWith("Solution found by sat")`),
		waitJS(`document.querySelectorAll("#board .sq.queen").length === 8`))
	s := boardQueens(t, ctx, n)
	placed := []board.Queen{{Row: 0, Col: 3}, {Row: 4, Col: 4}, {Row: 2, Col: 0}}
	if !board.Valid(s) || !s.Contains(placed) {
		t.Errorf("solved board %v is not a completion of %v", s, placed)
	}
	if s := text(t, ctx, "#status"); !strings.HasPrefix(s, "Solved") {
		t.Errorf("status %q after solving", s)
	}

	// No completion is an answer: a corner queen on n = 4... here on 8,
	// two queens that leave no completion.
	run(t, ctx, chromedp.Click(chromedp.CSS("#clear")), waitJS(`document.querySelectorAll("#board .sq.queen").length === 0`))
	run(t, ctx, chromedp.Click(sqSel(0, 0)), chromedp.Click(sqSel(1, 2)),
		chromedp.Click(sqSel(2, 4)), chromedp.Click(sqSel(3, 1)),
		waitJS(`document.querySelectorAll("#board .sq.queen").length === 4`))
	noneWant := len(testutil.Solutions(n, []board.Queen{{Row: 0, Col: 0}, {Row: 1, Col: 2}, {Row: 2, Col: 4}, {Row: 3, Col: 1}})) == 0
	run(t, ctx, chromedp.SetValue(chromedp.CSS("#engine"), "backtrack"), chromedp.Click(chromedp.CSS("#solve")),
		waitJS(`document.querySelector("#solve-result").textContent !== "" && !document.querySelector("#solve-result").textContent.startsWith("Solving")`))
	if got := strings.HasPrefix(text(t, ctx, "#solve-result"), "No completion"); got != noneWant {
		t.Errorf("solve result %q; brute force: no completion = %t", text(t, ctx, "#solve-result"), noneWant)
	}

	// Count the empty board.
	run(t, ctx, chromedp.Click(chromedp.CSS("#clear")), waitJS(`document.querySelectorAll("#board .sq.queen").length === 0`),
		chromedp.Click(chromedp.CSS("#count")),
		waitJS(`document.querySelector("#count-result").textContent.includes(" in ")`))
	if s := text(t, ctx, "#count-result"); !strings.HasPrefix(s, "92 solutions (12 unique up to rotations and reflections, 24 up to rotations only)") {
		t.Errorf("count result %q", s)
	}
}

// browserTrace steps through the search: forward, back, to the next backtrack
// and solution, past the steps fetched first, played and paused.
func browserTrace(t *testing.T, ctx context.Context, n int) {
	// Step through the search; the words are those of the API, which the
	// handler tests compare with the trace command.
	w := do(t, Handler(Options{}), "POST", "/api/trace", `{"n":8,"queens":[],"maxSteps":2000}`)
	steps := decodeJSON[traceResponse](t, w).Steps
	stepText := func(i int) string {
		t.Helper()
		run(t, ctx, waitJS(fmt.Sprintf(`document.querySelector("#trace-counter").textContent.startsWith("Step %d of")`, i+1)))
		if got := text(t, ctx, "#trace-text"); got != steps[i].Text {
			t.Errorf("step %d: %q, want %q", i+1, got, steps[i].Text)
		}
		return steps[i].Text
	}
	run(t, ctx, chromedp.Click(chromedp.CSS("#trace-start")))
	stepText(0)
	// Empty squares and queens: the rows keep one height.
	if d := eval[float64](t, ctx, `(() => { const hs = [...document.querySelectorAll("#board .sq")].map(d => d.getBoundingClientRect().height);
		return Math.max(...hs) - Math.min(...hs); })()`); d > 1 {
		t.Errorf("while tracing the squares differ in height by %.1f px", d)
	}
	for i := 1; i <= 3; i++ {
		run(t, ctx, chromedp.Click(chromedp.CSS("#trace-forward")))
		stepText(i)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS("#trace-back")))
	stepText(2)
	next := func(button, kind string) {
		t.Helper()
		cur := eval[int](t, ctx, `+document.querySelector("#trace-counter").textContent.split(" ")[1] - 1`)
		want := cur + 1
		for steps[want].Kind != kind {
			want++
		}
		run(t, ctx, chromedp.Click(chromedp.CSS(button)))
		stepText(want)
	}
	next("#trace-next-backtrack", "backtrack")
	next("#trace-next-solution", "solution")
	if got, want := boardQueens(t, ctx, n), (board.Solution{0, 4, 7, 5, 2, 6, 1, 3}); !got.Equal(want) {
		t.Errorf("first solution shown as %v, want %v", got, want)
	}
	next("#trace-next-backtrack", "backtrack")
	// Further solutions come from more steps, fetched as needed.
	for range 5 {
		run(t, ctx, chromedp.Click(chromedp.CSS("#trace-next-solution")))
	}
	run(t, ctx, waitJS(`document.querySelector("#trace-text").textContent.startsWith("solution #6: ")`))
	if got, want := boardQueens(t, ctx, n), testutil.Solutions(n, nil)[5]; !got.Equal(want) {
		t.Errorf("solution #6 shown as %v, want %v", got, want)
	}
	if k := eval[int](t, ctx, `+document.querySelector("#trace-counter").textContent.split(" ")[1]`); k <= 2000 {
		t.Errorf("solution #6 at step %d: the test wants one past the first 2000 steps", k)
	}
	// Play runs on by itself; pause stops it.
	before := text(t, ctx, "#trace-counter")
	run(t, ctx, chromedp.SetValue(chromedp.CSS("#trace-speed"), "20"),
		chromedp.Click(chromedp.CSS("#trace-play")),
		waitJS(`document.querySelector("#trace-counter").textContent !== `+jsString(before)),
		chromedp.Click(chromedp.CSS("#trace-play")))
	after := text(t, ctx, "#trace-counter")
	time.Sleep(200 * time.Millisecond)
	if s := text(t, ctx, "#trace-counter"); s != after {
		t.Errorf("paused, but the trace went on from %q to %q", after, s)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS("#trace-stop")), waitJS(`document.querySelectorAll("#board .sq.queen").length === 0 && document.querySelector("#trace-counter").textContent === ""`))
}

// browserGallery opens the gallery of n = 8, puts an image on the board and
// exports it.
func browserGallery(t *testing.T, ctx context.Context, n int) {
	// The gallery of n = 8: 92 solutions in 12 classes of 8 or 4 images.
	run(t, ctx, chromedp.Click(chromedp.CSS("#gallery-show")), waitJS(`document.querySelectorAll("#gallery .class").length > 0`))
	sizes := eval[[]int](t, ctx, `[...document.querySelectorAll("#gallery .class")].map(c => c.querySelectorAll(".solution").length)`)
	total := 0
	for _, k := range sizes {
		total += k
		if k != 8 && k != 4 {
			t.Errorf("a class of %d images", k)
		}
	}
	if len(sizes) != 12 || total != 92 {
		t.Errorf("gallery: %d solutions in %d classes, want 92 in 12", total, len(sizes))
	}
	if s := text(t, ctx, "#gallery-summary"); s != "92 solutions in 12 classes under rotations and reflections (24 under rotations only)." {
		t.Errorf("gallery summary %q", s)
	}
	// Picking an image puts it on the board.
	run(t, ctx, chromedp.Click(chromedp.CSS("#gallery .class:nth-child(2) .solution:nth-child(3)")),
		waitJS(`document.querySelectorAll("#board .sq.queen").length === 8`))
	if s := boardQueens(t, ctx, n); !board.Valid(s) {
		t.Errorf("gallery pick shows %v, not a solution", s)
	}

	// Export the board as SVG.
	run(t, ctx, chromedp.SetValue(chromedp.CSS("#export-format"), "svg"), chromedp.Click(chromedp.CSS("#export")),
		waitJS(`!document.querySelector("#export-link").hidden`))
	if s := text(t, ctx, "#export-result"); !strings.HasPrefix(s, "queens-8.svg: ") {
		t.Errorf("export result %q", s)
	}
}

// browserCancel sets the board to n = 17 and starts a count, waits for
// its first progress line (so the page is free while it counts) and
// cancels it.
func browserCancel(t *testing.T, ctx context.Context) {
	run(t, ctx, chromedp.SetValue(chromedp.CSS("#n"), "17"), void(chromedp.Evaluate[bool](`document.querySelector("#n").dispatchEvent(new Event("change"))`)),
		waitJS(`document.querySelectorAll("#board .sq[data-attacks]").length === 289`),
		chromedp.Click(chromedp.CSS("#count")), waitJS(`document.querySelector("#count-result").textContent.startsWith("Counting... ")`),
		chromedp.Click(chromedp.CSS("#count-cancel")), waitJS(`document.querySelector("#count-result").textContent === "Count cancelled."`))
}

// browserEdges cancels a count of n = 17, explains what the server would
// refuse without asking it, and fits a page 320 pixels wide.
func browserEdges(t *testing.T, ctx context.Context) {
	browserCancel(t, ctx)

	// What the server would refuse, the page explains without asking it.
	run(t, ctx, chromedp.SetValue(chromedp.CSS("#export-format"), "fen"), chromedp.Click(chromedp.CSS("#export")),
		waitJS(`document.querySelector("#export-result").textContent === "FEN is a chess board: n = 8 only."`))
	run(t, ctx, chromedp.Click(sqSel(3, 3)), chromedp.Click(sqSel(3, 9)),
		waitJS(`document.querySelectorAll("#board .sq.conflict").length === 2`),
		chromedp.Click(chromedp.CSS("#solve")),
		waitJS(`document.querySelector("#solve-result").textContent.startsWith("The queens attack each other")`))
	if s := text(t, ctx, "#status"); !strings.Contains(s, "4:4 and 4:10 share a row") {
		t.Errorf("status %q does not name the row conflict", s)
	}

	// 320 pixels wide: nothing sticks out sideways.
	run(t, ctx, chromedp.EmulateViewport(320, 700))
	run(t, ctx, waitJS(`window.innerWidth === 320`))
	width := eval[int](t, ctx, `document.documentElement.scrollWidth`)
	if width > 320 {
		t.Errorf("at 320 px the page is %d px wide", width)
	}
}

// checkAttacks compares the counts on the page with a walk from every
// queen along its eight directions.
func checkAttacks(t *testing.T, ctx context.Context, n int, queens [][]int) {
	t.Helper()
	got := eval[[][]int](t, ctx, fmt.Sprintf(`[...Array(%d).keys()].map(r => [...Array(%d).keys()].map(c =>
		+document.querySelector('#board .sq[data-row="' + r + '"][data-col="' + c + '"]').dataset.attacks))`, n, n))
	want := make([][]int, n)
	for r := range want {
		want[r] = make([]int, n)
	}
	for _, q := range queens {
		for _, d := range [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			for r, c := q[0]+d[0], q[1]+d[1]; r >= 0 && r < n && c >= 0 && c < n; r, c = r+d[0], c+d[1] {
				want[r][c]++
			}
		}
	}
	for _, q := range queens {
		want[q[0]][q[1]] = -1
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("attack counts on the page\n%v\nwant\n%v", got, want)
	}
	// The text of a free or attacked square is its number.
	shown := text(t, ctx, string(sqSel(7, 7)))
	if shown != fmt.Sprint(want[7][7]) {
		t.Errorf("square 8:8 shows %q, want %d", shown, want[7][7])
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// screenshot writes the board part of the page to docs/serve.png.
func screenshot(t *testing.T, ctx context.Context) {
	t.Helper()
	run(t, ctx, chromedp.EmulateViewport(560, 900))
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#play")))
	if err != nil {
		t.Fatal(err)
	}
	run(t, ctx, chromedp.EmulateViewport(1000, 1200))
	path := filepath.Join("..", "..", "docs", "serve.png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", path, len(png))
}

// TestBrowserClassroom drives what a course needs of the page: row and
// column labels, the step-through in column order told by the agents
// with the attack counts kept, the given queen blue and the search's
// black, n = 2 with no solution, and an export that draws the counts.
func TestBrowserClassroom(t *testing.T) {
	skipShort(t)
	ctx, jsErrors := browser(t)
	srv := httptest.NewServer(Handler(Options{}))
	defer srv.Close()
	run(t, ctx, chromedp.Navigate(srv.URL), waitJS(`document.querySelectorAll("#board .sq[data-attacks]").length === 64`))
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll("#col-labels span, #row-labels span")].map(s => s.textContent)`); len(got) != 16 || got[4] != "5" || got[12] != "5" {
		t.Errorf("labels %v, want 1..8 twice", got)
	}

	// A queen on 1:2, then the search in column order, told by the agents.
	run(t, ctx, chromedp.Click(sqSel(0, 1)), waitJS(`document.querySelector('`+string(sqSel(0, 1))+`').classList.contains("queen")`),
		chromedp.SetValue(chromedp.CSS("#trace-order"), "columns"), chromedp.SetValue(chromedp.CSS("#trace-narrate"), "agents"),
		chromedp.Click(chromedp.CSS("#trace-start")), waitJS(`document.querySelector("#trace-counter").textContent.startsWith("Step 1 of")`))
	w := do(t, Handler(Options{}), "POST", "/api/trace", `{"n":8,"queens":[[0,1]],"order":"columns","narrate":"agents","maxSteps":20}`)
	steps := decodeJSON[traceResponse](t, w).Steps
	for i := range 12 {
		run(t, ctx, waitJS(fmt.Sprintf(`document.querySelector("#trace-counter").textContent.startsWith("Step %d of")`, i+1)))
		if got := text(t, ctx, "#trace-text"); got != steps[i].Text {
			t.Errorf("step %d: %q, want %q", i+1, got, steps[i].Text)
		}
		// The attack counts stay: each empty square shows how many
		// queens of this step attack it.
		q := steps[i].Queens
		var qs []board.Queen
		for r, c := range q {
			if c >= 0 {
				qs = append(qs, board.Queen{Row: r, Col: c})
			}
		}
		want := board.Attacks(8, qs)
		got := eval[[]string](t, ctx, `[...document.querySelectorAll("#board .sq")].map(d => d.textContent)`)
		for k, v := range want {
			if v >= 0 && got[k] != fmt.Sprint(v) {
				t.Fatalf("step %d: square %d:%d shows %q, want %d", i+1, k/8+1, k%8+1, got[k], v)
			}
		}
		if i == 11 {
			break
		}
		run(t, ctx, chromedp.Click(chromedp.CSS("#trace-forward")))
	}
	if !eval[bool](t, ctx, `document.querySelector('`+string(sqSel(0, 1))+`').classList.contains("placed")`) ||
		eval[int](t, ctx, `document.querySelectorAll("#board .sq.queen.placed").length`) != 1 {
		t.Error("the given queen is not the one blue queen")
	}
	if *update {
		run(t, ctx, chromedp.EmulateViewport(560, 1400))
		png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("main")))
		if err != nil {
			t.Fatal(err)
		}
		run(t, ctx, chromedp.EmulateViewport(1000, 1200))
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "serve-trace.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, ctx, chromedp.Click(chromedp.CSS("#trace-stop")), waitJS(`document.querySelector("#trace-counter").textContent === ""`))

	// Export as SVG with the counts on: the page asks for them (and
	// TestTraceOptions checks that the server then draws them).
	eval[bool](t, ctx, `(() => { window.exportBodies = []; const f = window.fetch;
		window.fetch = (p, o) => { if (String(p).startsWith("/api/export")) exportBodies.push(o.body); return f(p, o); }; return true; })()`)
	run(t, ctx, chromedp.SetValue(chromedp.CSS("#export-format"), "svg"), chromedp.Click(chromedp.CSS("#export")),
		waitJS(`!document.querySelector("#export-link").hidden`))
	var sent struct {
		Numbers bool `json:"numbers"`
	}
	if err := json.Unmarshal([]byte(eval[string](t, ctx, `exportBodies[0]`)), &sent); err != nil || !sent.Numbers {
		t.Errorf("the export asks for no attack counts (%v) though the page shows them", err)
	}

	// n = 2: no solution, and the search says why.
	run(t, ctx, chromedp.SetValue(chromedp.CSS("#n"), "2"), void(chromedp.Evaluate[bool](`document.querySelector("#n").dispatchEvent(new Event("change"))`)),
		waitJS(`document.querySelectorAll("#board .sq[data-attacks]").length === 4`))
	if s := text(t, ctx, "#status"); !strings.Contains(s, "n = 2 has no solution") {
		t.Errorf("n = 2: status %q", s)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS("#trace-start")), waitJS(`document.querySelector("#trace-counter").textContent.startsWith("Step 1 of")`))
	for range 20 {
		if strings.Contains(text(t, ctx, "#trace-counter"), "the search is over") {
			break
		}
		run(t, ctx, chromedp.Click(chromedp.CSS("#trace-forward")))
		time.Sleep(50 * time.Millisecond)
	}
	if s := text(t, ctx, "#trace-text"); !strings.Contains(s, "there is no solution") {
		t.Errorf("n = 2, the last step: %q", s)
	}
	if errs := jsErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors: %v", errs)
	}
}

// TestBrowserLayout checks the page at the screens of a classroom, a
// 1366x768 laptop and a 1920x1080 monitor: once the trace section is
// scrolled to, the board, the step's text, the stack and the step
// controls are all on screen together; the arrow keys and Space step and
// play; the stack lists the recursive calls, and the iterative search's
// explicit stack. With -update it writes docs/serve-1366.png.
func TestBrowserLayout(t *testing.T) {
	skipShort(t)
	ctx, jsErrors := browser(t)
	srv := httptest.NewServer(Handler(Options{}))
	defer srv.Close()
	for _, size := range [][2]int{{1366, 768}, {1920, 1080}} {
		run(t, ctx, chromedp.EmulateViewport(int64(size[0]), int64(size[1])), chromedp.Navigate(srv.URL),
			waitJS(`document.querySelectorAll("#board .sq[data-attacks]").length === 64`),
			chromedp.Click(chromedp.CSS("#trace-start")), waitJS(`document.querySelector("#trace-counter").textContent.startsWith("Step 1 of")`),
			void(chromedp.Evaluate[bool](`document.querySelector("#trace-section").scrollIntoView(), true`)))
		t.Logf("%dx%d: first paint at %.0f ms", size[0], size[1], firstPaint(t, ctx))
		for _, sel := range []string{"#board", "#trace-text", "#trace-forward", "#trace-play", "#trace-stack", "#legend"} {
			box := eval[[]float64](t, ctx, `(() => { const r = document.querySelector("`+sel+`").getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; })()`)
			if box[0] < 0 || box[1] > float64(size[1]) || box[2] < 0 || box[3] > float64(size[0]) || box[1] <= box[0] {
				t.Errorf("%dx%d: %s at %v, off the screen", size[0], size[1], sel, box)
			}
		}
		if *update && size[0] == 1366 {
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("..", "..", "docs", "serve-1366.png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The keys, from the page (no control focused): right twice, left once.
	run(t, ctx, void(chromedp.Evaluate[bool](`document.activeElement.blur(), true`)),
		chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowLeft),
		waitJS(`document.querySelector("#trace-counter").textContent.startsWith("Step 2 of")`))
	// Step 2 of n = 8 rejects 2:1: the calls of rows 1 and 2.
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll("#trace-stack li")].map(li => li.textContent)`); strings.Join(got, "|") != "row 1 at 1:1|row 2 at 2:1" {
		t.Errorf("the call stack at step 2: %q", got)
	}
	run(t, ctx, chromedp.KeyEvent(" "), waitJS(`document.querySelector("#trace-play").textContent === "Pause"`),
		chromedp.KeyEvent(" "), waitJS(`document.querySelector("#trace-play").textContent === "Play"`))
	// The same search without recursion: its explicit stack.
	run(t, ctx, chromedp.Click(chromedp.CSS("#trace-stop")), chromedp.SetValue(chromedp.CSS("#trace-strategy"), "iterative"),
		chromedp.Click(chromedp.CSS("#trace-start")), waitJS(`document.querySelector("#trace-counter").textContent.startsWith("Step 1 of")`),
		chromedp.Click(chromedp.CSS("#trace-forward")), waitJS(`document.querySelector("#trace-counter").textContent.startsWith("Step 2 of")`))
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll("#trace-stack li")].map(li => li.textContent)`); strings.Join(got, "|") != "row 1: next 1:2|row 2: next 2:1" ||
		!strings.Contains(text(t, ctx, "#trace-stack-title"), "explicit stack") {
		t.Errorf("the explicit stack at step 2: %q", got)
	}
	if errs := jsErrors(); len(errs) > 0 {
		t.Errorf("JavaScript errors: %v", errs)
	}
}
