package cmdutil

import (
	"context"
	"testing"

	"github.com/queens-dev/queens/board"
)

// TestRefereeUnverified: a claim beyond the referee's limits is reported
// as unverified, unless a checked proof certifies it; one it can check is
// not.
func TestRefereeUnverified(t *testing.T) {
	place := []board.Queen{{Row: 0, Col: 0}}
	for _, tc := range []struct {
		n         int
		found     uint64
		certified bool
		want      string
	}{
		{20, 5, false, "queens: unverified: cadical found 5 solutions, then answered UNSATISFIABLE on n = 20 with --place 1:1; the referee cannot check it (it counts completions of pre-placed queens only up to n = 16), and no proof was checked (--proof)\n"},
		{20, 5, true, ""},
		{8, 4, false, ""},
	} {
		r := &Referee{Ctx: context.Background(), Cmd: "sat", Solver: "cadical", N: tc.n, Place: place, Count: true,
			Certified: func() bool { return tc.certified }}
		if err := r.Check(tc.found); err != nil {
			t.Fatalf("n=%d: %v", tc.n, err)
		}
		got := ""
		if err := r.Unverified(nil); err != nil {
			got = "queens: " + err.Error() + "\n"
			if code := ExitCode(err); code != ExitUnverified {
				t.Errorf("n=%d: exit status %d, want %d", tc.n, code, ExitUnverified)
			}
		}
		if got != tc.want {
			t.Errorf("n=%d certified %v: warning %q, want %q", tc.n, tc.certified, got, tc.want)
		}
	}
}
