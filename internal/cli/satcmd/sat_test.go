package satcmd_test

import (
	"os/exec"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestSatExternal: queens sat -n 30 --solver S prints a valid board for
// cadical and minisat.
func TestSatExternal(t *testing.T) {
	for _, solver := range []string{"cadical", "minisat"} {
		t.Run(solver, func(t *testing.T) {
			if _, err := exec.LookPath(solver); err != nil {
				t.Skipf("%s not installed (apt-get install %s)", solver, solver)
			}
			stdout, stderr, code := clitest.Run(t, "", "sat", "-n", "30", "--solver", solver)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			s, err := board.Parse(board.FormatBoard, stdout)
			if err != nil || len(s) != 30 || !board.Valid(s) {
				t.Errorf("not a valid 30-queens board (%v):\n%s", err, stdout)
			}
		})
	}
}
