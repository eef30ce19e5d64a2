package cli

import (
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

func TestHints(t *testing.T) {
	_, errs, code := clitest.Run(t, "", "-n", "8")
	if code != 2 || !strings.Contains(errs, "a command comes first") {
		t.Errorf("queens -n 8: exit %d %q", code, errs)
	}
	_, errs, code = clitest.Run(t, "", "backtrack", "-n", "8", "--format", "xml")
	if code != 2 || !strings.Contains(errs, "(want board, matrix, coords, perm, json, svg, png, fen, attacks)") {
		t.Errorf("unknown format: exit %d %q", code, errs)
	}
}
