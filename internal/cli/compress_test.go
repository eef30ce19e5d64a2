package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"github.com/klauspost/compress/zstd"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

// compressed returns data gzipped or xz-compressed.
func compressed(t *testing.T, kind string, data []byte) []byte {
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

// TestMergeCompressed merges shard lines from compressed files (by magic
// bytes: one named .jsonl) and from compressed stdin.
func TestMergeCompressed(t *testing.T) {
	dir := t.TempDir()
	lines := shardLines(t, 8, 4)
	want := "92 solutions (12 unique)\nmatches the published count for n = 8\n"
	for _, kind := range []string{"gz", "xz"} {
		a := filepath.Join(dir, "a-"+kind+".jsonl")
		b := filepath.Join(dir, "b."+kind)
		os.WriteFile(a, compressed(t, kind, []byte(strings.Join(lines[:2], ""))), 0o644)
		os.WriteFile(b, compressed(t, kind, []byte(strings.Join(lines[2:], ""))), 0o644)
		if stdout, stderr, code := runCLI(t, "", "merge", a, b); code != 0 || stdout != want {
			t.Errorf("merge %s files: exit %d, %q %q", kind, code, stdout, stderr)
		}
		in := string(compressed(t, kind, []byte(strings.Join(lines, ""))))
		if stdout, stderr, code := runCLI(t, in, "merge", "-"); code != 0 || stdout != want {
			t.Errorf("merge %s stdin: exit %d, %q %q", kind, code, stdout, stderr)
		}
	}
	// A corrupt gzip stream is an input error, not a crash.
	bad := compressed(t, "gz", []byte(strings.Join(lines, "")))
	bad[len(bad)-5] ^= 0xff // the CRC/size trailer
	p := filepath.Join(dir, "bad.gz")
	os.WriteFile(p, bad, 0o644)
	if _, stderr, code := runCLI(t, "", "merge", p); code == 0 || !strings.Contains(stderr, "queens:") {
		t.Errorf("merge corrupt gzip: exit %d, %q", code, stderr)
	}
}

// TestOutputCompressed: any command's -o FILE.gz / FILE.xz is compressed,
// and reads back as the plain output.
func TestOutputCompressed(t *testing.T) {
	dir := t.TempDir()
	plain, _, code := runCLI(t, "", "backtrack", "-n", "6", "--all")
	if code != 0 {
		t.Fatal("backtrack failed")
	}
	for _, kind := range []string{"gz", "xz", "zst"} {
		p := filepath.Join(dir, "all.txt."+kind)
		if _, stderr, code := runCLI(t, "", "backtrack", "-n", "6", "--all", "-o", p); code != 0 {
			t.Fatalf("-o %s: exit %d %s", p, code, stderr)
		}
		in, err := openInputLimit(context.Background(), p, int64(defaultMaxInput())<<20)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		_, err = got.ReadFrom(in)
		in.Close()
		raw, _ := os.ReadFile(p)
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
	plain, _, _ := runCLI(t, res, "decode", "-n", "4")
	got, stderr, code := runCLI(t, string(compressed(t, "gz", []byte(res))), "decode", "-n", "4")
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
	cnf, _, _ := runCLI(t, "", "dimacs", "-n", "3")
	answer := "s UNSATISFIABLE\n"
	for _, kind := range []string{"gz", "xz", "zst", "bz2"} {
		t.Run(kind, func(t *testing.T) {
			c := filepath.Join(dir, "q3.cnf."+kind)
			os.WriteFile(c, compressed(t, kind, []byte(cnf)), 0o644)
			got, stderr, code := runCLI(t, string(compressed(t, kind, []byte(answer))), "decode", "-n", "3", "--cnf", c)
			if code != 0 || got != "no solution\n" {
				t.Errorf("decode %s: exit %d, %q, %s", kind, code, got, stderr)
			}
		})
	}
	lz4 := filepath.Join(dir, "q.lz4")
	os.WriteFile(lz4, append([]byte{0x04, 0x22, 0x4d, 0x18}, cnf...), 0o644)
	if _, stderr, code := runCLI(t, "", "decode", "-n", "3", "--cnf", lz4); code != 2 || !strings.Contains(stderr, "lz4-compressed input is not read") {
		t.Errorf("an lz4 input: exit %d, %s", code, stderr)
	}
	for _, name := range []string{"q.cnf.bz2", "q.cnf.lz4", "q.Z", "o6.tgz", "o.txz", "o.tbz2", "o.rar", "o.lrz", "o.zip", "o.7z",
		"o.lz", "o.lzma", "o.lzo", "o.zstd", "o.tar", "o.BZ2", "o.Tgz"} {
		out := filepath.Join(dir, name)
		_, stderr, code := runCLI(t, "", "dimacs", "-n", "3", "-o", out)
		if _, err := os.Stat(out); code != 2 || !strings.Contains(stderr, "queens does not write") || err == nil {
			t.Errorf("-o %s: exit %d, %s (written: %v)", name, code, stderr, err == nil)
		}
	}
}

// TestOutputSuffixCase: .GZ, .XZ and .ZST (any case) are written
// compressed as .gz, .xz and .zst are, never as plain text.
func TestOutputSuffixCase(t *testing.T) {
	dir := t.TempDir()
	cnf, _, _ := runCLI(t, "", "dimacs", "-n", "3")
	for _, name := range []string{"o.GZ", "o.Gz", "o.XZ", "o.ZST", "o.Zst"} {
		out := filepath.Join(dir, name)
		if _, stderr, code := runCLI(t, "", "dimacs", "-n", "3", "-o", out); code != 0 {
			t.Fatalf("-o %s: exit %d, %s", name, code, stderr)
		}
		b, _ := os.ReadFile(out)
		if bytes.HasPrefix(b, []byte("c ")) || bytes.HasPrefix(b, []byte("p ")) {
			t.Errorf("-o %s wrote plain text", name)
		}
		r, err := decompress(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("-o %s: %v", name, err)
		}
		if got, err := io.ReadAll(r); err != nil || string(got) != cnf {
			t.Errorf("-o %s: decompressed %d bytes (%v), want the CNF", name, len(got), err)
		}
	}
}
