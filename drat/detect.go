package drat

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// CheckProof checks that the proof read from proof refutes f, in any
// format the package reads, told from its first bytes as solvers write
// them, and says which in the result's Format:
//
//   - binary DRAT, LRAT or FRAT: a proof whose first byte is 'a' not
//     followed by a blank, or one of "dofrl" with a byte among its first
//     ten that text cannot hold (drat-trim's rule). "ofrl" are FRAT's
//     alone; for 'a' and 'd' the first 64 KiB are read as each of the
//     three, and the reading that gets furthest without a contradiction
//     wins (DRAT, then LRAT, then FRAT on a tie): an LRAT addition has
//     an even id above f's clauses and the ids before it, and hints below
//     it; a DRAT step is 'a' or 'd' and literals, so LRAT read as DRAT
//     stops at its first hint, and DRAT read as LRAT at its first id.
//   - text FRAT: a first step "o", "a", "f", "l" or "r" (a word of one
//     letter), or "d" followed, within 64 lines, by a line that starts so.
//   - text LRAT: up to 64 lines (and 1 MiB) that each read as an LRAT
//     step, "id d ids 0" or "id lits 0 hints 0" with the id above f's
//     clauses and the ids before it, hints non-zero and below it, at
//     least one, and nothing after their 0 on the line. A deletion among
//     them settles it; without one the lines could be DRAT with two
//     clauses a line, so a proof that fails as LRAT is checked as DRAT
//     too, and the first reading that verifies counts.
//   - text DRAT otherwise, after picosat.trace's "%RUPD32 V C" header
//     line, if any, which is skipped (its RUP trace is DRAT without
//     deletions).
//
// Errors are those of the checker the format selects ([CheckDRAT],
// [CheckLRAT], [CheckFRAT]).
func CheckProof(ctx context.Context, f *Formula, proof io.Reader) (*Result, error) {
	br := bufio.NewReaderSize(proof, detectBinary)
	if err := skipRUPHeader(br); err != nil {
		return nil, fmt.Errorf("read proof: %w", err)
	}
	head, _ := br.Peek(detectBinary) // shorter at the end of a short proof
	if isBinaryProof(head) {
		switch binaryFormat(head, len(f.Clauses)) {
		case "binary LRAT":
			return CheckLRAT(ctx, f, br)
		case "binary FRAT":
			return CheckFRAT(ctx, f, br)
		}
		return CheckDRAT(ctx, f, br)
	}
	s := &sniffer{br: br}
	format, sure, err := s.text(len(f.Clauses))
	if err != nil {
		return nil, fmt.Errorf("read proof: %w", err)
	}
	r := io.MultiReader(bytes.NewReader(s.read), br)
	switch {
	case format == "FRAT":
		return CheckFRAT(ctx, f, r)
	case format == "LRAT" && sure:
		return CheckLRAT(ctx, f, r)
	case format == "LRAT":
		return checkLRATOrDRAT(ctx, f, r)
	}
	return CheckDRAT(ctx, f, r)
}

// checkLRATOrDRAT checks a text proof that reads as LRAT as far as its
// start shows, but could be DRAT: as LRAT, and if that fails, as DRAT.
func checkLRATOrDRAT(ctx context.Context, f *Formula, r io.Reader) (*Result, error) {
	if err := f.validate(); err != nil {
		return nil, fmt.Errorf("check LRAT: %w", err)
	}
	data, err := readLimited(r, "LRAT proof")
	if err != nil {
		return nil, err
	}
	res, lerr := checkLRAT(ctx, f, data)
	if lerr == nil || ctx.Err() != nil || errors.Is(lerr, ErrMemory) {
		return res, lerr
	}
	res, derr := CheckDRAT(ctx, f, bytes.NewReader(data))
	if derr == nil {
		return res, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, fmt.Errorf("%w (and read as DRAT: %v)", lerr, derr)
}

// detectBinary is how many bytes of a binary proof are read to tell its
// format, and the reader's buffer.
const detectBinary = 64 << 10

// isBinaryProof reports whether a proof starting with head is binary
// (see CheckProof).
func isBinaryProof(head []byte) bool {
	if len(head) == 0 || !strings.ContainsRune("adofrl", rune(head[0])) {
		return false
	}
	if head[0] == 'a' && (len(head) == 1 || head[1] != ' ' && head[1] != '\t') {
		return true
	}
	return isBinaryFRAT(head)
}

// binaryFormat tells the binary proof starting with head apart (see
// CheckProof) for a formula of clauses clauses.
func binaryFormat(head []byte, clauses int) string {
	if head[0] != 'a' && head[0] != 'd' {
		return "binary FRAT"
	}
	best, format := scoreDRAT(head), "binary DRAT"
	if n := scoreLRAT(head, clauses); n > best {
		best, format = n, "binary LRAT"
	}
	if n := scoreFRAT(head); n > best {
		format = "binary FRAT"
	}
	return format
}

// varint reads the variable-byte number at b[i:]; ok is false when it is
// cut short or longer than 9 bytes.
func varint(b []byte, i int) (u uint64, next int, ok bool) {
	for shift := 0; i < len(b) && shift < 63; shift += 7 {
		c := b[i]
		i++
		u |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return u, i, true
		}
	}
	return 0, i, false
}

// scoreDRAT returns the bytes of head's steps that read as binary DRAT,
// up to the first that does not (or is cut short).
func scoreDRAT(b []byte) int {
	i, done := 0, 0
	for i < len(b) && (b[i] == 'a' || b[i] == 'd') {
		var ok bool
		if i, ok = skipLits(b, i+1); !ok {
			return done
		}
		done = i
	}
	return done
}

// skipLits returns the index after the binary literals and 0 at b[i:];
// ok is false if they are cut short or one is no literal.
func skipLits(b []byte, i int) (next int, ok bool) {
	for {
		u, next, ok := varint(b, i)
		if !ok || u == 1 || u>>1 > MaxVar {
			return next, false
		}
		i = next
		if u == 0 {
			return i, true
		}
	}
}

// scoreLRAT is scoreDRAT for binary LRAT over a formula of clauses
// clauses.
func scoreLRAT(b []byte, clauses int) int {
	i, done := 0, 0
	last := uint64(clauses)
	for i < len(b) && (b[i] == 'a' || b[i] == 'd') {
		add := b[i] == 'a'
		i++
		id := uint64(0)
		if add {
			u, next, ok := varint(b, i)
			if !ok || u&1 == 1 || u>>1 <= last {
				return done
			}
			if i, ok = skipLits(b, next); !ok {
				return done
			}
			id = u >> 1
		}
		for { // hints, or deleted ids
			u, next, ok := varint(b, i)
			if !ok || u == 1 || add && u>>1 >= id || !add && u&1 == 1 {
				return done
			}
			i = next
			if u == 0 {
				break
			}
		}
		if add {
			last = id
		}
		done = i
	}
	return done
}

// scoreFRAT is scoreDRAT for binary FRAT.
func scoreFRAT(b []byte) int {
	i, done := 0, 0
	for i < len(b) && strings.ContainsRune(fratSteps, rune(b[i])) {
		withID := b[i] != 'l' && b[i] != 'r'
		i++
		if withID {
			u, next, ok := varint(b, i)
			if !ok || u == 0 {
				return done
			}
			if i, ok = skipLits(b, next); !ok {
				return done
			}
		} else {
			for { // hints or ids
				u, next, ok := varint(b, i)
				if !ok {
					return done
				}
				i = next
				if u == 0 {
					break
				}
			}
		}
		done = i
	}
	return done
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

// maxDetect bounds the bytes a text proof's start is read for its
// format; maxDetectLines the lines.
const (
	maxDetect      = 1 << 20
	maxDetectLines = 64
)

// sniffer reads the start of a text proof to tell its format. read
// keeps what it read (each run of blanks as one space), which the
// checker must read first.
type sniffer struct {
	br   *bufio.Reader
	read []byte
	eof  bool
}

// line returns the words of the next line that has any, comment lines
// skipped; complete is false when the line was cut by maxDetect. At the
// end of the input it returns no words.
func (s *sniffer) line() (words []string, complete bool, err error) {
	var word []byte
	comment := false
	for {
		if len(s.read) >= maxDetect {
			if len(word) > 0 {
				words = append(words, string(word))
			}
			return words, false, nil
		}
		c, err := s.br.ReadByte()
		if err == io.EOF {
			s.eof = true
			if len(word) > 0 {
				words = append(words, string(word))
			}
			return words, true, nil
		}
		if err != nil {
			return nil, false, err
		}
		blank := c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
		switch {
		case !blank:
			s.read = append(s.read, c)
		case len(s.read) == 0 || s.read[len(s.read)-1] != ' ':
			s.read = append(s.read, ' ')
		}
		switch {
		case c == '\n':
			if len(word) > 0 {
				words = append(words, string(word))
				word = word[:0]
			}
			if len(words) > 0 {
				return words, true, nil
			}
			comment = false
		case comment:
		case blank:
			if len(word) > 0 {
				words = append(words, string(word))
				word = word[:0]
			}
		case c == 'c' && len(words) == 0 && len(word) == 0:
			comment = true
		default:
			word = append(word, c)
		}
	}
}

// text reads the start of a text proof and returns its format, "DRAT",
// "LRAT" or "FRAT" (see CheckProof), for a formula of clauses clauses;
// sure is false for LRAT that could be DRAT.
func (s *sniffer) text(clauses int) (format string, sure bool, err error) {
	words, complete, err := s.line()
	if err != nil || len(words) == 0 {
		return "DRAT", false, err
	}
	isFRAT := func(w []string) bool { return len(w) > 0 && len(w[0]) == 1 && strings.Contains("oaflr", w[0]) }
	if isFRAT(words) {
		return "FRAT", true, nil
	}
	if words[0][0] == 'd' { // a DRAT deletion, or FRAT's "d id lits 0"
		for range maxDetectLines {
			if !complete || s.eof {
				break
			}
			if words, complete, err = s.line(); err != nil || isFRAT(words) {
				return "FRAT", true, err
			}
		}
		return "DRAT", false, nil
	}
	last := int64(clauses)
	for range maxDetectLines {
		ok, del := lratLine(words, complete, &last)
		if !ok {
			return "DRAT", false, nil
		}
		sure = sure || del
		if !complete || s.eof {
			break
		}
		if words, complete, err = s.line(); err != nil || len(words) == 0 {
			break
		}
	}
	return "LRAT", sure, err
}

// lratLine reports whether the words of a line read as an LRAT step
// (see CheckProof) after the ids up to *last, and whether the step is a
// deletion; a line cut short (not complete) is judged on its words.
func lratLine(w []string, complete bool, last *int64) (ok, del bool) {
	id, ok := parseInt([]byte(w[0]), maxID)
	if !ok || id <= 0 {
		return false, false
	}
	i := 1
	if i < len(w) && w[i] == "d" {
		for i++; i < len(w) && w[i] != "0"; i++ {
			if v, ok := parseInt([]byte(w[i]), maxID); !ok || v <= 0 {
				return false, false
			}
		}
		return !complete || i == len(w)-1, true
	}
	if id <= *last {
		return false, false
	}
	for ; i < len(w) && w[i] != "0"; i++ { // the literals
		if _, ok := parseInt([]byte(w[i]), MaxVar); !ok {
			return false, false
		}
	}
	hints := 0
	for i++; i < len(w) && w[i] != "0"; i++ {
		if h, ok := parseInt([]byte(w[i]), maxID); !ok || h == 0 || h >= id || -h >= id {
			return false, false
		}
		hints++
	}
	*last = id
	if !complete {
		return true, false
	}
	return hints > 0 && i == len(w)-1, false
}
