package external

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/quote"
)

// Status is a SAT solver's answer.
type Status int

// The answers.
const (
	Unknown Status = iota
	Satisfiable
	Unsatisfiable
)

// String returns the status as a SAT solver prints it, e.g. "SATISFIABLE".
func (st Status) String() string {
	switch st {
	case Satisfiable:
		return "SATISFIABLE"
	case Unsatisfiable:
		return "UNSATISFIABLE"
	}
	return "UNKNOWN"
}

// Result is what a SAT solver printed: its answer and, if satisfiable, the
// model as signed DIMACS literals in the order given.
type Result struct {
	Status Status
	Model  []int
}

// ErrOutput is wrapped by the errors of [ReadResult].
var ErrOutput = errors.New("unreadable solver output")

// ResultError is the error [ReadResult] returns for output it cannot read.
// Line counts from 1 (0: the input as a whole).
type ResultError struct {
	Line int
	Err  error
}

// Error describes the failure with its line number.
func (e *ResultError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("solver output: %v", e.Err)
	}
	return fmt.Sprintf("solver output line %d: %v", e.Line, e.Err)
}

// Unwrap returns the underlying error, which wraps [ErrOutput].
func (e *ResultError) Unwrap() error { return e.Err }

// ReadResult reads a SAT solver's answer in any of three forms:
//
//	SAT competition        minisat result file     bare literals
//	c comment              SAT                     -1 2 -3 4 0
//	s SATISFIABLE          -1 2 -3 4 0
//	v -1 2 -3
//	v 4 0
//
// "s UNSATISFIABLE" (or "UNSAT") gives an Unsatisfiable result with no
// model; "s UNKNOWN" or "INDET" an Unknown one. Comment lines start with c.
// The model may end with 0 or not; "v 0" alone is the empty model (of a
// formula without variables). Any other line, a second answer, a variable
// given twice or a satisfiable answer without a model is an error
// (a *[ResultError] wrapping [ErrOutput]).
func ReadResult(r io.Reader) (*Result, error) {
	return ReadResultVars(r, encode.MaxVars)
}

// BeyondError is the error of [ReadResultVars] for a literal beyond the
// formula's variables: the answer is readable, and wrong.
type BeyondError struct {
	Line, Literal, Vars int
}

// Error says which literal, where.
func (e *BeyondError) Error() string {
	return fmt.Sprintf("solver output line %d: literal %d is beyond the %d variables of the formula", e.Line, e.Literal, e.Vars)
}

// ReadResultVars is [ReadResult] for the answer about a formula of vars
// variables (at most encode.MaxVars): it stops at the first literal beyond
// them, with a *[BeyondError], so that a long answer of wrong literals is
// judged without reading the rest.
func ReadResultVars(r io.Reader, vars int) (*Result, error) {
	vars = min(max(vars, 0), encode.MaxVars)
	// A token reader, not a line scanner: memory grows with the distinct
	// variables of the model (8 bytes a literal and a bit a variable),
	// never with the length of a line, and a line of any length gets its
	// right number. A variable given twice stops the reading there.
	rr := &resultReader{br: bufio.NewReaderSize(r, 64<<10), res: &Result{}, vars: vars}
	for {
		eol, err := readToken(rr.br, &rr.tok)
		if err != nil && err != io.EOF {
			return nil, &ResultError{rr.lineNo + 1, fmt.Errorf("%w: %w", ErrOutput, err)}
		}
		if len(rr.tok) == 0 && err == io.EOF {
			break
		}
		rr.lineNo++
		if len(rr.tok) == 0 { // an empty line
			continue
		}
		if err := rr.line(eol); err != nil {
			return nil, err
		}
	}
	return rr.result()
}

// resultReader is the state of one ReadResult.
type resultReader struct {
	br        *bufio.Reader
	res       *Result
	answered  bool
	ended     bool // the model's closing 0 was read
	seen      varSet
	starts    []lineMark // where each line of the model starts in it
	lineNo    int
	modelLine int
	tok       []byte
	vars      int // the formula's variables: a literal beyond is refused
}

// bad returns a *ResultError at the current line.
func (rr *resultReader) bad(format string, args ...any) error {
	return &ResultError{rr.lineNo, fmt.Errorf("%w: "+format, append([]any{ErrOutput}, args...)...)}
}

// line reads the line whose first word is rr.tok (eol: it has no other).
func (rr *resultReader) line(eol bool) error {
	word := string(rr.tok)
	if len(rr.tok) > 40 {
		word = string(rr.tok[:40]) + "..."
	}
	switch {
	case word == "c":
		if !eol {
			if err := skipLine(rr.br); err != nil && err != io.EOF {
				return &ResultError{rr.lineNo, fmt.Errorf("%w: %w", ErrOutput, err)}
			}
		}
		return nil
	case word == "s" || status(word) != Unknown || isUnknown(word):
		return rr.answer(word, eol)
	case word == "v" || rr.tok[0] == '-' || rr.tok[0] >= '0' && rr.tok[0] <= '9':
		return rr.literals(word != "v", eol)
	}
	line := word
	if !eol {
		line += " " + lineStart(rr.br, 40)
	}
	return rr.bad("unexpected %s", quote.Token(strings.TrimSpace(line)))
}

// answer reads an answer line: "s ANSWER", or minisat's answer alone.
func (rr *resultReader) answer(word string, eol bool) error {
	answer, rest := word, ""
	if !eol {
		var err error
		if rest, err = restOfLine(rr.br); err != nil {
			return rr.bad("%v", err)
		}
	}
	if word == "s" {
		answer = rest
	} else if rest != "" {
		return rr.bad("unexpected %s", quote.Token(word+" "+rest))
	}
	if status(answer) == Unknown && !isUnknown(answer) {
		return rr.bad("unknown answer %s", quote.Token(word+" "+rest))
	}
	if rr.answered {
		return rr.bad("a second answer %s", quote.Token(word+" "+rest))
	}
	rr.answered, rr.res.Status = true, status(answer)
	return nil
}

// literals reads the literals of a model line: rr.tok itself first when
// lit (it is not v), then the rest of the line.
func (rr *resultReader) literals(lit, eol bool) error {
	more := !eol
	for {
		if lit {
			if err := rr.literal(); err != nil {
				return err
			}
		}
		if !more {
			return nil
		}
		eolNow, err := readToken(rr.br, &rr.tok)
		if err != nil && err != io.EOF {
			return &ResultError{rr.lineNo, fmt.Errorf("%w: %w", ErrOutput, err)}
		}
		lit = len(rr.tok) > 0
		more = !eolNow && err == nil
	}
}

// literal adds the literal in rr.tok to the model.
func (rr *resultReader) literal() error {
	n, err := atoi(rr.tok)
	if err != nil {
		return rr.bad("literal %s is not an integer", quote.Bytes(rr.tok))
	}
	if rr.ended {
		return rr.bad("literal %d after the model's closing 0", n)
	}
	if n == 0 {
		rr.ended = true
		return nil
	}
	if v := max(n, -n); v > encode.MaxVars || n == -n { // the second: math.MinInt
		return rr.bad("literal %d out of range", n)
	}
	if v := max(n, -n); v > rr.vars {
		return &BeyondError{rr.lineNo, n, rr.vars}
	}
	v := max(n, -n)
	if rr.seen.add(v) {
		return rr.bad("variable %d given twice (also on line %d)", v, rr.firstLine(v))
	}
	if len(rr.starts) == 0 || rr.starts[len(rr.starts)-1].line != rr.lineNo {
		rr.starts = append(rr.starts, lineMark{len(rr.res.Model), rr.lineNo})
	}
	if rr.modelLine == 0 {
		rr.modelLine = rr.lineNo
	}
	rr.res.Model = append(rr.res.Model, n)
	return nil
}

// lineMark says that the model's literals from index on were read on
// line (up to the next lineMark's index).
type lineMark struct{ index, line int }

// firstLine returns the line on which variable v was given.
func (rr *resultReader) firstLine(v int) int {
	i := slices.IndexFunc(rr.res.Model, func(lit int) bool { return lit == v || lit == -v })
	k, found := slices.BinarySearchFunc(rr.starts, i, func(m lineMark, i int) int { return m.index - i })
	if !found {
		k--
	}
	return rr.starts[k].line
}

// varSet is a set of variables (1 to encode.MaxVars): a bit each, in a
// table up to denseVars and in words of a map above, so that a few
// variables near 2^31 cost a few words, not a table of them all.
type varSet struct {
	dense  []uint64
	sparse map[int]uint64
}

// denseVars bounds the variables varSet keeps in its table (2 MiB).
const denseVars = 1 << 24

// add adds v and reports whether it was there already.
func (vs *varSet) add(v int) bool {
	bit := uint64(1) << (v & 63)
	if v >= denseVars {
		if vs.sparse == nil {
			vs.sparse = make(map[int]uint64)
		}
		w := vs.sparse[v>>6]
		vs.sparse[v>>6] = w | bit
		return w&bit != 0
	}
	if w := v >> 6; w >= len(vs.dense) {
		vs.dense = append(vs.dense, make([]uint64, w+1-len(vs.dense))...)
	}
	there := vs.dense[v>>6]&bit != 0
	vs.dense[v>>6] |= bit
	return there
}

// result checks that the answer and the model agree.
func (rr *resultReader) result() (*Result, error) {
	res := rr.res
	switch {
	case !rr.answered && len(res.Model) == 0:
		return nil, &ResultError{0, fmt.Errorf("%w: no answer (no s line, no model)", ErrOutput)}
	case !rr.answered:
		res.Status = Satisfiable // a bare list of literals
	case res.Status == Satisfiable && len(res.Model) == 0 && !rr.ended: // "v 0" is the empty model
		return nil, &ResultError{0, fmt.Errorf("%w: satisfiable, but no model (v lines)", ErrOutput)}
	case res.Status != Satisfiable && len(res.Model) > 0:
		rr.lineNo = rr.modelLine
		return nil, rr.bad("a model after the answer %s", res.Status)
	}
	return res, nil
}

// readToken reads the next word of the current line into *tok (empty at
// the end of a line with no more words), skipping spaces, tabs and
// carriage returns; eol reports whether the line ended right after it. A
// word is at most 4096 bytes; a longer one is an error.
func readToken(br *bufio.Reader, tok *[]byte) (eol bool, err error) {
	*tok = (*tok)[:0]
	for {
		b, err := br.ReadByte()
		if err != nil {
			return true, err
		}
		switch b {
		case ' ', '\t', '\r':
			if len(*tok) > 0 {
				return false, nil
			}
			continue
		case '\n':
			return true, nil
		}
		if len(*tok) >= 4096 {
			return false, fmt.Errorf("a word of more than 4096 bytes")
		}
		*tok = append(*tok, b)
	}
}

// atoi is strconv.Atoi for a token, without making a string of it.
func atoi(b []byte) (int, error) {
	neg := len(b) > 0 && b[0] == '-'
	digits := b
	if neg {
		digits = b[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return strconv.Atoi(string(b)) // the error, or a number too long for the fast path
	}
	n := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return strconv.Atoi(string(b))
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, nil
}

// lineStart returns up to max bytes of the rest of the line, for a
// message.
func lineStart(br *bufio.Reader, max int) string {
	var b []byte
	for len(b) < max {
		c, err := br.ReadByte()
		if err != nil || c == '\n' {
			break
		}
		b = append(b, c)
	}
	return string(b)
}

// skipLine discards the rest of the line.
func skipLine(br *bufio.Reader) error {
	for {
		_, err := br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

// restOfLine returns the rest of the line, trimmed; at most 256 bytes (an
// answer line), longer is an error.
func restOfLine(br *bufio.Reader) (string, error) {
	var b []byte
	for {
		c, err := br.ReadByte()
		if err == io.EOF || c == '\n' {
			break
		}
		if err != nil {
			return "", err
		}
		if len(b) >= 256 {
			return "", fmt.Errorf("an answer line of more than 256 bytes")
		}
		b = append(b, c)
	}
	return strings.TrimSpace(string(b)), nil
}

func status(word string) Status {
	switch word {
	case "SATISFIABLE", "SAT":
		return Satisfiable
	case "UNSATISFIABLE", "UNSAT":
		return Unsatisfiable
	}
	return Unknown
}

func isUnknown(word string) bool {
	return word == "UNKNOWN" || word == "INDET" || word == "INDETERMINATE"
}

// Full returns the model as an assignment of variables 1..vars for a
// model that lists only its true literals, as several solvers print: the
// variables it does not mention are added as false. A model with any false
// literal is returned as it is (a variable it leaves out is an error for
// whoever needs it, e.g. [encode.Decode]).
func (r *Result) Full(vars int) []int {
	if len(r.Model) == 0 {
		return r.Model
	}
	if slices.ContainsFunc(r.Model, func(lit int) bool { return lit < 0 }) {
		return r.Model
	}
	mentioned := slices.Sorted(slices.Values(r.Model)) // a map took five times the memory
	full := slices.Clip(r.Model)
	for v := 1; v <= vars; v++ {
		if _, ok := slices.BinarySearch(mentioned, v); !ok {
			full = append(full, -v)
		}
	}
	return full
}
