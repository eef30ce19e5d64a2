// Package quote quotes input in messages: a token from a file, a
// solver, a shard line or the command line, cut to a few dozen bytes and
// with every control and formatting character escaped, so that a message
// stays one short line and nothing in it reaches a terminal raw (ESC, CR,
// U+202E RIGHT-TO-LEFT OVERRIDE).
package quote

import (
	"strconv"
	"unicode/utf8"
)

// Max is the most bytes of a token a message quotes.
const Max = 40

// Token returns s quoted as Go quotes it ("\x1b[2J", "\u202e"), cut to
// Max bytes at a character boundary; a cut token is followed by
// "... (N bytes)".
func Token(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	return strconv.Quote(cut(s)) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// Bytes is Token of b, which it does not copy beyond Max bytes.
func Bytes(b []byte) string {
	if len(b) <= Max {
		return strconv.Quote(string(b))
	}
	return strconv.Quote(cut(string(b[:Max]))) + "... (" + strconv.Itoa(len(b)) + " bytes)"
}

// Text is s itself where Token would only add the quotes (a short
// printable name reads better bare), and Token(s) otherwise.
func Text(s string) string {
	q := Token(s)
	if q == `"`+s+`"` {
		return s
	}
	return q
}

// cut returns s's first Max bytes, less a character cut in two.
func cut(s string) string {
	s = s[:Max]
	for i := 0; i < utf8.UTFMax && len(s) > 0; i++ {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size != 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}
