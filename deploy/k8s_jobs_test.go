package deploy

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

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
	for _, path := range []string{"k8s/count-job.yaml", "k8s/merge-job.yaml", "k8s/confirm-job.yaml"} {
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

// jobsScript runs k8s/jobs.sh with args and env and decodes what it prints
// strictly: for a count, the count's claim, then its Jobs; for confirm,
// the one Job (claim nil). Every Job must pass the API server's rules and
// the restricted profile.
func jobsScript(t *testing.T, env []string, args ...string) (*corev1.PersistentVolumeClaim, []*batchv1.Job) {
	t.Helper()
	cmd := exec.Command("k8s/jobs.sh", args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("k8s/jobs.sh %v: %v", args, err)
	}
	var claim *corev1.PersistentVolumeClaim
	var jobs []*batchv1.Job
	for i, doc := range regexp.MustCompile(`(?m)^---\n`).Split(string(out), -1)[1:] {
		if i == 0 && args[0] != "confirm" {
			claim = &corev1.PersistentVolumeClaim{}
			if err := yaml.UnmarshalStrict([]byte(doc), claim); err != nil || claim.Kind != "PersistentVolumeClaim" || claim.APIVersion != "v1" {
				t.Fatalf("k8s/jobs.sh %v: document 0: %v, want a PersistentVolumeClaim\n%s", args, err, doc)
			}
			continue
		}
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
	return claim, jobs
}

// claims maps each mount path of the job's container to the claim mounted
// there.
func claims(t *testing.T, job *batchv1.Job) map[string]string {
	t.Helper()
	byVolume := map[string]string{}
	for _, v := range job.Spec.Template.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			byVolume[v.Name] = v.PersistentVolumeClaim.ClaimName
		}
	}
	m := map[string]string{}
	for _, vm := range onlyContainer(t, job).VolumeMounts {
		if c, ok := byVolume[vm.Name]; ok && vm.SubPath == "" {
			m[strings.TrimSuffix(vm.MountPath, "/")] = c
		}
	}
	return m
}

// podArgs returns the arguments of pod index of the job as the kubelet
// gives them, $(VAR) expanded from the container's env, and every path
// under a claim's mount point moved to that claim's directory of volumes.
func podArgs(t *testing.T, job *batchv1.Job, index int, volumes map[string]string) []string {
	t.Helper()
	c := onlyContainer(t, job)
	env := map[string]string{}
	if job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == batchv1.IndexedCompletion {
		env = podEnv(t, c, index)
	}
	var args []string
	for _, a := range c.Args {
		a = expand(t, a, env)
		for mount, claim := range claims(t, job) {
			dir, ok := volumes[claim]
			if !ok {
				t.Fatalf("Job %s mounts claim %s, which no count has", job.Name, claim)
			}
			a = onVolume(a, mount, dir)
		}
		args = append(args, a)
	}
	return args
}

// runPods runs every pod of the Indexed Job job with queens, each with its
// JOB_COMPLETION_INDEX, and fails the test if one fails.
func runPods(t *testing.T, bin string, job *batchv1.Job, volumes map[string]string) {
	t.Helper()
	for index := range int(*job.Spec.Completions) {
		if out, errOut, code := run(t, bin, podArgs(t, job, index, volumes), "JOB_COMPLETION_INDEX="+strconv.Itoa(index)); code != 0 {
			t.Fatalf("Job %s pod %d: exit status %d\n%s%s", job.Name, index, code, out, errOut)
		}
	}
}

// TestJobsScript runs the two counts of a record as jobs.sh writes them,
// the pods as local processes: n = 12 in 16 shards, 6 a Job (three Jobs,
// the last of 4), by the constellations and by the join, each on its own
// volume, each merge Job recounting and writing its record there, which
// checks again; then the confirmation Job of jobs.sh confirm, which
// mounts both volumes and confirms the two records. No name or path of one
// count is the other's, at n = 12 or in n = 28's plan.
func TestJobsScript(t *testing.T) {
	bin := queensBinary(t)
	volumes := map[string]string{}
	names := map[string]string{} // every Job, claim and path of a count -> the count
	for _, engine := range []string{"constellations", "join"} {
		count := "n12-" + engine
		claim, jobs := jobsScript(t, nil, "12", "16", "6", engine)
		if claim.Name != "queens-"+count || len(claim.Spec.AccessModes) != 1 || claim.Spec.AccessModes[0] != corev1.ReadWriteMany {
			t.Errorf("claim %s %v: want queens-%s, ReadWriteMany", claim.Name, claim.Spec.AccessModes, count)
		}
		volumes[claim.Name] = t.TempDir()
		if len(jobs) != 4 {
			t.Fatalf("k8s/jobs.sh 12 16 6 %s: %d Jobs, want 3 and the merge", engine, len(jobs))
		}
		for j, job := range jobs[:3] {
			c := onlyContainer(t, job)
			flags := flagValues(c.Args)
			if flags["--engine"] != engine || shardBase(c.Args) != strconv.Itoa(-6*j) || flags["--shard-count"] != "16" || job.Name != fmt.Sprintf("queens-%s-%d", count, j) {
				t.Errorf("Job %d: name %s, args %q", j, job.Name, c.Args)
			}
			if m := claims(t, job); len(m) != 1 || m["/results/"+count] != claim.Name {
				t.Errorf("Job %s mounts %v, want its count's claim at /results/%s", job.Name, m, count)
			}
			for _, f := range []string{"--checkpoint", "-o"} {
				names[flags[f]] = count
			}
			names[job.Name] = count
			runPods(t, bin, job, volumes)
		}
		merge := jobs[3]
		margs := podArgs(t, merge, 0, volumes)
		if merge.Name != "queens-"+count+"-merge" || margs[len(margs)-1] != volumes[claim.Name] {
			t.Errorf("merge Job %s reads %s, want queens-%s-merge reading its count's volume", merge.Name, margs[len(margs)-1], count)
		}
		names[merge.Name], names[claim.Name], names[flagValues(onlyContainer(t, merge).Args)["--record"]] = count, count, count
		out, errOut, code := run(t, bin, margs)
		if code != 0 || !strings.HasPrefix(out, "14200 solutions (1787 unique)\nmatches the published count for n = 12\nrecounted 16 of ") {
			t.Fatalf("merge Job %s: exit status %d\n%s%s", merge.Name, code, out, errOut)
		}
		checkRecord(t, bin, margs)
	}
	_, confirm := jobsScript(t, nil, "confirm", "12", "16", "16")
	if len(confirm) != 1 || confirm[0].Name != "queens-n12-confirm" {
		t.Fatalf("k8s/jobs.sh confirm 12 16 16: %d Jobs, want queens-n12-confirm", len(confirm))
	}
	out, errOut, code := run(t, bin, podArgs(t, confirm[0], 0, volumes))
	if code != 0 || !strings.HasPrefix(out, "n = 12: 14200 solutions (1787 unique), confirmed by two independent engines: constellations (") {
		t.Errorf("confirmation Job: exit status %d\n%s%s", code, out, errOut)
	}

	// Issue 41's n = 28 plan twice, by each engine: the Jobs of 2^21 shards
	// cover every shard once, and no Job, claim or path is the other's.
	seen := map[string]string{}
	for _, engine := range []string{"constellations", "join"} {
		claim, jobs := jobsScript(t, nil, "28", "16777216", "2097152", engine)
		covered := 0
		own := []string{claim.Name}
		for j, job := range jobs[:len(jobs)-1] {
			args := onlyContainer(t, job).Args
			if base, _ := strconv.Atoi(shardBase(args)); -base != covered || flagValues(args)["--shard-count"] != "16777216" {
				t.Errorf("%s Job %d: --shard-base %s after %d shards", engine, j, shardBase(args), covered)
			}
			covered += int(*job.Spec.Completions)
			own = append(own, job.Name, flagValues(args)["-o"], flagValues(args)["--checkpoint"])
		}
		merge := jobs[len(jobs)-1]
		own = append(own, merge.Name, flagValues(onlyContainer(t, merge).Args)["--record"])
		if m := claims(t, merge); len(m) != 1 || m["/results/n28-"+engine] != claim.Name {
			t.Errorf("n = 28 %s: the merge Job mounts %v, want its count's volume alone", engine, m)
		}
		if len(jobs) != 9 || covered != 1<<24 {
			t.Errorf("n = 28 %s: %d Jobs covering %d shards, want 8 and the merge covering 2^24", engine, len(jobs), covered)
		}
		for _, name := range own {
			if other, ok := seen[name]; ok && other != engine {
				t.Errorf("n = 28: %s is both %s's and %s's", name, other, engine)
			}
			seen[name] = engine
		}
	}
}

// TestJobsScriptSizing: each pod asks for what it needs. A join pod's
// halves get 2 GiB a thread from n = 23, 8 GiB at 28 (480 MiB at 22), and the pod twice
// that (queens gives the halves at most half of what the process may use);
// a constellation pod 256Mi; a merge Job the CPUs, memory and deadline of
// its recount and its K lines (deploy/sizing.sh), CPUs being its --threads;
// a volume 1 GiB and 8 KiB a shard at least.
func TestJobsScriptSizing(t *testing.T) {
	for _, c := range []struct {
		args  []string
		share int64 // MiB a thread of --memory; 0: the constellations
	}{
		{[]string{"28", "16777216", "2097152"}, 0},
		{[]string{"28", "16777216", "2097152", "join"}, 8192},
		{[]string{"23", "128", "128", "join"}, 2048},
		{[]string{"22", "1024", "1024", "join"}, 480},
		{[]string{"12", "16", "6", "join"}, 20},
	} {
		claim, jobs := jobsScript(t, nil, c.args...)
		n, _ := strconv.Atoi(c.args[0])
		k, _ := strconv.Atoi(c.args[1])
		if storage := claim.Spec.Resources.Requests.Storage().Value() >> 20; storage < 1024+int64(k)*8>>10 {
			t.Errorf("jobs.sh %v: volume of %d MiB for %d shards", c.args, storage, k)
		}
		count := onlyContainer(t, jobs[0])
		threads, _ := strconv.ParseInt(flagValues(count.Args)["--threads"], 10, 64)
		limit, request := count.Resources.Limits.Memory().Value()>>20, count.Resources.Requests.Memory().Value()>>20
		if c.share == 0 {
			if limit != 256 || request > limit || flagValues(count.Args)["--memory"] != "" {
				t.Errorf("jobs.sh %v: constellation pod limit %d MiB, request %d, args %q; want 256Mi, no --memory", c.args, limit, request, count.Args)
			}
		} else {
			mem, err := strconv.ParseInt(strings.TrimSuffix(flagValues(count.Args)["--memory"], "MiB"), 10, 64)
			if err != nil || mem < threads*c.share || limit < 2*mem || limit > 2*mem+512 || request != limit {
				t.Errorf("jobs.sh %v: join pod --memory %d MiB on %d threads, limit %d, request %d; want %d MiB a thread and a limit of twice that",
					c.args, mem, threads, limit, request, c.share)
			}
		}
		merge := jobs[len(jobs)-1]
		mc := onlyContainer(t, merge)
		cpus := mc.Resources.Requests.Cpu()
		var wantCPUs, wantSecs, wantMem int64
		engine := "constellations"
		if len(c.args) == 4 {
			engine = c.args[3]
		}
		split := 0
		if engine == "constellations" && n >= 24 {
			split = 1 << (n - 16)
		}
		fmt.Sscan(sizing(t, "queens_merge", n, k, engine, split, 16, 64), &wantCPUs, &wantSecs, &wantMem)
		mlimit := mc.Resources.Limits.Memory().Value() >> 20
		recount, _ := strconv.ParseInt(sizing(t, "queens_count_memory", n, engine, cpus.Value()), 10, 64)
		deadline := int64(-1)
		if merge.Spec.ActiveDeadlineSeconds != nil {
			deadline = *merge.Spec.ActiveDeadlineSeconds
		}
		if flagValues(mc.Args)["--threads"] != strconv.FormatInt(cpus.Value(), 10) || cpus.Value() != wantCPUs ||
			deadline != wantSecs || mlimit != wantMem || mlimit < recount+30+int64(k)*24>>20 {
			t.Errorf("jobs.sh %v: merge Job %v CPUs, --threads %s, deadline %d s, %d MiB; want %d CPUs, %d s, %d MiB (above the measured 30 MiB and 24 bytes a line, and a count pod's on as many threads)",
				c.args, cpus, flagValues(mc.Args)["--threads"], deadline, mlimit, wantCPUs, wantSecs, wantMem)
		}
	}
	claim, _ := jobsScript(t, []string{"QUEENS_STORAGE_CLASS=fast-rwx"}, "12", "16", "6")
	if claim.Spec.StorageClassName == nil || *claim.Spec.StorageClassName != "fast-rwx" {
		t.Errorf("QUEENS_STORAGE_CLASS=fast-rwx: storage class %v", claim.Spec.StorageClassName)
	}
}

// TestJobsScriptRefuses: a board the engine cannot count (the join counts
// n <= 28: jobs.sh 29 4 4 join wrote Jobs whose every pod failed), and
// every other bad argument or setting, is one line and exit status 2.
func TestJobsScriptRefuses(t *testing.T) {
	for _, c := range []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"29", "4", "4", "join"}, "jobs.sh: N=29: the join engine counts n <= 28"},
		{"", []string{"33", "4", "4"}, "jobs.sh: N=33: the constellations engine counts n <= 32"},
		{"", []string{"confirm", "29", "4", "4"}, "jobs.sh: N=29: the join engine counts n <= 28"},
		{"", []string{"confirm", "12", "4"}, "jobs.sh: usage"},
		{"", []string{}, "jobs.sh: usage"},
		{"", []string{"0", "1", "1"}, "jobs.sh: N=0: want"},
		{"", []string{"012", "1", "1"}, "jobs.sh: N=012: want"},
		{"", []string{"20", "16", "17"}, "jobs.sh: C=17: want a whole number from 1 to 16"},
		{"", []string{"20", "x", "1"}, "jobs.sh: K=x: want"},
		{"", []string{"20", "$(id)", "1"}, "jobs.sh: K=$(id): want"},
		{"", []string{"20", "16", "8", "gpu"}, "jobs.sh: ENGINE=gpu: want constellations or join"},
		{"", []string{"20", "99999999", "1"}, "jobs.sh: K=99999999: want"},
		{"", []string{"20", "100000", "1"}, "jobs.sh: 100000 Jobs: want at most 1000"},
		{"", []string{"20", "-16", "1"}, "jobs.sh: K=-16: want"},
		{"QUEENS_SPLIT=1", []string{"20", "16", "8"}, "jobs.sh: QUEENS_SPLIT=1: want auto, 0 or 2 to 65536"},
		{"QUEENS_SPLIT=1", []string{"confirm", "20", "16", "8"}, "jobs.sh: QUEENS_SPLIT=1: want"},
		{"QUEENS_VERIFY=99%", []string{"20", "16", "8"}, "jobs.sh: QUEENS_VERIFY=99%: want a whole number of pieces"},
		{"QUEENS_MERGE_CPUS=0", []string{"20", "16", "8"}, "jobs.sh: QUEENS_MERGE_CPUS=0: want"},
		{"QUEENS_STORAGE_CLASS=Fast_Disk", []string{"20", "16", "8"}, "jobs.sh: QUEENS_STORAGE_CLASS=Fast_Disk: not a storage class name"},
		{"QUEENS_IMAGE=a b", []string{"20", "16", "8"}, "jobs.sh: QUEENS_IMAGE=a b: not an image name"},
	} {
		cmd := exec.Command("k8s/jobs.sh", c.args...)
		cmd.Env = append(os.Environ(), c.env)
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		if x, ok := err.(*exec.ExitError); !ok || x.ExitCode() != 2 || o.Len() != 0 || !strings.HasPrefix(e.String(), c.want) || strings.Count(e.String(), "\n") != 1 {
			t.Errorf("%s k8s/jobs.sh %q: %v, %q%q; want exit status 2 and %s", c.env, c.args, err, o.String(), e.String(), c.want)
		}
	}
}

// TestTemplatesAreJobsOutput: the manifests of deploy/k8s are what jobs.sh
// writes for their own plan (n = 20 in 16 shards, one Job; the
// confirmation of 16 and 16), so that they never drift from the script.
func TestTemplatesAreJobsOutput(t *testing.T) {
	decode := func(doc []byte) any {
		var v any
		if err := yaml.Unmarshal(doc, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	docs := func(args ...string) [][]byte {
		out, err := exec.Command("k8s/jobs.sh", args...).Output()
		if err != nil {
			t.Fatalf("k8s/jobs.sh %v: %v", args, err)
		}
		var d [][]byte
		for _, doc := range regexp.MustCompile(`(?m)^---\n`).Split(string(out), -1)[1:] {
			d = append(d, []byte(doc))
		}
		return d
	}
	count, confirm := docs("20", "16", "16"), docs("confirm", "20", "16", "16")
	for i, c := range []struct {
		file string
		doc  []byte
	}{{"k8s/results-claim.yaml", count[0]}, {"k8s/count-job.yaml", count[1]}, {"k8s/merge-job.yaml", count[2]}, {"k8s/confirm-job.yaml", confirm[0]}} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(decode(data), decode(c.doc)) {
			t.Errorf("%d: %s is not what jobs.sh writes for its plan:\n%s", i, c.file, c.doc)
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

// checkRecord checks that the merge of margs (merge ... --record FILE DIR)
// wrote its record into the directory of the lines it read, and that merge
// --check-record accepts it against them.
func checkRecord(t *testing.T, bin string, margs []string) {
	t.Helper()
	record, dir := flagValues(margs)["--record"], margs[len(margs)-1]
	if _, err := os.Stat(record); record == "" || err != nil || filepath.Dir(record) != dir {
		t.Fatalf("merge %q: no record written beside the results: %v", margs, err)
	}
	if out, errOut, code := run(t, bin, []string{"merge", "--check-record", record, dir}); code != 0 || !strings.Contains(out, "checks:") {
		t.Errorf("merge --check-record: exit status %d\n%s%s", code, out, errOut)
	}
}

// TestDocsTwoCountsKubernetes runs docs/scale.md's two counts side by side
// on Kubernetes as printed, kubectl apply being every pod of the Jobs run
// as a local process (each claim a directory) and kubectl logs the output
// of the Job's pod, which must be what the page shows (its /results paths
// those of the pod).
func TestDocsTwoCountsKubernetes(t *testing.T) {
	bin := queensBinary(t)
	data, err := os.ReadFile("../docs/scale.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n### Two counts side by side on Kubernetes\n")
	if !ok {
		t.Fatal("docs/scale.md: no section Two counts side by side on Kubernetes")
	}
	var block []string
	for _, line := range strings.Split(section, "\n") {
		if l, ok := strings.CutPrefix(line, "    "); ok {
			block = append(block, l)
		} else if len(block) > 0 {
			break
		}
	}
	volumes, logs := map[string]string{}, map[string]string{}
	apply := regexp.MustCompile(`^deploy/k8s/jobs\.sh ((?:\w+ )+)\| kubectl apply -f -$`)
	ran := 0
	for i := 0; i < len(block); i++ {
		line := block[i]
		switch m := apply.FindStringSubmatch(line); {
		case strings.HasPrefix(line, "#"):
		case m != nil:
			claim, jobs := jobsScript(t, nil, strings.Fields(m[1])...)
			if claim != nil {
				volumes[claim.Name] = t.TempDir()
			}
			for _, job := range jobs {
				if job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == batchv1.IndexedCompletion {
					runPods(t, bin, job, volumes)
					continue
				}
				args := podArgs(t, job, 0, volumes)
				out, errOut, code := run(t, bin, args)
				if code != 0 {
					t.Fatalf("%s: Job %s: exit status %d\n%s%s", line, job.Name, code, out, errOut)
				}
				for mount, claim := range claims(t, job) {
					out = strings.ReplaceAll(out, volumes[claim], mount)
				}
				logs[job.Name] = out
			}
			ran++
		case strings.HasPrefix(line, "kubectl logs job/"):
			name := strings.TrimPrefix(line, "kubectl logs job/")
			want := strings.Join(block[i+1:], "\n") + "\n"
			if anySeed(logs[name]) != anySeed(want) {
				t.Errorf("docs/scale.md: %s prints\n%s\nthe page shows\n%s", line, logs[name], want)
			}
			i = len(block)
			ran++
		default:
			t.Fatalf("docs/scale.md: %q: the test does not know how to run it", line)
		}
	}
	if ran != 4 {
		t.Errorf("docs/scale.md: ran %d commands of the Kubernetes two counts, want 4", ran)
	}
}
