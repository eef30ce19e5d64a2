package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/board/draw"
)

// Limits of the API: each keeps one request from holding the machine.
const (
	minN          = 1                // n = 2 and 3 have no solution: the page says so
	maxN          = 32               // the board of the page
	galleryMaxN   = 12               // 14,200 solutions in 1,787 classes
	countMaxEmpty = 17               // empty rows a count may fill: n = 17 takes seconds on 2 cores
	traceMaxSteps = 5000             // steps of one trace request
	traceDefSteps = 1000             // when maxSteps is 0
	traceMaxFrom  = 1000000          // steps a trace request may skip: a fraction of a second
	maxBody       = 64 << 10         // bytes of a request body
	bodyTime      = 10 * time.Second // to send a request body
)

// square is a square of the board, 0-based, as the API writes it.
type square struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

// request is the body of every POST: the board and what the operation
// needs besides.
type request struct {
	N        int     `json:"n"`
	Queens   [][]int `json:"queens"`
	Engine   string  `json:"engine,omitempty"`   // solve
	MaxSteps int     `json:"maxSteps,omitempty"` // trace
	From     int     `json:"from,omitempty"`     // trace: steps to skip
	Order    string  `json:"order,omitempty"`    // trace: rows (the default) or columns
	Narrate  string  `json:"narrate,omitempty"`  // trace: steps (the default) or agents
	Strategy string  `json:"strategy,omitempty"` // trace: lex (the default), iterative, cells or generate
	Numbers  bool    `json:"numbers,omitempty"`  // export: write the attack counts in the squares
	Placed   [][]int `json:"placed,omitempty"`   // export: the queens given beforehand, drawn blue
}

// api holds the state the handlers share.
type api struct {
	tokens  chan struct{} // one token per heavy request running
	timeout time.Duration
}

// httpError is an error with the status it answers.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) *httpError {
	return &httpError{status, fmt.Sprintf(format, args...)}
}

// fail answers {"error": msg} with status.
func fail(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func failErr(w http.ResponseWriter, err error) {
	var he *httpError
	if errors.As(err, &he) {
		fail(w, he.status, he.msg)
		return
	}
	fail(w, http.StatusInternalServerError, err.Error())
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// heavy runs h if a heavy-request token is free, with the request's
// context bounded by the time limit; otherwise it answers 429.
func (a *api) heavy(h func(w http.ResponseWriter, r *http.Request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case a.tokens <- struct{}{}:
			defer func() { <-a.tokens }()
		default:
			w.Header().Set("Retry-After", "1")
			fail(w, http.StatusTooManyRequests, "too many requests at once: try again in a moment")
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), a.timeout)
		defer cancel()
		h(w, r.WithContext(ctx))
	}
}

// heavyPost is heavy for POST requests only. The body is read whole
// before a heavy-request token is taken, so that a client sending it
// slowly holds no token (only its own connection, for at most bodyTime).
func (a *api) heavyPost(h func(w http.ResponseWriter, r *http.Request)) http.HandlerFunc {
	inner := a.heavy(h)
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			fail(w, http.StatusMethodNotAllowed, "use POST with a JSON body")
			return
		}
		if err := readBody(w, r); err != nil {
			w.Header().Set("Connection", "close") // the rest of the body is not waited for
			failErr(w, err)
			return
		}
		inner(w, r)
	}
}

// readBody reads the body of r into memory (at most maxBody bytes,
// within bodyTime) and puts it back as r.Body: 413 for a larger one,
// whatever it holds, 408 for one not sent in time.
func readBody(w http.ResponseWriter, r *http.Request) error {
	if r.ContentLength > maxBody {
		return errorf(http.StatusRequestEntityTooLarge, "the body is over %d bytes", maxBody)
	}
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(bodyTime)) // not every writer has one
	defer rc.SetReadDeadline(time.Time{})
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return errorf(http.StatusRequestEntityTooLarge, "the body is over %d bytes", maxBody)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return errorf(http.StatusRequestTimeout, "the body took more than %v to arrive", bodyTime)
	case err != nil:
		return errorf(http.StatusBadRequest, "cannot read the body: %v", err)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return nil
}

// decodePeaceful decodes the request of r (see decode) and its queens,
// which must be on the board, one per row, and attack no other.
func decodePeaceful(w http.ResponseWriter, r *http.Request) (*request, []board.Queen, error) {
	req, err := decode(w, r)
	if err != nil {
		return nil, nil, err
	}
	qs, err := boardOf(req.N, req.Queens)
	if err == nil {
		err = peaceful(req.N, qs)
	}
	return req, qs, err
}

// decode reads the JSON body of r strictly: application/json, at most
// maxBody bytes, one object, no unknown fields.
func decode(w http.ResponseWriter, r *http.Request) (*request, error) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return nil, errorf(http.StatusUnsupportedMediaType, "the body must be application/json")
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	var req request
	if err := dec.Decode(&req); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, errorf(http.StatusRequestEntityTooLarge, "the body is over %d bytes", maxBody)
		}
		return nil, errorf(http.StatusBadRequest, "bad JSON body: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errorf(http.StatusBadRequest, "bad JSON body: more than one value")
	}
	return &req, nil
}

// boardOf checks n and the queens of req: n in minN..maxN, each queen a
// [row, col] pair on the board, no square twice.
func boardOf(n int, pairs [][]int) ([]board.Queen, error) {
	if n < minN || n > maxN {
		return nil, errorf(http.StatusBadRequest, "n = %d: the board is %d..%d squares wide", n, minN, maxN)
	}
	if len(pairs) > n*n {
		return nil, errorf(http.StatusBadRequest, "%d queens do not fit on a %dx%d board", len(pairs), n, n)
	}
	seen := make([]bool, n*n)
	qs := make([]board.Queen, 0, len(pairs))
	for _, p := range pairs {
		if len(p) != 2 {
			return nil, errorf(http.StatusBadRequest, "a queen is [row, col], not %v", p)
		}
		q := board.Queen{Row: p[0], Col: p[1]}
		if q.Row < 0 || q.Row >= n || q.Col < 0 || q.Col >= n {
			return nil, errorf(http.StatusBadRequest, "queen [%d, %d] is off the %dx%d board (0-based)", q.Row, q.Col, n, n)
		}
		if seen[q.Row*n+q.Col] {
			return nil, errorf(http.StatusBadRequest, "queen [%d, %d] is given twice", q.Row, q.Col)
		}
		seen[q.Row*n+q.Col] = true
		qs = append(qs, q)
	}
	return qs, nil
}

// peaceful checks that no two queens attack each other, as the engines
// need.
func peaceful(n int, qs []board.Queen) error {
	if cs := attackMatrix(n, qs).Conflicts; len(cs) > 0 {
		c := cs[0]
		return errorf(http.StatusUnprocessableEntity, "the queens at %s and %s attack each other along a %s: remove one of them first",
			board.Queen{Row: c.A.Row, Col: c.A.Col}, board.Queen{Row: c.B.Row, Col: c.B.Col}, c.Line)
	}
	return nil
}

// rows returns the queens as a board, -1 for a row without a queen, or an
// error if a row holds two.
func rows(n int, qs []board.Queen) (board.Solution, error) {
	s := make(board.Solution, n)
	for i := range s {
		s[i] = -1
	}
	for _, q := range qs {
		if s[q.Row] >= 0 {
			return nil, errorf(http.StatusUnprocessableEntity, "row %d holds two queens: remove one of them first", q.Row+1)
		}
		s[q.Row] = q.Col
	}
	return s, nil
}

// parseQueensQuery reads "0:3,4:4" (0-based row:col pairs).
func parseQueensQuery(text string) ([][]int, error) {
	var pairs [][]int
	if text == "" {
		return nil, nil
	}
	for f := range strings.SplitSeq(text, ",") {
		r, c, ok := strings.Cut(f, ":")
		row, err1 := strconv.Atoi(r)
		col, err2 := strconv.Atoi(c)
		if !ok || err1 != nil || err2 != nil {
			return nil, errorf(http.StatusBadRequest, "q: %q is not row:col (0-based)", f)
		}
		pairs = append(pairs, []int{row, col})
	}
	return pairs, nil
}

// conflict is two queens that attack each other and the line they share.
type conflict struct {
	A    square `json:"a"`
	B    square `json:"b"`
	Line string `json:"line"` // row, column, diagonal, anti-diagonal
}

// attacksResponse is the answer of /api/attacks.
type attacksResponse struct {
	N         int        `json:"n"`
	Attacks   [][]int    `json:"attacks"` // [row][col]: -1 a queen, else how many queens attack the square
	Conflicts []conflict `json:"conflicts"`
}

// attackMatrix counts for every empty square the queens that attack it,
// along whole rows, columns and diagonals as in the puzzle (another queen
// in between does not block), -1 on a queen; and lists the pairs of
// queens that attack each other.
func attackMatrix(n int, qs []board.Queen) attacksResponse {
	m := make([][]int, n)
	for row := range m {
		m[row] = make([]int, n)
	}
	rowN, colN := make([]int, n), make([]int, n)
	diagN, antiN := make([]int, 2*n), make([]int, 2*n)
	for _, q := range qs {
		rowN[q.Row]++
		colN[q.Col]++
		diagN[q.Row-q.Col+n]++
		antiN[q.Row+q.Col]++
	}
	for row := range n {
		for col := range n {
			m[row][col] = rowN[row] + colN[col] + diagN[row-col+n] + antiN[row+col]
		}
	}
	for _, q := range qs {
		m[q.Row][q.Col] = -1
	}
	conflicts := []conflict{}
	for i, p := range qs {
		for _, q := range qs[:i] {
			line := ""
			switch {
			case p.Row == q.Row:
				line = "row"
			case p.Col == q.Col:
				line = "column"
			case p.Row-p.Col == q.Row-q.Col:
				line = "diagonal"
			case p.Row+p.Col == q.Row+q.Col:
				line = "anti-diagonal"
			default:
				continue
			}
			conflicts = append(conflicts, conflict{square{q.Row, q.Col}, square{p.Row, p.Col}, line})
		}
	}
	return attacksResponse{n, m, conflicts}
}

func (a *api) attacks(w http.ResponseWriter, r *http.Request) {
	var n int
	var pairs [][]int
	switch r.Method {
	case http.MethodGet:
		q := r.URL.Query()
		var err error
		if n, err = strconv.Atoi(q.Get("n")); err != nil {
			fail(w, http.StatusBadRequest, "n: a board size is needed, e.g. n=8")
			return
		}
		if pairs, err = parseQueensQuery(q.Get("q")); err != nil {
			failErr(w, err)
			return
		}
	case http.MethodPost:
		req, err := decode(w, r)
		if err != nil {
			failErr(w, err)
			return
		}
		n, pairs = req.N, req.Queens
	default:
		w.Header().Set("Allow", "GET, POST")
		fail(w, http.StatusMethodNotAllowed, "use GET or POST")
		return
	}
	qs, err := boardOf(n, pairs)
	if err != nil {
		failErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, attackMatrix(n, qs))
}

// timedOut turns the end of a request's context into its answer: 503 for
// the time limit; for a client gone away the answer goes nowhere.
func timedOut(ctx context.Context, err error, limit time.Duration) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		if errors.Is(err, context.DeadlineExceeded) {
			return errorf(http.StatusServiceUnavailable, "no answer within %v", limit)
		}
		return errorf(499, "request cancelled") // nginx's "client closed request"
	}
	return err
}

// solveResponse is the answer of /api/solve.
type solveResponse struct {
	Solution      board.Solution `json:"solution"` // null: no completion
	Engine        string         `json:"engine"`
	MS            float64        `json:"ms"`
	*Verification                // with no completion: how that was verified
}

func (a *api) solve(w http.ResponseWriter, r *http.Request) {
	req, qs, err := decodePeaceful(w, r)
	if err == nil && req.Engine != engineBacktrack && req.Engine != engineSAT {
		err = errorf(http.StatusBadRequest, "engine %q: want %q or %q", req.Engine, engineBacktrack, engineSAT)
	}
	if err != nil {
		failErr(w, err)
		return
	}
	start := time.Now()
	s, v, err := solve(r.Context(), req.N, qs, req.Engine)
	if err != nil {
		failErr(w, timedOut(r.Context(), err, a.timeout))
		return
	}
	if s != nil && (!board.Valid(s) || !s.Contains(qs)) {
		failErr(w, fmt.Errorf("engine %s returned %v, not a completion: a bug", req.Engine, s))
		return
	}
	ms := float64(time.Since(start).Microseconds()) / 1000
	writeJSON(w, http.StatusOK, solveResponse{s, req.Engine, ms, v})
}

// countProgress and countDone are the lines of /api/count's NDJSON
// answer: progress lines, then one line with the counts or an error.
type countProgress struct {
	Done  int `json:"done"`
	Parts int `json:"parts"`
}

type countDone struct {
	Total     uint64  `json:"total"`
	Unique    *uint64 `json:"unique,omitempty"`    // empty board only: classes under the 8 symmetries
	Rotations *uint64 `json:"rotations,omitempty"` // empty board only: classes under the 4 rotations
	MS        float64 `json:"ms"`
	*Verification
}

func (a *api) count(w http.ResponseWriter, r *http.Request) {
	req, qs, err := decodePeaceful(w, r)
	if err == nil {
		if empty := req.N - len(qs); empty > countMaxEmpty {
			err = errorf(http.StatusUnprocessableEntity,
				"%d empty rows are too many to count here (at most %d): place more queens, or use queens backtrack --count", empty, countMaxEmpty)
		}
	}
	if err != nil {
		failErr(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	enc := json.NewEncoder(w)
	line := func(v any) {
		enc.Encode(v)
		rc.Flush()
	}
	start := time.Now()
	res, err := count(r.Context(), req.N, qs, func(done, parts int) { line(countProgress{done, parts}) })
	if err != nil {
		line(map[string]string{"error": timedOut(r.Context(), err, a.timeout).Error()})
		return
	}
	out := countDone{Total: res.Total, MS: float64(time.Since(start).Microseconds()) / 1000, Verification: res.Verified}
	if len(qs) == 0 {
		out.Unique, out.Rotations = &res.Unique, &res.Rotations
	}
	line(out)
}

// traceResponse is the answer of /api/trace.
type traceResponse struct {
	Steps   []traceStep `json:"steps"`
	Stopped bool        `json:"stopped"` // the search went on past the last step
}

func (a *api) trace(w http.ResponseWriter, r *http.Request) {
	req, qs, err := decodePeaceful(w, r)
	if err == nil && (req.MaxSteps < 0 || req.MaxSteps > traceMaxSteps) {
		err = errorf(http.StatusBadRequest, "maxSteps %d: want 1..%d (0: %d)", req.MaxSteps, traceMaxSteps, traceDefSteps)
	}
	if err == nil && (req.From < 0 || req.From > traceMaxFrom) {
		err = errorf(http.StatusBadRequest, "from %d: want 0..%d", req.From, traceMaxFrom)
	}
	if err != nil {
		failErr(w, err)
		return
	}
	var how traceHow
	if err == nil {
		how, err = traceOptions(req)
	}
	if err != nil {
		failErr(w, err)
		return
	}
	how.maxSteps = req.MaxSteps
	if how.maxSteps == 0 {
		how.maxSteps = traceDefSteps
	}
	steps, stopped, err := trace(r.Context(), req.N, qs, req.From, how)
	if err != nil {
		failErr(w, timedOut(r.Context(), err, a.timeout))
		return
	}
	if steps == nil {
		steps = []traceStep{}
	}
	writeJSON(w, http.StatusOK, traceResponse{steps, stopped})
}

// traceOptions reads the order, narration and strategy of a trace
// request: those of the trace command, the same names.
func traceOptions(req *request) (traceHow, error) {
	var how traceHow
	var err error
	if req.Order != "" {
		if how.order, err = backtrack.ParseOrder(req.Order); err != nil {
			return how, errorf(http.StatusBadRequest, "order %q: want rows or columns", req.Order)
		}
	}
	switch req.Narrate {
	case "", "steps":
	case "agents":
		how.agents = true
	default:
		return how, errorf(http.StatusBadRequest, "narrate %q: want steps or agents", req.Narrate)
	}
	how.strategy = backtrack.Lex
	if req.Strategy != "" {
		s, err := backtrack.ParseStrategy(req.Strategy)
		if err != nil || s == backtrack.Auto || s == backtrack.Heuristic {
			return how, errorf(http.StatusBadRequest, "strategy %q: want lex, iterative, cells, generate or scan", req.Strategy)
		}
		how.strategy = s
	}
	if req.N > how.strategy.MaxN() {
		return how, errorf(http.StatusUnprocessableEntity, "strategy %s: n = %d is too big (at most %d)", how.strategy, req.N, how.strategy.MaxN())
	}
	if err := backtrack.AgentsTell(how.strategy); how.agents && err != nil {
		return how, errorf(http.StatusBadRequest, "narrate agents with strategy %s: %v", how.strategy, err)
	}
	return how, nil
}

// galleryResponse is the answer of /api/gallery.
type galleryResponse struct {
	N               int            `json:"n"`
	Total           int            `json:"total"`
	Classes         []galleryClass `json:"classes"`
	RotationClasses int            `json:"rotationClasses"` // classes under the 4 rotations alone
}

func (a *api) gallery(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		fail(w, http.StatusMethodNotAllowed, "use GET")
		return
	}
	n, err := strconv.Atoi(r.URL.Query().Get("n"))
	if err != nil || n < 1 || n > galleryMaxN {
		fail(w, http.StatusBadRequest, fmt.Sprintf("n: the gallery shows boards of 1..%d squares", galleryMaxN))
		return
	}
	classes, rot, err := gallery(r.Context(), n)
	if err != nil {
		failErr(w, timedOut(r.Context(), err, a.timeout))
		return
	}
	total := 0
	for _, c := range classes {
		total += len(c)
	}
	if classes == nil {
		classes = []galleryClass{}
	}
	writeJSON(w, http.StatusOK, galleryResponse{n, total, classes, rot})
}

func (a *api) export(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	kind, ok := exportFormats[format]
	if !ok {
		fail(w, http.StatusBadRequest, "format: want svg, png, fen or dimacs")
		return
	}
	req, err := decode(w, r)
	if err != nil {
		failErr(w, err)
		return
	}
	qs, err := boardOf(req.N, req.Queens)
	var s board.Solution
	if err == nil {
		s, err = rows(req.N, qs)
	}
	if err == nil && format == "dimacs" {
		err = peaceful(req.N, qs)
	}
	if err == nil && format == "fen" && req.N != 8 {
		err = errorf(http.StatusUnprocessableEntity, "FEN is a chess board: n = 8 only")
	}
	if err != nil {
		failErr(w, err)
		return
	}
	var placed []board.Queen
	if err == nil && len(req.Placed) > 0 {
		placed, err = boardOf(req.N, req.Placed)
	}
	if err != nil {
		failErr(w, err)
		return
	}
	var b strings.Builder
	if err := export(&b, s, format, &draw.Options{Attacks: true, Numbers: req.Numbers, Place: placed}); err != nil {
		failErr(w, err)
		return
	}
	w.Header().Set("Content-Type", kind.contentType)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="queens-%d.%s"`, req.N, kind.ext))
	io.WriteString(w, b.String())
}
