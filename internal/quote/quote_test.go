package quote_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/quote"
)

func TestToken(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for _, tc := range []struct{ in, want string }{
		{"abc", `"abc"`},
		{"", `""`},
		{"\x1b[2J\r\u202eevil", `"\x1b[2J\r\u202eevil"`},
		{"\x00\x00", `"\x00\x00"`},
		{long, `"` + strings.Repeat("x", quote.Max) + `"... (1048576 bytes)`},
		// a character cut in two is left out whole
		{strings.Repeat("x", quote.Max-1) + "é" + long, `"` + strings.Repeat("x", quote.Max-1) + `"... (1048617 bytes)`},
	} {
		if got := quote.Token(tc.in); got != tc.want {
			t.Errorf("Token(%.20q) = %s, want %s", tc.in, got, tc.want)
		}
		if got := quote.Bytes([]byte(tc.in)); got != tc.want {
			t.Errorf("Bytes(%.20q) = %s, want %s", tc.in, got, tc.want)
		}
		if got := quote.Token(tc.in); len(got) > 3*quote.Max+30 || strings.ContainsAny(got, "\x1b\r\n\u202e") {
			t.Errorf("Token(%.20q) = %s: long or raw", tc.in, got)
		}
	}
	for in, want := range map[string]string{"node-7": "node-7", "a b": "a b", "\u202eevil": `"\u202eevil"`, long: quote.Token(long)} {
		if got := quote.Text(in); got != want {
			t.Errorf("Text(%.20q) = %s, want %s", in, got, want)
		}
	}
}

func ExampleToken() {
	fmt.Println(quote.Token("\x1b[31mred\u202e"))
	fmt.Println(quote.Token(strings.Repeat("\x00", 1<<20)))
	// Output:
	// "\x1b[31mred\u202e"
	// "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"... (1048576 bytes)
}
