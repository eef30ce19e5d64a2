package drat

import (
	"errors"
	"fmt"
	"github.com/queens-dev/queens/internal/quote"
	"io"
	"strconv"
)

// MaxVar is the largest variable number accepted in a formula or a proof.
// Literals are stored as 32-bit integers 2*v+sign, so v must stay below 2^30.
const MaxVar = 1<<30 - 1

// Formula is a CNF formula: Clauses holds signed DIMACS literals (variable v
// is v, its negation -v, variables count from 1), no clause holds a 0, and
// every variable is at most Vars. Clause j (counted from 0) has the LRAT
// clause id j+1.
type Formula struct {
	Vars    int
	Clauses [][]int
}

// The conditions a [ParseError] can wrap.
var (
	ErrHeader   = errors.New("bad or missing \"p cnf\" header")
	ErrLiteral  = errors.New("bad literal")
	ErrCount    = errors.New("clause count differs from the header")
	ErrSyntax   = errors.New("syntax error")
	ErrTruncate = errors.New("input ends inside a clause (no terminating 0)")
)

// ParseError is the error returned for malformed input: a CNF, a DRAT proof
// or a proof (Format says which: "DIMACS", "DRAT", "binary DRAT",
// "LRAT", "binary LRAT", "FRAT", "binary FRAT"). Line counts from 1 and is 0 for binary input; Offset is the byte
// offset, counted from 0, of the offending token or byte.
type ParseError struct {
	Format string
	Line   int
	Offset int64
	Err    error
}

// Error describes the failure with its position.
func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s line %d (byte %d): %v", e.Format, e.Line, e.Offset, e.Err)
	}
	return fmt.Sprintf("%s byte %d: %v", e.Format, e.Offset, e.Err)
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// scanner splits text input into whitespace-separated tokens, skipping
// comment lines (a line whose first token starts with 'c').
type scanner struct {
	data      []byte
	pos       int
	line      int // line of the next byte, from 1
	lineStart bool
	// inline makes a 'c' anywhere start a comment to the end of the
	// line, and end the token before it (a CNF's clauses, as kissat
	// reads them: "1 -2 0 c note", "1 -2 0c note").
	inline bool
}

func newScanner(data []byte) *scanner { return &scanner{data: data, line: 1, lineStart: true} }

// next returns the next token, its byte offset and line; ok is false at the
// end of input.
func (s *scanner) next() (tok []byte, off int, line int, ok bool) {
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '\n':
			s.line++
			s.pos++
			s.lineStart = true
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			s.pos++
		case c == 'c' && (s.lineStart || s.inline):
			for s.pos < len(s.data) && s.data[s.pos] != '\n' {
				s.pos++
			}
		default:
			start := s.pos
			for s.pos < len(s.data) && !isSpace(s.data[s.pos]) && !(s.inline && s.data[s.pos] == 'c') {
				s.pos++
			}
			s.lineStart = false
			return s.data[start:s.pos], start, s.line, true
		}
	}
	return nil, s.pos, s.line, false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// parseInt parses a decimal integer with an optional '-' sign whose absolute
// value is at most max.
func parseInt(tok []byte, max int64) (int64, bool) {
	neg := false
	if len(tok) > 0 && tok[0] == '-' {
		neg, tok = true, tok[1:]
	}
	if len(tok) == 0 || len(tok) > 19 {
		return 0, false
	}
	var v int64
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
		if v > max {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	return v, true
}

// ReadCNF reads a formula in DIMACS CNF format strictly: comment lines
// starting with 'c', one "p cnf V C" header before the first clause, then
// clauses of non-zero literals each ended by 0 (a clause may span lines);
// after the header a 'c' anywhere, a word of its own or right after a
// literal's digits, starts a comment to the end of its line, as kissat
// reads them.
// These are errors, returned as a *[ParseError] wrapping [ErrHeader],
// [ErrLiteral], [ErrCount] or [ErrTruncate]: a missing, repeated or
// malformed header, V above [MaxVar], a literal that is not an integer or
// whose variable exceeds V, a clause not ended by 0, and a clause count
// other than C. Memory grows with the input read, never with the header's
// claims; the input is read completely into memory.
func ReadCNF(r io.Reader) (*Formula, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read CNF: %w", err)
	}
	s := newScanner(data)
	perr := func(off, line int, err error) error {
		return &ParseError{Format: "DIMACS", Line: line, Offset: int64(off), Err: err}
	}
	tok, off, line, ok := s.next()
	if !ok || string(tok) != "p" {
		return nil, perr(off, line, ErrHeader)
	}
	var hdr [3][]byte
	for i := range hdr {
		var l int
		hdr[i], off, l, ok = s.next()
		if !ok || l != line {
			return nil, perr(off, line, ErrHeader)
		}
	}
	if string(hdr[0]) != "cnf" {
		return nil, perr(off, line, ErrHeader)
	}
	vars, ok1 := parseInt(hdr[1], MaxVar)
	claimed, ok2 := parseInt(hdr[2], 1<<62)
	if !ok1 || !ok2 || vars < 0 || claimed < 0 {
		return nil, perr(off, line, ErrHeader)
	}
	f := &Formula{Vars: int(vars)}
	for ; s.pos < len(s.data) && s.data[s.pos] != '\n'; s.pos++ {
		if !isSpace(s.data[s.pos]) { // more on the header line
			return nil, perr(s.pos, line, ErrHeader)
		}
	}
	s.inline = true
	var lits []int
	var ends []int
	open := false
	for {
		tok, off, line, ok = s.next()
		if !ok {
			break
		}
		if string(tok) == "p" {
			return nil, perr(off, line, fmt.Errorf("%w: repeated", ErrHeader))
		}
		v, ok := parseInt(tok, vars)
		if !ok {
			return nil, perr(off, line, fmt.Errorf("%w %s (variables are 1..%d)", ErrLiteral, quote.Bytes(tok), vars))
		}
		if v == 0 {
			ends = append(ends, len(lits))
			open = false
			continue
		}
		lits = append(lits, int(v))
		open = true
	}
	if open {
		return nil, perr(off, line, ErrTruncate)
	}
	if int64(len(ends)) != claimed {
		return nil, perr(off, line, fmt.Errorf("%w: %d clauses, header says %d", ErrCount, len(ends), claimed))
	}
	f.Clauses = make([][]int, len(ends))
	prev := 0
	for i, e := range ends {
		f.Clauses[i] = lits[prev:e:e]
		prev = e
	}
	return f, nil
}

// validate checks the formula's literals against Vars.
func (f *Formula) validate() error {
	if f == nil {
		return errors.New("nil formula")
	}
	if f.Vars < 0 || f.Vars > MaxVar {
		return fmt.Errorf("formula: %d variables (want 0..%d)", f.Vars, MaxVar)
	}
	for i, c := range f.Clauses {
		for _, l := range c {
			if l == 0 || l > f.Vars || -l > f.Vars {
				return fmt.Errorf("formula clause %d: literal %s out of range 1..%d", i+1, strconv.Itoa(l), f.Vars)
			}
		}
	}
	return nil
}
