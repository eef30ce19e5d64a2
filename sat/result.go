package sat

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
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<30)
	res := &Result{}
	answered, ended := false, false
	seen := map[int]int{} // variable -> line
	lineNo, modelLine := 0, 0
	bad := func(format string, args ...any) error {
		return &ResultError{lineNo, fmt.Errorf("%w: "+format, append([]any{ErrOutput}, args...)...)}
	}
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == 'c' && (len(line) == 1 || line[1] == ' ' || line[1] == '\t') {
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		lits := ""
		switch {
		case word == "s" || status(word) != Unknown || isUnknown(word):
			answer := word // minisat: the answer alone on its line
			if word == "s" {
				answer = strings.TrimSpace(rest)
			} else if strings.TrimSpace(rest) != "" {
				return nil, bad("unexpected %q", truncate(line))
			}
			if status(answer) == Unknown && !isUnknown(answer) {
				return nil, bad("unknown answer %q", truncate(line))
			}
			if answered {
				return nil, bad("a second answer %q", truncate(line))
			}
			answered, res.Status = true, status(answer)
			continue
		case word == "v":
			lits = rest
		case word[0] == '-' || word[0] >= '0' && word[0] <= '9':
			lits = line
		default:
			return nil, bad("unexpected %q", truncate(line))
		}
		for _, f := range strings.Fields(lits) {
			lit, err := strconv.Atoi(f)
			if err != nil {
				return nil, bad("literal %q is not an integer", truncate(f))
			}
			if ended {
				return nil, bad("literal %d after the model's closing 0", lit)
			}
			if lit == 0 {
				ended = true
				continue
			}
			v := max(lit, -lit)
			if v > encode.MaxVars || lit == -lit { // the second: math.MinInt
				return nil, bad("literal %d out of range", lit)
			}
			if prev, dup := seen[v]; dup {
				return nil, bad("variable %d given twice (also on line %d)", v, prev)
			}
			seen[v] = lineNo
			if modelLine == 0 {
				modelLine = lineNo
			}
			res.Model = append(res.Model, lit)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ResultError{lineNo, fmt.Errorf("%w: %w", ErrOutput, err)}
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
