package testutil

import (
	"strconv"
	"strings"
)

// PutVarint appends u as a variable-byte number (seven bits a byte, least
// significant first), as binary DRAT, LRAT and FRAT write numbers.
func PutVarint(b []byte, u uint64) []byte {
	for u >= 0x80 {
		b = append(b, byte(u&0x7f|0x80))
		u >>= 7
	}
	return append(b, byte(u))
}

// Signed is the binary encoding of a literal or hint: 2|x| + sign.
func Signed(x int) uint64 {
	if x < 0 {
		return uint64(-x)<<1 | 1
	}
	return uint64(x) << 1
}

// BinaryLRAT writes a text LRAT proof in binary LRAT as CaDiCaL 2's
// --lrat writes it: 'a', id, literals, 0, hints, 0; 'd', ids, 0 (every
// number 2|x| + sign). Comment lines are dropped; the text must be
// well-formed (a word that is no number reads as 0).
func BinaryLRAT(text string) []byte {
	var out []byte
	for _, line := range strings.Split(text, "\n") {
		w := strings.Fields(line)
		if len(w) == 0 || w[0] == "c" {
			continue
		}
		if len(w) > 1 && w[1] == "d" {
			out = append(out, 'd')
			for _, x := range w[2:] {
				out = PutVarint(out, Signed(atoi(x)))
			}
			continue
		}
		out = append(out, 'a')
		for _, x := range w {
			out = PutVarint(out, Signed(atoi(x)))
		}
	}
	return out
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
