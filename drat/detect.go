package drat

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
)

// CheckProof checks that the proof read from proof refutes f, in any
// format the package reads, told from its first bytes as solvers write
// them: text or binary DRAT (see [CheckDRAT]), the RUP trace of
// picosat.trace (DRAT without deletions, after a "%RUPD32 V C" header
// line, which is skipped) and text LRAT (see [CheckLRAT]), recognised by
// the first tokens of its first step, however long its line: an LRAT
// step starts with a positive clause id, then "d" (a deletion) or, for an
// addition, an id above f's clauses, the clause's literals, 0, and hints
// on the same line. A first step that starts with "d" or a negative
// number, or whose first number could be an original clause's id, is
// DRAT, as is one whose 0 ends its line. The result's
// Format names the format checked. Errors are those of the checker the
// format selects.
func CheckProof(ctx context.Context, f *Formula, proof io.Reader) (*Result, error) {
	br := bufio.NewReaderSize(proof, 64<<10)
	if err := skipRUPHeader(br); err != nil {
		return nil, fmt.Errorf("read proof: %w", err)
	}
	head, _ := br.Peek(16) // shorter at the end of a short proof
	if isBinary(head) {
		return CheckDRAT(ctx, f, br)
	}
	lrat, read, err := isLRAT(br, len(f.Clauses))
	if err != nil {
		return nil, fmt.Errorf("read proof: %w", err)
	}
	r := io.MultiReader(bytes.NewReader(read), br)
	if lrat {
		return CheckLRAT(ctx, f, r)
	}
	return CheckDRAT(ctx, f, r)
}

// skipRUPHeader drops a "%RUPD32 ..." line at the start of br.
func skipRUPHeader(br *bufio.Reader) error {
	first, err := br.Peek(1)
	if err != nil || first[0] != '%' {
		return nil // an empty proof is the checker's to refuse
	}
	for {
		_, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			return nil
		}
		return err
	}
}

// maxDetect bounds the bytes isLRAT reads to decide (a first lemma of
// more literals is decided by its first number alone).
const maxDetect = 1 << 20

// isLRAT reads the start of the text proof in br, up to where its first
// step (after comment lines) tells the format, and reports whether it is
// LRAT (see CheckProof) for a formula of clauses clauses. It returns the
// bytes it read (each run of blanks as one space), which the checker must
// read first.
func isLRAT(br *bufio.Reader, clauses int) (lrat bool, read []byte, err error) {
	var tok []byte
	// next reads the next token of the line into tok; eol: the line
	// (or the input) ended before it, and tok is empty.
	next := func() (eol bool, err error) {
		tok = tok[:0]
		for len(read) < maxDetect {
			c, err := br.ReadByte()
			if err == io.EOF {
				return len(tok) == 0, nil
			}
			if err != nil {
				return false, err
			}
			if c == ' ' || c == '\t' || c == '\r' {
				// A run of blanks is kept as one: what is read
				// grows with the tokens, not with the blanks.
				if len(read) == 0 || read[len(read)-1] != ' ' {
					read = append(read, ' ')
				}
			} else {
				read = append(read, c)
			}
			switch {
			case c == '\n' && len(tok) == 0:
				return true, nil
			case c == '\n':
				br.UnreadByte()
				read = read[:len(read)-1]
				return false, nil
			case c == ' ' || c == '\t' || c == '\r':
				if len(tok) > 0 {
					return false, nil
				}
			default:
				tok = append(tok, c)
			}
		}
		return len(tok) == 0, nil
	}
	for {
		eol, err := next()
		if err != nil {
			return false, read, err
		}
		if eol && len(tok) == 0 {
			if _, err := br.Peek(1); err != nil || len(read) >= maxDetect {
				return false, read, nil // no step: DRAT's to refuse
			}
			continue
		}
		if tok[0] == 'c' {
			if err := skipComment(br, &read); err != nil {
				return false, read, err
			}
			continue
		}
		break
	}
	id, err := strconv.Atoi(string(tok))
	if err != nil || id <= 0 {
		return false, read, nil // "d", a negative literal, or the checker's error
	}
	if eol, err := next(); err != nil || eol {
		return false, read, err
	}
	if string(tok) == "d" {
		return true, read, nil
	}
	if id <= clauses {
		return false, read, nil // a literal: no LRAT step adds an original clause's id
	}
	for string(tok) != "0" {
		eol, err := next()
		if err != nil || eol {
			return false, read, err
		}
	}
	// After the clause's 0: hints on the line make it LRAT.
	eol, err := next()
	return !eol, read, err
}

// skipComment reads the rest of a comment line into *read, up to
// maxDetect bytes.
func skipComment(br *bufio.Reader, read *[]byte) error {
	for len(*read) < maxDetect {
		c, err := br.ReadByte()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		*read = append(*read, c)
		if c == '\n' {
			return nil
		}
	}
	return nil
}
