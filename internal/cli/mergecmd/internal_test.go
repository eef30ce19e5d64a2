package mergecmd

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestMergeFlags checks how merge reads and checks its flags and
// arguments, without merging: --verify and --forged are read before any
// line is.
func TestMergeFlags(t *testing.T) {
	type want struct {
		k       int
		p       float64
		forgers int
	}
	for _, tc := range []struct {
		args []string
		want want
		err  string
	}{
		{[]string{"a.jsonl"}, want{0, 0, 2}, ""},
		{[]string{"--verify", "5", "--seed", "3", "a.jsonl", "-"}, want{5, 0, 2}, ""},
		{[]string{"--verify", "99%", "--forged", "10", "dir"}, want{0, 0.99, 1}, ""},
		{[]string{"--forged", "2%", "a.jsonl"}, want{0, 0, 1}, ""},
		{[]string{"--check-record", "r.json", "a.jsonl"}, want{}, ""},
		{[]string{"--progress", "parts", "-", "-"}, want{}, ""},
		{nil, want{}, "no input"},
		{[]string{"--format", "xml", "a.jsonl"}, want{}, `--format "xml"`},
		{[]string{"a.jsonl", "--verify", "5"}, want{}, "put the flags first"},
		{[]string{"-", "a.jsonl", "-"}, want{}, "- (stdin) given twice"},
		{[]string{"--verify", "-1", "a.jsonl"}, want{}, "--verify"},
		{[]string{"--verify", "100%", "a.jsonl"}, want{}, "a percentage above 0% and below 100%"},
		{[]string{"--forged", "0", "a.jsonl"}, want{}, "--forged"},
	} {
		var got *mergeOptions
		err := clitest.RunCommand(t, newMergeCommand(func(_ context.Context, o mergeOptions, _ io.Reader, _, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "merge", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil {
			t.Errorf("merge %s: %v, ran %v", what, err, got != nil)
			continue
		}
		if g := (want{got.rc.k, got.rc.p, len(got.rc.forgers)}); g != tc.want {
			t.Errorf("merge %s: --verify read as %+v, want %+v", what, g, tc.want)
		}
	}
}
