package testutil

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// FakeCUDA builds src (gpu/testdata/fakecuda.cpp, given by its path from
// the test's package), a libcuda.so.1 whose cuLaunchKernel runs kernel.cu
// on the host, into a temporary folder of t, and returns that folder for
// LD_LIBRARY_PATH. With neither g++ nor clang++ on PATH it skips t with
// the message "no g++ or clang++ on PATH: " + without, what goes
// untested.
func FakeCUDA(t testing.TB, src, without string) (dir string) {
	t.Helper()
	cxx, err := exec.LookPath("g++")
	if err != nil {
		if cxx, err = exec.LookPath("clang++"); err != nil {
			t.Skip("no g++ or clang++ on PATH: " + without)
		}
	}
	dir = t.TempDir()
	if out, err := exec.Command(cxx, "-std=c++17", "-O2", "-Wall", "-Werror", "-shared", "-fPIC",
		"-o", filepath.Join(dir, "libcuda.so.1"), src).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cxx, err, out)
	}
	return dir
}
