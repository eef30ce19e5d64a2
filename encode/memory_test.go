package encode_test

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/encode"
)

// TestScanDIMACSMemory: a one-line clause costs memory by its distinct
// literals, never by its words: 8 MB of "1 -2 3 4 5 ..." allocates little,
// and a line of a million distinct literals well under the 16 bytes a
// byte that --max-input assumes, all that was allocated counted.
func TestScanDIMACSMemory(t *testing.T) {
	repeated := "p cnf 5 1\n" + strings.Repeat("1 -2 3 4 5 ", 800_000) + "0\n"
	var b strings.Builder
	b.WriteString("p cnf 1000000 1\n")
	for v := 1; v <= 1_000_000; v++ {
		b.WriteString(strconv.Itoa(v) + " ")
	}
	b.WriteString("0\n")
	for _, tc := range []struct {
		name    string
		in      string
		perByte float64
	}{
		{"repeated literals", repeated, 0.5},
		{"distinct literals", b.String(), 8},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		lits := 0
		_, err := encode.ScanDIMACS(strings.NewReader(tc.in), func(c []int) error { lits += len(c); return nil })
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(tc.in)); got > tc.perByte {
			t.Errorf("%s: %d bytes, %d literals handed: %.2f bytes allocated a byte, want at most %.2f", tc.name, len(tc.in), lits, got, tc.perByte)
		}
	}
}
