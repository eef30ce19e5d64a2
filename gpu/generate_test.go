package gpu

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestPTXUpToDate regenerates kernel.ptx with nvcc, as go generate does,
// and checks that the committed one is the same. It skips when nvcc is not
// on PATH. The PTX differs between nvcc versions, so a failure may mean
// only that the file was made by another one: regenerate and commit.
func TestPTXUpToDate(t *testing.T) {
	nvcc, err := exec.LookPath("nvcc")
	if err != nil {
		t.Skip("nvcc not on PATH: kernel.ptx not regenerated")
	}
	out := filepath.Join(t.TempDir(), "kernel.ptx")
	if msg, err := exec.Command(nvcc, "-ptx", "-arch=compute_80", "-O3", "-o", out, "kernel.cu").CombinedOutput(); err != nil {
		t.Fatalf("nvcc: %v\n%s", err, msg)
	}
	fresh, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !kernelBuilt() {
		t.Fatal("kernel.ptx is empty: run go generate ./gpu and commit kernel.ptx")
	}
	if string(fresh) != kernelPTX {
		t.Errorf("kernel.ptx is not what nvcc makes of kernel.cu (%s vs %s): run go generate ./gpu and commit it",
			ptxVersion(kernelPTX), ptxVersion(string(fresh)))
	}
}

// ptxVersion returns the ".version" line of a PTX file: the PTX ISA, which
// the driver must support to JIT it.
func ptxVersion(ptx string) string {
	return regexp.MustCompile(`(?m)^\.version .*$`).FindString(ptx)
}

// TestKernelEmbedded reports whether this build carries the kernel; with
// an empty kernel.ptx the GPU tests skip.
func TestKernelEmbedded(t *testing.T) {
	if !kernelBuilt() {
		t.Skip("kernel.ptx is empty (no nvcc where it was built): GPU tests skip; run go generate ./gpu on a machine with nvcc")
	}
	t.Logf("kernel.ptx: %d bytes, %s", len(kernelPTX), ptxVersion(kernelPTX))
}
