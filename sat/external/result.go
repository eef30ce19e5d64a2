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
// The model may end with 0 or not. Any other line, a second answer, a
// variable given twice or a satisfiable answer without a model is an error
// (a *[ResultError] wrapping [ErrOutput]).
func ReadResult(r io.Reader) (*Result, error) {
	// A token reader, not a line scanner: memory grows with the literals
	// (about 20 bytes each: the model, its lines, and a sort for the
	// duplicate check), never with the length of a line, and a line of
	// any length gets its right number.
	br := bufio.NewReaderSize(r, 64<<10)
	res := &Result{}
	answered, ended := false, false
	var lines []uint32 // the line of each literal of the model
	lineNo, modelLine := 0, 0
	bad := func(format string, args ...any) error {
		return &ResultError{lineNo, fmt.Errorf("%w: "+format, append([]any{ErrOutput}, args...)...)}
	}
	var tok []byte
	for {
		eol, err := readToken(br, &tok)
		if err != nil && err != io.EOF {
			return nil, &ResultError{lineNo + 1, fmt.Errorf("%w: %w", ErrOutput, err)}
		}
		if len(tok) == 0 && err == io.EOF {
			break
		}
		lineNo++
		if len(tok) == 0 { // an empty line
			continue
		}
		word := string(tok)
		if len(tok) > 40 {
			word = string(tok[:40]) + "..."
		}
		switch {
		case word == "c":
			if !eol {
				if err := skipLine(br); err != nil && err != io.EOF {
					return nil, &ResultError{lineNo, fmt.Errorf("%w: %w", ErrOutput, err)}
				}
			}
			continue
		case word == "s" || status(word) != Unknown || isUnknown(word):
			answer := word // minisat: the answer alone on its line
			rest := ""
			if !eol {
				if rest, err = restOfLine(br); err != nil {
					return nil, bad("%v", err)
				}
			}
			if word == "s" {
				answer = rest
			} else if rest != "" {
				return nil, bad("unexpected %q", truncate(word+" "+rest))
			}
			if status(answer) == Unknown && !isUnknown(answer) {
				return nil, bad("unknown answer %q", truncate(word+" "+rest))
			}
			if answered {
				return nil, bad("a second answer %q", truncate(word+" "+rest))
			}
			answered, res.Status = true, status(answer)
			continue
		case word == "v" || tok[0] == '-' || tok[0] >= '0' && tok[0] <= '9':
		default:
			line := word
			if !eol {
				line += " " + lineStart(br, 40)
			}
			return nil, bad("unexpected %q", truncate(strings.TrimSpace(line)))
		}
		// The literals of this line: the first token itself unless it is v.
		more := !eol
		lit := word != "v"
		for {
			if lit {
				n, err := atoi(tok)
				if err != nil {
					return nil, bad("literal %q is not an integer", truncate(string(tok)))
				}
				if ended {
					return nil, bad("literal %d after the model's closing 0", n)
				}
				if n == 0 {
					ended = true
				} else {
					v := max(n, -n)
					if v > encode.MaxVars || n == -n { // the second: math.MinInt
						return nil, bad("literal %d out of range", n)
					}
					lines = append(lines, uint32(lineNo))
					if modelLine == 0 {
						modelLine = lineNo
					}
					res.Model = append(res.Model, n)
				}
			}
			if !more {
				break
			}
			var eolNow bool
			eolNow, err = readToken(br, &tok)
			if err != nil && err != io.EOF {
				return nil, &ResultError{lineNo, fmt.Errorf("%w: %w", ErrOutput, err)}
			}
			lit = len(tok) > 0
			more = !eolNow && err == nil
		}
	}
	// A variable given twice: the one whose second mention comes first.
	// Sorting variable<<32 | index finds them with 8 bytes a literal.
	keys := make([]uint64, len(res.Model))
	for i, lit := range res.Model {
		keys[i] = uint64(max(lit, -lit))<<32 | uint64(i)
	}
	slices.Sort(keys)
	dupLine, dupVar, firstLine := 0, 0, 0
	for k := 1; k < len(keys); k++ {
		if keys[k]>>32 == keys[k-1]>>32 {
			if l := int(lines[uint32(keys[k])]); dupLine == 0 || l < dupLine {
				dupLine, dupVar, firstLine = l, int(keys[k]>>32), int(lines[uint32(keys[k-1])])
			}
		}
	}
	if dupLine > 0 {
		lineNo = dupLine
		return nil, bad("variable %d given twice (also on line %d)", dupVar, firstLine)
	}
	switch {
	case !answered && len(res.Model) == 0:
		return nil, &ResultError{0, fmt.Errorf("%w: no answer (no s line, no model)", ErrOutput)}
	case !answered:
		res.Status = Satisfiable // a bare list of literals
	case res.Status == Satisfiable && len(res.Model) == 0:
		return nil, &ResultError{0, fmt.Errorf("%w: satisfiable, but no model (v lines)", ErrOutput)}
	case res.Status != Satisfiable && len(res.Model) > 0:
		lineNo = modelLine
		return nil, bad("a model after the answer %s", res.Status)
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

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
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
	mentioned := make(map[int]bool, len(r.Model))
	for _, lit := range r.Model {
		if lit < 0 {
			return r.Model
		}
		mentioned[lit] = true
	}
	full := slices.Clip(r.Model)
	for v := 1; v <= vars; v++ {
		if !mentioned[v] {
			full = append(full, -v)
		}
	}
	return full
}
