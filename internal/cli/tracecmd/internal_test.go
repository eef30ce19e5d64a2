package tracecmd

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
)

// TestSleepInterruptible: trace --delay's wait ends with the run.
func TestSleepInterruptible(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	start := time.Now()
	sleep(ctx, time.Hour)
	if d := time.Since(start); d > time.Minute {
		t.Errorf("sleep went on %v after its context ended", d)
	}
}

// TestTraceFlags checks how trace reads and checks its flags, without
// running the command.
func TestTraceFlags(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		order    backtrack.Order
		agents   bool
		maxSteps int
		err      string
	}{
		{[]string{"-n", "4"}, backtrack.Rows, false, 0, ""},
		{[]string{"-n", "6", "--narrate", "agents"}, backtrack.Columns, true, 0, ""},
		{[]string{"-n", "6", "--narrate", "agents", "--order", "rows", "--max-steps", "7"}, backtrack.Rows, true, 7, ""},
		{[]string{"-n", "6", "--all"}, backtrack.Rows, false, cmdutil.TraceAllSteps, ""},
		{nil, 0, false, 0, "missing -n N"},
		{[]string{"-n", "4", "x"}, 0, false, 0, `unexpected argument "x"`},
		{[]string{"-n", "4", "--strategy", "heuristic"}, 0, false, 0, "--strategy heuristic is for big boards"},
		{[]string{"-n", "11", "--strategy", "cells"}, 0, false, 0, "too large for --strategy cells"},
		{[]string{"-n", "4", "--format", "svg"}, 0, false, 0, "want text or json"},
		{[]string{"-n", "4", "--boards", "--format", "json"}, 0, false, 0, "not with --format json"},
		{[]string{"-n", "4", "--narrate", "agents", "--format", "json"}, 0, false, 0, "not with --format json"},
		{[]string{"-n", "4", "--narrate", "poems"}, 0, false, 0, "want steps or agents"},
		{[]string{"-n", "4", "--grid"}, 0, false, 0, "with --boards"},
		{[]string{"-n", "4", "--place", "5:5"}, 0, false, 0, "5:5"},
	} {
		var got *traceConfig
		err := clitest.RunCommand(t, newTraceCommand(func(_ context.Context, cfg traceConfig, _ io.Writer) error {
			got = &cfg
			return nil
		}), tc.args...)
		what := strings.Join(tc.args, " ")
		if tc.err != "" {
			clitest.Refused(t, "trace", tc.args, err, got != nil, tc.err)
			continue
		}
		if err != nil || got == nil || got.order != tc.order || got.agents != tc.agents || got.maxSteps != tc.maxSteps {
			t.Errorf("trace %s: %+v, %v; want order %v, agents %v, max steps %d", what, got, err, tc.order, tc.agents, tc.maxSteps)
		}
	}
}
