package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

func TestCompareAgrees(t *testing.T) {
	stdout, stderr, code := clitest.Run(t, "", "compare", "-n", "1-9", "--engines", "backtrack,sat/pairwise,sat/seq,sat/commander")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || stderr != "" || !strings.HasPrefix(lines[len(lines)-1], "agree: 36 runs over n = 1-9") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	for _, line := range lines[1 : len(lines)-1] {
		f := strings.Fields(line)
		if f[1] != "published" && f[len(f)-1] != "ok" {
			t.Errorf("row without ok: %s", line)
		}
	}
}

func TestCompareJSON(t *testing.T) {
	stdout, _, code := clitest.Run(t, "", "compare", "-n", "4,6", "--engines", "sat/seq", "--json")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stdout)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 5 {
		t.Fatalf("want 4 engine lines and a verdict, got:\n%s", stdout)
	}
	for i, line := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("line %d %q: %v", i, line, err)
		}
		if i == len(lines)-1 {
			if v["verdict"] != "agree" || v["runs"] != 4.0 {
				t.Errorf("verdict line %q", line)
			}
		} else if v["total"] != map[float64]float64{4: 2, 6: 4}[v["n"].(float64)] {
			t.Errorf("line %q: wrong total", line)
		}
	}
}

func TestCompareCatchesLyingSolver(t *testing.T) {
	liar := filepath.Join(t.TempDir(), "liar")
	os.WriteFile(liar, []byte("#!/bin/sh\necho 's UNSATISFIABLE'\nexit 20\n"), 0o755)
	stdout, stderr, code := clitest.Run(t, "", "compare", "-n", "6", "--engines", "backtrack", "--solver", liar)
	if code != 1 || !strings.Contains(stdout, "claims no solution (UNSAT), but the published count is 4: a solver bug") ||
		!strings.Contains(stdout, "only backtrack has this solution") || !strings.HasPrefix(stdout[strings.LastIndex(stdout[:len(stdout)-1], "\n")+1:], "DISAGREE") ||
		stderr != "queens: compare found 2 problems\n" {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
}

func TestParseRange(t *testing.T) {
	got, err := parseRange("4,1-3, 8,3", 16)
	if err != nil || len(got) != 5 || got[0] != 4 || got[4] != 8 {
		t.Errorf("parseRange = %v, %v", got, err)
	}
}

// TestCompareJSONEscapes checks that compare --json stays valid JSON when
// an engine's message holds characters Go's %q writes in a form JSON does
// not accept (an escape sequence of a solver's coloured output).
func TestCompareJSONEscapes(t *testing.T) {
	msg := "solver said \x1b[31mno\x1b[0m \u2028 \"quoted\""
	r := compare.Result{
		N:          4,
		Outcomes:   []compare.Outcome{{Engine: "liar\x01", Err: errors.New(msg)}},
		Findings:   []compare.Finding{{Kind: compare.EngineFailed, Engine: "liar\x01", Err: errors.New(msg)}},
		Mismatches: []compare.Mismatch{{Solution: board.Solution{1, 3, 0, 2}, Have: "a\x1b", Missing: "b"}},
	}
	var buf bytes.Buffer
	writeCompareJSON(&buf, r)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), buf.String())
	}
	for _, line := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Errorf("invalid JSON line %q: %v", line, err)
		}
	}
	if !strings.Contains(lines[0], `\u001b[31mno`) {
		t.Errorf("the message is not kept: %s", lines[0])
	}
}

// TestCompareStrategies runs compare --strategies: every strategy on
// every n, each agreeing with the published counts, with the queens each
// Placed (lex's 2056 for n = 8) and generate-and-test's spaces.
func TestCompareStrategies(t *testing.T) {
	out, errs, code := clitest.Run(t, "", "compare", "--strategies", "-n", "4-8")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for n := 4; n <= 8; n++ {
		for _, s := range compareStrategies {
			if !regexp.MustCompile(fmt.Sprintf(`(?m)^ +%d  %-10s +\d+ +\d+ .* ok$`, n, s)).MatchString(out) {
				t.Errorf("no ok row for n=%d %v:\n%s", n, s, out)
			}
		}
	}
	for _, want := range []string{
		"   8  lex                92           2056            -",
		"   8  generate           92         109600        40320",
		"generate-and-test: 8! = 40320 permutations, C(64, 8) = 4426165368 placements",
		"agree: every solution valid",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	out, errs, code = clitest.Run(t, "", "compare", "--strategies", "-n", "11")
	if code != 0 || !strings.Contains(out, "left out, over their board limit: cells (n <= 10), generate (n <= 10)") {
		t.Errorf("n = 11: exit %d %s\n%s", code, errs, out)
	}
	if _, errs, code := clitest.Run(t, "", "compare", "--strategies", "-n", "8", "--json"); code != 2 {
		t.Errorf("--strategies --json: exit %d %s", code, errs)
	}
}

// TestCompareOptions parses and checks compare's flags without running
// the command: the sizes and queens it would check, or the usage error.
func TestCompareOptions(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		sizes   []int
		placed  int
		solvers []string
		err     string
	}{
		{[]string{"-n", "1-4"}, []int{1, 2, 3, 4}, 0, nil, ""},
		{[]string{"-n", "4,8", "--place", "1:2", "--solver", "cadical -q", "--solver", "clasp --heuristic=Vsids,92"}, []int{4, 8}, 1, []string{"cadical -q", "clasp --heuristic=Vsids,92"}, ""},
		{[]string{"-n", "6", "--strategies"}, []int{6}, 0, nil, ""},
		{nil, nil, 0, nil, "missing -n RANGE"},
		{[]string{"-n", "5-3"}, nil, 0, nil, "5-3"},
		{[]string{"-n", "17"}, nil, 0, nil, "17"},
		{[]string{"-n", "8", "extra"}, nil, 0, nil, `unexpected argument "extra"`},
		{[]string{"-n", "4-8", "--place", "5:5"}, nil, 0, nil, "5:5"},
		{[]string{"-n", "8", "--strategies", "--json"}, nil, 0, nil, "not with --json"},
		{[]string{"-n", "8", "--strategies", "--solver", "cadical"}, nil, 0, nil, "not with --solver"},
	} {
		var got *compareOptions
		err := clitest.RunCommand(t, newCompareCommand(func(_ context.Context, o compareOptions, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "compare", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil || !slices.Equal(got.sizes, tc.sizes) || len(got.placed) != tc.placed || !slices.Equal(got.solvers, tc.solvers) {
			t.Errorf("compare %s: %+v, %v; want sizes %v, %d queens, solvers %q", what, got, err, tc.sizes, tc.placed, tc.solvers)
		}
	}
}
