package external

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/queens-dev/queens/encode"
)

func TestParseCount(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want uint64
		err  string
	}{
		{"c ganak\ns mc 92\n", 92, ""},
		{"s pmc 12\n", 12, ""},
		{"c s type mc\nc s exact arb int 724\ns SATISFIABLE\n", 724, ""},
		{"s mc 92\nc s exact arb int 92\n", 92, ""},
		{"s 2680\n", 2680, ""},
		{"s SATISFIABLE\nc Models         : 92\nc Calls : 1\n", 92, ""},
		{"Models : 0\n", 0, ""},
		{"# solutions \n14772512\n# END\n", 14772512, ""},
		{"s mc 18446744073709551615\n", 1<<64 - 1, ""},
		{"c Models         : 11970364+\n", 0, "did not finish"},
		{"s mc 92\nc s exact arb int 93\n", 0, "two different counts"},
		{"s mc 18446744073709551616\n", 0, "out of range"},
		{"s mc -1\n", 0, "out of range"},
		{"s mc 1e9\n", 0, "not an integer"},
		{"s SATISFIABLE\n", 0, "no count"},
		{"", 0, "no count"},
		{"3\n4\n", 0, "two different counts"},
		{"s mc 5\n3\n", 5, ""}, // a bare number does not count next to an explicit one
	} {
		got, err := ParseCount([]byte(tc.out))
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ParseCount(%q) = %d, %v; want %d", tc.out, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseCount(%q) = %d, %v; want an error with %q", tc.out, got, err, tc.err)
		}
	}
}

// TestCounterClasp counts through clasp, the one counter Debian packages
// (by enumeration), for encodings with and without auxiliary variables.
func TestCounterClasp(t *testing.T) {
	if _, err := exec.LookPath("clasp"); err != nil {
		t.Skip("clasp not installed (apt-get install clasp)")
	}
	for _, tc := range []struct {
		enc  encode.Encoding
		cmd  string
		want uint64
	}{
		{encode.Pairwise, "clasp -n 0 -q", 40},
		{encode.Commander, "clasp -n 0 -q", 40},
		{encode.Seq, "clasp -n 0 -q", 40},
		{encode.Binary, "clasp -n 0 -q", 40},
		{encode.Seq, "clasp --parse-ext --project -n 0 -q", 40}, // no projection line: the same count
		{encode.Pairwise, "clasp -n 0", 40},                     // with the models printed
	} {
		e, err := encode.NewEncoder(7, encode.Options{Encoding: tc.enc})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Counter{Command: tc.cmd}.CountEncoder(context.Background(), e, "test")
		if err != nil || got != tc.want {
			t.Errorf("%s on %s: %d, %v; want %d", tc.cmd, tc.enc, got, err, tc.want)
		}
	}
	e, _ := encode.NewEncoder(3, encode.Options{})
	if got, err := (Counter{Command: "clasp -n 0 -q"}).CountEncoder(context.Background(), e, "test"); err != nil || got != 0 {
		t.Errorf("clasp on n = 3: %d, %v; want 0 (exit status 20)", got, err)
	}
}

func TestCounterFailures(t *testing.T) {
	e, _ := encode.NewEncoder(4, encode.Options{})
	for _, tc := range []struct{ cmd, err string }{
		{"sh -c 'echo s mc 2; exit 1' sh", "exit status 1"},
		{"sh -c 'echo s mc 2; exit 20' sh", "exits with status 20"},
		{"sh -c 'echo s mc 0; exit 10' sh", "exits with status 10"},
		{"sh -c 'kill -9 $$' sh", "signal"},
		{"sh -c 'echo s SATISFIABLE' sh", "no count"},
	} {
		_, err := Counter{Command: tc.cmd}.CountEncoder(context.Background(), e, "test")
		if !errors.Is(err, ErrCounterFailed) || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want ErrCounterFailed with %q", tc.cmd, err, tc.err)
		}
	}
	if _, err := (Counter{Command: "no-such-counter-xyz"}).Count(context.Background(), "x"); !errors.Is(err, ErrSolverNotFound) {
		t.Errorf("missing counter: %v", err)
	}
	got, err := Counter{Command: "sh -c 'echo s mc 2' sh"}.CountEncoder(context.Background(), e, "test")
	if err != nil || got != 2 {
		t.Errorf("sh counter: %d, %v", got, err)
	}
}
