package cli

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEExamples runs the examples of README.md that print the same
// thing on every run (no timings, no external solvers, no pipes or files)
// and checks that the README shows what the command prints, so the tour
// cannot drift from the program. go test -update rewrites those examples'
// output in README.md from real runs.
func TestREADMEExamples(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []string
	checked := 0
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		cmd, ok := strings.CutPrefix(lines[i], "    $ queens ")
		if !ok || !deterministic(cmd) {
			continue
		}
		// The example's output: the indented lines up to the next command
		// or the end of the block (blank lines inside it included).
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(lines[end], "    $ ") {
			if strings.HasPrefix(lines[end], "    ") {
				end++
				continue
			}
			if lines[end] == "" && end+1 < len(lines) && strings.HasPrefix(lines[end+1], "    ") && !strings.HasPrefix(lines[end+1], "    $ ") {
				end++
				continue
			}
			break
		}
		var want strings.Builder
		for _, l := range lines[i+1 : end] {
			want.WriteString(strings.TrimPrefix(l, "    ") + "\n")
		}
		stdout, stderr, code := runCLI(t, "", splitArgs(cmd)...)
		got := strings.TrimRight(stdout+stderr, "\n") + "\n"
		if *update {
			for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
				if l == "" {
					out = append(out, "")
				} else {
					out = append(out, "    "+l)
				}
			}
			i = end - 1
		} else if w := strings.TrimRight(want.String(), "\n") + "\n"; got != w || code != 0 {
			t.Errorf("README.md line %d: queens %s (exit %d) prints\n%s\nthe README shows\n%s", i+1, cmd, code, got, w)
		}
		checked++
	}
	if *update {
		os.WriteFile("../../README.md", []byte(strings.Join(out, "\n")), 0o644)
	}
	if checked < 10 {
		t.Errorf("only %d README examples checked", checked)
	}
}

// deterministic reports whether an example's output is the same on every
// run and machine: no timings, statistics, external solvers, pipes or
// files.
func deterministic(cmd string) bool {
	if strings.ContainsAny(cmd, "|<>") || strings.HasPrefix(cmd, "compare") {
		return false
	}
	for _, flag := range []string{"--stats", "--solver", " -o ", "--gif", "--checkpoint", "--shard"} {
		if strings.Contains(cmd, flag) {
			return false
		}
	}
	return true
}
