package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/queens-dev/queens/board"
)

// slurm runs the Slurm commands of the test, with the configuration of the
// local cluster when the test brought it up.
type slurm struct {
	t   *testing.T
	env []string
}

// slurmCluster returns a Slurm cluster to submit to, or skips the test.
// With QUEENS_SLURM=1 it brings up the local single-node cluster of
// slurm/local-cluster.sh (as root; it installs the Debian packages if
// needed) and takes it down at the end if it was not up before; otherwise it
// uses the cluster that sinfo answers for, if any.
func slurmCluster(t *testing.T) *slurm {
	t.Helper()
	s := &slurm{t: t, env: os.Environ()}
	if os.Getenv("QUEENS_SLURM") == "1" {
		if os.Geteuid() != 0 {
			t.Skip("QUEENS_SLURM=1, but slurm/local-cluster.sh up needs root")
		}
		dir := os.Getenv("QUEENS_SLURM_DIR")
		if dir == "" {
			dir = "/tmp/queens-slurm"
		}
		s.env = append(s.env, "SLURM_CONF="+filepath.Join(dir, "slurm.conf"))
		if exec.Command("slurm/local-cluster.sh", "status").Run() != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, "slurm/local-cluster.sh", "up").CombinedOutput()
			if err != nil {
				t.Fatalf("QUEENS_SLURM=1: slurm/local-cluster.sh up: %v\n%s", err, out)
			}
			t.Cleanup(func() {
				if out, err := exec.Command("slurm/local-cluster.sh", "down").CombinedOutput(); err != nil {
					t.Errorf("slurm/local-cluster.sh down: %v\n%s", err, out)
				}
			})
		}
		return s
	}
	for _, cmd := range []string{"sbatch", "sinfo", "squeue", "scontrol"} {
		if _, err := exec.LookPath(cmd); err != nil {
			t.Skipf("no %s on PATH: set QUEENS_SLURM=1 (as root) to bring up a local Slurm, or see deploy/slurm/local-cluster.sh", cmd)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sinfo", "-h", "-o", "%T").Output()
	if err != nil || !regexp.MustCompile(`(?m)^(idle|mix)`).Match(out) {
		t.Skipf("no Slurm cluster with an idle node answers (sinfo: %v %q): set QUEENS_SLURM=1 (as root) or run deploy/slurm/local-cluster.sh up", err, out)
	}
	return s
}

// run runs a Slurm command (or a script calling them) in dir with the extra
// environment env and returns its stdout; a failure fails the test.
func (s *slurm) run(dir string, env []string, name string, args ...string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), s.env...), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		s.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// task is what scontrol says of one job, or one task of a job array.
type task struct {
	state    string // JobState
	restarts int
}

var (
	jobStateRe = regexp.MustCompile(`\bJobState=(\S+)`)
	arrayRe    = regexp.MustCompile(`\bArrayTaskId=(\S+)`)
	restartsRe = regexp.MustCompile(`\bRestarts=(\d+)`)
)

// tasks returns the tasks of job id by array task id ("" for a plain job).
func (s *slurm) tasks(id string) map[string]task {
	s.t.Helper()
	m := map[string]task{}
	for line := range strings.Lines(s.run("", nil, "scontrol", "show", "job", "-o", id)) {
		st := jobStateRe.FindStringSubmatch(line)
		if st == nil {
			continue
		}
		key := ""
		if a := arrayRe.FindStringSubmatch(line); a != nil {
			key = a[1]
		}
		r := 0
		if x := restartsRe.FindStringSubmatch(line); x != nil {
			r, _ = strconv.Atoi(x[1])
		}
		m[key] = task{st[1], r}
	}
	if len(m) == 0 {
		s.t.Fatalf("scontrol show job %s: no job", id)
	}
	return m
}

var finalStates = map[string]bool{"COMPLETED": true, "FAILED": true, "CANCELLED": true, "TIMEOUT": true,
	"NODE_FAIL": true, "OUT_OF_MEMORY": true, "BOOT_FAIL": true, "DEADLINE": true, "PREEMPTED": true}

// wait waits until every task of the jobs has ended, and returns them.
func (s *slurm) wait(deadline time.Time, ids ...string) map[string]map[string]task {
	s.t.Helper()
	for {
		all := map[string]map[string]task{}
		done := true
		for _, id := range ids {
			all[id] = s.tasks(id)
			for _, tk := range all[id] {
				done = done && finalStates[tk.state]
			}
		}
		if done {
			return all
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("jobs %v still running at the deadline: %v\n%s", ids, all, s.run("", nil, "squeue"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestSlurmJobArray submits slurm/count.sbatch (the file the README shows)
// and slurm/merge.sbatch through slurm/submit.sh and checks the merged count
// against the published table; submits a count with a failing task and
// checks that the merge runs anyway and names the missing shard; and
// requeues a task in the middle of its count and checks that it resumes
// from its checkpoint and still adds up.
func TestSlurmJobArray(t *testing.T) {
	a := &arrayTest{s: slurmCluster(t), bin: queensBinary(t)}
	dir := os.Getenv("QUEENS_SLURM_WORKDIR") // a shared directory on a real cluster
	var err error
	if a.dir, err = os.MkdirTemp(dir, "queens-slurm-test-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if len(a.jobs) > 0 && t.Failed() {
			exec.Command("scancel", a.jobs...).Run()
		}
		os.RemoveAll(a.dir)
	})
	a.deadline = time.Now().Add(90 * time.Second)
	if a.submit, err = filepath.Abs("slurm/submit.sh"); err != nil {
		t.Fatal(err)
	}

	// A task that fails: the wrapper exits 3 for task 2 the first time and
	// runs queens otherwise (and for the merge).
	wrapper := filepath.Join(a.dir, "queens-failing-task-2")
	script := fmt.Sprintf("#!/bin/sh\n[ \"${SLURM_ARRAY_TASK_ID:-}\" = 2 ] && mkdir %s 2>/dev/null && exit 3\nexec %s \"$@\"\n",
		filepath.Join(a.dir, "task-2-failed"), a.bin)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	const n, k = 12, 8
	okArray, okMerge := a.submitted(t, "QUEENS="+a.bin, "QUEENS_N="+strconv.Itoa(n),
		"QUEENS_SHARDS="+strconv.Itoa(k), "QUEENS_CPUS=1", "QUEENS_PARTS=ok")
	badArray, badMerge := a.submitted(t, "QUEENS="+wrapper, "QUEENS_N=10",
		"QUEENS_SHARDS=4", "QUEENS_CPUS=1", "QUEENS_PARTS=bad")
	// A mixed fleet: tasks 1 and 3 count on a (fake) GPU, the others on
	// the CPU, all with one binary (one version); the merge recounts
	// and checks the engines' lines together.
	mixed := fleetWrapper(t, a.dir)
	var mixArray, mixMerge string
	if mixed != "" {
		mixArray, mixMerge = a.submitted(t, "QUEENS="+mixed, "QUEENS_N=12", "QUEENS_SHARDS=4", "QUEENS_CPUS=1", "QUEENS_PARTS=mixed")
	}
	// A task that cannot run where it first lands: the wrapper exits 75
	// for task 1 the first time, and count.sbatch requeues it.
	tempfail := filepath.Join(a.dir, "queens-tempfail-task-1")
	script = fmt.Sprintf("#!/bin/sh\n[ \"${SLURM_ARRAY_TASK_ID:-}\" = 1 ] && mkdir %s 2>/dev/null && echo 'queens: (fake) this shard cannot run here' >&2 && exit 75\nexec %s \"$@\"\n",
		filepath.Join(a.dir, "task-1-tempfailed"), a.bin)
	if err := os.WriteFile(tempfail, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tfArray, tfMerge := a.submitted(t, "QUEENS="+tempfail, "QUEENS_N=10", "QUEENS_SHARDS=2", "QUEENS_CPUS=1", "QUEENS_PARTS=tempfail")
	states := a.s.wait(a.deadline, okArray, okMerge, badArray, badMerge, tfArray, tfMerge)

	t.Run("merge", func(t *testing.T) { a.checkMerge(t, states, okArray, okMerge, n, k) })
	t.Run("mixed-fleet", func(t *testing.T) { a.checkMixedFleet(t, mixed, mixArray, mixMerge) })
	t.Run("failed-task", func(t *testing.T) { a.checkFailedTask(t, states, badArray, badMerge) })
	t.Run("cannot-run-here", func(t *testing.T) { a.checkTempFail(t, states, tfArray, tfMerge) })
	t.Run("above-max-array-size", a.checkAboveMaxArraySize)
	t.Run("requeue", a.checkRequeue)
	t.Run("two-counts", a.checkTwoCounts)
}

// arrayTest is the state TestSlurmJobArray's parts share: the cluster,
// the queens binary, the work folder, the deadline of every wait, and
// the jobs submitted (cancelled if the test fails).
type arrayTest struct {
	s        *slurm
	bin, dir string
	submit   string // slurm/submit.sh
	deadline time.Time
	jobs     []string
}

// submitted runs submit.sh with env and returns the ids of the array job
// and of the merge job it printed.
func (a *arrayTest) submitted(t *testing.T, env ...string) (array, merge string) {
	t.Helper()
	out := a.s.run(a.dir, env, a.submit)
	f := strings.Fields(out)
	if len(f) != 2 {
		t.Fatalf("submit.sh printed %q, want ARRAYJOB MERGEJOB", out)
	}
	a.jobs = append(a.jobs, f...)
	return f[0], f[1]
}

// checkMerge: the k tasks of an n×n count completed, and the merge job
// wrote a record that checks again.
func (a *arrayTest) checkMerge(t *testing.T, states map[string]map[string]task, okArray, okMerge string, n, k int) {
	dir, bin := a.dir, a.bin
	if len(states[okArray]) != k {
		t.Errorf("array %s: %d tasks, want %d: %v", okArray, len(states[okArray]), k, states[okArray])
	}
	for id, tk := range states[okArray] {
		if tk.state != "COMPLETED" {
			t.Errorf("task %s_%s: %s", okArray, id, tk.state)
		}
	}
	if st := states[okMerge][""].state; st != "COMPLETED" {
		t.Errorf("merge job %s: %s\n%s", okMerge, st, readLog(t, dir, "queens-merge-"+okMerge+".log"))
	}
	for i := range k {
		line := readLog(t, dir, fmt.Sprintf("ok/%d.jsonl", i))
		var r struct{ N, Shard, Shards int }
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.N != n || r.Shard != i || r.Shards != k {
			t.Errorf("ok/%d.jsonl: %+v %v, want n %d shard %d of %d", i, r, err, n, i, k)
		}
	}
	// merged.json is the record of the merge, which checks again.
	want, _ := board.Known(n)
	var rec struct {
		N                int
		Total, Unique    string
		Published        string
		Verify, Shards   int
		Lines, Recounted []json.RawMessage
	}
	if err := json.Unmarshal([]byte(readLog(t, dir, "ok/merged.json")), &rec); err != nil || rec.N != n ||
		rec.Total != strconv.FormatUint(want.Total, 10) || rec.Unique != strconv.FormatUint(want.Unique, 10) ||
		rec.Published != "matches" || rec.Verify != 16 || len(rec.Recounted) != 16 || rec.Shards != k || len(rec.Lines) != k {
		t.Errorf("merged.json: %+v, %v; want the record of n = %d, %d shards, 16 pieces recounted", rec, err, n, k)
	}
	args := []string{"merge", "--check-record", filepath.Join(dir, "ok/merged.json")}
	for i := range k {
		args = append(args, filepath.Join(dir, fmt.Sprintf("ok/%d.jsonl", i)))
	}
	if out, errOut, code := run(t, bin, args); code != 0 || !strings.Contains(out, "checks:") {
		t.Errorf("merge --check-record: exit status %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := run(t, bin, []string{"merge", "--progress", filepath.Join(dir, "ok")}); code != 0 ||
		!strings.Contains(out, fmt.Sprintf("shards: %d of %d finished, 0 running, 0 stale, 0 not started", k, k)) {
		t.Errorf("merge --progress after the array: exit status %d\n%s%s", code, out, errOut)
	}
}

// checkMixedFleet: the merge of a count whose tasks ran on CPUs and a
// (fake) GPU recounts and finds both engines.
func (a *arrayTest) checkMixedFleet(t *testing.T, mixed, mixArray, mixMerge string) {
	s, dir, deadline := a.s, a.dir, a.deadline
	if mixed == "" {
		t.Skip("no g++ or clang++ to build the fake GPU driver")
	}
	st := s.wait(deadline, mixArray, mixMerge)
	log := readLog(t, dir, "queens-merge-"+mixMerge+".log")
	log = regexp.MustCompile(`^merge\.sbatch: merging .*\n`).ReplaceAllString(log, "") // its start line
	if st[mixMerge][""].state != "COMPLETED" || !strings.HasPrefix(log, "14200 solutions (1787 unique)\nmatches the published count for n = 12\nrecounted 16 of ") {
		t.Fatalf("merge job %s of the mixed fleet: %v, log\n%s", mixMerge, st, log)
	}
	var rec struct{ Engines []string }
	if err := json.Unmarshal([]byte(readLog(t, dir, "mixed/merged.json")), &rec); err != nil || strings.Join(rec.Engines, ",") != "constellations,gpu" {
		t.Errorf("mixed/merged.json engines %v, %v; want constellations and gpu", rec.Engines, err)
	}
}

// checkFailedTask: the merge runs after a failed task, names the missing
// shard and the command to resubmit it, which then adds up.
func (a *arrayTest) checkFailedTask(t *testing.T, states map[string]map[string]task, badArray, badMerge string) {
	s, dir, bin, deadline := a.s, a.dir, a.bin, a.deadline
	for id, tk := range states[badArray] {
		if want := map[bool]string{true: "FAILED", false: "COMPLETED"}[id == "2"]; tk.state != want {
			t.Errorf("task %s_%s: %s, want %s", badArray, id, tk.state, want)
		}
	}
	// afterany: the merge ran although a task failed, and failed itself.
	log := readLog(t, dir, "queens-merge-"+badMerge+".log")
	if st := states[badMerge][""].state; st != "FAILED" || !strings.Contains(log, "missing shard") || !strings.Contains(log, "(0-based: 2;") {
		t.Errorf("merge job %s: %s, log\n%s\nwant FAILED naming shard 2 missing", badMerge, st, log)
	}
	// The command merge prints counts the missing shard, of the whole
	// split (K given), with the binary, CPUs and partition of the array
	// (recorded in its parts directory), and the merge then adds up.
	count, err := filepath.Abs("slurm/count.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	// (In the error line, or on stdout when the paths make it too long.)
	m := regexp.MustCompile(`(?m)(?:resubmit them: |^)(QUEENS=\S+/queens-failing-task-2 QUEENS_N=10 QUEENS_SHARDS=4 QUEENS_PARTS=(\S+) sbatch --array=2 --cpus-per-task=1 --partition=\w+ (\S+))\n`).FindStringSubmatch(log)
	if m == nil || m[3] != count {
		t.Fatalf("merge job %s's log names no resubmission of task 2 with K = 4 and the array's settings:\n%s", badMerge, log)
	}
	again := a.resubmitted(t, m[1])[0]
	if tk := s.wait(deadline, again)[again]; tk["2"].state != "COMPLETED" {
		t.Fatalf("resubmitted task %s_2: %v\n%s", again, tk, readLog(t, dir, fmt.Sprintf("queens-%s_2.log", again)))
	}
	var parts []string
	for i := range 4 {
		parts = append(parts, filepath.Join(m[2], fmt.Sprintf("%d.jsonl", i)))
	}
	if out, errOut, code := run(t, bin, append([]string{"merge"}, parts...)); code != 0 || !strings.HasPrefix(out, "724 solutions (92 unique)\nmatches") {
		t.Errorf("merge after the resubmission: exit status %d\n%s%s", code, out, errOut)
	}
}

// checkTwoCounts runs docs/scale.md's two counts side by side as
// printed, on the cluster, waiting for the jobs each submission printed.
func (a *arrayTest) checkTwoCounts(t *testing.T) {
	dir := filepath.Join(a.dir, "two-counts")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	runDocExamples(t, "### Two counts, side by side", dir, append([]string(nil), a.s.env...), func(ids ...string) {
		a.jobs = append(a.jobs, ids...)
		a.s.wait(time.Now().Add(2*time.Minute), ids...)
	})
}

// checkTempFail: a task whose queens exits 75 (this shard cannot run
// here) is requeued by count.sbatch, counts on its second run, and the
// merge, which waited for it, adds up.
func (a *arrayTest) checkTempFail(t *testing.T, states map[string]map[string]task, array, merge string) {
	tasks := states[array]
	log := readLog(t, a.dir, fmt.Sprintf("queens-%s_1.log", array))
	if tasks["0"].state != "COMPLETED" || tasks["1"].state != "COMPLETED" || tasks["1"].restarts != 1 {
		t.Errorf("tasks %v: want both COMPLETED, task 1 restarted once\n%s", tasks, log)
	}
	if !strings.Contains(log, "queens: (fake) this shard cannot run here\ncount.sbatch: shard 1 cannot run on ") ||
		!strings.Contains(log, "(exit status 75): requeued (restart 1 of 3)") || !strings.Contains(log, ", restart 1, into ") {
		t.Errorf("log of task 1 does not show the requeue and the second run:\n%s", log)
	}
	if mlog := readLog(t, a.dir, "queens-merge-"+merge+".log"); states[merge][""].state != "COMPLETED" || !strings.Contains(mlog, "724 solutions (92 unique)\nmatches") {
		t.Errorf("merge job %s: %v\n%s", merge, states[merge], mlog)
	}
}

var submittedRe = regexp.MustCompile(`(?m)^Submitted batch job (\d+)$`)

// resubmitted runs the commands merge printed (sbatch commands joined by
// &&) in a shell and returns the ids of the jobs they submitted.
func (a *arrayTest) resubmitted(t *testing.T, commands string) []string {
	t.Helper()
	out := a.s.run(a.dir, nil, "bash", "-c", commands)
	var ids []string
	for _, m := range submittedRe.FindAllStringSubmatch(out, -1) {
		ids = append(ids, m[1])
	}
	a.jobs = append(a.jobs, ids...)
	if len(ids) != strings.Count(commands, " sbatch ") {
		t.Fatalf("%s\nprinted %q: want a job per command", commands, out)
	}
	return ids
}

// checkAboveMaxArraySize: on a cluster of MaxArraySize 1001 (task ids 0 to
// 1000), an array of QUEENS_SHARD_BASE -1000 counts shards 1000 and 1001 of
// n = 14 in 1003 (a piece each); merge misses shards 0 to 999 and 1002, and prints (on stdout: too
// long for the error line) two commands, each within MaxArraySize, the
// second of which counts shard 1002 as task 2 of an array of base -1000
// with the first array's binary, CPUs, time and partition, in its
// directory: Slurm accepts it and the line is shard 1002's.
func (a *arrayTest) checkAboveMaxArraySize(t *testing.T) {
	s, dir, bin := a.s, a.dir, a.bin
	count, err := filepath.Abs("slurm/count.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	array := strings.TrimSpace(s.run(dir, []string{"QUEENS=" + bin, "QUEENS_N=14", "QUEENS_SHARDS=1003", "QUEENS_SHARD_BASE=-1000", "QUEENS_PARTS=high"},
		"sbatch", "--parsable", "--array=0-1", "--cpus-per-task=1", "--time=5:00", count))
	array, _, _ = strings.Cut(array, ";")
	a.jobs = append(a.jobs, array)
	if tk := s.wait(a.deadline, array)[array]; tk["0"].state != "COMPLETED" || tk["1"].state != "COMPLETED" {
		t.Fatalf("array %s: %v", array, tk)
	}
	sub := readLog(t, dir, "high/submission")
	for _, want := range []string{"\nmax_array_size=1001\n", "\nbase=-1000\n", "\nfirst_task=0\nlast_task=1\n", "\ncpus=1\n", "\nscript=" + count + "\n"} {
		if !strings.Contains(sub, want) {
			t.Errorf("high/submission has no %q:\n%s", strings.TrimSpace(want), sub)
		}
	}
	merge := func() string {
		t.Helper()
		files, _ := filepath.Glob(filepath.Join(dir, "high", "*.jsonl"))
		out, errOut, code := run(t, bin, append([]string{"merge"}, files...))
		if code != 1 || !strings.Contains(errOut, "resubmit them") {
			t.Fatalf("merge of high: exit status %d, want 1 and the resubmission\n%s", code, errOut)
		}
		return out + errOut
	}
	out := merge()
	m := regexp.MustCompile(`(?m)^QUEENS=\S+ QUEENS_N=14 QUEENS_SHARDS=1003 QUEENS_PARTS=\S+ sbatch --array=0-999 (\S+ )+\S+\n` +
		`(QUEENS=\S+ QUEENS_N=14 QUEENS_SHARDS=1003 QUEENS_SHARD_BASE=-1000 QUEENS_PARTS=\S+ sbatch --array=2 --cpus-per-task=1 --time=5:00 --partition=\w+ (\S+))\n` +
		`queens: .*; resubmit them with the 2 sbatch command\(s\) printed on stdout \(2 array\(s\), task ids below MaxArraySize 1001 from \S+/high/submission\)\n$`).FindStringSubmatch(out)
	if m == nil || m[3] != count {
		t.Fatalf("merge of high printed\n%s\nwant shards 0-999, then 1002 as task 2 of base -1000, the array's settings", out)
	}
	again := a.resubmitted(t, m[2])[0]
	if tk := s.wait(a.deadline, again)[again]; tk["2"].state != "COMPLETED" {
		t.Fatalf("resubmitted task %s_2: %v\n%s", again, tk, readLog(t, dir, fmt.Sprintf("queens-%s_2.log", again)))
	}
	want, errOut, code := run(t, bin, []string{"backtrack", "-n", "14", "--count", "--shard", "1002/1003", "--threads", "1", "--json"})
	if code != 0 {
		t.Fatalf("shard 1002/1003: exit status %d\n%s", code, errOut)
	}
	if got := readLog(t, dir, "high/1002.jsonl"); shardFields(t, []byte(got)) != shardFields(t, []byte(want)) {
		t.Errorf("high/1002.jsonl\n%s\nwant\n%s", got, want)
	}
	if out := merge(); !strings.Contains(out, "--array=0-999 ") || strings.Contains(out, "--array=2") {
		t.Errorf("merge after the resubmission printed\n%s\nwant shards 0-999 alone", out)
	}
}

// checkRequeue: a task requeued in the middle of its count resumes from
// its checkpoint and still adds up.
func (a *arrayTest) checkRequeue(t *testing.T) {
	s, dir, bin, deadline := a.s, a.dir, a.bin, a.deadline
	// n = 17 in 2 shards: a task counts for about 4 s on one core (more
	// on a slower machine), its checkpoint is written each second.
	const n = 17
	count, err := filepath.Abs("slurm/count.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	array := strings.TrimSpace(s.run(dir, []string{"QUEENS=" + bin, "QUEENS_N=" + strconv.Itoa(n), "QUEENS_PARTS=rq"},
		"sbatch", "--parsable", "--array=0-1", "--cpus-per-task=1", count))
	array, _, _ = strings.Cut(array, ";")
	a.jobs = append(a.jobs, array)
	ckpt := filepath.Join(dir, "rq/0.ckpt")
	before := 0
	for before == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no piece in %s at the deadline", ckpt)
		}
		time.Sleep(50 * time.Millisecond)
		data, _ := os.ReadFile(ckpt)
		before = strings.Count(string(data), `{"piece":`)
	}
	if _, err := os.Stat(filepath.Join(dir, "rq/0.jsonl")); err == nil {
		t.Fatal("task 0 finished before it could be requeued")
	}
	s.run(dir, nil, "scontrol", "requeue", array+"_0")
	tk := s.wait(deadline, array)[array]
	log := readLog(t, dir, fmt.Sprintf("queens-%s_0.log", array))
	if tk["0"].state != "COMPLETED" || tk["0"].restarts != 1 || tk["1"].state != "COMPLETED" {
		t.Fatalf("tasks %v, want both COMPLETED, task 0 restarted once; log of task 0:\n%s", tk, log)
	}
	if !strings.Contains(log, "DUE TO JOB REQUEUE") || !strings.Contains(log, "keeps them") {
		t.Errorf("log of task 0 does not show it was stopped by the requeue, keeping its pieces:\n%s", log)
	}
	// The second run's statistics: it resumed the pieces the first kept.
	m := regexp.MustCompile(`"resumed":(\d+)`).FindStringSubmatch(log)
	if m == nil {
		t.Errorf("no statistics with \"resumed\" in the log of task 0:\n%s", log)
	} else if resumed, _ := strconv.Atoi(m[1]); resumed < before {
		t.Errorf("task 0 resumed %v pieces, the checkpoint held %d before the requeue:\n%s", m, before, log)
	}
	want, _ := board.Known(n)
	out, errOut, code := run(t, bin, []string{"merge", filepath.Join(dir, "rq/0.jsonl"), filepath.Join(dir, "rq/1.jsonl")})
	if wantOut := fmt.Sprintf("%d solutions (%d unique)\nmatches the published count for n = %d\n", want.Total, want.Unique, n); code != 0 || out != wantOut {
		t.Errorf("merge after the requeue: exit status %d\n%s%s\nwant\n%s", code, out, errOut, wantOut)
	}
}

// fleetWrapper builds, in dir, queens with the GPU loader and the fake
// libcuda.so.1 of package gpu (its kernel run on the host), and a wrapper
// that runs tasks 1 and 3 of an array with --gpu on it, the rest (and the
// merge) on the CPU; "" when no C++ compiler is there.
func fleetWrapper(t *testing.T, dir string) string {
	t.Helper()
	cxx, err := exec.LookPath("g++")
	if err != nil {
		if cxx, err = exec.LookPath("clang++"); err != nil {
			return ""
		}
	}
	if out, err := exec.Command(cxx, "-std=c++17", "-O2", "-shared", "-fPIC", "-o", filepath.Join(dir, "libcuda.so.1"),
		"../gpu/testdata/fakecuda.cpp").CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cxx, err, out)
	}
	bin := filepath.Join(dir, "queens-gpu")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".." // the queens module, beside this one
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	wrapper := filepath.Join(dir, "queens-mixed-fleet")
	script := fmt.Sprintf("#!/bin/sh\ncase \"${SLURM_ARRAY_TASK_ID:-}\" in\n1|3) LD_LIBRARY_PATH=%s exec %s \"$@\" --gpu ;;\nesac\nexec %s \"$@\"\n", dir, bin, bin)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrapper
}

// readLog returns the content of dir/name, or fails the test.
func readLog(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
