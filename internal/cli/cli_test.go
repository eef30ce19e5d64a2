package cli

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/urfave/cli/v2"
)

var update = flag.Bool("update", false, "update golden files")

// runCLI runs the app in-process, as the command line would, with stdin
// set to in (if not nil).
func runCLI(t *testing.T, in string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if in != "" {
		old := os.Stdin
		f, err := os.CreateTemp(t.TempDir(), "stdin")
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(in)
		f.Seek(0, 0)
		os.Stdin = f
		defer func() { os.Stdin = old; f.Close() }()
	}
	var out, errb bytes.Buffer
	code = Run(append([]string{"queens"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

// withPlace appends --place p to args for each p of place, and returns
// the longer args and the queens place names (as the flag reads them).
func withPlace(args, place []string) ([]string, []board.Queen) {
	var placed []board.Queen
	for _, p := range place {
		args = append(args, "--place", p)
		q, _ := board.ParseQueen(p)
		placed = append(placed, q)
	}
	return args, placed
}

// A transcript in testdata/*.txt is one command and what it must print:
//
//	# comment lines (optional)
//	$ queens backtrack -n 4
//	-- stdin --        (optional)
//	...
//	-- stdout --
//	...
//	-- stderr --
//	...
//	-- exit --
//	0
//
// go test -update rewrites the expected sections from a real run.
type transcript struct {
	comment, args, stdin, stdout, stderr string
	exit                                 int
}

func parseTranscript(t *testing.T, text string) transcript {
	t.Helper()
	var tr transcript
	section := ""
	parts := map[string]*strings.Builder{}
	for _, line := range strings.SplitAfter(text, "\n") {
		switch {
		case section == "" && strings.HasPrefix(line, "#"):
			tr.comment += line
		case section == "" && strings.HasPrefix(line, "$ queens"):
			tr.args = strings.TrimSpace(strings.TrimPrefix(line, "$ queens"))
		case strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimSpace(line), " --"):
			section = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "-- "), " --")
			parts[section] = &strings.Builder{}
		case section != "":
			parts[section].WriteString(line)
		}
	}
	get := func(name string) string {
		if b := parts[name]; b != nil {
			return b.String()
		}
		return ""
	}
	tr.stdin, tr.stdout, tr.stderr = get("stdin"), get("stdout"), get("stderr")
	code, err := strconv.Atoi(strings.TrimSpace(get("exit")))
	if err != nil || tr.args == "" {
		t.Fatalf("malformed transcript (need a '$ queens' line and an -- exit -- section)")
	}
	tr.exit = code
	return tr
}

func (tr transcript) String() string {
	var b strings.Builder
	b.WriteString(tr.comment)
	b.WriteString("$ queens " + tr.args + "\n")
	if tr.stdin != "" {
		b.WriteString("-- stdin --\n" + tr.stdin)
	}
	b.WriteString("-- stdout --\n" + tr.stdout)
	b.WriteString("-- stderr --\n" + tr.stderr)
	b.WriteString("-- exit --\n" + strconv.Itoa(tr.exit) + "\n")
	return b.String()
}

// splitArgs splits a transcript's command line on spaces; single quotes
// group words.
func splitArgs(line string) []string {
	var args []string
	var cur strings.Builder
	quoted, inWord := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted = !quoted
			inWord = true
		case r == ' ' && !quoted:
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args
}

// skipShort skips a test that takes more than a few seconds (what in
// why) under go test -short, the quick loop.
func skipShort(t *testing.T, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: this test is slow (%s)", why)
	}
}

// writeGolden writes a golden file for -update; a failed write fails the
// test, so that -update never passes while leaving the old file.
func writeGolden(t *testing.T, file, data string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatalf("-update: %v", err)
	}
}

// TestHelpGoldens: every command's --help has a transcript of its own,
// testdata/help-COMMAND.txt, that TestTranscripts checks (and -update
// writes).
func TestHelpGoldens(t *testing.T) {
	for _, cmd := range newApp(io.Discard, io.Discard).Commands {
		file := "testdata/help-" + cmd.Name + ".txt"
		if _, err := os.Stat(file); err != nil {
			if !*update {
				t.Errorf("no help golden for %s: %v (go test -update writes it)", cmd.Name, err)
				continue
			}
			writeGolden(t, file, transcript{args: cmd.Name + " --help"}.String())
		}
	}
}

func TestTranscripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	if len(files) == 0 {
		t.Fatal("no transcripts in testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := parseTranscript(t, string(data))
			got := want
			got.stdout, got.stderr, got.exit = runCLI(t, want.stdin, splitArgs(want.args)...)
			got.stdout = strings.ReplaceAll(got.stdout, "generated by queens "+version()+"\n", "generated by queens VERSION\n")
			if *update {
				writeGolden(t, file, got.String())
				return
			}
			if got.String() != want.String() {
				t.Errorf("queens %s:\n--- got ---\n%s--- want ---\n%s", want.args, got, want)
			}
		})
	}
}

// TestUsageErrors checks the contract for bad input: one line on stderr
// starting "queens: ", exit status 2, nothing on stdout.
func TestUsageErrors(t *testing.T) {
	cases := [][]string{
		{"nosuchcommand"},
		{"--nosuchflag"},
		{"sat"},
		{"dimacs"},
		{"decode"},
		{"backtrack"},
		{"compare"},
		// compare
		{"compare", "-n", "0"},
		{"compare", "-n", "17"},
		{"compare", "-n", "abc"},
		{"compare", "-n", "5-3"},
		{"compare", "-n", "1-"},
		{"compare", "-n", "8", "--engines", "nosuch"},
		{"compare", "-n", "8", "--engines", "backtrack,,sat/seq"},
		{"compare", "-n", "8", "--place", "9:9"},
		{"compare", "-n", "8", "--place", "1:1", "--place", "2:2"},
		{"compare", "-n", "8", "extra"},
		// sat, dimacs, decode
		{"sat", "-n", "0"},
		{"sat", "-n", "201", "--encoding", "pairwise"},
		{"sat", "-n", "17", "--count"},
		{"sat", "-n", "8", "--all", "--count"},
		{"sat", "-n", "8", "--encoding", "nosuch"},
		{"sat", "-n", "8", "--place", "1:1", "--place", "2:2"},
		{"sat", "-n", "8", "--solver", "no-such-solver-xyz"},
		{"sat", "-n", "8", "--solver", ""},
		{"sat", "-n", "8", "--format", "nosuch"},
		{"sat", "-n", "8", "extra"},
		{"sat", "-n", "8", "--count", "--threads", "0"},
		{"dimacs", "-n", "0"},
		{"dimacs", "-n", "8", "--encoding", "nosuch"},
		{"dimacs", "-n", "8", "-o", "/no/such/dir/q.cnf"},
		{"decode", "-n", "4", "/no/such/file"},
		{"decode", "-n", "4", "a", "b"},
		{"decode", "-n", "4", "--cnf", "/no/such/file"},
		// backtrack
		{"backtrack", "-n", "0"},
		{"backtrack", "-n", "-5"},
		{"backtrack", "-n", "abc"},
		{"backtrack", "-n", "5001"},
		{"backtrack", "-n", "70000"},
		{"backtrack", "-n", "49", "--strategy", "lex"},
		{"backtrack", "-n", "28", "--all"},
		{"backtrack", "-n", "28", "--count"},
		{"backtrack", "-n", "30", "--unique"},
		{"backtrack", "-n", "8", "--place", "0:1"},
		{"backtrack", "-n", "8", "--place", "9:9"},
		{"backtrack", "-n", "8", "--place", "1:1", "--place", "2:2"},
		{"backtrack", "-n", "8", "--place", "x"},
		{"backtrack", "-n", "8", "--limit", "-1"},
		{"backtrack", "-n", "8", "--format", "nosuch"},
		{"backtrack", "-n", "8", "-o", "/nonexistent/dir/out.txt"},
		{"backtrack", "-n", "8", "--all", "--count"},
		{"backtrack", "-n", "8", "--limit", "2", "--count"},
		{"backtrack", "-n", "8", "--all", "--limit", "2"},
		{"backtrack", "-n", "8", "--strategy", "fast"},
		{"backtrack", "-n", "8", "--threads", "0"},
		{"backtrack", "-n", "8", "extra"},
		// pictures and FEN (emit.go)
		{"sat", "-n", "8", "--all", "--format", "svg"},
		{"sat", "-n", "5", "--format", "fen"},
		{"sat", "-n", "8", "--count", "--format", "png"},
		{"sat", "-n", "8", "--attacks"},
		{"backtrack", "-n", "8", "--all", "--format", "png"},
		{"backtrack", "-n", "300", "--format", "svg"},
		{"backtrack", "-n", "8", "--count", "--format", "fen"},
		// trace
		{"trace"},
		{"trace", "-n", "0"},
		{"trace", "-n", "33"},
		{"trace", "-n", "4", "--place", "5:1"},
		{"trace", "-n", "4", "--place", "1:1", "--place", "2:2"},
		{"trace", "-n", "4", "--format", "xml"},
		{"trace", "-n", "4", "--format", "json", "--boards"},
		{"trace", "-n", "4", "--max-steps", "-1"},
		{"trace", "-n", "4", "--delay", "-1s"},
		{"trace", "-n", "16", "--gif", "x.gif"},
		{"trace", "-n", "10", "--all", "--gif", "x.gif", "--max-steps", "0", "--no-rejects"},
		{"trace", "-n", "4", "--order", "diagonals"},
		{"trace", "-n", "4", "--narrate", "poems"},
		{"trace", "-n", "4", "--narrate", "agents", "--format", "json"},
		{"trace", "-n", "4", "--gif", "-"},
		{"trace", "-n", "4", "--gif", "/nonexistent/dir/x.gif"},
		// merge, backtrack --count --shard/--checkpoint
		{"merge"},
		{"merge", "/no/such/file"},
		{"merge", "-", "-"},
		{"merge", "--format", "perm", "-"},
		{"backtrack", "-n", "8", "--shard", "1/4"},
		{"backtrack", "-n", "8", "--all", "--shard", "1/4"},
		{"backtrack", "-n", "8", "--checkpoint", "x.ckpt"},
		{"backtrack", "-n", "8", "--count", "--shard", "4/4"},
		{"backtrack", "-n", "8", "--count", "--shard", "-1/4"},
		{"backtrack", "-n", "8", "--count", "--shard", "a/4"},
		{"backtrack", "-n", "8", "--count", "--shard", "1/0"},
		{"backtrack", "-n", "8", "--count", "--shard", "1/x"},
		{"backtrack", "-n", "8", "--count", "--shard", "1/4", "--shard-count", "3"},
		{"backtrack", "-n", "8", "--count", "--shard", "0/4", "--shard-base", "1"},
		{"backtrack", "-n", "8", "--count", "--shard", "0/4", "--format", "perm"},
		{"backtrack", "-n", "8", "--count", "--shard", "0/4", "--place", "1:1"},
		{"backtrack", "-n", "8", "--count", "--checkpoint", "/no/such/dir/q.ckpt"},
		{"backtrack", "-n", "8", "--count", "--json", "--format", "perm"},
		{"backtrack", "-n", "33", "--count", "--shard", "0/2"},
	}
	for _, args := range cases {
		stdout, stderr, code := runCLI(t, "", args...)
		if code != 2 || !strings.HasPrefix(stderr, "queens: ") || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("queens %s: exit %d, stdout %q, stderr %q; want exit 2, one 'queens: ' line, no stdout",
				strings.Join(args, " "), code, stdout, stderr)
		}
	}
}

// refused reports unless err is a usage error (exit status 2) that says
// want and the command did not run (ran false): a case of flags that
// check must refuse.
func refused(t *testing.T, cmd string, args []string, err error, ran bool, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) || exitCode(err) != exitUsage || ran {
		t.Errorf("%s %s: %v (ran: %v); want a usage error with %q", cmd, strings.Join(args, " "), err, ran, want)
	}
}

// runCommand runs cmd, in place of the command of its name, in the app
// as the command line runs it, and returns run's error: with a cmd whose
// run only records its options, the flags are parsed and checked without
// running the command.
func runCommand(t *testing.T, cmd *cli.Command, args ...string) error {
	t.Helper()
	app := newApp(io.Discard, io.Discard)
	setUsageErrors(cmd)
	for i, c := range app.Commands {
		if c.Name == cmd.Name {
			app.Commands[i] = cmd
		}
	}
	return app.Run(append([]string{"queens", cmd.Name}, args...))
}
