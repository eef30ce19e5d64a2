package clitest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// Solvers is where the liar solvers live (testdata/solvers/ at the
// module's root), seen from the test's package, with a trailing slash.
// (In a test binary run as queens, outside the module, it is unset.)
var Solvers = func() string {
	root, err := rootDir()
	if err != nil {
		return ""
	}
	return filepath.Join(root, "testdata", "solvers") + "/"
}()

// CounterScript returns the absolute path of the model counter script
// name in testdata/counters/ at the module's root.
func CounterScript(name string) string {
	root, _ := rootDir()
	p, _ := filepath.Abs(filepath.Join(root, "testdata", "counters", name))
	return p
}

// Need skips the test unless every one of programs is installed.
func Need(t *testing.T, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not installed (apt-get install %s)", p, strings.TrimSuffix(p, "5"))
		}
	}
}

// ShardLines runs every shard of n split k ways through the CLI and
// returns their output lines.
func ShardLines(t *testing.T, n, k int, extra ...string) []string {
	t.Helper()
	var lines []string
	for i := range k {
		args := append([]string{"backtrack", "-n", fmt.Sprint(n), "--count", "--shard", fmt.Sprintf("%d/%d", i, k), "--json"}, extra...)
		stdout, stderr, code := Run(t, "", args...)
		if code != 0 || strings.Count(stdout, "\n") != 1 {
			t.Fatalf("queens %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, stdout, stderr)
		}
		lines = append(lines, stdout)
	}
	return lines
}

// Dimacs runs queens dimacs with args and returns its output, failing
// the test on a non-zero exit.
func Dimacs(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, code := Run(t, "", append([]string{"dimacs"}, args...)...)
	if code != 0 {
		t.Fatalf("queens dimacs %v: exit %d: %s", args, code, stderr)
	}
	return stdout, stderr
}

// WriteDimacs writes the DIMACS file of queens dimacs -n n args into dir
// and returns its path.
func WriteDimacs(t *testing.T, dir string, n string, args ...string) string {
	t.Helper()
	stdout, stderr, code := Run(t, "", append([]string{"dimacs", "-n", n}, args...)...)
	if code != 0 {
		t.Fatalf("dimacs: %s", stderr)
	}
	path := filepath.Join(dir, "q"+n+strings.Join(args, "")+".cnf")
	path = strings.ReplaceAll(path, ":", "-")
	if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Compressed returns data compressed by kind: gz, xz, zst or bz2 (the
// bzip2 program: the test skips where it is not installed).
func Compressed(t *testing.T, kind string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	var w interface {
		Write([]byte) (int, error)
		Close() error
	}
	switch kind {
	case "gz":
		w = gzip.NewWriter(&b)
	case "xz":
		xw, err := xz.NewWriter(&b)
		if err != nil {
			t.Fatal(err)
		}
		w = xw
	case "zst":
		zw, err := zstd.NewWriter(&b)
		if err != nil {
			t.Fatal(err)
		}
		w = zw
	case "bz2":
		// No bzip2 writer in Go: the bzip2 program.
		if _, err := exec.LookPath("bzip2"); err != nil {
			t.Skip("bzip2 is not installed")
		}
		cmd := exec.Command("bzip2", "-c")
		cmd.Stdin = bytes.NewReader(data)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
