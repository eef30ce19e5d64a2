package deploy

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
	"sigs.k8s.io/yaml"
)

// The API server's limits on Indexed Jobs (kubernetes
// pkg/apis/batch/validation: maxParallelismForIndexedJob,
// maxFailedIndexesForIndexedJob, completionsSoftLimit,
// parallelismLimitForHighCompletions,
// maxFailedIndexesLimitForHighCompletions).
const (
	maxIndexedParallelism        = 100_000
	maxFailedIndexes             = 100_000
	completionsSoftLimit         = 100_000
	highCompletionsParallelism   = 10_000
	highCompletionsFailedIndexes = 10_000
)

// jobAPIErrors checks a Job against the rules the API server applies to
// a Job's spec that decoding alone does not (the validation of
// kubernetes' pkg/apis/batch/validation, for the fields these manifests
// use), and returns what it would refuse.
func jobAPIErrors(job *batchv1.Job) []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	s := job.Spec
	i32 := func(p *int32) int64 {
		if p == nil {
			return -1
		}
		return int64(*p)
	}
	for name, v := range map[string]int64{"parallelism": i32(s.Parallelism), "completions": i32(s.Completions),
		"backoffLimit": i32(s.BackoffLimit), "backoffLimitPerIndex": i32(s.BackoffLimitPerIndex), "maxFailedIndexes": i32(s.MaxFailedIndexes)} {
		if v < -1 {
			bad("%s %d: must be non-negative", name, v)
		}
	}
	indexed := s.CompletionMode != nil && *s.CompletionMode == batchv1.IndexedCompletion
	if s.MaxFailedIndexes != nil && s.BackoffLimitPerIndex == nil {
		bad("maxFailedIndexes without backoffLimitPerIndex")
	}
	if !indexed && (s.BackoffLimitPerIndex != nil || s.MaxFailedIndexes != nil) {
		bad("backoffLimitPerIndex or maxFailedIndexes without indexed completion mode")
	}
	if indexed {
		switch c := i32(s.Completions); {
		case c < 0:
			bad("indexed: no completions")
		default:
			if i32(s.Parallelism) > maxIndexedParallelism {
				bad("parallelism %d above %d", i32(s.Parallelism), maxIndexedParallelism)
			}
			if i32(s.MaxFailedIndexes) > c {
				bad("maxFailedIndexes %d above completions %d", i32(s.MaxFailedIndexes), c)
			}
			if i32(s.MaxFailedIndexes) > maxFailedIndexes {
				bad("maxFailedIndexes %d above %d", i32(s.MaxFailedIndexes), maxFailedIndexes)
			}
			if c > completionsSoftLimit && s.BackoffLimitPerIndex != nil {
				if s.MaxFailedIndexes == nil {
					bad("completions %d above %d: maxFailedIndexes required", c, completionsSoftLimit)
				}
				if i32(s.Parallelism) > highCompletionsParallelism {
					bad("parallelism %d above %d with completions above %d", i32(s.Parallelism), highCompletionsParallelism, completionsSoftLimit)
				}
				if i32(s.MaxFailedIndexes) > highCompletionsFailedIndexes {
					bad("maxFailedIndexes %d above %d with completions above %d", i32(s.MaxFailedIndexes), highCompletionsFailedIndexes, completionsSoftLimit)
				}
			}
			if c > 0 {
				host := fmt.Sprintf("%s-%d", job.Name, c-1)
				if e := validation.IsDNS1123Label(host); len(e) > 0 {
					bad("pod hostname %s: %v", host, e)
				}
			}
		}
	}
	if e := validation.IsDNS1123Subdomain(job.Name); len(e) > 0 {
		bad("name %q: %v", job.Name, e)
	}
	switch rp := s.Template.Spec.RestartPolicy; {
	case rp != corev1.RestartPolicyNever && rp != corev1.RestartPolicyOnFailure:
		bad("restartPolicy %q: want Never or OnFailure", rp)
	case (s.PodFailurePolicy != nil || s.BackoffLimitPerIndex != nil) && rp != corev1.RestartPolicyNever:
		bad("restartPolicy %q with podFailurePolicy or backoffLimitPerIndex: want Never", rp)
	}
	if s.PodFailurePolicy != nil {
		for i, r := range s.PodFailurePolicy.Rules {
			if r.Action == batchv1.PodFailurePolicyActionFailIndex && s.BackoffLimitPerIndex == nil {
				bad("rule %d: FailIndex without backoffLimitPerIndex", i)
			}
		}
	}
	return errs
}

// restrictedErrors returns why the Pod Security admission would refuse
// the job's pods under the "restricted" profile.
func restrictedErrors(t *testing.T, job *batchv1.Job) []string {
	t.Helper()
	eval, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	pod := job.Spec.Template
	for _, r := range eval.EvaluatePod(api.LevelVersion{Level: api.LevelRestricted, Version: api.LatestVersion()}, &pod.ObjectMeta, &pod.Spec) {
		if !r.Allowed {
			errs = append(errs, r.ForbiddenReason+": "+r.ForbiddenDetail)
		}
	}
	return errs
}

func TestJobAPIRules(t *testing.T) {
	for _, path := range []string{"k8s/count-job.yaml", "k8s/merge-job.yaml"} {
		if errs := jobAPIErrors(readJob(t, path)); len(errs) > 0 {
			t.Errorf("%s: the API server would refuse it: %v", path, errs)
		}
	}
	// The checks can fail: each change below breaks one rule.
	p := func(v int32) *int32 { return &v }
	for name, change := range map[string]func(j *batchv1.Job){
		"high completions, no maxFailedIndexes": func(j *batchv1.Job) { j.Spec.Completions, j.Spec.MaxFailedIndexes = p(200_000), nil },
		"high completions, wide":                func(j *batchv1.Job) { j.Spec.Completions, j.Spec.Parallelism = p(200_000), p(20_000) },
		"high completions, many failures":       func(j *batchv1.Job) { j.Spec.Completions, j.Spec.MaxFailedIndexes = p(200_000), p(20_000) },
		"maxFailedIndexes above completions":    func(j *batchv1.Job) { j.Spec.MaxFailedIndexes = p(17) },
		"parallelism above 10^5":                func(j *batchv1.Job) { j.Spec.Parallelism = p(100_001) },
		"maxFailedIndexes alone":                func(j *batchv1.Job) { j.Spec.BackoffLimitPerIndex = nil },
		"hostname too long":                     func(j *batchv1.Job) { j.Name = strings.Repeat("q", 62) },
		"restart on failure":                    func(j *batchv1.Job) { j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure },
		"not indexed":                           func(j *batchv1.Job) { j.Spec.CompletionMode = nil },
	} {
		job := readJob(t, "k8s/count-job.yaml")
		change(job)
		if len(jobAPIErrors(job)) == 0 {
			t.Errorf("%s: accepted", name)
		}
	}
}

// jobsScript runs k8s/jobs.sh with args and decodes what it prints
// strictly, one Job per document.
func jobsScript(t *testing.T, args ...string) []*batchv1.Job {
	t.Helper()
	out, err := exec.Command("k8s/jobs.sh", args...).Output()
	if err != nil {
		t.Fatalf("k8s/jobs.sh %v: %v", args, err)
	}
	var jobs []*batchv1.Job
	for i, doc := range regexp.MustCompile(`(?m)^---\n`).Split(string(out), -1)[1:] {
		var job batchv1.Job
		if err := yaml.UnmarshalStrict([]byte(doc), &job); err != nil || job.Kind != "Job" || job.APIVersion != "batch/v1" {
			t.Fatalf("k8s/jobs.sh %v: document %d: %v\n%s", args, i, err, doc)
		}
		if errs := jobAPIErrors(&job); len(errs) > 0 {
			t.Errorf("k8s/jobs.sh %v: Job %s: the API server would refuse it: %v", args, job.Name, errs)
		}
		if errs := restrictedErrors(t, &job); len(errs) > 0 {
			t.Errorf("k8s/jobs.sh %v: Job %s: not admitted under restricted: %v", args, job.Name, errs)
		}
		jobs = append(jobs, &job)
	}
	return jobs
}

// TestJobsScript runs the Jobs k8s/jobs.sh writes for a join count of
// n = 12 in 16 shards, 6 a Job (three Jobs, the last of 4), as Kubernetes would,
// then the merge Job: it recounts, writes its record to the volume, and
// the record checks again. And the Jobs of n = 28's plan (2^24 shards in
// Jobs of 2^21) pass the API server's limits and cover every shard once,
// and every pod's memory is sized for its engine, n and K.
func TestJobsScript(t *testing.T) {
	bin := queensBinary(t)
	jobs := jobsScript(t, "12", "16", "6", "join")
	if len(jobs) != 4 {
		t.Fatalf("k8s/jobs.sh 12 16 6: %d Jobs, want 3 and the merge", len(jobs))
	}
	results := t.TempDir()
	for j, job := range jobs[:3] {
		c := onlyContainer(t, job)
		mount := resultsMount(t, job, c)
		flags := flagValues(c.Args)
		if flags["--engine"] != "join" || shardBase(c.Args) != strconv.Itoa(-6*j) || flags["--shard-count"] != "16" || job.Name != fmt.Sprintf("queens-n12-%d", j) {
			t.Errorf("Job %d: name %s, args %q", j, job.Name, c.Args)
		}
		for index := range int(*job.Spec.Completions) {
			env := podEnv(t, c, index)
			var args []string
			for _, a := range c.Args {
				args = append(args, onVolume(expand(t, a, env), mount, results))
			}
			if out, errOut, code := run(t, bin, args, "JOB_COMPLETION_INDEX="+strconv.Itoa(index)); code != 0 {
				t.Fatalf("Job %s pod %d: exit status %d\n%s%s", job.Name, index, code, out, errOut)
			}
		}
	}
	mc := onlyContainer(t, jobs[3])
	mount := resultsMount(t, jobs[3], mc)
	var margs []string
	for _, a := range mc.Args {
		margs = append(margs, onVolume(a, mount, results))
	}
	want, _ := board.Known(12)
	out, errOut, code := run(t, bin, margs)
	if code != 0 || !strings.HasPrefix(out, fmt.Sprintf("%d solutions (%d unique)\nmatches the published count for n = 12\nrecounted 16 of ", want.Total, want.Unique)) {
		t.Fatalf("merge Job: exit status %d\n%s%s", code, out, errOut)
	}
	checkRecord(t, bin, margs)

	// n = 28: eight Jobs of 2^21 shards, 10^4 pods at once each.
	jobs = jobsScript(t, "28", "16777216", "2097152")
	covered := 0
	for j, job := range jobs[:len(jobs)-1] {
		args := onlyContainer(t, job).Args
		if base, _ := strconv.Atoi(shardBase(args)); -base != covered || flagValues(args)["--shard-count"] != "16777216" {
			t.Errorf("Job %d: --shard-base %s after %d shards", j, shardBase(args), covered)
		}
		covered += int(*job.Spec.Completions)
	}
	if len(jobs) != 9 || covered != 1<<24 {
		t.Errorf("n = 28: %d Jobs covering %d shards, want 8 and the merge covering 2^24", len(jobs), covered)
	}
	// Memory: the merge of 2^24 lines measured 416 MiB of RSS on top of its
	// recount; a join piece from n = 23 up to 2 GiB a thread.
	for _, c := range []struct {
		args         []string
		count, merge int64 // MiB, at least
		countAtMost  int64
	}{
		{[]string{"28", "16777216", "2097152"}, 256, 256 + 416, 256},
		{[]string{"28", "16777216", "2097152", "join"}, 4 * 2048, 4*2048 + 416, 16384},
		{[]string{"22", "1024", "1024", "join"}, 4 * 480, 4*480 + 0, 4096},
		{[]string{"12", "16", "6", "join"}, 256, 256, 256},
	} {
		jobs := jobsScript(t, c.args...)
		for i, job := range jobs {
			res := onlyContainer(t, job).Resources
			limit, request := res.Limits.Memory().Value()>>20, res.Requests.Memory().Value()>>20
			want, most := c.count, c.countAtMost
			if i == len(jobs)-1 {
				want, most = c.merge, c.merge+1024
			}
			if limit < want || limit > most || request > limit {
				t.Errorf("jobs.sh %v: Job %s: memory request %d MiB, limit %d MiB; want a limit of %d to %d MiB", c.args, job.Name, request, limit, want, most)
			}
		}
	}
	for _, args := range [][]string{{}, {"0", "1", "1"}, {"20", "16", "17"}, {"20", "x", "1"}, {"20", "$(id)", "1"}, {"20", "16", "8", "gpu"},
		{"40", "16", "8"}, {"20", "99999999", "1"}, {"20", "100000", "1"}, {"20", "-16", "1"}} {
		cmd := exec.Command("k8s/jobs.sh", args...)
		out, err := cmd.CombinedOutput()
		if x, ok := err.(*exec.ExitError); !ok || x.ExitCode() != 2 || !strings.HasPrefix(string(out), "jobs.sh: ") {
			t.Errorf("k8s/jobs.sh %q: %v, %q; want exit status 2 and a message", args, err, out)
		}
	}
}

// shardBase returns the value of --shard-base=B in args, "" if none.
func shardBase(args []string) string {
	for _, a := range args {
		if b, ok := strings.CutPrefix(a, "--shard-base="); ok {
			return b
		}
	}
	return ""
}

// checkRecord checks that the merge of margs wrote its --record and that
// merge --check-record accepts it against the same lines.
func checkRecord(t *testing.T, bin string, margs []string) {
	t.Helper()
	record := ""
	var lines []string
	for i := 1; i < len(margs); i++ {
		switch {
		case margs[i-1] == "--record":
			record = margs[i]
		case strings.HasSuffix(margs[i], ".jsonl"):
			lines = append(lines, margs[i])
		}
	}
	if _, err := os.Stat(record); record == "" || err != nil || filepath.Dir(record) != filepath.Dir(lines[0]) {
		t.Fatalf("merge %q: no record written beside the results: %v", margs, err)
	}
	if out, errOut, code := run(t, bin, append([]string{"merge", "--check-record", record}, lines...)); code != 0 || !strings.Contains(out, "checks:") {
		t.Errorf("merge --check-record: exit status %d\n%s%s", code, out, errOut)
	}
}
