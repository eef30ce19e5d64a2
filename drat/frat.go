package drat

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/queens-dev/queens/internal/quote"
)

// CheckFRAT checks that the FRAT proof read from proof (text, or binary
// when its first bytes say so as for DRAT) refutes f. FRAT (Baek,
// Carneiro and Heule, 2022), as CaDiCaL and CryptoMiniSat write it, is a
// sequence of steps, each a letter, a clause id and the clause's
// literals ended by 0:
//
//	o 1  1 2 0          an original clause
//	a 86  1 0  l 2 5 0  an added clause, optionally with its hints
//	d 85  1 0           a deleted clause
//	f 86  1 0           a clause still there at the end
//
// and "r" steps that renumber ids. In binary, the letters are bytes, ids
// and hints are variable-byte numbers (ids unsigned, hints 2*|h| + sign)
// and literals as in binary DRAT. The check believes none of what the
// proof says of itself: the originals are f's clauses whatever its o
// steps claim, ids and hints are read and dropped, and the added and
// deleted clauses go to the DRAT checker as lemmas and deletions (each
// lemma RUP, or RAT on its first literal; see [CheckDRAT]), so a step
// without hints is checked as well as one with them. Errors are those of
// [CheckDRAT]; a malformed proof gives a *[ParseError] whose Format is
// "FRAT" or "binary FRAT".
func CheckFRAT(ctx context.Context, f *Formula, proof io.Reader) (*Result, error) {
	if err := f.validate(); err != nil {
		return nil, fmt.Errorf("check FRAT: %w", err)
	}
	br := bufio.NewReaderSize(proof, 64<<10)
	head, _ := br.Peek(10)
	q := newParser(f, isBinaryFRAT(head))
	q.format = "FRAT"
	var err error
	if q.p.binary {
		q.format = "binary FRAT"
		_, err = q.parseBinaryFRAT(br)
	} else {
		_, err = q.parseTextFRAT(br)
	}
	if err != nil {
		return nil, err
	}
	k := newChecker(ctx, f, q.p, false)
	k.res.Format = q.format
	return k.run()
}

// fratSteps are the letters that start a FRAT step.
const fratSteps = "oadflr"

// isBinaryFRAT tells a binary FRAT proof from a text one by drat-trim's
// rule: one of its first 10 bytes cannot occur in text.
func isBinaryFRAT(head []byte) bool {
	for i := 0; i < len(head) && i < 10; i++ {
		if !isTextByte(head[i]) {
			return true
		}
	}
	return false
}

// isTextByte reports whether c can occur in a text proof (drat-trim's
// set: digits, letters, '-' and blanks).
func isTextByte(c byte) bool {
	return c == '\n' || c == '\r' || c == ' ' || c == '\t' || c == '-' || c >= '0' && c <= '9' || c >= 'A' && c <= 'z'
}

// errFRATStep is the error of a FRAT step that starts with no step letter.
var errFRATStep = errors.New("FRAT step does not start with o, a, d, f, l or r")

func (q *parser) parseTextFRAT(br *bufio.Reader) (*proof, error) {
	p := q.p
	t := tokenReader{br: br, line: 1, lineStart: true}
	perr := func(off int64, line int, err error) error {
		return &ParseError{Format: "FRAT", Line: line, Offset: off, Err: err}
	}
	for {
		tok, off, line, err := t.next()
		if err == io.EOF {
			return p, nil
		}
		if err != nil {
			return nil, q.tokenErr(err, perr)
		}
		if len(tok) != 1 {
			return nil, perr(off, line, fmt.Errorf("%w: %s", errFRATStep, quote.Bytes(tok)))
		}
		kind := tok[0]
		// numbers reads the step's numbers up to its 0: literals (kept
		// for a and d) or ids.
		numbers := func(max int64, keep bool) error {
			for {
				tok, toff, tline, err := t.next()
				if err == io.EOF {
					return perr(off, line, ErrTruncate)
				}
				if err != nil {
					return q.tokenErr(err, perr)
				}
				v, ok := parseInt(tok, max)
				if !ok {
					return perr(toff, tline, fmt.Errorf("%w %s", ErrLiteral, quote.Bytes(tok)))
				}
				if v == 0 {
					return nil
				}
				if keep {
					p.lits = append(p.lits, int32(v))
				}
			}
		}
		st := step{start: int32(len(p.lits)), del: kind == 'd', line: int32(line), off: off}
		switch kind {
		case 'o', 'a', 'd', 'f':
			tok, toff, tline, err := t.next()
			if err == io.EOF {
				return nil, perr(off, line, ErrTruncate)
			}
			if err != nil {
				return nil, q.tokenErr(err, perr)
			}
			if id, ok := parseInt(tok, maxID); !ok || id <= 0 {
				return nil, perr(toff, tline, fmt.Errorf("%w: clause id %s", ErrSyntax, quote.Bytes(tok)))
			}
			keep := kind == 'a' || kind == 'd'
			if err := numbers(MaxVar, keep); err != nil {
				return nil, err
			}
			if keep {
				if err := q.end(st); err != nil {
					return nil, err
				}
			}
		case 'l', 'r':
			if err := numbers(maxID, false); err != nil {
				return nil, err
			}
		default:
			return nil, perr(off, line, fmt.Errorf("%w: %s", errFRATStep, quote.Bytes(tok)))
		}
	}
}

// tokenErr turns a tokenReader's error into the parse error or read
// error it is.
func (q *parser) tokenErr(err error, perr func(int64, int, error) error) error {
	var te *tokenError
	if errors.As(err, &te) {
		return perr(te.off, te.line, te.err)
	}
	return fmt.Errorf("read %s proof: %w", q.format, err)
}

func (q *parser) parseBinaryFRAT(br *bufio.Reader) (*proof, error) {
	p := q.p
	perr := func(off int64, err error) error {
		return &ParseError{Format: "binary FRAT", Offset: off, Err: err}
	}
	var off int64 // of the next byte
	for {
		c, err := br.ReadByte()
		if err == io.EOF {
			return p, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read binary FRAT proof: %w", err)
		}
		st := step{start: int32(len(p.lits)), del: c == 'd', off: off}
		off++
		// number reads one variable-byte number of at most bits bits.
		number := func(bits int) (uint64, error) {
			numOff := off
			u, n, err := readVarint(br, bits)
			off += int64(n)
			switch {
			case err == io.EOF || err == io.ErrUnexpectedEOF:
				return 0, perr(st.off, ErrTruncate)
			case err == errVarint:
				return 0, perr(numOff, fmt.Errorf("%w: variable-byte number too long", ErrLiteral))
			case err != nil:
				return 0, fmt.Errorf("read binary FRAT proof: %w", err)
			}
			return u, nil
		}
		switch c {
		case 'o', 'a', 'd', 'f':
			idOff := off
			id, err := number(62)
			if err != nil {
				return nil, err
			}
			if id == 0 {
				return nil, perr(idOff, fmt.Errorf("%w: clause id 0", ErrSyntax))
			}
			keep := c == 'a' || c == 'd'
			if err := q.binaryLits(br, &off, st.off, keep, perr); err != nil {
				return nil, err
			}
			if keep {
				if err := q.end(st); err != nil {
					return nil, err
				}
			}
		case 'l', 'r':
			for {
				u, err := number(63)
				if err != nil {
					return nil, err
				}
				if u == 0 {
					break
				}
			}
		default:
			return nil, perr(st.off, fmt.Errorf("%w (byte 0x%02x)", errFRATStep, c))
		}
	}
}

// errVarint is readVarint's error for a number beyond its bits.
var errVarint = errors.New("variable-byte number too long")

// readVarint reads a variable-byte number (seven bits a byte, least
// significant first, the high bit set on all but the last byte) of at
// most bits bits, and returns it and the bytes read. The error is
// io.EOF at once at the end, io.ErrUnexpectedEOF inside the number, or
// errVarint.
func readVarint(br *bufio.Reader, bits int) (u uint64, n int, err error) {
	for shift := 0; ; shift += 7 {
		b, err := br.ReadByte()
		if err == io.EOF && n > 0 {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return 0, n, err
		}
		n++
		if shift >= bits || uint64(b&0x7f)>>(bits-shift) != 0 {
			return 0, n, errVarint
		}
		u |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return u, n, nil
		}
	}
}

// tokenReader splits a text proof read from br into blank-separated
// tokens of at most maxToken bytes, skipping comment lines (a line whose
// first token starts with 'c').
type tokenReader struct {
	br        *bufio.Reader
	off       int64 // of the next byte
	line      int
	lineStart bool
	tok       []byte
}

// tokenError is the error of a token over maxToken bytes.
type tokenError struct {
	off  int64
	line int
	err  error
}

func (e *tokenError) Error() string { return e.err.Error() }

// next returns the next token (valid until the next call), its offset
// and line; io.EOF at the end.
func (t *tokenReader) next() (tok []byte, off int64, line int, err error) {
	for {
		c, err := t.br.ReadByte()
		if err != nil {
			return nil, t.off, t.line, err
		}
		t.off++
		switch {
		case c == '\n':
			t.line++
			t.lineStart = true
			continue
		case isSpace(c):
			continue
		case c == 'c' && t.lineStart:
			for c != '\n' {
				if c, err = t.br.ReadByte(); err != nil {
					if err == io.EOF {
						return nil, t.off, t.line, io.EOF
					}
					return nil, t.off, t.line, err
				}
				t.off++
			}
			t.line++
			continue
		}
		t.lineStart = false
		off, line = t.off-1, t.line
		t.tok = append(t.tok[:0], c)
		for {
			b, err := t.br.ReadByte()
			if err == io.EOF {
				return t.tok, off, line, nil
			}
			if err != nil {
				return nil, t.off, t.line, err
			}
			if isSpace(b) {
				t.br.UnreadByte()
				return t.tok, off, line, nil
			}
			t.off++
			if len(t.tok) == maxToken {
				return nil, off, line, &tokenError{off, line, fmt.Errorf("%w %s (a word of more than %d bytes)", ErrLiteral, quote.Bytes(append(t.tok, b)), maxToken)}
			}
			t.tok = append(t.tok, b)
		}
	}
}
