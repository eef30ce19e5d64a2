package cmdutil_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// TestOutputCompressed: any command's -o FILE.gz / FILE.xz is compressed,
// and reads back as the plain output.
func TestOutputCompressed(t *testing.T) {
	dir := t.TempDir()
	plain, _, code := clitest.Run(t, "", "backtrack", "-n", "6", "--all")
	if code != 0 {
		t.Fatal("backtrack failed")
	}
	for _, kind := range []string{"gz", "xz", "zst"} {
		p := filepath.Join(dir, "all.txt."+kind)
		if _, stderr, code := clitest.Run(t, "", "backtrack", "-n", "6", "--all", "-o", p); code != 0 {
			t.Fatalf("-o %s: exit %d %s", p, code, stderr)
		}
		in, err := cmdutil.OpenInputLimit(context.Background(), p, int64(cmdutil.DefaultMaxInput())<<20)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		_, err = got.ReadFrom(in)
		in.Close()
		raw := clitest.ReadFile(t, p)
		if err != nil || got.String() != plain || bytes.Equal(raw, []byte(plain)) {
			t.Errorf("-o %s: read back %v, same %t, compressed %t", p, err, got.String() == plain, !bytes.Equal(raw, []byte(plain)))
		}
	}
}

// TestDecodeCompressedStdin decodes a gzipped solver answer from stdin.
func TestDecodeCompressedStdin(t *testing.T) {
	var lits []string
	sol := []int{1, 3, 0, 2}
	for r := range 4 {
		for c := range 4 {
			v := r*4 + c + 1
			if sol[r] != c {
				v = -v
			}
			lits = append(lits, fmt.Sprint(v))
		}
	}
	res := "s SATISFIABLE\nv " + strings.Join(lits, " ") + " 0\n"
	plain := clitest.Output(t, res, "decode", "-n", "4")
	got, stderr, code := clitest.Run(t, string(clitest.Compressed(t, "gz", []byte(res))), "decode", "-n", "4")
	if code != 0 || got != plain || !strings.Contains(got, "Q") {
		t.Errorf("decode gzipped stdin: exit %d, %q (plain %q) %s", code, got, plain, stderr)
	}
}

// TestCompressedFormats: every format queens reads comes back as the plain
// input (decode's answer and --cnf), another compressor's input is
// refused by name, and an output named for a compressor queens does not
// write is a usage error before anything is written.
func TestCompressedFormats(t *testing.T) {
	dir := t.TempDir()
	cnf := clitest.Output(t, "", "dimacs", "-n", "3")
	answer := "s UNSATISFIABLE\n"
	for _, kind := range []string{"gz", "xz", "zst", "bz2"} {
		t.Run(kind, func(t *testing.T) {
			c := filepath.Join(dir, "q3.cnf."+kind)
			os.WriteFile(c, clitest.Compressed(t, kind, []byte(cnf)), 0o644)
			got, stderr, code := clitest.Run(t, string(clitest.Compressed(t, kind, []byte(answer))), "decode", "-n", "3", "--cnf", c)
			if code != 0 || got != "no solution\n" {
				t.Errorf("decode %s: exit %d, %q, %s", kind, code, got, stderr)
			}
		})
	}
	lz4 := filepath.Join(dir, "q.lz4")
	os.WriteFile(lz4, append([]byte{0x04, 0x22, 0x4d, 0x18}, cnf...), 0o644)
	if _, stderr, code := clitest.Run(t, "", "decode", "-n", "3", "--cnf", lz4); code != 2 || !strings.Contains(stderr, "lz4-compressed input is not read") {
		t.Errorf("an lz4 input: exit %d, %s", code, stderr)
	}
	for _, name := range []string{"q.cnf.bz2", "q.cnf.lz4", "q.Z", "o6.tgz", "o.txz", "o.tbz2", "o.rar", "o.lrz", "o.zip", "o.7z",
		"o.lz", "o.lzma", "o.lzo", "o.zstd", "o.tar", "o.BZ2", "o.Tgz"} {
		out := filepath.Join(dir, name)
		_, stderr, code := clitest.Run(t, "", "dimacs", "-n", "3", "-o", out)
		if _, err := os.Stat(out); code != 2 || !strings.Contains(stderr, "queens does not write") || err == nil {
			t.Errorf("-o %s: exit %d, %s (written: %v)", name, code, stderr, err == nil)
		}
	}
}

// TestOutputSuffixCase: .GZ, .XZ and .ZST (any case) are written
// compressed as .gz, .xz and .zst are, never as plain text.
func TestOutputSuffixCase(t *testing.T) {
	dir := t.TempDir()
	cnf := clitest.Output(t, "", "dimacs", "-n", "3")
	for _, name := range []string{"o.GZ", "o.Gz", "o.XZ", "o.ZST", "o.Zst"} {
		out := filepath.Join(dir, name)
		if _, stderr, code := clitest.Run(t, "", "dimacs", "-n", "3", "-o", out); code != 0 {
			t.Fatalf("-o %s: exit %d, %s", name, code, stderr)
		}
		b := clitest.ReadFile(t, out)
		if bytes.HasPrefix(b, []byte("c ")) || bytes.HasPrefix(b, []byte("p ")) {
			t.Errorf("-o %s wrote plain text", name)
		}
		r, err := cmdutil.Decompress(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("-o %s: %v", name, err)
		}
		if got, err := io.ReadAll(r); err != nil || string(got) != cnf {
			t.Errorf("-o %s: decompressed %d bytes (%v), want the CNF", name, len(got), err)
		}
	}
}

// TestCompressedRoundTrip writes DIMACS with -o x.gz and x.xz, checks
// them with gzip and xz where installed, and reads them back: decode's
// --cnf, whatever the name (magic bytes, not the suffix).
func TestCompressedRoundTrip(t *testing.T) {
	dir := t.TempDir()
	plain, _ := clitest.Dimacs(t, "-n", "6", "--encoding", "pairwise")
	for _, ext := range []string{"gz", "xz"} {
		path := filepath.Join(dir, "6.cnf."+ext)
		clitest.Dimacs(t, "-n", "6", "--encoding", "pairwise", "-o", path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(string(data), "c ") {
			t.Fatalf("%s is not compressed", path)
		}
		tool := map[string]string{"gz": "gzip", "xz": "xz"}[ext]
		if _, err := exec.LookPath(tool); err == nil {
			got, err := exec.Command(tool, "-dc", path).Output()
			if err != nil || string(got) != plain {
				t.Errorf("%s -dc %s: %v, output differs: %t", tool, path, err, string(got) != plain)
			}
		}
		in, err := cmdutil.OpenInputLimit(context.Background(), path, int64(cmdutil.DefaultMaxInput())<<20)
		if err != nil {
			t.Fatal(err)
		}
		cnf, err := encode.ReadDIMACS(in)
		in.Close()
		if err != nil || cnf.N != 6 || cnf.Encoding != "pairwise" {
			t.Fatalf("read back %s: %v", path, err)
		}
		// decode --cnf on a renamed file: the magic bytes decide.
		renamed := filepath.Join(dir, "renamed-"+ext+".cnf")
		os.Rename(path, renamed)
		// The 6x6 solution 2 4 6 1 3 5 (1-based columns) as a model.
		sol := board.Solution{1, 3, 5, 0, 2, 4}
		var lits []string
		for r := range 6 {
			for c := range 6 {
				v := encode.Var(6, r, c)
				if sol[r] != c {
					v = -v
				}
				lits = append(lits, fmt.Sprint(v))
			}
		}
		res := "s SATISFIABLE\nv " + strings.Join(lits, " ") + " 0\n"
		stdout, stderr, code := clitest.Run(t, res, "decode", "-n", "6", "--cnf", renamed)
		if code != 0 || !strings.Contains(stdout, "Q") {
			t.Errorf("decode --cnf %s: exit %d: %s%s", renamed, code, stdout, stderr)
		}
	}
}
