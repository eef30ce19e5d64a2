package decodecmd_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestDimacsCadicalDecode: queens dimacs -n 30 | cadical | queens decode
// -n 30 exits 0; the same output with a queen moved exits 1 and names the
// conflict; --cnf checks the model against the file.
func TestDimacsCadicalDecode(t *testing.T) {
	if _, err := exec.LookPath("cadical"); err != nil {
		t.Skip("cadical not installed (apt-get install cadical)")
	}
	cnf, stderr, code := clitest.Run(t, "", "dimacs", "-n", "30", "--encoding", "seq")
	if code != 0 {
		t.Fatalf("dimacs: exit %d: %s", code, stderr)
	}
	file := filepath.Join(t.TempDir(), "q30.cnf")
	os.WriteFile(file, []byte(cnf), 0o644)
	cmd := exec.Command("cadical", "-q")
	cmd.Stdin = strings.NewReader(cnf)
	out, err := cmd.Output()
	if code := cmd.ProcessState.ExitCode(); code != 10 {
		t.Fatalf("cadical: exit %d (%v)", code, err)
	}
	stdout, stderr, code := clitest.Run(t, string(out), "decode", "-n", "30", "--cnf", file)
	if code != 0 {
		t.Fatalf("decode: exit %d: %s", code, stderr)
	}
	if s, err := board.Parse(board.FormatBoard, stdout); err != nil || !board.Valid(s) {
		t.Errorf("decode printed no valid board (%v):\n%s", err, stdout)
	}
	// Corrupt it: move row 2's queen onto row 1's column.
	s, _ := board.Parse(board.FormatBoard, stdout)
	bad := make([]string, 0, 900)
	for row := range 30 {
		for col := range 30 {
			lit := row*30 + col + 1
			on := s[row] == col
			if row == 1 {
				on = col == s[0]
			}
			if !on {
				lit = -lit
			}
			bad = append(bad, strconv.Itoa(lit))
		}
	}
	_, stderr, code = clitest.Run(t, strings.Join(bad, " ")+" 0\n", "decode", "-n", "30")
	if code != 1 || !strings.Contains(stderr, "share a column") {
		t.Errorf("corrupted model: exit %d, stderr %q; want 1 naming the column", code, stderr)
	}
}
