package join

import "testing"

// TestQuarters checks the sizes quarterBytes gives against the tables
// built (n = 17 to 19 take a second: not with -short); TestSplits counts
// with them.
func TestQuarters(t *testing.T) {
	for n := 1; n <= quarterMaxN; n++ {
		if n > 16 && testing.Short() {
			break
		}
		if got := (newQuarters(n).bytes + 1023) >> 10 << 10; got != quarterBytes(n) {
			t.Errorf("n=%d: quarter tables of %d bytes, quarterBytes says %d", n, got, quarterBytes(n))
		}
	}
	if quarterBytes(quarterMaxN+1) != 0 || quarterBytes(0) != 0 {
		t.Errorf("quarterBytes past its range: %d, %d", quarterBytes(quarterMaxN+1), quarterBytes(0))
	}
}
