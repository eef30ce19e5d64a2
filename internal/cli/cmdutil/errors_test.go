package cmdutil

import (
	"fmt"
	"testing"

	"github.com/queens-dev/queens/drat"
	"github.com/queens-dev/queens/sat/external"
)

// TestProofMemoryExit: a proof that would need more memory than the
// process may use is an input error (exit status 2), whether decode's
// --proof or a solver's.
func TestProofMemoryExit(t *testing.T) {
	for _, err := range []error{
		fmt.Errorf("check DRAT: %w: 9000 MiB", drat.ErrMemory),
		fmt.Errorf("%w: cadical's proof of UNSATISFIABLE: %w", external.ErrProof, drat.ErrMemory),
	} {
		if code := ExitCode(err); code != 2 {
			t.Errorf("exitCode(%v) = %d, want 2", err, code)
		}
	}
}
