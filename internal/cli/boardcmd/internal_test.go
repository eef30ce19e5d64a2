package boardcmd

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestBoardFlags checks how board reads and checks its flags, without
// running the command.
func TestBoardFlags(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		board  board.Solution
		format board.Format
		err    string
	}{
		{[]string{"-n", "4", "--place", "2:2"}, board.Solution{-1, 1, -1, -1}, board.FormatBoard, ""},
		{[]string{"-n", "3", "--place", "1:1", "--place", "1:1", "--format", "attacks"}, board.Solution{0, -1, -1}, board.FormatAttacks, ""},
		{nil, nil, "", "missing -n N"},
		{[]string{"-n", "4", "x"}, nil, "", `unexpected argument "x"`},
		{[]string{"-n", "4", "--place", "5:1"}, nil, "", "off the 4x4 board"},
		{[]string{"-n", "4", "--place", "1:1", "--place", "1:2"}, nil, "", "share a row"},
		{[]string{"-n", "4", "--place", "1:1", "--format", "perm"}, nil, "", "--format perm needs a queen in every row"},
		{[]string{"-n", "4", "--format", "nosuch"}, nil, "", "nosuch"},
	} {
		var got *boardOptions
		err := clitest.RunCommand(t, newBoardCommand(func(_ context.Context, o boardOptions, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "board", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil || !slices.Equal(got.board, tc.board) || got.Format != tc.format {
			t.Errorf("board %s: %+v, %v; want board %v, format %s", what, got, err, tc.board, tc.format)
		}
	}
}
