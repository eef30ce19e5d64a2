package drat

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
)

// CheckProof checks that the proof read from proof refutes f, in any
// format the package reads, told from its first bytes as solvers write
// them: text or binary DRAT (see [CheckDRAT]), the RUP trace of
// picosat.trace (DRAT without deletions, after a "%RUPD32 V C" header
// line, which is skipped) and text LRAT (see [CheckLRAT]), recognised by
// its first step: an id, then "d" or two zero-ended lists. The result's
// Format names the format checked. Errors are those of the checker the
// format selects.
func CheckProof(ctx context.Context, f *Formula, proof io.Reader) (*Result, error) {
	br := bufio.NewReaderSize(proof, 64<<10)
	if err := skipRUPHeader(br); err != nil {
		return nil, fmt.Errorf("read proof: %w", err)
	}
	head, _ := br.Peek(4 << 10) // shorter at the end of a short proof
	if isLRAT(head) {
		return CheckLRAT(ctx, f, br)
	}
	return CheckDRAT(ctx, f, br)
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

// isLRAT reports whether a text proof starting with head is LRAT: its
// first step (after comment lines) is "ID d IDS 0" or "ID LITS 0 HINTS
// 0", where a DRAT step has one 0, at its end. A proof whose first step
// does not fit in head is taken for DRAT.
func isLRAT(head []byte) bool {
	if isBinary(head) {
		return false
	}
	for len(head) > 0 {
		line, rest, ok := bytes.Cut(head, []byte{'\n'})
		if !ok {
			return false
		}
		head = rest
		fields := bytes.Fields(line)
		if len(fields) == 0 || fields[0][0] == 'c' {
			continue
		}
		if len(fields) >= 2 && string(fields[1]) == "d" {
			return string(fields[0]) != "d"
		}
		zeros := 0
		for _, f := range fields {
			if string(f) == "0" {
				zeros++
			}
		}
		return zeros >= 2
	}
	return false
}
