package mergecmd

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/shard"
)

// noScontrol is a scontrol that is not on PATH.
func noScontrol() (int, error) { return 0, exec.ErrNotFound }

// writeSubmission writes a submission file into a new directory and
// returns the directory.
func writeSubmission(t *testing.T, content string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, submissionFile), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestResubmitCommands(t *testing.T) {
	miss := func(n, k int, idx ...int) *shard.MissingError {
		return &shard.MissingError{N: n, Shards: k, Missing: spansOf(idx...)}
	}
	sub := writeSubmission(t, "# queens count.sbatch\nqueens=/opt/q b/queens\nn=28\nshards=16777216\nbase=-4194304\nsplit=4096\nengine=\n"+
		"first_task=0\nlast_task=2097151\ncpus=1\ntime=12:00:00\npartition=batch\naccount=nq\nscript=/home/u/count.sbatch\nparts=/scratch/parts-n28/2\nmax_array_size=4000001\n")
	for _, c := range []struct {
		name     string
		miss     *shard.MissingError
		split    int
		engine   string
		dirs     []string
		override string
		live     func() (int, error)
		want     string
	}{
		{"plain", miss(15, 64, 17, 40, 41, 42), 0, "", nil, "", noScontrol,
			"QUEENS_N=15 QUEENS_SHARDS=64 sbatch --array=17,40-42 deploy/slurm/count.sbatch"},
		{"one directory", miss(16, 8, 5, 6), 0, "", []string{"parts n16"}, "", noScontrol,
			"QUEENS_N=16 QUEENS_SHARDS=8 QUEENS_PARTS='parts n16' sbatch --array=5,6 deploy/slurm/count.sbatch"},
		{"above MaxArraySize", miss(28, 16777216, 5000000), 4096, "", nil, "", noScontrol,
			"QUEENS_N=28 QUEENS_SHARDS=16777216 QUEENS_SPLIT=4096 QUEENS_SHARD_BASE=-5000000 sbatch --array=0 deploy/slurm/count.sbatch" +
				" (1 array(s), task ids below MaxArraySize 1001 from Slurm's default)"},
		{"several arrays", miss(20, 6000, 3, 1155, 1156, 1157, 2155, 5999), 0, "join", nil, "", noScontrol,
			"QUEENS_N=20 QUEENS_SHARDS=6000 QUEENS_ENGINE=join sbatch --array=3 deploy/slurm/count.sbatch && " +
				"QUEENS_N=20 QUEENS_SHARDS=6000 QUEENS_ENGINE=join QUEENS_SHARD_BASE=-1155 sbatch --array=0-2,1000 deploy/slurm/count.sbatch && " +
				"QUEENS_N=20 QUEENS_SHARDS=6000 QUEENS_ENGINE=join QUEENS_SHARD_BASE=-5999 sbatch --array=0 deploy/slurm/count.sbatch" +
				" (3 array(s), task ids below MaxArraySize 1001 from Slurm's default)"},
		{"scontrol", miss(20, 6000, 3, 2155), 0, "", nil, "", func() (int, error) { return 4000001, nil },
			"QUEENS_N=20 QUEENS_SHARDS=6000 sbatch --array=3,2155 deploy/slurm/count.sbatch"},
		{"scontrol fails", miss(20, 6000, 2155), 0, "", nil, "", func() (int, error) { return 0, errors.New("scontrol show config: garbage") },
			"QUEENS_N=20 QUEENS_SHARDS=6000 QUEENS_SHARD_BASE=-2155 sbatch --array=0 deploy/slurm/count.sbatch" +
				" (1 array(s), task ids below MaxArraySize 1001 from Slurm's default (scontrol show config: garbage))"},
		{"override", miss(20, 6000, 2155), 0, "", nil, "3000", noScontrol,
			"QUEENS_N=20 QUEENS_SHARDS=6000 sbatch --array=2155 deploy/slurm/count.sbatch"},
		{"override 0", miss(20, 6000, 2155), 0, "", nil, "0", noScontrol,
			"QUEENS_N=20 QUEENS_SHARDS=6000 QUEENS_SHARD_BASE=-2155 sbatch --array=0 deploy/slurm/count.sbatch" +
				" (1 array(s), task ids below MaxArraySize 1001 from Slurm's default) (QUEENS_MAX_ARRAY_SIZE ignored: MaxArraySize \"0\": want 1 to 4000001)"},
		{"override huge", miss(20, 6000, 2), 0, "", nil, "99999999999999999999", noScontrol,
			"QUEENS_N=20 QUEENS_SHARDS=6000 sbatch --array=2 deploy/slurm/count.sbatch (QUEENS_MAX_ARRAY_SIZE ignored: MaxArraySize \"99999999999999999999\": want 1 to 4000001)"},
		{"one per array", miss(8, 40, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18), 0, "", nil, "1", noScontrol,
			"QUEENS_N=8 QUEENS_SHARDS=40 sbatch --array=0 deploy/slurm/count.sbatch && " + strings.Repeat("X && ", 6) +
				"QUEENS_N=8 QUEENS_SHARDS=40 QUEENS_SHARD_BASE=-14 sbatch --array=0 deploy/slurm/count.sbatch" +
				" (more than 8 arrays, task ids below MaxArraySize 1 from QUEENS_MAX_ARRAY_SIZE; the first 8 shown: merge again once they have run for the rest)"},
		// The submission's array (shards 4194304 to 6291455) keeps its
		// settings and directory and, where the tasks fit, its base; a
		// shard outside it gets its settings, the directory of the lines.
		{"submission", miss(28, 16777216, 4194305, 6291455, 9000000), 4096, "", []string{sub}, "", noScontrol,
			"QUEENS='/opt/q b/queens' QUEENS_N=28 QUEENS_SHARDS=16777216 QUEENS_SPLIT=4096 QUEENS_SHARD_BASE=-4194304 QUEENS_PARTS=/scratch/parts-n28/2" +
				" sbatch --array=1,2097151 --cpus-per-task=1 --time=12:00:00 --partition=batch --account=nq /home/u/count.sbatch && " +
				"QUEENS='/opt/q b/queens' QUEENS_N=28 QUEENS_SHARDS=16777216 QUEENS_SPLIT=4096 QUEENS_SHARD_BASE=-9000000 QUEENS_PARTS=" + sub +
				" sbatch --array=0 --cpus-per-task=1 --time=12:00:00 --partition=batch --account=nq /home/u/count.sbatch" +
				" (2 array(s), task ids below MaxArraySize 4000001 from " + filepath.Join(sub, submissionFile) + ")"},
		{"submission of another count", miss(27, 16777216, 5), 0, "", []string{sub}, "", noScontrol,
			"QUEENS_N=27 QUEENS_SHARDS=16777216 QUEENS_PARTS=" + sub + " sbatch --array=5 deploy/slurm/count.sbatch" +
				" (" + filepath.Join(sub, submissionFile) + " ignored: it is for n = 28 in 16777216 shards)"},
		{"stdin and a directory", miss(16, 8, 5), 0, "", []string{"p", ""}, "", noScontrol,
			"QUEENS_N=16 QUEENS_SHARDS=8 sbatch --array=5 deploy/slurm/count.sbatch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmds, remark := resubmitCommands(c.miss, c.split, c.engine, c.dirs, c.override, c.live)
			got := strings.Join(cmds, " && ") + remark
			if c.name == "one per array" { // the middle commands, elided
				parts := strings.Split(got, " && ")
				if len(parts) != 8 {
					t.Fatalf("got %d commands, want 8:\n%s", len(parts), got)
				}
				got = strings.Join(append(append(parts[:1:1], "X", "X", "X", "X", "X", "X"), parts[7]), " && ")
			}
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestReadSubmissionHostile(t *testing.T) {
	good := "n=20\nshards=64\nbase=0\n"
	for name, content := range map[string]string{
		"empty":          "",
		"no base":        "n=20\nshards=64\n",
		"garbage":        "\x00\xff\nn=20\n",
		"no equals":      good + "cpus\n",
		"unknown key":    good + "mem=4G\n",
		"duplicate":      good + "n=21\n",
		"n huge":         "n=99999999999999999999999\nshards=64\nbase=0\n",
		"n negative":     "n=-1\nshards=64\nbase=0\n",
		"shards 0":       "n=20\nshards=0\nbase=0\n",
		"shards huge":    "n=20\nshards=33554433\nbase=0\n",
		"base huge":      "n=20\nshards=64\nbase=-99999999\n",
		"cpus 0":         good + "cpus=0\n",
		"cpus huge":      good + "cpus=70000\n",
		"tasks":          good + "first_task=10\nlast_task=5\n",
		"tasks past K":   good + "first_task=0\nlast_task=64\n",
		"task huge":      good + "first_task=0\nlast_task=4000001\n",
		"time":           good + "time=99:99:99\n",
		"time days":      good + "time=1-25:00:00\n",
		"time words":     good + "time=$(reboot)\n",
		"partition":      good + "partition=batch;rm -rf ~\n",
		"account":        good + "account=" + strings.Repeat("a", 65) + "\n",
		"relative path":  good + "queens=bin/queens\n",
		"control char":   good + "parts=/scratch/p\x1b[2J\n",
		"split":          good + "split=1\n",
		"engine":         good + "engine=gpu\n",
		"max array 0":    good + "max_array_size=0\n",
		"max array huge": good + "max_array_size=4000002\n",
		"huge":           good + "# " + strings.Repeat("x", maxSubmissionSize) + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := writeSubmission(t, content)
			if s, err := readSubmission(filepath.Join(dir, submissionFile)); err == nil {
				t.Errorf("accepted %q: %+v", content, s)
			}
		})
	}
	dir := t.TempDir()
	for name, make := range map[string]func(p string) error{
		"directory": func(p string) error { return os.Mkdir(p, 0o755) },
		"fifo":      func(p string) error { return clitest.Mkfifo(p, 0o644) }, // never blocks: opened non-blocking
		"link":      func(p string) error { return os.Symlink("/dev/zero", p) },
		"dangling":  func(p string) error { return os.Symlink(filepath.Join(dir, "nowhere"), p) },
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name)
			if err := make(p); err != nil {
				t.Skip(err)
			}
			if s, err := readSubmission(p); err == nil {
				t.Errorf("accepted a %s: %+v", name, s)
			}
		})
	}
	// What count.sbatch writes, unknown fields empty, is accepted.
	ok := writeSubmission(t, "# c\nqueens=/q\nn=20\nshards=64\nbase=1\nsplit=\nengine=join\nfirst_task=1\nlast_task=64\n"+
		"cpus=2\ntime=UNLIMITED\npartition=\naccount=\nscript=\nparts=/p\nmax_array_size=1001\n")
	if s, err := readSubmission(filepath.Join(ok, submissionFile)); err != nil || s.time != "" || s.cpus != 2 || !s.covers(0) || !s.covers(63) || s.covers(64) {
		t.Errorf("readSubmission: %+v, %v", s, err)
	}
}

func TestParseMaxArraySize(t *testing.T) {
	for out, want := range map[string]int{
		"Configuration data as of 2026-12-01T21:00:00\nMailProg                = /bin/mail\nMaxArraySize            = 1001\nMaxDBDMsgs = 20008\n": 1001,
		"MaxArraySize=4000001\n":                   4000001,
		"MaxArraySize = 1\n":                       1,
		"MaxArraySize = 0\n":                       0,
		"MaxArraySize = 4000002\n":                 0,
		"MaxArraySize = 99999999999999999999999\n": 0,
		"MaxArraySize = -5\n":                      0,
		"MaxArraySize = 1e3\n":                     0,
		"MaxArraySize = \n":                        0,
		"MaxArraySize = 10 20\n":                   0,
		"MaxArraySize = 10\nMaxArraySize = 20\n":   0,
		"MaxArraySizeX = 10\n":                     0,
		"scontrol: error: Could not establish a configuration source\n": 0,
		"\x00\xff\xfe": 0,
	} {
		got, err := parseMaxArraySize([]byte(out))
		if got != want || (err == nil) != (want != 0) {
			t.Errorf("parseMaxArraySize(%q) = %d, %v; want %d", out, got, err, want)
		}
	}
}

func TestCheckSlurmTime(t *testing.T) {
	for _, ok := range []string{"12:00:00", "1-00:00:00", "59:59", "365-23:59:59", "5", "2-12"} {
		if err := checkSlurmTime(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "12:60:00", "366-00:00:00", "1-24:00:00", "1:2:3:4", "-1", "12h", "100:00:00"} {
		if checkSlurmTime(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestScontrolMaxArraySize runs a fake scontrol: its answer is range-checked,
// and its output is read up to 1 MiB only.
func TestScontrolMaxArraySize(t *testing.T) {
	for script, want := range map[string]int{
		"echo 'MaxArraySize            = 77'":                                    77,
		"echo 'MaxArraySize = 0'":                                                0,
		"echo garbage; exit 0":                                                   0,
		"echo 'MaxArraySize = 77'; exit 1":                                       0,
		"head -c 2000000 /dev/zero | tr '\\0' x; echo; echo 'MaxArraySize = 77'": 0,
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "scontrol"), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		got, err := scontrolMaxArraySize()
		if got != want || (err == nil) != (want != 0) {
			t.Errorf("scontrol doing %q: %d, %v; want %d", script, got, err, want)
		}
	}
}

// TestResubmissionLong: commands that would overrun the one error line go
// to stdout, one a line (or are left out of JSON output); a short one
// stays in the error line.
func TestResubmissionLong(t *testing.T) {
	t.Setenv("QUEENS_MAX_ARRAY_SIZE", "1001")
	dir := writeSubmission(t, "n=8\nshards=1003\nbase=-1000\nfirst_task=0\nlast_task=1\ncpus=1\npartition=debug\nscript=/a/count.sbatch\n")
	dirs := []string{dir}
	miss := &shard.MissingError{N: 8, Shards: 1003, Missing: []shard.Span{{First: 0, Last: 999}, {First: 1002, Last: 1002}}}
	var out strings.Builder
	got := resubmission(&out, miss, dirs)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if !strings.HasPrefix(got, "; resubmit them with the 2 sbatch command(s) printed on stdout (2 array(s), task ids below MaxArraySize 1001 from QUEENS_MAX_ARRAY_SIZE)") ||
		len(lines) != 2 || !strings.HasSuffix(lines[0], " sbatch --array=0-999 --cpus-per-task=1 --partition=debug /a/count.sbatch") ||
		!strings.HasSuffix(lines[1], " QUEENS_SHARD_BASE=-1000 QUEENS_PARTS="+dir+" sbatch --array=2 --cpus-per-task=1 --partition=debug /a/count.sbatch") {
		t.Errorf("resubmission: %q, stdout\n%s", got, out.String())
	}
	out.Reset()
	if got := resubmission(&out, &shard.MissingError{N: 8, Shards: 4}, nil); got != "" || out.Len() > 0 {
		t.Errorf("resubmission of no shard: %q, stdout %q", got, out.String())
	}
	if got := resubmission(nil, miss, dirs); !strings.Contains(got, "run merge without --format json") {
		t.Errorf("resubmission without a text stdout: %q", got)
	}
	out.Reset()
	miss = &shard.MissingError{N: 8, Shards: 4, Missing: []shard.Span{{First: 2, Last: 2}}}
	if got := resubmission(&out, miss, nil); got != "; resubmit them: QUEENS_N=8 QUEENS_SHARDS=4 sbatch --array=2 deploy/slurm/count.sbatch" || out.Len() > 0 {
		t.Errorf("resubmission of one short command: %q, stdout %q", got, out.String())
	}
}

// spansOf returns sorted shard indexes as the runs a [shard.MissingError] lists.
func spansOf(idx ...int) []shard.Span {
	var spans []shard.Span
	for _, i := range idx {
		if k := len(spans) - 1; k >= 0 && spans[k].Last == i-1 {
			spans[k].Last = i
			continue
		}
		spans = append(spans, shard.Span{First: i, Last: i})
	}
	return spans
}

// TestResubmitMillions: a merge missing every one of 2^25 shards builds
// only the windows of the commands it prints.
func TestResubmitMillions(t *testing.T) {
	miss := &shard.MissingError{N: 28, Shards: 1 << 25, Missing: []shard.Span{{First: 0, Last: 1<<25 - 1}}}
	cmds, remark := resubmitCommands(miss, 0, "", nil, "1001", noScontrol)
	if len(cmds) != maxResubmitCommands || !strings.Contains(remark, "more than 8 arrays") ||
		!strings.HasSuffix(cmds[7], "QUEENS_SHARD_BASE=-7007 sbatch --array=0-1000 deploy/slurm/count.sbatch") {
		t.Errorf("got %d commands, last %q, remark %q", len(cmds), cmds[len(cmds)-1], remark)
	}
}
