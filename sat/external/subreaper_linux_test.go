package external_test

import (
	"context"
	"os/exec"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/external"
)

// isSubreaper reports whether this process is a child subreaper.
func isSubreaper(t *testing.T) bool {
	t.Helper()
	var flag int32
	if err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&flag)), 0, 0, 0); err != nil {
		t.Skipf("prctl PR_GET_CHILD_SUBREAPER: %v", err)
	}
	return flag != 0
}

// TestSubreaperIsOptIn: running a solver leaves the process as it was;
// only BecomeSubreaper makes it a child subreaper. (It stays one for the
// rest of this test binary, which every other test here allows.)
func TestSubreaperIsOptIn(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	if isSubreaper(t) {
		t.Skip("already a child subreaper: an earlier test, or the parent, made it one")
	}
	cnf, _ := encode.Queens(4, "pairwise", nil)
	s, err := external.External{Command: script(t, "echo 's UNSATISFIABLE'; exit 20"), Output: external.OutputStdout}.New(cnf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	if isSubreaper(t) {
		t.Fatal("running an external solver made the process a child subreaper")
	}
	if err := external.BecomeSubreaper(); err != nil {
		t.Fatal(err)
	}
	if !isSubreaper(t) {
		t.Error("BecomeSubreaper did not make the process a child subreaper")
	}
}
