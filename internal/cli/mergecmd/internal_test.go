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

// TestRecountDefault checks --recount's default against the estimated
// cost of the plain search: 16 pieces where they are cheap, fewer where
// 16 would pass a core-hour, none where one piece does (n = 28: thousands
// of core-hours a piece), said with the estimate; a --recount given is
// the user's, whatever its cost.
func TestRecountDefault(t *testing.T) {
	for _, tc := range []struct {
		n        int
		join     bool
		set      bool
		k        int
		wholes   int
		want     int
		note     string
		reported string
	}{
		{16, false, false, 16, 3207, 16, "", "recounted 0 more pieces"},
		{16, true, false, 16, 129, 16, "", "recounted 0 more pieces"},
		{22, false, false, 16, 14961, 5, "the default recounts only 5 of the 16", "recounted 0 more pieces"},
		{28, false, false, 16, 45579, 0, "not recounted: pass --recount K (estimated 7083 core-hours a piece with the plain search at n = 28; the default recounts none", "not recounted: pass --recount K"},
		{28, false, true, 2, 45579, 2, "", "recounted 0 more pieces drawn at random (--recount 2"},
		{28, false, true, 0, 45579, 0, "", "not recounted with the plain search (--recount 0)"},
	} {
		pl := &plainCheck{k: tc.k, set: tc.set, n: tc.n, join: tc.join}
		got, err := pl.pieces(tc.wholes)
		note := pl.note()
		if err != nil || got != tc.want || !strings.Contains(note, tc.note) || (tc.note == "") != (note == "") || !strings.HasPrefix(pl.report(), tc.reported) {
			t.Errorf("n = %d (join %v), --recount %d (given %v), %d pieces: %d, %v, note %q, report %q; want %d, note %q, report %q...",
				tc.n, tc.join, tc.k, tc.set, tc.wholes, got, err, note, pl.report(), tc.want, tc.note, tc.reported)
		}
	}
}
