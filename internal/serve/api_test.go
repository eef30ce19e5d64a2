package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/testutil"
)

// do sends one request to h and returns the recorded answer.
func do(t *testing.T, h http.Handler, method, target, body string) *httptest.ResponseRecorder {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	req.Host = "localhost"
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func decodeJSON[T any](t *testing.T, w *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("answer %q is not JSON: %v", w.Body.String(), err)
	}
	return v
}

func TestAttacks(t *testing.T) {
	h := Handler(Options{})
	cases := []struct {
		n         int
		q         string
		conflicts []conflict
	}{
		{8, "", nil},
		{8, "0:3,4:4", nil},
		{8, "0:0,1:1", []conflict{{square{0, 0}, square{1, 1}, "diagonal"}}},
		{8, "0:0,0:5", []conflict{{square{0, 0}, square{0, 5}, "row"}}},
		{5, "0:4,4:4,3:1", []conflict{{square{0, 4}, square{4, 4}, "column"}, {square{0, 4}, square{3, 1}, "anti-diagonal"}}},
		{32, "31:31,0:0,5:17", []conflict{{square{31, 31}, square{0, 0}, "diagonal"}}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("n=%d/q=%s", tc.n, tc.q), func(t *testing.T) {
			w := do(t, h, "GET", fmt.Sprintf("/api/attacks?n=%d&q=%s", tc.n, tc.q), "")
			if w.Code != 200 {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			got := decodeJSON[attacksResponse](t, w)
			pairs, _ := parseQueensQuery(tc.q)
			// The same board by POST gives the same answer.
			body, _ := json.Marshal(request{N: tc.n, Queens: pairs})
			if w2 := do(t, h, "POST", "/api/attacks", string(body)); w2.Body.String() != w.Body.String() {
				t.Errorf("POST answer %s, GET answer %s", w2.Body, w.Body)
			}
			// Reference: walk from every queen along the 8 directions.
			want := make([][]int, tc.n)
			for r := range want {
				want[r] = make([]int, tc.n)
			}
			for _, p := range pairs {
				for _, d := range [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
					for r, c := p[0]+d[0], p[1]+d[1]; r >= 0 && r < tc.n && c >= 0 && c < tc.n; r, c = r+d[0], c+d[1] {
						want[r][c]++
					}
				}
			}
			for _, p := range pairs {
				want[p[0]][p[1]] = -1
			}
			if fmt.Sprint(got.Attacks) != fmt.Sprint(want) {
				t.Errorf("attacks\n%v\nwant\n%v", got.Attacks, want)
			}
			if fmt.Sprint(got.Conflicts) != fmt.Sprint(append([]conflict{}, tc.conflicts...)) {
				t.Errorf("conflicts %v, want %v", got.Conflicts, tc.conflicts)
			}
		})
	}
}

func TestSolve(t *testing.T) {
	h := Handler(Options{})
	cases := []struct {
		n      int
		queens [][]int
		none   bool
	}{
		{4, nil, false},
		{4, [][]int{{0, 0}}, true}, // no solution of n = 4 has a queen in a corner
		{8, [][]int{{0, 0}}, false},
		{8, [][]int{{2, 7}, {6, 1}}, false},
		{6, [][]int{{0, 0}, {1, 2}}, true},
		{32, nil, false},
		{32, [][]int{{0, 0}, {31, 1}, {15, 20}}, false},
	}
	for _, tc := range cases {
		for _, engine := range []string{"backtrack", "sat"} {
			t.Run(fmt.Sprintf("%s/n=%d/%v", engine, tc.n, tc.queens), func(t *testing.T) {
				body, _ := json.Marshal(request{N: tc.n, Queens: tc.queens, Engine: engine})
				w := do(t, h, "POST", "/api/solve", string(body))
				if w.Code != 200 {
					t.Fatalf("status %d: %s", w.Code, w.Body)
				}
				got := decodeJSON[solveResponse](t, w)
				if got.Engine != engine {
					t.Errorf("engine %q, want %q", got.Engine, engine)
				}
				qs, _ := boardOf(tc.n, tc.queens)
				if tc.n <= 8 {
					// The answer must agree with brute force.
					if none := len(testutil.Solutions(tc.n, qs)) == 0; none != tc.none {
						t.Fatalf("bad test case: brute force says no completion = %t", none)
					}
				}
				switch {
				case tc.none && got.Solution != nil:
					t.Errorf("solution %v, want none", got.Solution)
				case !tc.none && got.Solution == nil:
					t.Errorf("no solution, want one")
				case !tc.none && (!board.Valid(got.Solution) || !got.Solution.Contains(qs)):
					t.Errorf("solution %v is not a completion of %v", got.Solution, qs)
				}
				if tc.none && !strings.Contains(w.Body.String(), `"solution":null`) {
					t.Errorf("answer %s: want solution null", w.Body)
				}
			})
		}
	}
}

// countLines posts a count and returns its progress lines and last line.
func countLines(t *testing.T, h http.Handler, body string) (progress []countProgress, last map[string]any) {
	t.Helper()
	w := do(t, h, "POST", "/api/count", body)
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("Content-Type %q", ct)
	}
	lines := strings.Split(strings.TrimSpace(w.Body.String()), "\n")
	for _, l := range lines[:len(lines)-1] {
		var p countProgress
		if err := json.Unmarshal([]byte(l), &p); err != nil || p.Parts == 0 {
			t.Fatalf("progress line %q", l)
		}
		progress = append(progress, p)
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	return progress, last
}

func TestCount(t *testing.T) {
	h := Handler(Options{})
	for _, tc := range []struct {
		n      int
		queens [][]int
	}{{4, nil}, {6, nil}, {8, nil}, {8, [][]int{{0, 0}}}, {8, [][]int{{3, 3}, {0, 1}}}, {9, [][]int{{8, 8}}}} {
		t.Run(fmt.Sprintf("n=%d/%v", tc.n, tc.queens), func(t *testing.T) {
			body, _ := json.Marshal(request{N: tc.n, Queens: tc.queens})
			progress, last := countLines(t, h, string(body))
			if len(progress) == 0 {
				t.Errorf("no progress line")
			}
			qs, _ := boardOf(tc.n, tc.queens)
			sols := testutil.Solutions(tc.n, qs)
			if got := last["total"]; got != float64(len(sols)) {
				t.Errorf("total %v, want %d", got, len(sols))
			}
			if len(qs) > 0 {
				if _, ok := last["unique"]; ok {
					t.Errorf("unique given with pre-placed queens: %v", last)
				}
				return
			}
			all, rot := orbits(sols)
			if last["unique"] != float64(all) || last["rotations"] != float64(rot) {
				t.Errorf("unique %v, rotations %v; want %d, %d", last["unique"], last["rotations"], all, rot)
			}
		})
	}
}

// TestRotationClasses checks the shortcut of rotationClasses against
// orbit counting over every solution, n = 1..10.
func TestRotationClasses(t *testing.T) {
	for n := 1; n <= 10; n++ {
		sols := testutil.Solutions(n, nil)
		all, rot := orbits(sols)
		if got := rotationClasses(n, all); got != rot {
			t.Errorf("rotationClasses(%d, %d) = %d, want %d (orbits)", n, all, got, rot)
		}
	}
}

// orbits counts the classes of sols directly, by orbit: under all eight
// symmetries of the square (all) and under its four rotations (rot).
func orbits(sols []board.Solution) (all, rot uint64) {
	seen := map[string]bool{}
	for _, s := range sols {
		if !seen[key(s)] {
			all++
			for _, tr := range board.Transforms() {
				seen[key(tr.Apply(s))] = true
			}
		}
	}
	return all, testutil.RotationClasses(sols)
}

// cliGolden reads a golden file of the trace command.
func cliGolden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../cli/testdata", name))
	if err != nil {
		t.Fatalf("golden file of the trace command: %v", err)
	}
	return string(b)
}

// TestTraceMatchesCLI checks the steps against the trace command's golden
// files: the JSON of the whole n = 4 search and the words of its text.
func TestTraceMatchesCLI(t *testing.T) {
	h := Handler(Options{})
	w := do(t, h, "POST", "/api/trace", `{"n":4,"queens":[],"maxSteps":5000}`)
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	got := decodeJSON[traceResponse](t, w)
	if got.Stopped {
		t.Errorf("stopped: the whole n = 4 search has fewer than 5000 steps")
	}
	type cliStep struct {
		Event    string         `json:"event"`
		Row      *int           `json:"row"`
		Col      *int           `json:"col"`
		Attacker *square        `json:"attacker"`
		Line     string         `json:"line"`
		Solution int            `json:"solution"`
		Queens   board.Solution `json:"queens"`
	}
	var want []cliStep
	for l := range strings.SplitSeq(cliGolden(t, "trace-4-all-json.txt"), "\n") {
		if !strings.HasPrefix(l, `{"step"`) {
			continue
		}
		var st cliStep
		if err := json.Unmarshal([]byte(l), &st); err != nil {
			t.Fatal(err)
		}
		want = append(want, st)
	}
	if len(got.Steps) != len(want) {
		t.Fatalf("%d steps, the CLI has %d", len(got.Steps), len(want))
	}
	for i, g := range got.Steps {
		wt := want[i]
		ok := g.Kind == wt.Event && g.Line == wt.Line && g.Solution == wt.Solution && g.Queens.Equal(wt.Queens) &&
			(wt.Row == nil || *wt.Row == g.Row) && (wt.Col == nil || *wt.Col == g.Col) &&
			(wt.Attacker == nil) == (g.By == nil) && (wt.Attacker == nil || *wt.Attacker == *g.By)
		if !ok {
			t.Errorf("step %d: %+v, the CLI has %+v", i+1, g, wt)
		}
	}
	// The words: the text trace of n = 4 (up to the first solution).
	n := 0
	for l := range strings.SplitSeq(cliGolden(t, "trace-4.txt"), "\n") {
		num, text, ok := strings.Cut(strings.TrimLeft(l, " "), "  ")
		if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
			continue
		}
		if got.Steps[n].Text != text {
			t.Errorf("step %s: %q, the CLI says %q", num, got.Steps[n].Text, text)
		}
		n++
	}
	if n < 20 {
		t.Errorf("only %d text steps compared", n)
	}
}

func TestTracePlacedAndLimit(t *testing.T) {
	h := Handler(Options{})
	// A pre-placed queen that leaves row 2 of n = 4 only dead ends is
	// still traced; the golden n = 3 case has n < 4, so check the words.
	w := do(t, h, "POST", "/api/trace", `{"n":4,"queens":[[0,1]],"maxSteps":3}`)
	got := decodeJSON[traceResponse](t, w)
	if len(got.Steps) != 3 || !got.Stopped {
		t.Fatalf("%d steps, stopped %t; want 3, true", len(got.Steps), got.Stopped)
	}
	want := []string{
		"try 2:1  rejected: attacked by the queen at 1:2 along the anti-diagonal",
		"try 2:2  rejected: attacked by the queen at 1:2 along the column",
		"try 2:3  rejected: attacked by the queen at 1:2 along the diagonal",
	}
	for i, st := range got.Steps {
		if st.Text != want[i] {
			t.Errorf("step %d: %q, want %q", i+1, st.Text, want[i])
		}
		if st.Queens[0] != 1 {
			t.Errorf("step %d: queens %v lost the pre-placed queen", i+1, st.Queens)
		}
	}
	// A full board: nothing to try.
	w = do(t, h, "POST", "/api/trace", `{"n":4,"queens":[[0,1],[1,3],[2,0],[3,2]]}`)
	if got := decodeJSON[traceResponse](t, w); len(got.Steps) != 1 || got.Steps[0].Kind != "solution" {
		t.Errorf("full board: %+v, want one solution step", got)
	}
	// Pieces from "from" on join up to the whole trace.
	w = do(t, h, "POST", "/api/trace", `{"n":6,"queens":[],"maxSteps":5000}`)
	whole := decodeJSON[traceResponse](t, w)
	var pieces []traceStep
	for from := 0; ; from += 700 {
		w = do(t, h, "POST", "/api/trace", fmt.Sprintf(`{"n":6,"queens":[],"from":%d,"maxSteps":700}`, from))
		piece := decodeJSON[traceResponse](t, w)
		pieces = append(pieces, piece.Steps...)
		if !piece.Stopped {
			break
		}
	}
	if a, b := mustJSON(t, pieces), mustJSON(t, whole.Steps); whole.Stopped || a != b {
		t.Errorf("the trace in pieces of 700 differs from the whole (%d and %d steps)", len(pieces), len(whole.Steps))
	}
	// n = 32: the limit keeps the answer small.
	w = do(t, h, "POST", "/api/trace", `{"n":32,"queens":[],"maxSteps":5000}`)
	if got := decodeJSON[traceResponse](t, w); len(got.Steps) != 5000 || !got.Stopped {
		t.Errorf("n = 32: %d steps, stopped %t", len(got.Steps), got.Stopped)
	}
}

func TestGallery(t *testing.T) {
	h := Handler(Options{})
	published := map[int][2]int{4: {2, 1}, 5: {10, 2}, 6: {4, 1}, 7: {40, 6}, 8: {92, 12}, 9: {352, 46}, 10: {724, 92}}
	for n := 4; n <= 10; n++ {
		w := do(t, h, "GET", fmt.Sprintf("/api/gallery?n=%d", n), "")
		if w.Code != 200 {
			t.Fatalf("n=%d: status %d: %s", n, w.Code, w.Body)
		}
		got := decodeJSON[galleryResponse](t, w)
		if got.Total != published[n][0] || len(got.Classes) != published[n][1] {
			t.Errorf("n=%d: %d solutions in %d classes, want %v", n, got.Total, len(got.Classes), published[n])
		}
		if got.RotationClasses != int(rotationClasses(n, uint64(published[n][1]))) {
			t.Errorf("n=%d: %d rotation classes", n, got.RotationClasses)
		}
		seen := map[string]bool{}
		for i, class := range got.Classes {
			if len(class) != 8 && len(class) != 4 && len(class) != 2 {
				t.Errorf("n=%d class %d: %d images", n, i, len(class))
			}
			canon := board.Canonical(class[0])
			if !canon.Equal(class[0]) {
				t.Errorf("n=%d class %d starts with %v, not its canonical form %v", n, i, class[0], canon)
			}
			for _, s := range class {
				if !board.Valid(s) || !board.Canonical(s).Equal(canon) || seen[key(s)] {
					t.Errorf("n=%d class %d: %v invalid, in another class or twice", n, i, s)
				}
				seen[key(s)] = true
			}
		}
		if len(seen) != len(testutil.Solutions(n, nil)) {
			t.Errorf("n=%d: %d distinct solutions, brute force finds %d", n, len(seen), len(testutil.Solutions(n, nil)))
		}
	}
	if w := do(t, h, "GET", "/api/gallery?n=12", ""); w.Code != 200 || decodeJSON[galleryResponse](t, w).Total != 14200 {
		t.Errorf("n=12: status %d", w.Code)
	}
}

func TestExport(t *testing.T) {
	h := Handler(Options{})
	sol := `{"n":8,"queens":[[0,0],[1,4],[2,7],[3,5],[4,2],[5,6],[6,1],[7,3]]}`
	partial := `{"n":8,"queens":[[0,0],[4,2]]}`
	for _, tc := range []struct{ format, body, ctype, want string }{
		{"svg", partial, "image/svg+xml", "<svg"},
		{"png", partial, "image/png", "\x89PNG\r\n"},
		{"fen", sol, "text/plain; charset=utf-8", "Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4 w - - 0 1\n"},
		{"fen", partial, "text/plain; charset=utf-8", "Q7/8/8/8/2Q5/8/8/8 w - - 0 1\n"},
		{"dimacs", partial, "text/plain; charset=utf-8", "c N-Queens"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			w := do(t, h, "POST", "/api/export?format="+tc.format, tc.body)
			if w.Code != 200 {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			if ct := w.Header().Get("Content-Type"); ct != tc.ctype {
				t.Errorf("Content-Type %q, want %q", ct, tc.ctype)
			}
			if cd := w.Header().Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment; filename=\"queens-8.") {
				t.Errorf("Content-Disposition %q", cd)
			}
			if tc.format == "fen" && w.Body.String() != tc.want || !strings.HasPrefix(w.Body.String(), tc.want) {
				t.Errorf("body starts %.40q, want %q", w.Body.String(), tc.want)
			}
			if tc.format == "dimacs" {
				cnf, err := encode.ReadDIMACS(w.Body)
				if err != nil {
					t.Fatal(err)
				}
				// The units are the two queens, 1-based variables.
				units := map[int]bool{}
				for _, c := range cnf.Clauses {
					if len(c) == 1 {
						units[c[0]] = true
					}
				}
				if len(units) != 2 || !units[encode.Var(8, 0, 0)] || !units[encode.Var(8, 4, 2)] {
					t.Errorf("unit clauses %v", units)
				}
			}
		})
	}
}

// TestHostile sends the requests a careless or hostile client might.
func TestHostile(t *testing.T) {
	h := Handler(Options{})
	big := `{"n":8,"queens":[` + strings.Repeat("[0,0],", 20000) + `[0,0]]}`
	cases := []struct {
		name, method, target, ctype, body string
		status                            int
	}{
		{"no content type", "POST", "/api/solve", "", `{"n":8,"queens":[],"engine":"sat"}`, 415},
		{"form post", "POST", "/api/solve", "application/x-www-form-urlencoded", `n=8`, 415},
		{"not JSON", "POST", "/api/solve", "application/json", `{"n":8,`, 400},
		{"unknown field", "POST", "/api/solve", "application/json", `{"n":8,"queens":[],"engine":"sat","x":1}`, 400},
		{"two values", "POST", "/api/solve", "application/json", `{"n":8,"queens":[],"engine":"sat"} {}`, 400},
		{"body too big", "POST", "/api/count", "application/json", big, 413},
		{"n too small", "POST", "/api/solve", "application/json", `{"n":0,"queens":[],"engine":"sat"}`, 400},
		{"n too big", "POST", "/api/solve", "application/json", `{"n":33,"queens":[],"engine":"sat"}`, 400},
		{"n huge", "POST", "/api/solve", "application/json", `{"n":99999999999999999999,"queens":[]}`, 400},
		{"n negative", "GET", "/api/attacks?n=-8", "", "", 400},
		{"n missing", "GET", "/api/attacks", "", "", 400},
		{"n not a number", "POST", "/api/solve", "application/json", `{"n":"8","queens":[]}`, 400},
		{"queen off board", "POST", "/api/solve", "application/json", `{"n":8,"queens":[[8,0]],"engine":"sat"}`, 400},
		{"queen negative", "GET", "/api/attacks?n=8&q=-1:0", "", "", 400},
		{"queen bad query", "GET", "/api/attacks?n=8&q=1-2", "", "", 400},
		{"queen three numbers", "POST", "/api/attacks", "application/json", `{"n":8,"queens":[[1,2,3]]}`, 400},
		{"queen twice", "POST", "/api/attacks", "application/json", `{"n":8,"queens":[[1,2],[1,2]]}`, 400},
		{"too many queens", "POST", "/api/attacks", "application/json", `{"n":4,"queens":[` + strings.Repeat("[0,0],", 16) + `[0,0]]}`, 400},
		{"conflict solve", "POST", "/api/solve", "application/json", `{"n":8,"queens":[[0,0],[1,1]],"engine":"sat"}`, 422},
		{"conflict count", "POST", "/api/count", "application/json", `{"n":8,"queens":[[0,0],[0,5]]}`, 422},
		{"conflict trace", "POST", "/api/trace", "application/json", `{"n":8,"queens":[[0,0],[7,0]]}`, 422},
		{"conflict dimacs", "POST", "/api/export?format=dimacs", "application/json", `{"n":8,"queens":[[0,0],[7,7]]}`, 422},
		{"two in a row svg", "POST", "/api/export?format=svg", "application/json", `{"n":8,"queens":[[0,0],[0,7]]}`, 422},
		{"fen not 8", "POST", "/api/export?format=fen", "application/json", `{"n":9,"queens":[]}`, 422},
		{"bad export format", "POST", "/api/export?format=pdf", "application/json", `{"n":8,"queens":[]}`, 400},
		{"bad engine", "POST", "/api/solve", "application/json", `{"n":8,"queens":[],"engine":"rm -rf"}`, 400},
		{"no engine", "POST", "/api/solve", "application/json", `{"n":8,"queens":[]}`, 400},
		{"count too big", "POST", "/api/count", "application/json", `{"n":18,"queens":[]}`, 422},
		{"count too big placed", "POST", "/api/count", "application/json", `{"n":32,"queens":[[0,0]]}`, 422},
		{"trace steps negative", "POST", "/api/trace", "application/json", `{"n":8,"queens":[],"maxSteps":-1}`, 400},
		{"trace from negative", "POST", "/api/trace", "application/json", `{"n":8,"queens":[],"from":-1}`, 400},
		{"trace from huge", "POST", "/api/trace", "application/json", `{"n":8,"queens":[],"from":1000000000}`, 400},
		{"trace steps huge", "POST", "/api/trace", "application/json", `{"n":8,"queens":[],"maxSteps":100000000}`, 400},
		{"gallery too big", "GET", "/api/gallery?n=13", "", "", 400},
		{"gallery n missing", "GET", "/api/gallery", "", "", 400},
		{"GET solve", "GET", "/api/solve", "", "", 405},
		{"POST gallery", "POST", "/api/gallery?n=8", "application/json", `{}`, 405},
		{"DELETE attacks", "DELETE", "/api/attacks?n=8", "", "", 405},
		{"unknown endpoint", "GET", "/api/nothing", "", "", 404},
		{"unknown file", "GET", "/etc/passwd", "", "", 404},
		{"source file", "GET", "/serve.go", "", "", 404},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			req := httptest.NewRequest(tc.method, tc.target, body)
			req.Host = "127.0.0.1:8080"
			if tc.ctype != "" {
				req.Header.Set("Content-Type", tc.ctype)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != tc.status {
				t.Errorf("status %d, want %d: %s", w.Code, tc.status, w.Body)
			}
			if w.Code != 404 || strings.HasPrefix(tc.target, "/api/") {
				if e := decodeJSON[map[string]string](t, w)["error"]; e == "" {
					t.Errorf("answer %s has no error message", w.Body)
				}
			}
		})
	}
}

func TestHeadersAndHosts(t *testing.T) {
	h := Handler(Options{})
	for _, path := range []string{"/", "/app.js", "/style.css", "/favicon.svg", "/api/attacks?n=8"} {
		w := do(t, h, "GET", path, "")
		if w.Code != 200 {
			t.Errorf("%s: status %d", path, w.Code)
		}
		if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		if w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", path)
		}
	}
	if w := do(t, h, "GET", "/", ""); !strings.Contains(w.Body.String(), `<script src="app.js"`) || strings.Contains(w.Body.String(), "<script>") {
		t.Errorf("the page must load its script from app.js and have no inline script")
	}
	for _, tc := range []struct {
		host, origin string
		anyHost      bool
		status       int
	}{
		{"localhost:8080", "", false, 200},
		{"127.0.0.1:8080", "http://127.0.0.1:8080", false, 200},
		{"[::1]:8080", "", false, 200},
		{"evil.example:8080", "", false, 403}, // DNS rebinding
		{"evil.example:8080", "", true, 200},
		{"127.0.0.1:8080", "http://evil.example", false, 403}, // cross-origin POST
	} {
		req := httptest.NewRequest("POST", "/api/attacks", strings.NewReader(`{"n":8,"queens":[]}`))
		req.Host = tc.host
		req.Header.Set("Content-Type", "application/json")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		w := httptest.NewRecorder()
		Handler(Options{AnyHost: tc.anyHost}).ServeHTTP(w, req)
		if w.Code != tc.status {
			t.Errorf("Host %s Origin %q anyHost %t: status %d, want %d", tc.host, tc.origin, tc.anyHost, w.Code, tc.status)
		}
	}
}

// slowCount starts a count of n = 17 (seconds of work) on srv and returns
// once its first progress line arrived, with the function that cancels it.
func slowCount(t *testing.T, url string) (cancel func(), done <-chan struct{}) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", url+"/api/count", strings.NewReader(`{"n":17,"queens":[]}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		cancel()
		t.Fatalf("status %d", res.StatusCode)
	}
	br := bufio.NewReader(res.Body)
	if _, err := br.ReadString('\n'); err != nil {
		cancel()
		t.Fatal(err)
	}
	ch := make(chan struct{})
	go func() { io.Copy(io.Discard, br); res.Body.Close(); close(ch) }()
	return cancel, ch
}

// TestBusyAndCancel checks the limit on heavy requests and that a client
// going away stops its count: the token comes back within seconds, long
// before the count (seconds of work on all cores) would end.
func TestBusyAndCancel(t *testing.T) {
	var mu sync.Mutex
	finished := 0
	inner := Handler(Options{MaxHeavy: 1})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner.ServeHTTP(w, r)
		mu.Lock()
		finished++
		mu.Unlock()
	}))
	defer srv.Close()
	cancel, done := slowCount(t, srv.URL)
	res, err := http.Post(srv.URL+"/api/solve", "application/json", strings.NewReader(`{"n":8,"queens":[],"engine":"sat"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Errorf("second heavy request: status %d, want 429 with Retry-After", res.StatusCode)
	}
	// Light requests still pass.
	if res, err := http.Get(srv.URL + "/api/attacks?n=8"); err != nil || res.StatusCode != 200 {
		t.Errorf("attacks while busy: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	mu.Lock()
	before := finished
	mu.Unlock()
	cancel()
	<-done
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		f := finished
		mu.Unlock()
		if f > before {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the count went on after its client went away")
		}
		time.Sleep(20 * time.Millisecond)
	}
	res, err = http.Post(srv.URL+"/api/solve", "application/json", strings.NewReader(`{"n":8,"queens":[],"engine":"sat"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("after the cancel: status %d, want 200", res.StatusCode)
	}
}

func TestTimeout(t *testing.T) {
	h := Handler(Options{Timeout: 50 * time.Millisecond})
	w := do(t, h, "POST", "/api/count", `{"n":17,"queens":[]}`)
	lines := strings.Split(strings.TrimSpace(w.Body.String()), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"error":"no answer within 50ms"`) {
		t.Errorf("last line %q, want the time limit", last)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		addr string
		warn bool
	}{{"127.0.0.1:0", false}, {"0.0.0.0:0", true}} {
		t.Run(tc.addr, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var stderr syncBuffer
			errc := make(chan error, 1)
			go func() { errc <- Run(ctx, tc.addr, false, &stderr) }()
			var url string
			for deadline := time.Now().Add(5 * time.Second); url == ""; {
				if _, rest, ok := strings.Cut(stderr.String(), "queens serve: http://"); ok {
					url = "http://" + strings.Fields(rest)[0]
				} else if time.Now().After(deadline) {
					t.Fatalf("no URL printed: %q", stderr.String())
				} else {
					time.Sleep(10 * time.Millisecond)
				}
			}
			if warned := strings.Contains(stderr.String(), "warning"); warned != tc.warn {
				t.Errorf("stderr %q: warning %t, want %t", stderr.String(), warned, tc.warn)
			}
			res, err := http.Get(url)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Errorf("GET %s: status %d", url, res.StatusCode)
			}
			cancel()
			waitRun(t, errc, "after cancel")
		})
	}
	if err := Run(context.Background(), "256.0.0.1:0", false, io.Discard); err == nil {
		t.Errorf("Run on a bad address: no error")
	}
	// A port taken: the error says how to pick a free one.
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	if err := Run(context.Background(), busy.Addr().String(), false, io.Discard); err == nil || !strings.Contains(err.Error(), "--addr 127.0.0.1:0 picks a free one") {
		t.Errorf("Run on a busy port: %v", err)
	}
}

// TestRunShutdownStopsCount cancels Run while a count streams: the count
// stops and Run returns, long before the count would end.
func TestRunShutdownStopsCount(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	errc := make(chan error, 1)
	go func() { errc <- Run(ctx, "127.0.0.1:0", false, &stderr) }()
	var url string
	for deadline := time.Now().Add(5 * time.Second); url == ""; {
		if _, rest, ok := strings.Cut(stderr.String(), "queens serve: http://"); ok {
			url = "http://" + strings.TrimSuffix(strings.Fields(rest)[0], "/")
		} else if time.Now().After(deadline) {
			t.Fatalf("no URL printed: %q", stderr.String())
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
	stop, done := slowCount(t, url)
	defer stop()
	start := time.Now()
	cancel()
	waitRun(t, errc, "while a count was running")
	<-done
	t.Logf("shut down in %v", time.Since(start))
}

// FuzzRequest sends arbitrary bodies to the endpoints: every answer has
// status 200, 4xx or 503 (time limit), never a panic or a 500.
func FuzzRequest(f *testing.F) {
	endpoints := []string{"attacks", "solve", "count", "trace", "export?format=svg", "export?format=png",
		"export?format=fen", "export?format=dimacs", "gallery?n=8"}
	f.Add(uint8(1), `{"n":8,"queens":[[0,0]],"engine":"sat"}`)
	f.Add(uint8(1), `{"n":5,"queens":[[0,0],[1,2]],"engine":"backtrack"}`)
	f.Add(uint8(3), `{"n":4,"queens":[[1,1]],"maxSteps":10,"from":3}`)
	f.Add(uint8(2), `{"n":6,"queens":[[5,5]]}`)
	f.Add(uint8(0), `{"n":4,"queens":[[0,0],[0,0]]}`)
	f.Add(uint8(6), `{"n":8,"queens":[[7,7]]}`)
	f.Add(uint8(7), `{"n":4,"queens":[[3,-1]]}`)
	f.Add(uint8(0), `{"n":1e9,"queens":[[0]]}`)
	f.Add(uint8(1), `[]`)
	f.Add(uint8(2), `{"n":8,"queens":[[0,0]],"queens":null}`)
	h := Handler(Options{Timeout: time.Second})
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		endpoint := endpoints[int(which)%len(endpoints)]
		req := httptest.NewRequest("POST", "/api/"+endpoint, strings.NewReader(body))
		req.Host = "localhost"
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 && (w.Code < 400 || w.Code > 499) && w.Code != 503 {
			t.Errorf("POST /api/%s %q: status %d: %s", endpoint, body, w.Code, w.Body)
		}
	})
}

// TestTraceOptions: the step-through takes the trace command's order,
// narration and strategy, tells the steps as the CLI does, refuses
// unknown values, and boards of n = 1..3 are traced too.
func TestTraceOptions(t *testing.T) {
	h := Handler(Options{})
	w := do(t, h, "POST", "/api/trace", `{"n":4,"queens":[],"order":"columns","narrate":"agents","maxSteps":40}`)
	got := decodeJSON[traceResponse](t, w)
	nr := backtrack.Narrator{Order: backtrack.Columns}
	var want []backtrack.Step
	backtrack.Search(context.Background(), 4, backtrack.Options{Strategy: backtrack.Lex, Order: backtrack.Columns, Observe: func(e backtrack.Event) {
		want = append(want, nr.Event(e)...)
	}}, func(board.Solution) bool { return true })
	if len(got.Steps) != 40 {
		t.Fatalf("%d steps, want 40", len(got.Steps))
	}
	for i, st := range got.Steps {
		if st.Text != want[i].AgentText() || st.Row != want[i].Row || st.Col != want[i].Col {
			t.Fatalf("step %d: %+v, want %q at %d:%d", i+1, st, want[i].AgentText(), want[i].Row, want[i].Col)
		}
	}
	w = do(t, h, "POST", "/api/trace", `{"n":4,"queens":[],"strategy":"generate","maxSteps":5}`)
	if got := decodeJSON[traceResponse](t, w); len(got.Steps) != 5 || got.Steps[4].Kind != "fail" || got.Steps[4].By == nil {
		t.Errorf("generate: %+v", got.Steps)
	}
	w = do(t, h, "POST", "/api/trace", `{"n":2,"queens":[],"narrate":"agents"}`)
	if got := decodeJSON[traceResponse](t, w); len(got.Steps) == 0 || !strings.Contains(got.Steps[len(got.Steps)-1].Text, "there is no solution") {
		t.Errorf("n = 2: %+v", got.Steps)
	}
	for _, body := range []string{
		`{"n":8,"queens":[],"order":"diagonals"}`,
		`{"n":8,"queens":[],"narrate":"poems"}`,
		`{"n":8,"queens":[],"strategy":"heuristic"}`,
		`{"n":11,"queens":[],"strategy":"generate"}`,
		`{"n":8,"queens":[],"strategy":"cells","narrate":"agents"}`,
		`{"n":4,"queens":[],"strategy":"generate","narrate":"agents"}`,
	} {
		if w := do(t, h, "POST", "/api/trace", body); w.Code/100 != 4 {
			t.Errorf("%s: status %d, want 4xx", body, w.Code)
		}
	}
	w = do(t, h, "POST", "/api/export?format=svg", `{"n":4,"queens":[[0,1],[1,3]],"numbers":true,"placed":[[0,1]]}`)
	if svg := w.Body.String(); w.Code != 200 || !strings.Contains(svg, `class="attacks"`) || !strings.Contains(svg, `class="queen placed"`) {
		t.Errorf("export with numbers: %d %s", w.Code, svg)
	}
}

// waitRun waits for Run, its context cancelled, to return its error on
// errc: nil within 10 s, or the test fails, naming when that was.
func waitRun(t *testing.T, errc <-chan error, when string) {
	t.Helper()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("Run = %v %s, want nil", err, when)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("Run did not return %s", when)
	}
}
