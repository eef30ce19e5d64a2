package cli

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestCheckOptions parses and checks check's flags and arguments without
// running the command.
func TestCheckOptions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want checkOptions
		err  string
	}{
		{[]string{"2", "4", "1", "3"}, checkOptions{answer: []string{"2", "4", "1", "3"}}, ""},
		{[]string{"-n", "4", "1:2", "2:4"}, checkOptions{answer: []string{"1:2", "2:4"}, n: 4, nSet: true}, ""},
		{nil, checkOptions{}, ""},
		{[]string{"-n", "0", "1"}, checkOptions{}, "n = 0"},
		{[]string{"-n", "5001", "1"}, checkOptions{}, "n = 5001"},
		{[]string{"2", "4", "-n", "4"}, checkOptions{}, "-n comes after the answer"},
	} {
		var got *checkOptions
		err := clitest.RunCommand(t, newCheckCommand(func(_ context.Context, o checkOptions, _ io.Reader, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "check", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil || !slices.Equal(got.answer, tc.want.answer) || got.n != tc.want.n || got.nSet != tc.want.nSet {
			t.Errorf("check %s: %+v, %v; want %+v", what, got, err, tc.want)
		}
	}
}
