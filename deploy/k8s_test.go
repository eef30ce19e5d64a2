package deploy

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/board"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// readJob decodes a manifest strictly: an unknown or duplicated field (a
// typo, or a field of another API version) is an error, as kubectl apply
// --validate=strict would make it.
func readJob(t *testing.T, path string) *batchv1.Job {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict(data, &job); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if job.APIVersion != "batch/v1" || job.Kind != "Job" {
		t.Fatalf("%s: apiVersion %q kind %q, want batch/v1 Job", path, job.APIVersion, job.Kind)
	}
	if job.Name == "" {
		t.Fatalf("%s: no metadata.name", path)
	}
	return &job
}

// onlyContainer returns the one container of the job's pods.
func onlyContainer(t *testing.T, job *batchv1.Job) corev1.Container {
	t.Helper()
	spec := job.Spec.Template.Spec
	if len(spec.Containers) != 1 || len(spec.InitContainers) != 0 {
		t.Fatalf("job %s: %d containers and %d init containers, want one container", job.Name, len(spec.Containers), len(spec.InitContainers))
	}
	return spec.Containers[0]
}

func TestReadJobStrict(t *testing.T) {
	// The strict decoder is what makes the manifest checks worth anything:
	// it must refuse a misspelt field and a duplicated one.
	good, err := os.ReadFile("k8s/count-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]string{
		"typo":      strings.Replace(string(good), "backoffLimitPerIndex:", "backoffLimitPerIdx:", 1),
		"duplicate": strings.Replace(string(good), "  parallelism:", "  completions: 3\n  parallelism:", 1),
	} {
		if bad == string(good) {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		var job batchv1.Job
		if err := yaml.UnmarshalStrict([]byte(bad), &job); err == nil {
			t.Errorf("%s: strict decoding accepted it", name)
		}
	}
}

func TestCountJobManifest(t *testing.T) {
	job := readJob(t, "k8s/count-job.yaml")
	s := job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("completionMode %v, want Indexed (the pods take their shard from JOB_COMPLETION_INDEX)", s.CompletionMode)
	}
	if s.Completions == nil || *s.Completions < 1 {
		t.Fatalf("completions %v, want K >= 1", s.Completions)
	}
	if s.Parallelism == nil || *s.Parallelism < 1 || *s.Parallelism > *s.Completions {
		t.Errorf("parallelism %v, want 1..%d", s.Parallelism, *s.Completions)
	}
	if s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex < 1 {
		t.Errorf("backoffLimitPerIndex %v, want a retry per shard", s.BackoffLimitPerIndex)
	}
	if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %q, want Never (podFailurePolicy requires it)", s.Template.Spec.RestartPolicy)
	}
	c := onlyContainer(t, job)

	// The pod failure policy: exit status 2 (the input is wrong) fails
	// its shard for good, never the Job of up to 2^21 shards; 75 (this
	// shard cannot run here) is retried within backoffLimitPerIndex; a
	// disruption is ignored. Each exit status is looked up as the Job
	// controller does: the first rule that matches.
	if s.PodFailurePolicy == nil {
		t.Fatal("no podFailurePolicy")
	}
	action := func(code int32) batchv1.PodFailurePolicyAction {
		for _, r := range s.PodFailurePolicy.Rules {
			e := r.OnExitCodes
			if e == nil || e.ContainerName == nil || *e.ContainerName != c.Name {
				continue
			}
			if in := slices.Contains(e.Values, code); in == (e.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn) {
				return r.Action
			}
		}
		return batchv1.PodFailurePolicyActionCount // no rule: counted against backoffLimitPerIndex
	}
	ignoreDisruption := false
	for i, r := range s.PodFailurePolicy.Rules {
		if (r.OnExitCodes == nil) == (len(r.OnPodConditions) == 0) {
			t.Errorf("rule %d: want exactly one of onExitCodes and onPodConditions", i)
			continue
		}
		if e := r.OnExitCodes; e != nil {
			if e.ContainerName == nil || *e.ContainerName != c.Name {
				t.Errorf("rule %d: containerName %v, want %q", i, e.ContainerName, c.Name)
			}
			if slices.Contains(e.Values, 0) {
				t.Errorf("rule %d: exit code 0 in a failure rule", i)
			}
			if r.Action == batchv1.PodFailurePolicyActionFailJob {
				t.Errorf("rule %d: FailJob on %v: one shard's status would fail every shard of the Job", i, e.Values)
			}
		}
		for _, p := range r.OnPodConditions {
			if p.Type == corev1.DisruptionTarget && p.Status == corev1.ConditionTrue && r.Action == batchv1.PodFailurePolicyActionIgnore {
				ignoreDisruption = true
			}
		}
	}
	for code, want := range map[int32]batchv1.PodFailurePolicyAction{2: batchv1.PodFailurePolicyActionFailIndex, 75: batchv1.PodFailurePolicyActionCount,
		1: batchv1.PodFailurePolicyActionCount, 137: batchv1.PodFailurePolicyActionCount} {
		if got := action(code); got != want {
			t.Errorf("podFailurePolicy: exit status %d: %s, want %s", code, got, want)
		}
	}
	if !ignoreDisruption {
		t.Error("podFailurePolicy: no rule Ignore on condition DisruptionTarget=True")
	}
	if m := s.MaxFailedIndexes; m == nil || *m > 100 {
		t.Errorf("maxFailedIndexes %v: want at most 100 (a Job whose every shard fails stops early)", m)
	}

	// The image and the pod's security.
	if c.Image == "" || strings.HasSuffix(c.Image, ":latest") || !strings.Contains(c.Image, ":") {
		t.Errorf("image %q: want a fixed tag (every shard must run the same build)", c.Image)
	}
	if len(c.Command) != 0 {
		t.Errorf("command %q: want the image's entrypoint (the image has no shell)", c.Command)
	}
	checkNonRoot(t, job)

	// The arguments: one shard of K = completions, --threads = the CPUs
	// requested, result and checkpoint on the mounted volume.
	flags := flagValues(c.Args)
	if c.Args[0] != "backtrack" || flags["--count"] != "" || flags["--json"] != "" {
		t.Errorf("args %q: want backtrack ... --count --json", c.Args)
	}
	if got, want := flags["--shard-count"], strconv.Itoa(int(*s.Completions)); got != want {
		t.Errorf("--shard-count %q, want completions %s", got, want)
	}
	if _, ok := flags["--shard"]; ok {
		t.Errorf("args %q: --shard set; the index must come from JOB_COMPLETION_INDEX", c.Args)
	}
	cpu := c.Resources.Requests[corev1.ResourceCPU]
	if got := flags["--threads"]; got != strconv.FormatInt(cpu.Value(), 10) || cpu.MilliValue()%1000 != 0 {
		t.Errorf("--threads %q, cpu request %s: want equal whole CPUs", got, cpu.String())
	}
	if _, ok := c.Resources.Limits[corev1.ResourceCPU]; ok {
		t.Error("a cpu limit throttles the counter; request CPUs instead")
	}
	mount := resultsMount(t, job, c)
	for _, f := range []string{"--checkpoint", "-o"} {
		if !strings.HasPrefix(flags[f], mount+"/") || !strings.Contains(flags[f], "$(JOB_COMPLETION_INDEX)") {
			t.Errorf("%s %q: want a file under %s named by $(JOB_COMPLETION_INDEX)", f, flags[f], mount)
		}
	}
}

func TestMergeJobManifest(t *testing.T) {
	count, merge := readJob(t, "k8s/count-job.yaml"), readJob(t, "k8s/merge-job.yaml")
	cc, mc := onlyContainer(t, count), onlyContainer(t, merge)
	if mc.Image != cc.Image {
		t.Errorf("merge image %q, count image %q: want the same build", mc.Image, cc.Image)
	}
	if merge.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %q, want Never", merge.Spec.Template.Spec.RestartPolicy)
	}
	if merge.Spec.CompletionMode != nil && *merge.Spec.CompletionMode == batchv1.IndexedCompletion {
		t.Error("the merge is one pod, not an Indexed Job")
	}
	if len(mc.Args) < 2 || mc.Args[0] != "merge" || len(mc.Command) != 0 {
		t.Errorf("command %q args %q: want the entrypoint with merge FILE...", mc.Command, mc.Args)
	}
	checkNonRoot(t, merge)
	cm, mm := resultsMount(t, count, cc), resultsMount(t, merge, mc)
	if cm != mm {
		t.Errorf("results mounted at %s in the count, %s in the merge", cm, mm)
	}
	// The merge reads its count's volume, which holds that count's lines
	// alone, so it never needs a list of K files.
	if mc.Args[len(mc.Args)-1] != mm {
		t.Errorf("merge args %q: want the count's volume, %s, last", mc.Args, mm)
	}
	claim := func(j *batchv1.Job) string {
		for _, v := range j.Spec.Template.Spec.Volumes {
			if v.PersistentVolumeClaim != nil {
				return v.PersistentVolumeClaim.ClaimName
			}
		}
		return ""
	}
	if claim(count) == "" || claim(count) != claim(merge) {
		t.Errorf("claims %q and %q: want one shared volume", claim(count), claim(merge))
	}
}

// TestJobsRunAsWritten runs the containers' arguments as Kubernetes would
// (each pod with its JOB_COMPLETION_INDEX, $(JOB_COMPLETION_INDEX) expanded,
// the volume a directory here) for a small n, then the merge job's, and
// checks the merged count against the published table. It checks that the
// flags exist and parse, that the count's files are the merge's, and that a
// retried pod resumes from its checkpoint.
func TestJobsRunAsWritten(t *testing.T) {
	bin := queensBinary(t)
	count, merge := readJob(t, "k8s/count-job.yaml"), readJob(t, "k8s/merge-job.yaml")
	cc, mc := onlyContainer(t, count), onlyContainer(t, merge)
	mount := resultsMount(t, count, cc)
	results := t.TempDir()
	const n = 10 // the manifests count a bigger n; the flow is the same
	want, _ := board.Known(n)

	countArgs := func(index int) []string {
		env := podEnv(t, cc, index)
		var args []string
		for i, a := range cc.Args {
			if i > 0 && cc.Args[i-1] == "-n" {
				a = strconv.Itoa(n)
			}
			args = append(args, onVolume(expand(t, a, env), mount, results))
		}
		return args
	}
	k := int(*count.Spec.Completions)
	for index := range k {
		out, errOut, code := run(t, bin, countArgs(index), "JOB_COMPLETION_INDEX="+strconv.Itoa(index))
		if code != 0 {
			t.Fatalf("pod %d: exit status %d\n%s%s", index, code, out, errOut)
		}
	}
	// A pod retried after it finished (say its node went away before the Job
	// saw it succeed) finds no checkpoint (a written line removes it: spent),
	// counts again and writes the same line.
	line := filepath.Join(results, "j0-3.jsonl")
	if cc.Args[len(cc.Args)-1] != mount+"/j$(JOB)-$(JOB_COMPLETION_INDEX).jsonl" {
		t.Fatalf("result file %q: the test expects %s/j$(JOB)-$(JOB_COMPLETION_INDEX).jsonl", cc.Args[len(cc.Args)-1], mount)
	}
	first, err := os.ReadFile(line)
	if err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run(t, bin, countArgs(3), "JOB_COMPLETION_INDEX=3")
	if code != 0 || !strings.Contains(errOut, `"resumed":0,`) {
		t.Errorf("retried pod 3: exit status %d, stats %s; want a count from the start", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(results, "j0-3.ckpt")); !os.IsNotExist(err) {
		t.Errorf("pod 3's checkpoint after its line was written: %v; want it removed", err)
	}
	if again, _ := os.ReadFile(line); shardFields(t, again) != shardFields(t, first) {
		t.Errorf("retried pod 3 wrote\n%s\nfirst\n%s", again, first)
	}
	// Without the index, or with one out of range, queens exits 2, which
	// the pod failure policy turns into a failed job.
	if _, _, code := run(t, bin, countArgs(0)); code != 2 {
		t.Errorf("no JOB_COMPLETION_INDEX: exit status %d, want 2", code)
	}
	if _, _, code := run(t, bin, countArgs(k), "JOB_COMPLETION_INDEX="+strconv.Itoa(k)); code != 2 {
		t.Errorf("JOB_COMPLETION_INDEX=%d of %d: exit status %d, want 2", k, k, code)
	}

	var margs []string
	for _, a := range mc.Args {
		margs = append(margs, onVolume(a, mount, results))
	}
	out, errOut, code := run(t, bin, margs)
	wantOut := fmt.Sprintf("%d solutions (%d unique)\nmatches the published count for n = %d\nrecounted 16 of ", want.Total, want.Unique, n)
	if code != 0 || !strings.HasPrefix(out, wantOut) {
		t.Errorf("merge job: exit status %d, output\n%s%s\nwant\n%s...", code, out, errOut, wantOut)
	}
	checkRecord(t, bin, margs)
	// And the merge job refuses results where a shard is missing (here
	// replaced by a copy of another; a file that cannot be read is exit
	// status 2).
	four, err := os.ReadFile(filepath.Join(results, "j0-4.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(results, "j0-5.jsonl"), four, 0o644); err != nil {
		t.Fatal(err)
	}
	// The same result twice is a confirmation; the shard it replaced is
	// missing, and merge names it as a rerun takes it.
	if _, errOut, code := run(t, bin, margs); code != 1 || !strings.Contains(errOut, "missing shard: 1 of 16 shards absent (0-based: 5") {
		t.Errorf("merge job with shard 4 twice and 5 gone: exit status %d, want 1 and missing shard 5\n%s", code, errOut)
	}
}

// completionIndex is the annotation the Job controller sets on each pod of
// an Indexed Job.
const completionIndex = "metadata.annotations['batch.kubernetes.io/job-completion-index']"

// podEnv returns the environment the container of pod index declares; a
// value taken from elsewhere than the completion index fails the test.
func podEnv(t *testing.T, c corev1.Container, index int) map[string]string {
	t.Helper()
	env := map[string]string{}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = expand(t, e.Value, env)
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == completionIndex:
			env[e.Name] = strconv.Itoa(index)
		default:
			t.Fatalf("env %s: a source the test does not know", e.Name)
		}
	}
	if env["JOB_COMPLETION_INDEX"] != strconv.Itoa(index) {
		t.Fatalf("env: JOB_COMPLETION_INDEX is not the completion index")
	}
	return env
}

// expand expands $(NAME) in s the way the kubelet does in a container's
// args: a defined NAME is replaced and $$ is a $. An undefined one would
// stay as it is in the pod, which here fails the test.
func expand(t *testing.T, s string, env map[string]string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i:], ')')
			if end < 0 {
				t.Fatalf("%q: $( without )", s)
			}
			v, ok := env[s[i+2:i+end]]
			if !ok {
				t.Fatalf("%q: $(%s) is not defined in the container's env", s, s[i+2:i+end])
			}
			b.WriteString(v)
			i += end
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func TestExpand(t *testing.T) {
	env := map[string]string{"I": "7"}
	for in, want := range map[string]string{"/r/n-$(I).ckpt": "/r/n-7.ckpt", "$$(I)": "$(I)", "a$b$": "a$b$", "$(I)$(I)": "77"} {
		if got := expand(t, in, env); got != want {
			t.Errorf("expand(%q) = %q, want %q", in, got, want)
		}
	}
}

// shardFields is a shard line less its timing and checksum, which differ
// between runs of the same shard.
func shardFields(t *testing.T, line []byte) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("shard line %q: %v", line, err)
	}
	if m["kind"] != "queens-shard" {
		t.Fatalf("shard line %q: not a shard result", line)
	}
	for _, f := range []string{"elapsed", "checksum", "start", "host"} {
		delete(m, f)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile("k8s/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	module, goVersion := goMod(t)
	b, err := parseDockerBuild(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(b.env, "CGO_ENABLED=0") {
		t.Errorf("go build env %q: want CGO_ENABLED=0 (a static binary for a distroless image)", b.env)
	}
	if pkg := b.args[len(b.args)-1]; pkg != module {
		t.Errorf("go build %s, want the module's main package %s", pkg, module)
	}
	out := b.args[b.out]

	var stages []string // FROM lines
	var user, entrypoint, copied string
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch strings.ToUpper(f[0]) {
		case "FROM":
			stages = append(stages, strings.Join(f[1:], " "))
		case "USER":
			user = f[1]
		case "ENTRYPOINT":
			entrypoint = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))
		case "COPY":
			if len(f) == 4 && f[1] == "--from=build" && f[2] == out {
				copied = f[3]
			}
		}
	}
	if len(stages) != 2 {
		t.Fatalf("stages %q: want a build stage and a runtime stage", stages)
	}
	m := regexp.MustCompile(`^golang:(\d+\.\d+(?:\.\d+)?)\S* AS build$`).FindStringSubmatch(stages[0])
	if m == nil {
		t.Fatalf("build stage %q: want FROM golang:VERSION AS build", stages[0])
	} else if !versionAtLeast(m[1], goVersion) {
		t.Errorf("build image Go %s is older than go.mod's go %s", m[1], goVersion)
	}
	runtime := stages[1]
	if runtime != "scratch" && !strings.HasPrefix(runtime, "gcr.io/distroless/static") {
		t.Errorf("runtime stage %q: want scratch or distroless static", runtime)
	}
	if copied == "" {
		t.Fatalf("no COPY --from=build %s into the runtime stage", out)
	}
	if entrypoint != fmt.Sprintf("[%q]", copied) {
		t.Errorf("ENTRYPOINT %s, want [%q] (exec form: there is no shell)", entrypoint, copied)
	}
	uid, _, _ := strings.Cut(user, ":")
	if id, err := strconv.Atoi(uid); err != nil || id == 0 {
		t.Errorf("USER %q: want a numeric non-root user (runAsNonRoot checks numbers)", user)
	}
	for _, path := range []string{"k8s/count-job.yaml", "k8s/merge-job.yaml", "k8s/confirm-job.yaml"} {
		job := readJob(t, path)
		if sc := job.Spec.Template.Spec.SecurityContext; sc != nil && sc.RunAsUser != nil && strconv.FormatInt(*sc.RunAsUser, 10) != uid {
			t.Errorf("%s: runAsUser %d, image USER %s", path, *sc.RunAsUser, user)
		}
	}
	ignore, err := os.ReadFile("k8s/Dockerfile.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(strings.Fields(string(ignore)), ".git") || !slices.Contains(b.args, "-buildvcs=false") {
		t.Error("the build context leaves out .git, so go build needs -buildvcs=false")
	}
}

// versionAtLeast reports whether Go version a (1.26 or 1.26.8) is at least b.
func versionAtLeast(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := range max(len(pa), len(pb)) {
		x, y := 0, 0
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		} else {
			return len(pa) == 2 // golang:1.26 is the newest 1.26.x
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x > y
		}
	}
	return true
}

func TestVersionAtLeast(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"1.26.8", "1.26.8", true}, {"1.26.9", "1.26.8", true}, {"1.26.7", "1.26.8", false},
		{"1.27", "1.26.8", true}, {"1.25.10", "1.26", false}, {"1.26", "1.26.8", true},
	} {
		if got := versionAtLeast(c.a, c.b); got != c.want {
			t.Errorf("versionAtLeast(%s, %s) = %v", c.a, c.b, got)
		}
	}
}

// checkNonRoot checks that the job's pods run as a non-root user without
// privileges.
func checkNonRoot(t *testing.T, job *batchv1.Job) {
	t.Helper()
	sc := job.Spec.Template.Spec.SecurityContext
	if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
		t.Errorf("job %s: want runAsNonRoot and a non-zero runAsUser", job.Name)
	}
	c := onlyContainer(t, job)
	if c.SecurityContext == nil || c.SecurityContext.AllowPrivilegeEscalation == nil || *c.SecurityContext.AllowPrivilegeEscalation {
		t.Errorf("job %s: want allowPrivilegeEscalation: false", job.Name)
	}
}

// resultsMount returns where the container mounts the job's persistent
// volume.
func resultsMount(t *testing.T, job *batchv1.Job, c corev1.Container) string {
	t.Helper()
	for _, v := range job.Spec.Template.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		for _, m := range c.VolumeMounts {
			if m.Name == v.Name && m.SubPath == "" {
				return strings.TrimSuffix(m.MountPath, "/")
			}
		}
	}
	t.Fatalf("job %s: no persistent volume mounted", job.Name)
	return ""
}

// flagValues maps each flag of args to its value ("" for a boolean flag).
func flagValues(args []string) map[string]string {
	m := map[string]string{}
	for i := 0; i < len(args); i++ {
		if !strings.HasPrefix(args[i], "-") {
			continue
		}
		if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			m[args[i]] = args[i+1]
			i++
		} else {
			m[args[i]] = ""
		}
	}
	return m
}

// onVolume moves the mount point, or a path under it, to dir, or the same
// path under dir.
func onVolume(arg, mount, dir string) string {
	if arg == mount {
		return dir
	}
	if rest, ok := strings.CutPrefix(arg, mount+"/"); ok {
		return filepath.Join(dir, rest)
	}
	return arg
}

// run runs queens with args in an environment without the batch engines'
// variables (the test may itself run under Slurm), plus env; it returns
// stdout, stderr and the exit status.
func run(t *testing.T, bin string, args []string, env ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "SLURM_") && !strings.HasPrefix(e, "JOB_COMPLETION_INDEX=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if x, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), x.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), 0
}
