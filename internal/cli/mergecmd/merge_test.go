package mergecmd_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/cmdutil"
	"github.com/queens-dev/queens/internal/cli/mergecmd"
	"github.com/queens-dev/queens/shard"
)

func TestShardMergeCLI(t *testing.T) {
	for _, n := range []int{1, 6, 10, 12} {
		for _, k := range []int{1, 2, 7, 64} {
			lines := clitest.ShardLines(t, n, k, "--threads", "2")
			stdout, stderr, code := clitest.Run(t, strings.Join(lines, ""), "merge", "-")
			want, _ := board.Known(n)
			wantOut := fmt.Sprintf("%s (%d unique)\nmatches the published count for n = %d\n", cmdutil.SolutionsText(want.Total), want.Unique, n)
			if code != 0 || stdout != wantOut || stderr != "" {
				t.Errorf("n=%d K=%d: merge: exit %d, stdout %q, stderr %q; want %q", n, k, code, stdout, stderr, wantOut)
			}
		}
	}
}

// TestMergeRefusesCLI checks that merge names each problem, exit status 1.
func TestMergeRefusesCLI(t *testing.T) {
	good := clitest.ShardLines(t, 10, 4)
	n9 := clitest.ShardLines(t, 9, 4)
	k5 := clitest.ShardLines(t, 10, 5)
	tampered := regexp.MustCompile(`"total24":(\d)`).ReplaceAllString(good[1], `"total24":9$1`)
	with := func(i int, l string) []string {
		c := append([]string(nil), good...)
		c[i] = l
		return c
	}
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"missing", good[1:], "missing shard: 1 of 4 shards absent (0-based: 0; a Slurm array numbered from 1 reruns them with --array=1)"},
		{"missing-many", []string{good[2]}, "3 of 4 shards absent (0-based: 0,1,3; a Slurm array numbered from 1 reruns them with --array=1,2,4)"},
		{"duplicate", append(good[:4:4], doubledLine(t, good[3])), "duplicate shard: shard 3 of 4 (stdin:5) disagrees with an earlier line of shard 3"},
		{"tampered", with(1, tampered), "stdin:2: parse shard result"},
		{"mixed-n", with(2, n9[2]), "shards of different work: shard 0 (stdin:1) has n 10, shard 2 (stdin:3) has 9"},
		{"mixed-K", with(2, k5[2]), "shards of different work: shard 0 (stdin:1) has shard count 4, shard 2 (stdin:3) has 5"},
		{"garbage", with(3, "14200 solutions\n"), "stdin:4: parse shard result: not a shard result"},
		{"empty", []string{"\n"}, "missing shard: no shard results"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := strings.Join(c.lines, "")
			if in == good[1] {
				t.Fatal("tampering failed")
			}
			stdout, stderr, code := clitest.Run(t, in, "merge", "-")
			if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "queens: merge: ") || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("merge: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, stdout, stderr, c.want)
			}
		})
	}
	if tampered == good[1] {
		t.Error("the tampered line is not tampered")
	}
}

// TestMergeVerdict checks what merge says of the published table, in text
// and JSON: a true count matches; a count that differs (a forged line with a
// valid checksum, as a buggy build would write) is printed, named and fails
// with exit status 1.
func TestMergeVerdict(t *testing.T) {
	lines := clitest.ShardLines(t, 8, 2)
	forged, err := shard.Parse([]byte(lines[1]))
	if err != nil {
		t.Fatal(err)
	}
	// Count one piece twice, consistently (its tally and the line's sums),
	// as a buggy build would: a piece whose classes are whole numbers, so
	// that the sums stay whole.
	more, moreUnique := uint64(0), uint64(0)
	for i, p := range forged.Tallies {
		if p.Total24 > 0 && p.Unique24%24 == 0 {
			forged.Tallies[i].Total24 *= 2
			forged.Tallies[i].Unique24 *= 2
			forged.Sums, _ = shard.SumTallies(forged.Tallies)
			more, moreUnique = p.Total24/24, p.Unique24/24
			break
		}
	}
	if more == 0 {
		t.Fatal("no piece of shard 1 of n=8 has a whole number of classes to forge")
	}
	bad := []string{lines[0], string(forged.AppendLine(nil))}
	wrong := fmt.Sprintf("%d solutions (%d unique)", 92+more, 12+moreUnique)
	cases := []struct {
		lines  []string
		format string
		out    string
		code   int
	}{
		{lines, "text", "92 solutions (12 unique)\nmatches the published count for n = 8\n", 0},
		{lines, "json", `{"n":8,"total":92,"unique":12,"published":"matches","verified":0,"confirmed":0,"repeated":0}` + "\n", 0},
		{bad, "text", wrong + "\nDIFFERS from the published count for n = 8: 92 solutions (12 unique)\n", 1},
		{bad, "json", fmt.Sprintf(`{"n":8,"total":%d,"unique":%d,"published":"differs","verified":0,"confirmed":0,"repeated":0}`, 92+more, 12+moreUnique) + "\n", 1},
	}
	for _, c := range cases {
		stdout, stderr, code := clitest.Run(t, strings.Join(c.lines, ""), "merge", "--format", c.format, "-")
		if code != c.code || stdout != c.out {
			t.Errorf("merge --format %s: exit %d, stdout %q, stderr %q; want exit %d, stdout %q", c.format, code, stdout, stderr, c.code, c.out)
		}
		if c.code == 1 && stderr != "queens: merge: the count of n = 8 differs from the published one\n" {
			t.Errorf("merge --format %s: stderr %q", c.format, stderr)
		}
	}
}

// TestParallelREADME runs the GNU parallel line of docs/scale.md (the
// README's page on counting at scale) as it stands, and checks its output
// against the page's.
func TestParallelREADME(t *testing.T) {
	clitest.SkipShort(t, "64 processes")
	if _, err := exec.LookPath("parallel"); err != nil {
		t.Skip("GNU parallel is not installed (Debian package parallel); skipping the parallel line of docs/scale.md")
	}
	readme, err := os.ReadFile(filepath.Join(clitest.Root(t), "docs", "scale.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The command is the line starting "$ parallel", the output what
	// follows up to a blank line.
	var line, want string
	sc := bufio.NewScanner(strings.NewReader(string(readme)))
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(text, "$ parallel "):
			line = strings.TrimPrefix(text, "$ ")
		case line != "" && text == "":
			if want != "" {
				goto found
			}
		case line != "":
			want += text + "\n"
		}
	}
	t.Fatal("no '$ parallel ...' example with output in docs/scale.md")
found:
	clitest.OnPath(t)
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != want {
		t.Fatalf("%s:\n%s(%v)\nwant (docs/scale.md):\n%s", line, out, err, want)
	}
}

// doubledLine returns a shard line with one piece counted twice,
// consistently and with a valid checksum: what a buggy or dishonest worker
// writes, which a second run of the shard or a recount catches.
func doubledLine(t *testing.T, line string) string {
	t.Helper()
	r, err := shard.Parse([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range r.Tallies {
		if p.Total24 > 0 {
			r.Tallies[i].Total24 *= 2
			r.Tallies[i].Unique24 *= 2
			r.Sums, _ = shard.SumTallies(r.Tallies)
			return string(r.AppendLine(nil))
		}
	}
	t.Fatal("no piece with solutions to double")
	return ""
}

// TestMergeVerifyCLI checks merge --verify and the confirmations of
// shards given twice.
func TestMergeVerifyCLI(t *testing.T) {
	good := clitest.ShardLines(t, 10, 4)
	// Shard 2 again on another host: a repeat of the same engine, no
	// confirmation.
	r, err := shard.Parse([]byte(good[2]))
	if err != nil {
		t.Fatal(err)
	}
	r.Host = "another-" + r.Host
	stdout, stderr, code := clitest.Run(t, strings.Join(append(good, string(r.AppendLine(nil))), ""), "merge", "--verify", "1000", "--seed", "1", "-")
	want := "724 solutions (92 unique)\nmatches the published count for n = 10\n" +
		"recounted 273 of 273 pieces drawn at random (--seed 1): all agree\n" +
		"a worker that forged 1 piece would have been caught with probability 100%\n" +
		"a worker that forged 1% of the pieces (2) would have been caught with probability 100%\n" +
		"1 of 4 shards repeated by the same engine with the same result (a repeat, not a confirmation)\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("merge --verify 1000: exit %d, stdout %q, stderr %q; want exit 0, %q", code, stdout, stderr, want)
	}
	// A lying shard whose total still matches nothing published is caught
	// by the recount, naming the shard and where it was read.
	bad := append(slices.Clone(good[:1]), doubledLine(t, good[1]), good[2], good[3])
	stdout, stderr, code = clitest.Run(t, strings.Join(bad, ""), "merge", "--verify", "1000", "-")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "recount disagrees") || !strings.Contains(stderr, "of shard 1 (stdin:2)") {
		t.Errorf("merge --verify of a lying shard: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, stderr, code := clitest.Run(t, good[0], "merge", "--verify", "-1", "-"); code != 2 {
		t.Errorf("merge --verify -1: exit %d, stderr %q; want 2", code, stderr)
	}
}

// TestReviewedInputs: inputs a review found mishandled, each now a usage
// error in one line: a checkpoint that is not a regular file (a FIFO would
// block, /dev/zero never end), a directory given to merge, flags written
// after the arguments, a queen given twice to check, and the size limit of
// sat for an n below 1 (that of the encoding auto takes for large boards).
func TestReviewedInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := clitest.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"backtrack", "-n", "8", "--count", "--checkpoint", fifo}, "not a regular file"},
		{[]string{"merge", dir}, "is a directory"},
		{[]string{"merge", "x.jsonl", "--verify", "5"}, "--verify comes after the files"},
		{[]string{"check", "1:1", "2:3", "-n", "4"}, "-n comes after the answer"},
		{[]string{"check", "1:2", "2:4", "3:1", "4:3", "4:3"}, "queen 4:3 given twice"},
		{[]string{"sat", "-n", "0"}, "want 1 <= n <= 2000"},
	} {
		stdout, stderr, code := clitest.Run(t, "", c.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if _, err := os.Stat(fifo + ".lock"); err == nil {
		t.Error("a lock file was made beside the FIFO")
	}
}

// TestMergeLongLine: a line longer than a shard line may be (8 MiB of
// NULs, as /dev/zero gives) is an input error naming the limit, one short
// line with the start of the line quoted, exit status 2; a line just
// under the limit is read (and refused as no shard result, exit 1).
func TestMergeLongLine(t *testing.T) {
	stdout, stderr, code := clitest.Run(t, strings.Repeat("\x00", mergecmd.MaxShardLine+1), "merge", "-")
	if code != 2 || stdout != "" {
		t.Errorf("exit %d, stdout %q; want exit 2", code, stdout)
	}
	clitest.CheckOneLine(t, stderr, `merge: stdin:1: a line longer than a shard line may be (8 MiB): "\x00\x00`)
	if len(stderr) > 300 {
		t.Errorf("a message of %d bytes", len(stderr))
	}
	_, stderr, code = clitest.Run(t, strings.Repeat("x", mergecmd.MaxShardLine-1)+"\n", "merge", "-")
	if code != 1 {
		t.Errorf("a line under the limit: exit %d, want 1: %s", code, stderr)
	}
	clitest.CheckOneLine(t, stderr, "stdin:1: parse shard result: not a shard result")
}

// TestMergeDuplicateNamesBoth is issue 41 item 5's message: two lines of
// one shard that disagree are named by file and line, both of them, with
// the first piece whose tallies differ, from files (read again to find
// the earlier line) and with the earlier line on stdin (not read again:
// the later one is still named).
func TestMergeDuplicateNamesBoth(t *testing.T) {
	dir := t.TempDir()
	lines := clitest.ShardLines(t, 8, 4)
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte(lines[0]+lines[2]+lines[3]), 0o644)
	os.WriteFile(b, []byte(lines[1]+doubledLine(t, lines[2])), 0o644)
	for _, threads := range []string{"1", "2"} {
		_, stderr, code := clitest.Run(t, "", "merge", "--threads", threads, a, b)
		want := "shard 2 of 4 has two lines that disagree, at " + a + ":2 (engine constellations) and at " + b + ":2 (engine constellations): piece "
		if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, " there, ") {
			t.Errorf("merge --threads %s of a shard twice, disagreeing: exit %d, stderr %q; want 1 and %q", threads, code, stderr, want)
		}
		clitest.OneLine(t, stderr)
	}
	_, stderr, code := clitest.Run(t, lines[2], "merge", "-", b)
	if code != 1 || !strings.Contains(stderr, "disagrees with an earlier line of shard 2") || !strings.Contains(stderr, b+":2") {
		t.Errorf("merge of a shard twice, the first on stdin: exit %d, stderr %q; want 1 naming %s:2", code, stderr, b)
	}
}

// TestMergeBlankRun: an input of nothing but blank lines (a gzip of
// gigabytes of newlines cost a minute before "no shard results") is
// refused once it has held more than 64 MiB of them in a row, a usage
// error naming the line (issue 42 item 10); a few blank lines between
// shard lines are skipped as before.
func TestMergeBlankRun(t *testing.T) {
	blank := strings.Repeat("\n", 64<<20+1)
	_, stderr, code := clitest.Run(t, blank, "merge", "-")
	if code != 2 || !strings.Contains(stderr, "MiB of blank lines in a row: not shard results") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("merge of 64 MiB of newlines: exit %d, stderr %q; want exit 2, blank lines", code, stderr)
	}
	var lines strings.Builder
	for i := range 2 {
		out, errs, code := clitest.Run(t, "", "backtrack", "-n", "8", "--count", "--shard", fmt.Sprintf("%d/2", i))
		if code != 0 {
			t.Fatalf("shard %d: %s", i, errs)
		}
		lines.WriteString("\n \n\t\n" + out + "\r\n\n")
	}
	if out, stderr, code := clitest.Run(t, lines.String(), "merge", "-"); code != 0 || !strings.HasPrefix(out, "92 solutions") {
		t.Errorf("merge of lines between blank ones: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}
