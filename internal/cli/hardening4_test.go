package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// TestStatsJSON: every line of JSON a command writes, --stats included,
// is JSON, whatever its values are (the encoding's name was written
// unquoted).
func TestStatsJSON(t *testing.T) {
	for _, args := range [][]string{
		{"sat", "-n", "6", "--stats", "--format", "json"},
		{"sat", "-n", "6", "--stats", "--format", "json", "--encoding", "seq", "--count"},
		{"backtrack", "-n", "6", "--stats", "--format", "json"},
		{"backtrack", "-n", "6", "--stats", "--format", "json", "--count"},
		{"backtrack", "-n", "5", "--stats", "--format", "json", "--all"},
		{"trace", "-n", "4", "--format", "json"},
		{"compare", "-n", "5", "--json"},
		{"board", "-n", "4", "--format", "json"},
	} {
		var stdout, stderr bytes.Buffer
		if code := Run(append([]string{"queens"}, args...), &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		checkJSONLines(t, args, stdout.String()+stderr.String())
	}
}

// checkJSONLines fails the test unless every line of out is a JSON object.
func checkJSONLines(t *testing.T, args []string, out string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Errorf("%v: %q is not a JSON object: %v", args, line, err)
		}
	}
}

// TestLimitNamesTheOption: a board beyond every limit is refused at
// once (no work, such as a factorial of 65537 for the message), naming
// the option the user gave, not another strategy.
func TestLimitNamesTheOption(t *testing.T) {
	for _, args := range [][]string{
		{"backtrack", "-n", "70000", "--strategy", "lex"},
		{"backtrack", "-n", "70000"},
		{"backtrack", "-n", "70000", "--strategy", "iterative"},
	} {
		var stdout, stderr bytes.Buffer
		code := Run(append([]string{"queens"}, args...), &stdout, &stderr)
		if msg := stderr.String(); code != 2 || strings.Contains(msg, "cells") || !strings.Contains(msg, "-n 70000 is too large for") {
			t.Errorf("%v: exit %d, %q; want 2 and a message about -n 70000 and not about --strategy cells", args, code, msg)
		}
	}
	if err := cmdutil.StrategyLimit(backtrack.Lex, 1<<20); err != nil {
		t.Errorf("strategyLimit(lex, 2^20) = %v; want nil (lex's limit is -n's)", err)
	}
}

// TestLongNames: any name the file system takes works for -o and
// --checkpoint (the temporary's name, longer than the user's, was
// refused), and a name no file system takes is refused before any work.
func TestLongNames(t *testing.T) {
	dir := t.TempDir()
	for _, k := range []int{200, 246, 250, 255} {
		name := filepath.Join(dir, strings.Repeat("q", k-4)+".txt")
		var stdout, stderr bytes.Buffer
		if code := Run([]string{"queens", "backtrack", "-n", "6", "--count", "-o", name}, &stdout, &stderr); code != 0 {
			t.Errorf("-o a %d-byte name: exit %d: %s", k, code, stderr.String())
		} else if data := clitest.ReadFile(t, name); string(data) != "4 solutions\n" {
			t.Errorf("-o a %d-byte name wrote %q", k, data)
		}
	}
	for _, k := range []int{200, 250} {
		name := filepath.Join(dir, strings.Repeat("c", k-5)+".ckpt")
		var stdout, stderr bytes.Buffer
		if code := Run([]string{"queens", "backtrack", "-n", "8", "--count", "--checkpoint", name}, &stdout, &stderr); code != 0 {
			t.Errorf("--checkpoint a %d-byte name: exit %d: %s", k, code, stderr.String())
		} else if _, err := os.Stat(name); err != nil {
			t.Errorf("--checkpoint a %d-byte name: %v", k, err)
		}
	}
	long := filepath.Join(dir, strings.Repeat("x", 256))
	for _, args := range [][]string{
		{"backtrack", "-n", "6", "--count", "-o", long},
		{"backtrack", "-n", "8", "--count", "--checkpoint", long},
	} {
		var stdout, stderr bytes.Buffer
		if code := Run(append([]string{"queens"}, args...), &stdout, &stderr); code != 2 || stdout.Len() > 0 {
			t.Errorf("%s a 256-byte name: exit %d, %q, %q; want 2 and nothing counted", args[4], code, stdout.String(), stderr.String())
		}
	}
}

// TestCheckpointDanglingLink: a checkpoint that is a symbolic link to a
// file not yet made is created where the link leads, the link kept, as
// -o does (a link placed first is how checkpoints go on shared storage).
func TestCheckpointDanglingLink(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	if err := os.Mkdir(store, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "c.ckpt")
	if err := os.Symlink(filepath.Join("store", "c.ckpt"), link); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"queens", "backtrack", "-n", "8", "--count", "--checkpoint", link}, &stdout, &stderr); code != 0 {
		t.Fatalf("--checkpoint a dangling link: exit %d: %s", code, stderr.String())
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link became %v, %v; want a link", st.Mode(), err)
	}
	if _, err := os.Stat(filepath.Join(store, "c.ckpt")); err != nil {
		t.Errorf("the link's target: %v", err)
	}
}

// TestMalformedProof: a proof that is not one (a syntax error anywhere,
// in any format) is bad input, exit status 2; a well-formed proof that
// fails to refute the formula is exit status 1.
func TestMalformedProof(t *testing.T) {
	dir := t.TempDir()
	cnf := filepath.Join(dir, "f.cnf")
	os.WriteFile(cnf, []byte("p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n"), 0o644)
	answer := filepath.Join(dir, "unsat")
	os.WriteFile(answer, []byte("s UNSATISFIABLE\n"), 0o644)
	for _, tc := range []struct {
		name, proof string
		code        int
	}{
		{"LRAT, error on line 1", "5 1 x 1 2 0\n", 2},
		{"LRAT, error on line 2", "5 1 0 1 2 0\n6 x 0 5 3 4 0\n", 2},
		{"text DRAT, error on line 1", "1 x 0\n", 2},
		{"text DRAT, error on line 2", "1 0\nfoo 0\n", 2},
		{"binary DRAT, garbage", "a\x02\x00a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00", 2},
		{"binary DRAT, bad step", "a\x02\x00\x07\x02\x00", 2},
		{"well-formed, refutes nothing", "2 0\n", 1},
		{"LRAT, well-formed, wrong hints", "5 1 0 3 0\n6 0 5 3 4 0\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proof := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			os.WriteFile(proof, []byte(tc.proof), 0o644)
			var stdout, stderr bytes.Buffer
			code := Run([]string{"queens", "decode", "-n", "2", "--cnf", cnf, "--proof", proof, answer}, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d (%s); want %d", code, strings.TrimSpace(stderr.String()), tc.code)
			}
		})
	}
}
