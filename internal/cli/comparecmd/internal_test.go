package comparecmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/compare"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// FuzzParseRange: compare's -n RANGE gives board sizes in 1..max, each
// once, or a usage error; never a panic or a long loop.
func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"8", "1-12", "4,8,10", "1-16", "0", "5-3", "-1", "1-9223372036854775807", "010",
		"4-x", ",", "", "3,3,2-4", " 4 - 6 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sizes, err := parseRange(s, cmdutil.CompareMaxN)
		if err != nil {
			if cmdutil.ExitCode(err) != 2 {
				t.Errorf("parseRange(%q): %v, exit status %d, want 2", s, err, cmdutil.ExitCode(err))
			}
			return
		}
		seen := map[int]bool{}
		for _, n := range sizes {
			if n < 1 || n > cmdutil.CompareMaxN || seen[n] {
				t.Errorf("parseRange(%q) = %v: %d out of range or repeated", s, sizes, n)
			}
			seen[n] = true
		}
		if len(sizes) == 0 {
			t.Errorf("parseRange(%q) gave no sizes and no error", s)
		}
	})
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
