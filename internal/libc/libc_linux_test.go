//go:build linux && !android && (amd64 || arm64) && !nogpu

package libc

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/queens-dev/queens/internal/testutil"
)

// childEnv marks the test process that TestFit starts.
const childEnv = "QUEENS_LIBC_CHILD"

// TestFit starts this test binary twice, under an address-space limit
// and without one, and checks that threads created after Fit get 512 KiB
// stacks under the limit only (the child reads glibc's default thread
// attributes).
func TestFit(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		fmt.Printf("stack %d\n", defaultStack(t))
		return
	}
	if testutil.Race {
		t.Skip("the race detector's shadow memory does not fit an address-space limit")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH")
	}
	for _, c := range []struct {
		limit string
		want  bool
	}{{"unlimited", false}, {"8388608", true}} { // 8 GiB
		cmd := exec.Command("sh", "-c", `ulimit -v "$1" && exec "$0" -test.run '^TestFit$' -test.v`, os.Args[0], c.limit)
		cmd.Env = append(os.Environ(), childEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("ulimit -v %s: %v\n%s", c.limit, err, out)
		}
		if got := strings.Contains(string(out), fmt.Sprintf("stack %d\n", stackSize)); got != c.want {
			t.Errorf("ulimit -v %s: threads' stacks of %d bytes = %v, want %v:\n%s", c.limit, stackSize, got, c.want, out)
		}
	}
}

// defaultStack returns the stack size of the threads pthread_create makes
// by default, or 0 where this libc cannot say.
func defaultStack(t *testing.T) uintptr {
	lib, err := purego.Dlopen("libc.so.6", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		t.Skip("not glibc")
	}
	if pt, err := purego.Dlopen("libpthread.so.0", purego.RTLD_NOW|purego.RTLD_GLOBAL); err == nil {
		lib = pt
	}
	get := bind[func(attr unsafe.Pointer) int32](lib, "pthread_getattr_default_np")
	size := bind[func(attr unsafe.Pointer, size *uintptr) int32](lib, "pthread_attr_getstacksize")
	if get == nil || size == nil {
		return 0
	}
	attr := new([128]byte)
	var s uintptr
	if get(unsafe.Pointer(attr)) != 0 || size(unsafe.Pointer(attr), &s) != 0 {
		return 0
	}
	return s
}
