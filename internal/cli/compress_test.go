package cli

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
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
	for _, kind := range []string{"gz", "xz"} {
		p := filepath.Join(dir, "all.txt."+kind)
		if _, stderr, code := runCLI(t, "", "backtrack", "-n", "6", "--all", "-o", p); code != 0 {
			t.Fatalf("-o %s: exit %d %s", p, code, stderr)
		}
		in, err := openInput(p)
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
