package drat

import (
	"errors"
	"fmt"
	"github.com/queens-dev/queens/internal/quote"
)

// step is one line of a DRAT proof: a lemma (addition) or a deletion.
type step struct {
	start, end int32 // the step's literals: proof.lits[start:end]
	del        bool
	index      int32 // lemma number from 1 (additions only)
	line       int32 // text line from 1, 0 for binary
	off        int64 // byte offset of the step
	clause     int32 // checker: the clause added or deleted; -1 = skipped deletion
}

// proof is a parsed DRAT proof. Literals are signed DIMACS numbers as read.
type proof struct {
	binary bool
	lits   []int32
	steps  []step
	lemmas int
}

// isBinary decides whether a proof is binary. Every binary step starts with
// 'a' or 'd', so a proof starting with any other byte is text (even a text
// proof whose first comment holds non-ASCII bytes), and one starting with
// 'a' is binary (no text line starts with it). For a proof starting with
// 'd' it applies drat-trim's rule: the proof is binary when one of its
// first 10 bytes cannot occur in a text proof.
func isBinary(data []byte) bool {
	if len(data) == 0 || data[0] != 'a' && data[0] != 'd' {
		return false
	}
	if data[0] == 'a' {
		return true
	}
	for i := 0; i < len(data) && i < 10; i++ {
		c := data[i]
		if c != 'd' && c != '\n' && c != '\r' && c != ' ' && c != '\t' && c != '-' &&
			(c < '0' || c > '9') && (c < 'A' || c > 'z') {
			return true
		}
	}
	return false
}

// parseDRAT parses a text or binary DRAT proof held in data.
func parseDRAT(data []byte) (*proof, error) {
	if isBinary(data) {
		return parseBinaryDRAT(data)
	}
	return parseTextDRAT(data)
}

func parseTextDRAT(data []byte) (*proof, error) {
	p := &proof{}
	s := newScanner(data)
	perr := func(off, line int, err error) error {
		return &ParseError{Format: "DRAT", Line: line, Offset: int64(off), Err: err}
	}
	open := false
	for {
		tok, off, line, ok := s.next()
		if !ok {
			if open { // report where the unfinished step starts
				st := p.steps[len(p.steps)-1]
				return nil, perr(int(st.off), int(st.line), ErrTruncate)
			}
			return p, nil
		}
		if !open {
			st := step{start: int32(len(p.lits)), line: int32(line), off: int64(off)}
			if tok[0] == 'd' {
				st.del = true
				tok = tok[1:]
			}
			p.steps = append(p.steps, st)
			open = true
			if len(tok) == 0 { // "d" then literals
				continue
			}
		}
		v, ok := parseInt(tok, MaxVar)
		if !ok {
			return nil, perr(off, line, fmt.Errorf("%w %s", ErrLiteral, quote.Bytes(tok)))
		}
		if v == 0 {
			p.close()
			open = false
			continue
		}
		p.lits = append(p.lits, int32(v))
	}
}

// close ends the last step.
func (p *proof) close() {
	st := &p.steps[len(p.steps)-1]
	st.end = int32(len(p.lits))
	if !st.del {
		p.lemmas++
		st.index = int32(p.lemmas)
	}
}

var errBinaryStep = errors.New("binary step does not start with 'a' or 'd'")

func parseBinaryDRAT(data []byte) (*proof, error) {
	p := &proof{binary: true}
	perr := func(off int, err error) error {
		return &ParseError{Format: "binary DRAT", Offset: int64(off), Err: err}
	}
	i := 0
	for i < len(data) {
		c := data[i]
		if c != 'a' && c != 'd' {
			return nil, perr(i, errBinaryStep)
		}
		stepOff := i
		p.steps = append(p.steps, step{start: int32(len(p.lits)), del: c == 'd', off: int64(i)})
		i++
		for {
			litOff := i
			var u uint64
			shift := 0
			for {
				if i >= len(data) { // report where the unfinished step starts
					return nil, perr(stepOff, ErrTruncate)
				}
				b := data[i]
				i++
				u |= uint64(b&0x7f) << shift
				if b < 0x80 {
					break
				}
				shift += 7
				if shift > 35 {
					return nil, perr(litOff, fmt.Errorf("%w: variable-byte number too long", ErrLiteral))
				}
			}
			if u == 0 {
				break
			}
			v := u >> 1
			if v == 0 || v > MaxVar {
				return nil, perr(litOff, fmt.Errorf("%w: encoded %d", ErrLiteral, u))
			}
			l := int32(v)
			if u&1 == 1 {
				l = -l
			}
			p.lits = append(p.lits, l)
		}
		p.close()
	}
	return p, nil
}
