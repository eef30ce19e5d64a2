package satcmd_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestStatsCountEmitted (issue 42 item 5): --stats' solutions are the
// solutions printed, exactly: --limit K stops inside a cube that holds
// more, and the stats must not count those.
func TestStatsCountEmitted(t *testing.T) {
	for _, tc := range []struct {
		n, limit int
		extra    []string
	}{{8, 3, nil}, {8, 1, nil}, {6, 3, nil}, {8, 5, []string{"--threads", "1"}}, {8, 2, []string{"--place", "1:1"}}} {
		args := append([]string{"sat", "-n", fmt.Sprint(tc.n), "--limit", fmt.Sprint(tc.limit), "--stats", "--format", "perm"}, tc.extra...)
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			stdout, stderr, code := clitest.Run(t, "", args...)
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if code != 0 || len(lines) != tc.limit {
				t.Fatalf("exit %d, %d solutions printed; want 0 and %d (stderr %q)", code, len(lines), tc.limit, stderr)
			}
			for _, l := range lines {
				if s, err := board.Parse(board.FormatPerm, l); err != nil || !board.Valid(s) {
					t.Errorf("not a valid board: %q (%v)", l, err)
				}
			}
			if want := fmt.Sprintf(" solutions=%d ", tc.limit); !strings.Contains(stderr, want) {
				t.Errorf("stats %q; want %q", stderr, want)
			}
		})
	}
}
