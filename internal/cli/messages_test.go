package cli

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/testutil"
)

// TestServeSignal stops serve with SIGTERM and SIGINT: it shuts down,
// says so on its last line and exits 130, as the exit table says of a
// run a signal stops.
func TestServeSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := clitest.Cmd(t, t.TempDir(), "serve", "--addr", "127.0.0.1:0")
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = nil, &stderr
			clitest.StartReady(t, cmd)
			cmd.Process.Signal(sig)
			clitest.WaitBounded(t, cmd, 5*time.Second, "still running 5 s after %v", sig)
			if code := clitest.ExitStatus(cmd.ProcessState); code != 130 {
				t.Errorf("exit status %d, want 130; stderr %s", code, stderr.String())
			}
			if !strings.HasSuffix(stderr.String(), "queens: serve stopped\n") {
				t.Errorf("stderr %q, want it to end with the line queens: serve stopped", stderr.String())
			}
		})
	}
}

// TestCheckCount checks the message for a permutation that leaves a
// number out, read against -n: a usage error that says how many numbers
// it has and a solution needs.
func TestCheckCount(t *testing.T) {
	_, errs, code := clitest.Run(t, "", "check", "-n", "8", "1", "5", "8", "6", "3", "7", "2")
	if code != 2 || !strings.Contains(errs, "7 numbers, a solution of n = 8 has 8") {
		t.Errorf("exit %d, %q", code, errs)
	}
}

// TestUniqueLimitBigBoard: --unique --limit 1 above AutoLexMax finds a
// canonical solution (lex order, where they come early), not none.
func TestUniqueLimitBigBoard(t *testing.T) {
	out, errs, code := clitest.Run(t, "", "backtrack", "-n", "25", "--unique", "--limit", "1", "--format", "perm")
	s, err := board.Parse(board.FormatPerm, strings.TrimSpace(out))
	if code != 0 || err != nil || !board.Valid(s) || !board.IsCanonical(s) {
		t.Errorf("exit %d %s: %q is not a canonical solution (%v)", code, errs, out, err)
	}
}

// TestUniquePlaceCLI counts the classes of completions with --unique and
// --unique=rotations and --place on both engines, against Burnside's
// Count from the brute force's completions.
func TestUniquePlaceCLI(t *testing.T) {
	for _, tc := range []struct {
		n     int
		place []string
	}{{8, []string{"1:1"}}, {8, []string{"1:4"}}, {7, []string{"4:4"}}, {6, []string{"1:2", "6:5"}}} {
		args, qs := clitest.WithPlace([]string{"-n", fmt.Sprint(tc.n), "--count"}, tc.place)
		sols := testutil.Solutions(tc.n, qs)
		for _, mode := range []string{"all", "rotations"} {
			group := board.Stabilizer(tc.n, qs, mode == "rotations")
			fixed := 0
			for _, s := range sols {
				for _, g := range group {
					if g.Apply(s).Equal(s) {
						fixed++
					}
				}
			}
			want := fmt.Sprintf("%s (%d unique)\n", cmdutil.SolutionsText(uint64(len(sols))), fixed/len(group))
			if mode == "rotations" {
				want = fmt.Sprintf("%s (%d unique up to rotation)\n", cmdutil.SolutionsText(uint64(len(sols))), fixed/len(group))
			}
			for _, engine := range []string{"backtrack", "sat"} {
				cmd := append(append([]string{engine}, args...), "--unique="+mode)
				out, errs, code := clitest.Run(t, "", cmd...)
				if code != 0 || out != want || !strings.Contains(errs, "in place: ") {
					t.Errorf("%v: exit %d, %q %q; want %q", cmd, code, out, errs, want)
				}
			}
		}
	}
}
