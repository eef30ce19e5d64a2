package sets_test

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare/sets"
)

// stream yields sols, then err if not nil.
func stream(err error, sols ...board.Solution) func(func(board.Solution, error) bool) {
	return func(yield func(board.Solution, error) bool) {
		for _, s := range sols {
			if !yield(s, nil) {
				return
			}
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

// Compare the solutions of n = 4 with a stream that lost one and
// repeated the other.
func ExampleCompare() {
	a, b := board.Solution{1, 3, 0, 2}, board.Solution{2, 0, 3, 1}
	d, err := sets.Compare(stream(nil, a, b), stream(nil, b, b))
	fmt.Println(d.OnlyA, d.OnlyB, d.Empty(), err)
	// Output: [[1 3 0 2]] [[2 0 3 1]] false <nil>
}

// TestDifferences: copies counted on both sides, sorted; a stream's error
// names the stream and wraps the cause.
func TestDifferences(t *testing.T) {
	a, b, c := board.Solution{1, 3, 0, 2}, board.Solution{2, 0, 3, 1}, board.Solution{0}
	ds, err := sets.Differences(stream(nil, b, a, c, b), stream(nil, c, b))
	if err != nil || len(ds) != 2 ||
		!ds[0].Solution.Equal(a) || ds[0].A != 1 || ds[0].B != 0 || !ds[1].Solution.Equal(b) || ds[1].A != 2 || ds[1].B != 1 {
		t.Errorf("Differences = %+v, %v; want a 1:0, b 2:1", ds, err)
	}
	cause := errors.New("solver died")
	for _, tc := range []struct {
		a, b   func(func(board.Solution, error) bool)
		stream string
	}{{stream(cause, a), stream(nil), "a"}, {stream(nil, a), stream(cause), "b"}} {
		_, err := sets.Compare(tc.a, tc.b)
		var se *sets.StreamError
		if !errors.As(err, &se) || se.Stream != tc.stream || !errors.Is(err, cause) {
			t.Errorf("Compare with stream %s failing: %v; want a StreamError of %s wrapping the cause", tc.stream, err, tc.stream)
		}
	}
}

// TestNoSolver: the set arithmetic links no solver and no process runner.
func TestNoSolver(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the dependencies")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "gini") || strings.HasSuffix(dep, "/sat/external") || dep == "os/exec" {
			t.Errorf("package sets depends on %s", dep)
		}
	}
}
