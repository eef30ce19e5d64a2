package encode

import (
	"errors"
	"strings"
	"testing"
)

// TestReadDIMACSHeader: the header is read up to the "p cnf" line, with
// comments of any length before it, and no clause is read; a file without
// one, or with counts out of range, is refused as ReadDIMACS refuses it.
func TestReadDIMACSHeader(t *testing.T) {
	long := "c " + strings.Repeat("x", 3<<20) + "\n"
	cnf, err := ReadDIMACSHeader(strings.NewReader(long + "p cnf 16 80\n1 2 x garbage that is never read"))
	if err != nil || cnf.Vars != 16 {
		t.Fatalf("ReadDIMACSHeader: %v, %v; want 16 variables", cnf, err)
	}
	for _, bad := range []string{"", "c only a comment\n", "p cnf -1 3\n", "p cnf 99999999999 1\n", "p dnf 3 3\n"} {
		if _, err := ReadDIMACSHeader(strings.NewReader(bad)); !errors.Is(err, ErrHeader) {
			t.Errorf("ReadDIMACSHeader(%q): %v, want %v", bad, err, ErrHeader)
		}
	}
}
