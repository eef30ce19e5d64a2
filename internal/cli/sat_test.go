package cli

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
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

// TestSatFlags checks how sat reads and checks its flags, without
// running the command.
func TestSatFlags(t *testing.T) {
	type want struct {
		enc       encode.Encoding
		format    board.Format
		enumerate bool
		unique    cmdutil.UniqueMode
		placed    int
	}
	for _, tc := range []struct {
		args []string
		want want
		err  string
	}{
		{[]string{"-n", "8"}, want{encode.Pairwise, board.FormatBoard, false, cmdutil.UniqueMode{}, 0}, ""},
		{[]string{"-n", "60"}, want{encode.Commander, board.FormatBoard, false, cmdutil.UniqueMode{}, 0}, ""},
		{[]string{"-n", "8", "--count", "--place", "1:1", "--format", "json", "--unique", "rotations"}, want{encode.Pairwise, board.FormatJSON, true, cmdutil.UniqueMode{On: true, Rotations: true}, 1}, ""},
		{[]string{"-n", "8", "--limit", "3", "--encoding", "seq"}, want{encode.Seq, board.FormatBoard, true, cmdutil.UniqueMode{}, 0}, ""},
		{[]string{"-n", "8", "--count", "--counter", "clasp -n 0 -q"}, want{encode.Pairwise, board.FormatBoard, true, cmdutil.UniqueMode{}, 0}, ""},
		{nil, want{}, "missing -n N"},
		{[]string{"-n", "8", "extra"}, want{}, `unexpected argument "extra"`},
		{[]string{"-n", "8", "--all", "--limit", "2"}, want{}, "--all and --limit cannot be used together"},
		{[]string{"-n", "8", "--format", "nosuch"}, want{}, "nosuch"},
		{[]string{"-n", "8", "--encoding", "nosuch"}, want{}, "nosuch"},
		{[]string{"-n", "40", "--all"}, want{}, "n <= "},
		{[]string{"-n", "8", "--place", "0:1"}, want{}, "0:1"},
		{[]string{"-n", "8", "--proof"}, want{}, "--proof and --solver-output go with --solver"},
		{[]string{"-n", "8", "--counter", "clasp"}, want{}, "--counter counts: it goes with --count"},
		{[]string{"-n", "8", "--count", "--counter", "clasp", "--solver", "cadical"}, want{}, "--counter replaces --solver"},
		{[]string{"-n", "8", "--count", "--counter", "clasp", "--unique"}, want{}, "--counter with --unique"},
	} {
		var got *satOptions
		err := clitest.RunCommand(t, newSatCommand(func(_ context.Context, o satOptions, _, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "sat", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil {
			t.Errorf("sat %s: %v, ran %v", what, err, got != nil)
			continue
		}
		if g := (want{got.enc, got.Format, got.enumerate, got.Unique, len(got.Placed)}); g != tc.want {
			t.Errorf("sat %s: %+v, want %+v", what, g, tc.want)
		}
	}
}
