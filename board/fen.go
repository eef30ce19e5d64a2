package board

import (
	"fmt"
	"strconv"
	"strings"
)

// FormatFEN is the piece-placement of a chess position in Forsyth-Edwards
// Notation, for n = 8 only, so that a solution can be pasted into a chess
// program. The queens are white ('Q'); rank 8 (the first field) is row 1,
// the top row of the other formats, and file a is column 1. The other
// fields say white to move, no castling, no en passant, move 1:
//
//	1Q6/3Q4/... w - - 0 1
//
// A chess program may call the position illegal (it has no kings); board
// editors and analysis boards that allow set-up positions show it.
const FormatFEN Format = "fen"

// fenTail is the rest of a FEN record after the piece placement.
const fenTail = " w - - 0 1"

// AppendFEN appends s as one FEN record ([FormatFEN]) and a newline to dst.
// s must have 8 rows; a negative column leaves that rank empty. Another
// size wraps [ErrSize].
func AppendFEN(dst []byte, s Solution) ([]byte, error) {
	if len(s) != 8 {
		return dst, fmt.Errorf("write FEN: %w: n = %d, FEN is for n = 8 only", ErrSize, len(s))
	}
	for row, col := range s {
		if col >= 8 {
			return dst, fmt.Errorf("write FEN: queen in row %d is at column %d, off the board", row+1, col+1)
		}
		if row > 0 {
			dst = append(dst, '/')
		}
		switch {
		case col < 0:
			dst = append(dst, '8')
		default:
			if col > 0 {
				dst = strconv.AppendInt(dst, int64(col), 10)
			}
			dst = append(dst, 'Q')
			if col < 7 {
				dst = strconv.AppendInt(dst, int64(7-col), 10)
			}
		}
	}
	return append(append(dst, fenTail...), '\n'), nil
}

// ParseFEN reads the piece placement of a FEN record (the first field; the
// others, if any, are not checked) holding exactly one queen, white or
// black, on each rank and nothing else. Like [Parse] it checks the shape,
// not that the queens are safe. Errors are a *[ParseError].
func ParseFEN(text string) (Solution, error) {
	fail := func(format string, args ...any) (Solution, error) {
		return nil, &ParseError{FormatFEN, 1, fmt.Errorf(format, args...)}
	}
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return fail("empty FEN")
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return fail("%d ranks, want 8", len(ranks))
	}
	s := make(Solution, 8)
	for row, rank := range ranks {
		s[row] = -1
		file := 0
		for _, r := range rank {
			switch {
			case r >= '1' && r <= '8':
				file += int(r - '0')
			case r == 'Q' || r == 'q':
				if s[row] >= 0 {
					return fail("two queens on rank %d", 8-row)
				}
				s[row] = file
				file++
			default:
				return fail("rank %d: %q: only queens (Q or q) and empty squares (1-8)", 8-row, r)
			}
		}
		if file != 8 {
			return fail("rank %d has %d squares, want 8", 8-row, file)
		}
		if s[row] < 0 {
			return fail("no queen on rank %d", 8-row)
		}
	}
	return s, nil
}
