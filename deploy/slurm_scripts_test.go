package deploy

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The Slurm scripts without Slurm: count.sbatch run as one task would be,
// and submit.sh with testdata/fakeslurm's sbatch, which runs each job at
// once, so that what the scripts do is checked on every machine (the
// cluster itself in slurm_test.go, where one answers).

// fakeSlurm returns the environment of a test of the Slurm scripts: the
// batch engines' variables left out, testdata/fakeslurm first on PATH
// and its state in a directory of its own (returned), plus env.
func fakeSlurm(t *testing.T, env ...string) ([]string, string) {
	t.Helper()
	fake, err := filepath.Abs("testdata/fakeslurm")
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	var out []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "SLURM_") && !strings.HasPrefix(e, "JOB_COMPLETION_INDEX=") && !strings.HasPrefix(e, "QUEENS") && !strings.HasPrefix(e, "PATH=") {
			out = append(out, e)
		}
	}
	out = append(out, "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"), "FAKESLURM_DIR="+state)
	return append(out, env...), state
}

// runScript runs a deploy script with bash in dir with env and returns
// its output (stdout then stderr) and exit status.
func runScript(t *testing.T, dir string, env []string, script string, args ...string) (string, string, int) {
	t.Helper()
	path, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", append([]string{path}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	var x *exec.ExitError
	if errors.As(err, &x) {
		return o.String(), e.String(), x.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), 0
}

// arrayTask is the environment of task id of an array job 77 from min to max,
// as Slurm sets it.
func arrayTask(id, min, max int) []string {
	return []string{"SLURM_JOB_ID=77", "SLURM_ARRAY_JOB_ID=77", fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", id),
		fmt.Sprintf("SLURM_ARRAY_TASK_MIN=%d", min), fmt.Sprintf("SLURM_ARRAY_TASK_MAX=%d", max),
		fmt.Sprintf("SLURM_ARRAY_TASK_COUNT=%d", max-min+1), "SLURM_CPUS_PER_TASK=1", "SLURM_MEM_PER_NODE=256"}
}

// TestCountSbatchRefuses: settings that are wrong, and a parts directory
// that holds another count (its submission, or without one its lines),
// end the task with one line and exit status 2 before it writes a line.
func TestCountSbatchRefuses(t *testing.T) {
	bin := queensBinary(t)
	for _, c := range []struct{ name, want string }{
		{"QUEENS_N=x", "QUEENS_N=x: want a whole number from 1 to 32"},
		{"QUEENS_N=0", "QUEENS_N=0: want"},
		{"QUEENS_N=33", "QUEENS_N=33: want"},
		{"QUEENS_N=1000000000000", "QUEENS_N=1000000000000: want"},
		{"QUEENS_N=29 QUEENS_ENGINE=join", "QUEENS_N=29: the join counts n <= 28"},
		{"QUEENS_ENGINE=gpu", "QUEENS_ENGINE=gpu: want constellations or join"},
		{"QUEENS_ENGINE=auto", "QUEENS_ENGINE=auto: want"},
		{"QUEENS_SHARD_BASE=0x10", "QUEENS_SHARD_BASE=0x10: want a whole number"},
		{"QUEENS_SHARD_BASE=1e3", "QUEENS_SHARD_BASE=1e3: want"},
		{"QUEENS_SHARD_BASE=--1", "QUEENS_SHARD_BASE=--1: want"},
		{"QUEENS_SHARD_BASE=123456789", "QUEENS_SHARD_BASE=123456789: want"},
		{"QUEENS_SHARDS=0", "QUEENS_SHARDS=0: want a whole number from 1 to 33554432"},
		{"QUEENS_SHARDS=-4", "QUEENS_SHARDS=-4: want"},
		{"QUEENS_SHARDS=33554433", "QUEENS_SHARDS=33554433: want"},
		{"QUEENS_SPLIT=1", "QUEENS_SPLIT=1: want auto, 0 or 2 to 65536"},
		{"QUEENS_SPLIT=65537", "QUEENS_SPLIT=65537: want"},
		{"QUEENS_SPLIT=$(id)", "QUEENS_SPLIT=$(id): want"},
		{"QUEENS_REQUEUES=x", "QUEENS_REQUEUES=x: want"},
		{"SLURM_ARRAY_TASK_ID=", "SLURM_ARRAY_TASK_ID=: submit count.sbatch as a job array"},
		{"SLURM_ARRAY_TASK_ID=3x", "SLURM_ARRAY_TASK_ID=3x: submit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			env, _ := fakeSlurm(t, append(arrayTask(1, 0, 3), "QUEENS="+bin, "QUEENS_N=8", "QUEENS_SHARDS=4", "QUEENS_PARTS=p")...)
			env = append(env, strings.Fields(c.name)...)
			out, errOut, code := runScript(t, dir, env, "slurm/count.sbatch")
			if code != 2 || out != "" || !strings.HasPrefix(errOut, "count.sbatch: ") || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit status %d, output %q%q; want 2 and one line with %q", code, out, errOut, c.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "p")); !os.IsNotExist(err) {
				t.Errorf("the parts directory was made: %v", err)
			}
		})
	}

	// Another count's directory: by its submission, or by a line when it
	// has none. Nothing in it changes.
	dir := t.TempDir()
	env, _ := fakeSlurm(t, append(arrayTask(1, 0, 3), "QUEENS="+bin, "QUEENS_N=8", "QUEENS_SHARDS=4", "QUEENS_PARTS=p")...)
	if out, errOut, code := runScript(t, dir, env, "slurm/count.sbatch"); code != 0 {
		t.Fatalf("count.sbatch: exit status %d\n%s%s", code, out, errOut)
	}
	line := readLog(t, dir, "p/1.jsonl")
	for _, c := range []struct {
		env, theirs, mine string
		noSubmission      bool
	}{
		{"QUEENS_ENGINE=join", "n=8, 4 shards, engine constellations, split 0", "n=8, 4 shards, engine join, split 0", false},
		{"QUEENS_N=9", "n=8, 4 shards", "n=9, 4 shards", false},
		{"QUEENS_SHARDS=5", "n=8, 4 shards", "n=8, 5 shards", false},
		{"QUEENS_SPLIT=8", "n=8, 4 shards, engine constellations, split 0", "n=8, 4 shards, engine constellations, split 8", false},
		{"QUEENS_ENGINE=join", "n=8, 4 shards, engine constellations, split 0", "n=8, 4 shards, engine join", true},
		{"QUEENS_SHARDS=8", "n=8, 4 shards", "n=8, 8 shards", true},
	} {
		p := filepath.Join(dir, "p")
		if c.noSubmission {
			if err := os.Remove(filepath.Join(p, "submission")); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
		before := listDir(t, p)
		out, errOut, code := runScript(t, dir, append(env, c.env), "slurm/count.sbatch")
		want := fmt.Sprintf("count.sbatch: %s holds another count (%s", p, c.theirs)
		if code != 2 || !strings.HasPrefix(errOut, want) || !strings.Contains(errOut, "this one is "+c.mine) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s (submission %v): exit status %d\n%s%s\nwant 2 and %s...", c.env, !c.noSubmission, code, out, errOut, want)
		}
		if after := listDir(t, p); after != before || readLog(t, dir, "p/1.jsonl") != line {
			t.Errorf("%s: the directory changed:\n%s\nwas\n%s", c.env, after, before)
		}
	}
}

// listDir describes the files of dir: names and sizes.
func listDir(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d\n", e.Name(), info.Size())
	}
	return b.String()
}

// TestCountSbatchShardBase: a base with leading zeros is decimal (010 is
// 10, not octal 8; 08 is no error), and a relative QUEENS_PARTS is made
// absolute: the submission names it so, and the line is there.
func TestCountSbatchShardBase(t *testing.T) {
	bin := queensBinary(t)
	for _, c := range []struct {
		base       string
		id, shard  int
		recordBase string
	}{
		{"010", 12, 2, "10"}, {"08", 9, 1, "8"}, {"-02", 0, 2, "-2"}, {"+0003", 3, 0, "3"},
	} {
		t.Run(c.base, func(t *testing.T) {
			dir := t.TempDir()
			env, _ := fakeSlurm(t, append(arrayTask(c.id, c.id, c.id), "QUEENS="+bin, "QUEENS_N=8", "QUEENS_SHARDS=4",
				"QUEENS_SHARD_BASE="+c.base, "QUEENS_PARTS=./a/../p")...)
			if out, errOut, code := runScript(t, dir, env, "slurm/count.sbatch"); code != 0 {
				t.Fatalf("exit status %d\n%s%s", code, out, errOut)
			}
			if line := readLog(t, dir, fmt.Sprintf("p/%d.jsonl", c.shard)); !strings.Contains(line, fmt.Sprintf(`"shard":%d,"shards":4,`, c.shard)) {
				t.Errorf("p/%d.jsonl: %s", c.shard, line)
			}
			sub := readLog(t, dir, "p/submission")
			if !strings.Contains(sub, "\nbase="+c.recordBase+"\n") || !strings.Contains(sub, "\nparts="+filepath.Join(dir, "p")+"\n") {
				t.Errorf("submission:\n%s\nwant base=%s and parts=%s", sub, c.recordBase, filepath.Join(dir, "p"))
			}
		})
	}
}

// fakeQueens writes, in dir, a queens that records its arguments in
// dir/args and exits with $FAKE_STATUS.
func fakeQueens(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "queens")
	script := fmt.Sprintf("#!/bin/sh\nprintf '%%s\\n' \"$@\" > %s\nexit \"${FAKE_STATUS:-0}\"\n", filepath.Join(dir, "args"))
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCountSbatchStatus: queens' exit status 75 (this shard cannot run
// here) requeues the task, QUEENS_REQUEUES times at most; 2 (the input is
// wrong) is not retried. The log starts with what the task does: n, shard,
// engine, host, memory, where the line goes; and the join gets --memory of
// half the task's memory, the constellations --split.
func TestCountSbatchStatus(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	for _, c := range []struct {
		name     string
		env      []string
		status   int
		requeued bool
		want     string
	}{
		{"ok", nil, 0, false, ""},
		{"75", nil, 75, true, "count.sbatch: shard 3 cannot run on " + host + " (exit status 75): requeued (restart 1 of 3)"},
		{"75 again", []string{"SLURM_RESTART_COUNT=2"}, 75, true, "(restart 3 of 3)"},
		{"75 spent", []string{"SLURM_RESTART_COUNT=3"}, 75, false, "count.sbatch: shard 3 cannot run here (exit status 75) and is not requeued (restart 3 of 3)"},
		{"75 never", []string{"QUEENS_REQUEUES=0"}, 75, false, "is not requeued (restart 0 of 0)"},
		{"2", nil, 2, false, "count.sbatch: shard 3: the input is wrong (exit status 2, said above): not retried"},
		{"1", nil, 1, false, "count.sbatch: shard 3: queens exited with status 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			bin := fakeQueens(t, dir)
			env, state := fakeSlurm(t, append(arrayTask(3, 0, 3), "QUEENS="+bin, "QUEENS_N=12", "QUEENS_SHARDS=4", "QUEENS_ENGINE=join",
				"QUEENS_PARTS=p", "SLURM_MEM_PER_NODE=16512", "SLURM_CPUS_PER_TASK=4", fmt.Sprintf("FAKE_STATUS=%d", c.status))...)
			out, errOut, code := runScript(t, dir, append(env, c.env...), "slurm/count.sbatch")
			if code != c.status || out != "" || !strings.Contains(errOut, c.want) {
				t.Errorf("exit status %d\n%s%s\nwant %d and %q", code, out, errOut, c.status, c.want)
			}
			start := fmt.Sprintf("count.sbatch: n=12, 4 shards, engine join, split 0: shard 3 (task 77_3, base 0) on %s, 4 CPUs, 16512M, restart ", host)
			if !strings.HasPrefix(errOut, start) || !strings.Contains(strings.SplitN(errOut, "\n", 2)[0], ", into "+filepath.Join(dir, "p/3.jsonl")+", from ") {
				t.Errorf("the log starts\n%s\nwant %s..., into %s, from ...", errOut, start, filepath.Join(dir, "p/3.jsonl"))
			}
			requeue, _ := os.ReadFile(filepath.Join(state, "scontrol"))
			if got := string(requeue) == "requeue 77_3\n"; got != c.requeued {
				t.Errorf("scontrol calls %q, want a requeue of 77_3: %v", requeue, c.requeued)
			}
			args := strings.Fields(readLog(t, dir, "args"))
			if want := "backtrack -n 12 --count --json --stats --shard 3/4 --shard-base 0 --engine join --threads 4 --checkpoint " +
				filepath.Join(dir, "p/3.ckpt") + " -o " + filepath.Join(dir, "p/3.jsonl") + " --memory 8256MiB"; strings.Join(args, " ") != want {
				t.Errorf("queens %s\nwant queens %s", strings.Join(args, " "), want)
			}
		})
	}
	// The constellations get --split (auto resolved: 2^12 at n = 28) and no --memory.
	dir := t.TempDir()
	env, _ := fakeSlurm(t, append(arrayTask(3, 0, 3), "QUEENS="+fakeQueens(t, dir), "QUEENS_N=28", "QUEENS_SHARDS=4", "QUEENS_PARTS=p")...)
	if out, errOut, code := runScript(t, dir, env, "slurm/count.sbatch"); code != 0 {
		t.Fatalf("exit status %d\n%s%s", code, out, errOut)
	}
	if args := strings.Join(strings.Fields(readLog(t, dir, "args")), " "); !strings.HasSuffix(args, " --split 4096") || strings.Contains(args, "--memory") {
		t.Errorf("queens %s: want --split 4096, no --memory", args)
	}
	if sub := readLog(t, dir, "p/submission"); !strings.Contains(sub, "\nsplit=4096\nengine=constellations\n") {
		t.Errorf("submission:\n%s", sub)
	}
}

// TestCountSbatchTerm: Slurm's SIGTERM (a requeue, a cancel, the time
// limit) reaches every process of the task; count.sbatch does not pass it
// on again (a second signal kills queens before it writes its
// checkpoint), queens stops with the pieces it finished kept, and the task
// ends with queens' status 130, not requeued.
func TestCountSbatchTerm(t *testing.T) {
	bin := queensBinary(t)
	dir := t.TempDir()
	env, state := fakeSlurm(t, append(arrayTask(0, 0, 0), "QUEENS="+bin, "QUEENS_N=17", "QUEENS_SHARDS=1", "QUEENS_PARTS=p")...)
	path, err := filepath.Abs("slurm/count.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", path)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	ckpt := filepath.Join(dir, "p/0.ckpt")
	for {
		data, _ := os.ReadFile(ckpt)
		if strings.Contains(string(data), `{"piece":`) {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("count.sbatch ended (%v) before its checkpoint held a piece:\n%s", err, out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM); err != nil { // the process group: all of the task, as Slurm signals it
		t.Fatal(err)
	}
	err = <-done
	var x *exec.ExitError
	if !errors.As(err, &x) || x.ExitCode() != 130 {
		t.Errorf("count.sbatch after SIGTERM: %v, want exit status 130\n%s", err, out.String())
	}
	if !regexp.MustCompile(`queens: interrupted .*after \d+ of \d+ pieces \(\S+/p/0\.ckpt keeps them`).MatchString(out.String()) ||
		!strings.Contains(out.String(), "count.sbatch: shard 0: queens exited with status 130") {
		t.Errorf("log after SIGTERM:\n%s", out.String())
	}
	if data, _ := os.ReadFile(ckpt); !strings.Contains(string(data), `{"piece":`) {
		t.Errorf("no pieces in the checkpoint after SIGTERM")
	}
	if _, err := os.Stat(filepath.Join(state, "scontrol")); err == nil {
		t.Error("the task stopped by SIGTERM was requeued by count.sbatch")
	}
}

// TestSubmitSideBySide is issue 41's data loss, on the fake Slurm: the
// documented second count (the same submit.sh with QUEENS_ENGINE=join)
// goes to a directory of its own (parts-nN-ENGINE) beside the first, both
// records check and merge --confirm confirms them; a submission into
// another count's directory is refused before anything is queued, and the
// first count's files stay as they were. The tasks ask for their memory,
// the merge for its CPUs, memory and time, and the options given come
// after them. The resubmission merge prints runs from any directory.
func TestSubmitSideBySide(t *testing.T) {
	bin := queensBinary(t)
	dir := t.TempDir()
	env, state := fakeSlurm(t, "QUEENS="+bin, "QUEENS_N=12", "QUEENS_SHARDS=4", "QUEENS_CPUS=1")
	submit := func(extra ...string) (string, string, int) {
		t.Helper()
		return runScript(t, dir, append(env, extra...), "slurm/submit.sh", "--partition=batch")
	}
	for _, engine := range []string{"constellations", "join"} {
		if out, errOut, code := submit("QUEENS_ENGINE=" + engine); code != 0 || !regexp.MustCompile(`^\d+ \d+\n$`).MatchString(out) {
			t.Fatalf("submit.sh with %s: exit status %d\n%s%s", engine, code, out, errOut)
		}
	}
	c, j := filepath.Join(dir, "parts-n12-constellations"), filepath.Join(dir, "parts-n12-join")
	calls := strings.Split(strings.TrimSpace(readLog(t, state, "calls")), "\n")
	count, _ := filepath.Abs("slurm/count.sbatch")
	merge, _ := filepath.Abs("slurm/merge.sbatch")
	for i, want := range []string{
		`^--parsable --array=0-3 --cpus-per-task=1 --mem=256M --partition=batch ` + count + `$`,
		`^--parsable --dependency=afterany:100 --cpus-per-task=1 --mem=\d+M --time=0-00:\d\d:00 --partition=batch ` + merge + `$`,
		`^--parsable --array=0-3 --cpus-per-task=1 --mem=256M --partition=batch ` + count + `$`,
		`^--parsable --dependency=afterany:102 --cpus-per-task=1 --mem=\d+M --time=0-00:\d\d:00 --partition=batch ` + merge + `$`,
	} {
		if i >= len(calls) || !regexp.MustCompile(want).MatchString(calls[i]) {
			t.Errorf("sbatch calls:\n%s\nwant call %d to match %s", strings.Join(calls, "\n"), i, want)
		}
	}
	want := "14200 solutions (1787 unique)\nmatches the published count for n = 12\nrecounted 16 of "
	for _, log := range []string{"queens-merge-101.log", "queens-merge-103.log"} {
		if got := readLog(t, dir, log); !strings.Contains(got, want) {
			t.Errorf("%s:\n%s\nwant %s...", log, got, want)
		}
	}
	for _, p := range []string{c, j} {
		if out, errOut, code := run(t, bin, []string{"merge", "--check-record", filepath.Join(p, "merged.json"), p}); code != 0 || !strings.Contains(out, "checks:") {
			t.Errorf("merge --check-record %s: exit status %d\n%s%s", p, code, out, errOut)
		}
	}
	confirm := []string{"merge", "--confirm", filepath.Join(c, "merged.json"), filepath.Join(j, "merged.json"), c, j}
	if out, errOut, code := run(t, bin, confirm); code != 0 || !strings.HasPrefix(out, "n = 12: 14200 solutions (1787 unique), confirmed by two independent engines: constellations") {
		t.Errorf("merge --confirm: exit status %d\n%s%s", code, out, errOut)
	}

	// Into the first count's directory: refused, nothing queued, nothing changed.
	before, record := listDir(t, c), readLog(t, c, "merged.json")
	for _, extra := range [][]string{{"QUEENS_ENGINE=join", "QUEENS_PARTS=" + c}, {"QUEENS_PARTS=parts-n12-constellations", "QUEENS_SHARDS=8"},
		{"QUEENS_PARTS=" + c, "QUEENS_N=13"}} {
		out, errOut, code := submit(extra...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "count.sbatch: "+c+" holds another count (n=12, 4 shards, engine constellations, split 0: ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("submit.sh %v: exit status %d\n%s%s\nwant 2 and the count the directory holds", extra, code, out, errOut)
		}
	}
	if after := strings.Split(strings.TrimSpace(readLog(t, state, "calls")), "\n"); len(after) != len(calls) {
		t.Errorf("sbatch called by a refused submission: %q", after[len(calls):])
	}
	if listDir(t, c) != before || readLog(t, c, "merged.json") != record {
		t.Errorf("the first count's directory changed:\n%s\nwas\n%s", listDir(t, c), before)
	}
	for _, bad := range []struct{ env, want string }{
		{"QUEENS_N=012", "submit.sh: QUEENS_N=012: want a whole number from 1 (no leading zero)"},
		{"QUEENS_N=29 QUEENS_ENGINE=join", "submit.sh: QUEENS_N=29: the join engine counts n <= 28"},
		{"QUEENS_N=33", "submit.sh: QUEENS_N=33: the constellations engine counts n <= 32"},
		{"QUEENS_ENGINE=gpu", "submit.sh: QUEENS_ENGINE=gpu: want constellations or join"},
		{"QUEENS_VERIFY=99%", "submit.sh: QUEENS_VERIFY=99%: want a whole number of pieces"},
		{"QUEENS_SHARDS=33554433", "submit.sh: QUEENS_SHARDS=33554433: want at most 2^25"},
		{"QUEENS_CPUS=0", "submit.sh: QUEENS_CPUS=0: want"},
		{"QUEENS_SPLIT=1", "count.sbatch: QUEENS_SPLIT=1: want auto, 0 or 2 to 65536"},
	} {
		out, errOut, code := submit(strings.Fields(bad.env)...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, bad.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("submit.sh with %s: exit status %d\n%s%s\nwant 2 and %s", bad.env, code, out, errOut, bad.want)
		}
	}

	// A lost line: merge prints the command that counts it again, which
	// puts it back in its directory when run from anywhere else.
	if err := os.Remove(filepath.Join(c, "2.jsonl")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, bin, []string{"merge", c})
	m := regexp.MustCompile(`resubmit them: (QUEENS=\S+ QUEENS_N=12 QUEENS_SHARDS=4 QUEENS_PARTS=` + regexp.QuoteMeta(c) + ` sbatch --array=2 .*count\.sbatch)\n`).FindStringSubmatch(errOut)
	if code != 1 || m == nil {
		t.Fatalf("merge without shard 2: exit status %d\n%s%s\nwant the command that resubmits it", code, out, errOut)
	}
	again := exec.Command("sh", "-c", m[1])
	again.Dir, again.Env = t.TempDir(), env
	if out, err := again.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", m[1], err, out)
	}
	if out, errOut, code := run(t, bin, []string{"merge", c}); code != 0 || !strings.HasPrefix(out, "14200 solutions") {
		t.Errorf("merge after the resubmission: exit status %d\n%s%s", code, out, errOut)
	}
}

// docExample is one "    $ command" of a docs page and what the page shows under it.
type docExample struct{ cmd, want string }

// docExamples returns the examples of the section of docs/scale.md under
// the heading given, in order.
func docExamples(t *testing.T, heading string) []docExample {
	t.Helper()
	data, err := os.ReadFile("../docs/scale.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("docs/scale.md: no heading %q", heading)
	}
	if i := strings.Index(section, "\n#"); i >= 0 {
		section = section[:i]
	}
	var out []docExample
	for _, line := range strings.Split(section, "\n") {
		switch cmd, isCmd := strings.CutPrefix(line, "    $ "); {
		case isCmd:
			out = append(out, docExample{cmd: cmd})
		case strings.HasPrefix(line, "    ") && len(out) > 0:
			out[len(out)-1].want += strings.TrimPrefix(line, "    ") + "\n"
		case len(out) > 0 && line != "":
			return out // the block has ended
		}
	}
	return out
}

var jobIDsRe = regexp.MustCompile(`^\d+ \d+$`)

// seedRe matches a seed merge drew at random and printed (--check-record's
// and --confirm's recount draws one at every run, from crypto/rand).
var seedRe = regexp.MustCompile(`--seed \d+`)

// anySeed returns s with every seed printed as --seed S: a run prints
// the one it drew, the page the one of its run.
func anySeed(s string) string { return seedRe.ReplaceAllString(s, "--seed S") }

// runDocExamples runs the examples of the section of docs/scale.md under
// heading as printed, in order, with bash in dir (where deploy/ is this
// directory and queens, the test's binary, is on PATH), and checks that
// each prints what the page shows, stderr then stdout, the page's /home/u
// being dir and job ids any numbers; wait is called with the ids a
// command printed.
func runDocExamples(t *testing.T, heading, dir string, env []string, wait func(ids ...string)) {
	t.Helper()
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{filepath.Join(dir, "deploy"): here, filepath.Join(bin, "queens"): queensBinary(t)} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range env {
		if path, ok := strings.CutPrefix(e, "PATH="); ok {
			env[i] = "PATH=" + bin + string(os.PathListSeparator) + path
		}
	}
	examples := docExamples(t, heading)
	if len(examples) == 0 {
		t.Fatalf("docs/scale.md, %s: no examples", heading)
	}
	for _, ex := range examples {
		cmd := exec.Command("bash", "-c", ex.cmd)
		cmd.Dir, cmd.Env = dir, env
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		got := strings.Split(strings.TrimSuffix(e.String()+o.String(), "\n"), "\n")
		want := strings.Split(strings.TrimSuffix(strings.ReplaceAll(ex.want, "/home/u", dir), "\n"), "\n")
		same := len(got) == len(want)
		for i := 0; same && i < len(got); i++ {
			same = anySeed(got[i]) == anySeed(want[i]) || jobIDsRe.MatchString(got[i]) && jobIDsRe.MatchString(want[i])
		}
		if failing := strings.Contains(ex.want, "holds another count"); !same || (err != nil) != failing {
			t.Fatalf("docs/scale.md: %s (%v) printed\n%s\nthe page shows\n%s", ex.cmd, err, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if last := got[len(got)-1]; jobIDsRe.MatchString(last) {
			wait(strings.Fields(last)...)
		}
	}
}

// TestDocsTwoCounts runs docs/scale.md's two counts side by side as
// printed, on the fake Slurm: both counts, their confirmation, and the
// second count refused the first's directory.
func TestDocsTwoCounts(t *testing.T) {
	env, _ := fakeSlurm(t)
	runDocExamples(t, "### Two counts, side by side", t.TempDir(), env, func(...string) {})
}
