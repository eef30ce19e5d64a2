package external_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat/external"
)

// TestExternalSolvers runs every installed solver on n = 30 (first
// solution) and enumerates n = 6 through each.
func TestExternalSolvers(t *testing.T) {
	for _, cmd := range []string{"cadical -q", "minisat", "picosat", "cryptominisat5 --verb 0", "clasp", "kissat -q"} {
		t.Run(strings.Fields(cmd)[0], func(t *testing.T) {
			if _, err := exec.LookPath(strings.Fields(cmd)[0]); err != nil {
				t.Skipf("%s not installed", strings.Fields(cmd)[0])
			}
			cnf, _ := encode.Queens(30, "seq", nil)
			s, err := external.New(cnf, cmd)
			if err != nil {
				t.Fatal(err)
			}
			sol, err := s.Next(context.Background())
			if err != nil || !board.Valid(sol) || len(sol) != 30 {
				t.Fatalf("%s n=30: %v, %v", cmd, sol, err)
			}
			cnf, _ = encode.Queens(6, "commander", nil)
			s, _ = external.New(cnf, cmd)
			if got, err := s.Count(context.Background()); got != 4 || err != nil {
				t.Errorf("%s: n=6 count %d, %v; want 4", cmd, got, err)
			}
		})
	}
}

// script writes an executable shell script standing in for a solver.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "solver")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExternalFailures(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	tests := []struct {
		name, body string
		want       error
	}{
		// Only "hang" tests the deadline; the others must fail on their
		// own, however long a busy machine takes to start a shell.
		{"crash", "echo boom >&2; kill -SEGV $$", external.ErrSolverFailed},
		{"exit 1", "echo 'cannot parse' >&2; exit 1", external.ErrSolverFailed},
		{"garbage", "echo 'hello world'; exit 10", external.ErrSolverFailed},
		{"silent", "exit 0", external.ErrSolverFailed},
		{"unknown", "echo 's UNKNOWN'; exit 0", external.ErrSolverFailed},
		{"wrong model", "echo 's SATISFIABLE'; echo 'v 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 0'; exit 10", external.ErrSolverFailed},
		{"hang", "sleep 30", context.DeadlineExceeded},
	}
	cnf, _ := encode.Queens(4, "pairwise", nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := external.New(cnf, script(t, tt.body))
			if err != nil {
				t.Fatal(err)
			}
			deadline := time.Minute
			if tt.want == context.DeadlineExceeded {
				deadline = 300 * time.Millisecond
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			start := time.Now()
			sol, err := s.Next(ctx)
			if !errors.Is(err, tt.want) {
				t.Errorf("Next = %v, %v; want %v", sol, err, tt.want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("the solver was not killed: %v", d)
			}
		})
	}
}

func TestReadResult(t *testing.T) {
	tests := []struct {
		name, in string
		status   external.Status
		model    []int
		errLine  int // -1: no error
	}{
		{"competition", "c hi\ns SATISFIABLE\nv -1 2\nv 3 0\n", external.Satisfiable, []int{-1, 2, 3}, -1},
		{"competition unsat", "s UNSATISFIABLE\n", external.Unsatisfiable, nil, -1},
		{"minisat", "SAT\n-1 2 3 0\n", external.Satisfiable, []int{-1, 2, 3}, -1},
		{"minisat unsat", "UNSAT\n", external.Unsatisfiable, nil, -1},
		{"bare", "-1 2\n3\n", external.Satisfiable, []int{-1, 2, 3}, -1},
		{"unknown", "s UNKNOWN\n", external.Unknown, nil, -1},
		{"empty", "", 0, nil, 0},
		{"garbage", "s SATISFIABLE\nhello\n", 0, nil, 2},
		{"two answers", "s SATISFIABLE\ns UNSATISFIABLE\n", 0, nil, 2},
		{"sat without model", "s SATISFIABLE\n", 0, nil, 0},
		{"the empty model (p cnf 0 0, or every variable false)", "s SATISFIABLE\nv 0\n", external.Satisfiable, nil, -1},
		{"minisat, the empty model", "SAT\n0\n", external.Satisfiable, nil, -1},
		{"model after unsat", "s UNSATISFIABLE\nv 1 0\n", 0, nil, 2},
		{"duplicate", "v 1 -1 0\n", 0, nil, 1},
		{"after 0", "v 1 0 2\n", 0, nil, 1},
		{"bad answer", "s MAYBE\n", 0, nil, 1},
		{"not a number", "v 1 x 0\n", 0, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := external.ReadResult(strings.NewReader(tt.in))
			if tt.errLine < 0 {
				if err != nil || res.Status != tt.status || !equalInts(res.Model, tt.model) {
					t.Errorf("ReadResult = %+v, %v; want %v %v", res, err, tt.status, tt.model)
				}
				return
			}
			var re *external.ResultError
			if !errors.As(err, &re) || re.Line != tt.errLine || !errors.Is(err, external.ErrOutput) {
				t.Errorf("ReadResult = %v, want a ResultError on line %d", err, tt.errLine)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzReadResult: the reader never panics, never returns a model with a
// variable twice, and only a satisfiable result has literals (its model may
// be the empty one, "v 0", of a formula without variables).
func FuzzReadResult(f *testing.F) {
	f.Add("s SATISFIABLE\nv -1 2 0\n")
	f.Add("SAT\n1 -2 0\n")
	f.Add("1 2 -3\n")
	f.Add("s UNSATISFIABLE\n")
	f.Fuzz(func(t *testing.T, in string) {
		res, err := external.ReadResult(strings.NewReader(in))
		if err != nil {
			return
		}
		seen := map[int]bool{}
		for _, lit := range res.Model {
			v := max(lit, -lit)
			if lit == 0 || seen[v] {
				t.Fatalf("model %v", res.Model)
			}
			seen[v] = true
		}
		if res.Status != external.Satisfiable && len(res.Model) > 0 || res.Status == external.Satisfiable && len(res.Model) == 0 && !strings.Contains(in, "0") {
			t.Fatalf("status %v with %d literals", res.Status, len(res.Model))
		}
		// A model of the right size decodes or fails cleanly.
		encode.Decode(2, res.Model)
	})
}

// TestReadResultMemory checks that reading a model costs memory in
// proportion to its literals, whatever the length of its lines: a model
// of 200000 literals, in short lines and as one line, allocates at most
// 90 bytes a literal, counting the garbage of the slices' growth (a map
// per variable, a string per literal and a line buffer the size of the
// longest line cost more: 113 and 133 bytes measured), and a duplicate is
// reported on the right line.
func TestReadResultMemory(t *testing.T) {
	const lits = 200000
	var lines, one strings.Builder
	lines.WriteString("s SATISFIABLE\n")
	one.WriteString("s SATISFIABLE\nv")
	for v := 1; v <= lits; v++ {
		if v%20 == 1 {
			lines.WriteString("v")
		}
		fmt.Fprintf(&lines, " -%d", v)
		fmt.Fprintf(&one, " -%d", v)
		if v%20 == 0 {
			lines.WriteString("\n")
		}
	}
	lines.WriteString(" 0\n")
	one.WriteString(" 0\n")
	for name, text := range map[string]string{"lines": lines.String(), "one line": one.String()} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := external.ReadResult(strings.NewReader(text))
		runtime.ReadMemStats(&after)
		if err != nil || len(res.Model) != lits {
			t.Fatalf("%s: %v, %d literals", name, err, len(res.Model))
		}
		if per := float64(after.TotalAlloc-before.TotalAlloc) / lits; per > 90 {
			t.Errorf("%s: %.0f bytes allocated a literal, want at most 90", name, per)
		}
	}
	_, err := external.ReadResult(strings.NewReader("c a comment\ns SATISFIABLE\nv 1 2 3" + strings.Repeat(" 4", 2) + " 0\n"))
	var re *external.ResultError
	if !errors.As(err, &re) || re.Line != 3 || !strings.Contains(err.Error(), "variable 4 given twice") {
		t.Errorf("a duplicate on line 3: %v", err)
	}
}
