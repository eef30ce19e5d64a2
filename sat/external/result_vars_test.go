package external

import (
	"errors"
	"strings"
	"testing"
)

// TestReadResultVars: a literal beyond the formula's variables ends the
// reading at once with a *BeyondError; within them the model is read as
// ReadResult reads it.
func TestReadResultVars(t *testing.T) {
	res, err := ReadResultVars(strings.NewReader("s SATISFIABLE\nv 1 -2 3 0\n"), 3)
	if err != nil || len(res.Model) != 3 {
		t.Fatalf("within the variables: %v, %v", res, err)
	}
	// The reader after the beyond literal would fail: it is never read.
	r := strings.NewReader("s SATISFIABLE\nv 1 -4 \n")
	_, err = ReadResultVars(&failAfter{r: r}, 3)
	var be *BeyondError
	if !errors.As(err, &be) || be.Line != 2 || be.Literal != -4 || be.Vars != 3 {
		t.Fatalf("beyond: %v, want literal -4 of 3 variables on line 2", err)
	}
	if _, err := ReadResultVars(strings.NewReader("v 1 0\n"), -5); !errors.As(err, &be) {
		t.Errorf("a negative bound takes no variable: %v", err)
	}
}

// failAfter reads r, then fails: a reader that a full read would trip.
type failAfter struct{ r *strings.Reader }

func (f *failAfter) Read(p []byte) (int, error) {
	if f.r.Len() == 0 {
		return 0, errors.New("read past the beyond literal")
	}
	return f.r.Read(p)
}
