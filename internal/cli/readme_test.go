package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeExample is one "    $ command" of README.md and the output shown
// under it.
type readmeExample struct {
	line       int    // 1-based line of the command
	cmd        string // without "$ "
	start, end int    // the output's lines: lines[start:end]
	want       string
}

// readmeExamples returns the examples of README.md: every indented line
// starting with "$ ", and its output, the indented lines up to the next
// command or the end of the block (blank lines inside it included).
func readmeExamples(lines []string) []readmeExample {
	var out []readmeExample
	for i := 0; i < len(lines); i++ {
		cmd, ok := strings.CutPrefix(lines[i], "    $ ")
		if !ok {
			continue
		}
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
		out = append(out, readmeExample{line: i + 1, cmd: cmd, start: i + 1, end: end, want: strings.TrimRight(want.String(), "\n")})
	}
	return out
}

// slowExamples are the README commands that take more than a few seconds
// or cannot be repeated (an interrupted run), and those that need their
// files.
var slowExamples = []string{"bench/", "n17.ckpt", "n18.ckpt", "p17.jsonl", "Ctrl-C", "-n 16 --all", "deploy/slurm/", "parts-n20/", "queens serve", "127.0.0.1:8080"}

// externalPrograms are the programs an example may need besides queens;
// it is skipped where one is missing.
var externalPrograms = []string{"cadical", "minisat", "picosat", "cryptominisat5", "clasp", "kissat", "parallel", "sbatch", "kubectl", "gcc"}

// exact reports whether an example prints the same thing on every run and
// machine; the others (timings, statistics, checksums, external solvers'
// models) are compared by normalize.
func exact(cmd string) bool {
	for _, s := range []string{"--stats", "compare", "--solver", "cadical", "--shard"} {
		if strings.Contains(cmd, s) {
			return false
		}
	}
	return true
}

var (
	durationRE = regexp.MustCompile(`\d+(\.\d+)?(ns|µs|us|ms|s)\b`)
	numberRE   = regexp.MustCompile(`\d+(\.\d+)?`)
	fieldRE    = regexp.MustCompile(`"(elapsed|seconds|checksum|host|start|version)":("[^"]*"|[0-9.]+)`)
	spaceRE    = regexp.MustCompile(`\s+`)
	hostRE     = regexp.MustCompile(` on \S+,`)                   // the host of merge --stats' slow shards
	hexRE      = regexp.MustCompile(`[0-9a-f]{32}|[0-9a-f]{4,}…`) // a fingerprint, or the README's shortened one
)

// normalize blurs what changes from run to run in one line of output:
// times, statistics (every number of a stats line), elapsed times and
// checksums of shard lines, fingerprints (which the README may shorten to
// "16379f07…") and the alignment of tables.
func normalize(line string) string {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "stats:") || strings.HasPrefix(t, `{"stats":`) || strings.HasPrefix(t, "merge: ") {
		return numberRE.ReplaceAllString(durationRE.ReplaceAllString(hostRE.ReplaceAllString(t, " on #,"), "#"), "#")
	}
	t = fieldRE.ReplaceAllString(t, `"$1":#`)
	t = durationRE.ReplaceAllString(t, "#")
	t = hexRE.ReplaceAllString(t, "#h")
	return spaceRE.ReplaceAllString(t, " ")
}

// matches compares output lines with the README's: exactly, or after
// normalize; a README line "..." stands for any number of lines.
func matches(got, want []string, exactly bool) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == "..." {
		for k := 0; k <= len(got); k++ {
			if matches(got[k:], want[1:], exactly) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	same := got[0] == want[0]
	if !exactly {
		same = normalize(got[0]) == normalize(want[0])
	}
	return same && matches(got[1:], want[1:], exactly)
}

// TestREADMEExamples runs the examples of README.md in order, in one
// directory (an example may use the files of one before it), through bash
// with this test binary as queens on PATH ("go run ." stands for queens),
// and checks that the README shows what they print: stdout, then stderr.
// Examples that take more than a few seconds or need a program that is
// not installed are skipped; those whose output changes from run to run
// are compared after normalize. An example whose output shows an error
// ("queens: ...") must fail, the others succeed. go test -update rewrites
// the exact examples' output in README.md from real runs.
func TestREADMEExamples(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the README examples are shell commands")
	}
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	queensOnPath(t)
	dir := t.TempDir()
	// The examples may use the repository's test files (the liar solvers
	// of testdata/solvers), as a reader in the repository root would.
	if abs, err := filepath.Abs("../../testdata"); err == nil {
		os.Symlink(abs, filepath.Join(dir, "testdata"))
	}
	var out []string
	next, checked := 0, 0
	for _, ex := range readmeExamples(lines) {
		if skip(ex) {
			t.Logf("README.md line %d skipped (slow, or a program is missing): %s", ex.line, ex.cmd)
			continue
		}
		cmd := strings.ReplaceAll(ex.cmd, "go run . ", "queens ")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		c := exec.CommandContext(ctx, "bash", "-c", cmd)
		c.Dir = dir
		c.Env = append(os.Environ(), "QUEENS_TEST_AS_MAIN=1")
		var stdout, stderr bytes.Buffer
		c.Stdout, c.Stderr = &stdout, &stderr
		runErr := c.Run()
		cancel()
		got := strings.TrimRight(stdout.String()+stderr.String(), "\n")
		failing := strings.Contains(ex.want, "queens: ")
		exactly := exact(ex.cmd)
		if *update && exactly {
			out = append(out, lines[next:ex.start]...)
			for _, l := range strings.Split(got, "\n") {
				if l == "" {
					out = append(out, "")
				} else {
					out = append(out, "    "+l)
				}
			}
			next = ex.end
		} else if !matches(strings.Split(got, "\n"), strings.Split(ex.want, "\n"), exactly) || (runErr != nil) != failing {
			t.Errorf("README.md line %d: %s (exit: %v) prints\n%s\nthe README shows\n%s", ex.line, ex.cmd, runErr, got, ex.want)
		}
		checked++
	}
	if *update {
		out = append(out, lines[next:]...)
		os.WriteFile("../../README.md", []byte(strings.Join(out, "\n")), 0o644)
	}
	if checked < 40 {
		t.Errorf("only %d README examples checked", checked)
	}
}

// skip reports whether a README example is left out: slow, or needing a
// program that is not installed.
func skip(ex readmeExample) bool {
	for _, s := range slowExamples {
		if strings.Contains(ex.cmd, s) {
			return true
		}
	}
	for _, p := range externalPrograms {
		if strings.Contains(ex.cmd, p) || strings.Contains(ex.want, p+" ") {
			if _, err := exec.LookPath(p); err != nil {
				return true
			}
		}
	}
	return false
}
