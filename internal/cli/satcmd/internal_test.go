package satcmd

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// TestSatFlags checks how sat reads and checks its flags, without
// running the command.
func TestSatFlags(t *testing.T) {
	type want struct {
		enc       encode.Encoding
		format    board.Format
		enumerate bool
		unique    cmdutil.UniqueMode
		placed    int
	}
	for _, tc := range []struct {
		args []string
		want want
		err  string
	}{
		{[]string{"-n", "8"}, want{encode.Pairwise, board.FormatBoard, false, cmdutil.UniqueMode{}, 0}, ""},
		{[]string{"-n", "60"}, want{encode.Commander, board.FormatBoard, false, cmdutil.UniqueMode{}, 0}, ""},
		{[]string{"-n", "8", "--count", "--place", "1:1", "--format", "json", "--unique", "rotations"}, want{encode.Pairwise, board.FormatJSON, true, cmdutil.UniqueMode{On: true, Rotations: true}, 1}, ""},
		{[]string{"-n", "8", "--limit", "3", "--encoding", "seq"}, want{encode.Seq, board.FormatBoard, true, cmdutil.UniqueMode{}, 0}, ""},
		{[]string{"-n", "8", "--count", "--counter", "clasp -n 0 -q"}, want{encode.Pairwise, board.FormatBoard, true, cmdutil.UniqueMode{}, 0}, ""},
		{[]string{"-n", "8", "--format", "competition", "--solver", "cadical"}, want{encode.Pairwise, board.FormatPerm, false, cmdutil.UniqueMode{}, 0}, ""},
		{[]string{"-n", "8", "--format", "competition", "--all"}, want{}, "--format competition answers the instance once"},
		{[]string{"-n", "8", "--format", "competition", "--count"}, want{}, "no --all, --count, --limit or --unique"},
		{[]string{"-n", "8", "--format", "competition", "--limit", "1"}, want{}, "no --all, --count, --limit or --unique"},
		{[]string{"-n", "8", "--format", "competition", "--unique"}, want{}, "no --all, --count, --limit or --unique"},
		{[]string{"-n", "8", "--format", "competition", "--attacks"}, want{}, "--attacks needs --format svg or png"},
		{[]string{"-n", "8", "--format", "competitio"}, want{}, "competition"},
		{[]string{"-n", "8", "--solver", "cadical", "--proof", "-"}, want{}, `sat: --proof takes no file ("-")`},
		{[]string{"-n", "8", "--solver", "cadical", "--proof", "p.drat"}, want{}, "queens decode --cnf CNF --proof PROOF"},
		{nil, want{}, "missing -n N"},
		{[]string{"-n", "8", "extra"}, want{}, `unexpected argument "extra"`},
		{[]string{"-n", "8", "--all", "--limit", "2"}, want{}, "--all and --limit cannot be used together"},
		{[]string{"-n", "8", "--format", "nosuch"}, want{}, "nosuch"},
		{[]string{"-n", "8", "--encoding", "nosuch"}, want{}, "nosuch"},
		{[]string{"-n", "40", "--all"}, want{}, "n <= "},
		{[]string{"-n", "8", "--place", "0:1"}, want{}, "0:1"},
		{[]string{"-n", "8", "--proof"}, want{}, "--proof and --solver-output go with --solver"},
		{[]string{"-n", "8", "--counter", "clasp"}, want{}, "--counter counts: it goes with --count"},
		{[]string{"-n", "8", "--count", "--counter", "clasp", "--solver", "cadical"}, want{}, "--counter replaces --solver"},
		{[]string{"-n", "8", "--count", "--counter", "clasp", "--unique"}, want{}, "--counter with --unique"},
	} {
		var got *satOptions
		err := clitest.RunCommand(t, newSatCommand(func(_ context.Context, o satOptions, _, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "sat", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil {
			t.Errorf("sat %s: %v, ran %v", what, err, got != nil)
			continue
		}
		if g := (want{got.enc, got.Format, got.enumerate, got.Unique, len(got.Placed)}); g != tc.want {
			t.Errorf("sat %s: %+v, want %+v", what, g, tc.want)
		}
	}
}
