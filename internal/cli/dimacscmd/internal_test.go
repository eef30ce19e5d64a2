package dimacscmd

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestDimacsOptions parses and checks dimacs's flags without running the
// command: the options it would run with, or the usage error.
func TestDimacsOptions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want dimacsOptions // compared: n, encoding, placed, mc, breakSymmetry, output
		err  string
	}{
		{[]string{"-n", "8"}, dimacsOptions{n: 8, encoding: encode.Pairwise, output: "-"}, ""},
		{[]string{"-n", "50", "--mc", "--break-symmetry", "-o", "q.cnf"}, dimacsOptions{n: 50, encoding: encode.Commander, mc: true, breakSymmetry: true, output: "q.cnf"}, ""},
		{[]string{"-n", "6", "--encoding", "seq", "--place", "1:2"}, dimacsOptions{n: 6, encoding: encode.Seq, placed: []board.Queen{{Row: 0, Col: 1}}, output: "-"}, ""},
		{[]string{"-n", "8", "--random-place", "3", "--seed", "5"}, dimacsOptions{n: 8, encoding: encode.Pairwise, output: "-"}, ""},
		{nil, dimacsOptions{}, "missing -n N"},
		{[]string{"-n", "0"}, dimacsOptions{}, "n = 0"},
		{[]string{"-n", "300", "--encoding", "pairwise"}, dimacsOptions{}, "want 1 <= n <= 200"},
		{[]string{"-n", "8", "--encoding", "nosuch"}, dimacsOptions{}, "nosuch"},
		{[]string{"-n", "8", "--seed", "3"}, dimacsOptions{}, "--seed goes with --random-place"},
		{[]string{"-n", "8", "--random-place", "2", "--place", "1:1"}, dimacsOptions{}, "exclude each other"},
		{[]string{"-n", "4", "--random-place", "5"}, dimacsOptions{}, "at most n = 4"},
		{[]string{"-n", "8", "--place", "9:1"}, dimacsOptions{}, "9:1"},
		{[]string{"-n", "8", "extra"}, dimacsOptions{}, `unexpected argument "extra"`},
	} {
		var got *dimacsOptions
		err := clitest.RunCommand(t, newDimacsCommand(func(_ context.Context, o dimacsOptions, _, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "dimacs", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil {
			t.Errorf("dimacs %s: %v, ran %v", what, err, got != nil)
			continue
		}
		w := tc.want
		if got.n != w.n || got.encoding != w.encoding || got.mc != w.mc || got.breakSymmetry != w.breakSymmetry || got.output != w.output ||
			(w.placed != nil && !slices.Equal(got.placed, w.placed)) || (got.randomSet && len(got.placed) != got.randomPlace) {
			t.Errorf("dimacs %s: options %+v, want %+v", what, *got, w)
		}
	}
}
