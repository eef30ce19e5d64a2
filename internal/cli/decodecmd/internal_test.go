package decodecmd

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
)

// TestDecodeFlags checks how decode reads and checks its flags and
// arguments, without running the command.
func TestDecodeFlags(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		answer      string
		format      board.Format
		readsAnswer bool
		err         string
	}{
		{[]string{"-n", "8"}, "", board.FormatBoard, true, ""},
		{[]string{"-n", "8", "--format", "fen", "--cnf", "q.cnf", "answer.txt"}, "answer.txt", board.FormatFEN, true, ""},
		{[]string{"-n", "8", "--cnf", "q.cnf", "--proof", "q.drat"}, "", board.FormatBoard, false, ""},
		{[]string{"-n", "8", "--cnf", "-", "answer.txt"}, "answer.txt", board.FormatBoard, true, ""},
		{nil, "", "", false, "missing -n N"},
		{[]string{"-n", "8", "a", "b"}, "", "", false, "want at most one FILE, got 2 arguments"},
		{[]string{"-n", "9", "--format", "fen"}, "", "", false, "--format fen is for n = 8 only"},
		{[]string{"-n", "8", "--proof", "q.drat"}, "", "", false, "--proof needs --cnf"},
		{[]string{"-n", "8", "--cnf", "-"}, "", "", false, "--cnf - reads the CNF from stdin"},
		{[]string{"-n", "8", "--cnf", "-", "-"}, "", "", false, "--cnf - reads the CNF from stdin"},
	} {
		var got *decodeOptions
		err := clitest.RunCommand(t, newDecodeCommand(func(_ context.Context, o decodeOptions, _ io.Reader, _, _ io.Writer) error {
			got = &o
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "decode", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil || got.answer != tc.answer || got.format != tc.format || got.readsAnswer != tc.readsAnswer {
			t.Errorf("decode %s: %+v, %v; want answer %q, format %s, reads it %v", what, got, err, tc.answer, tc.format, tc.readsAnswer)
		}
	}
}

// TestModelTruthMemory: decode checks a model against the CNF's clauses
// with 4 bytes a true variable (a map took about 40), and reads it
// right.
func TestModelTruthMemory(t *testing.T) {
	model := make([]int, 1<<20)
	for i := range model {
		model[i] = i + 1
		if i%3 == 0 {
			model[i] = -model[i]
		}
	}
	var truth []int32
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	truth = modelTruth(model)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("modelTruth of %d literals allocated %d bytes; want at most 8 MiB", len(model), got)
	}
	for _, tc := range []struct {
		clause []int
		want   bool
	}{{[]int{1}, false}, {[]int{-1}, true}, {[]int{2}, true}, {[]int{-2, 1}, false}, {[]int{1 << 21}, false}, {[]int{-(1 << 21)}, true}, {nil, false}} {
		if got := satisfied(tc.clause, truth); got != tc.want {
			t.Errorf("satisfied(%v) = %v, want %v", tc.clause, got, tc.want)
		}
	}
}
