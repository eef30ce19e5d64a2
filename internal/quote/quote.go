// Package quote quotes input in messages: a token from a file, a
// solver, a shard line or the command line, cut to a few dozen bytes and
// with every control and formatting character escaped, so that a message
// stays one short line and nothing in it reaches a terminal raw (ESC, CR,
// U+202E RIGHT-TO-LEFT OVERRIDE).
package quote

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
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

// Line returns the message s as one line of at most max bytes (and
// "..."): every character that is not graphic (a line break, ESC, CR,
// U+202E, an invalid byte) written as its Go escape. It is the last
// guard of the one-line contract, for messages that quote something
// whole (a library's, a flag parser's).
func Line(s string, max int) string {
	var b strings.Builder
	for i, r := range s {
		if b.Len() >= max {
			b.WriteString("...")
			break
		}
		switch {
		case r == utf8.RuneError && len(s[i:]) > 0 && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == ' ' || unicode.IsGraphic(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}
