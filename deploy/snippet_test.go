package deploy

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsShowTheFiles checks that docs/scale.md shows slurm/count.sbatch
// and k8s/count-job.yaml as they are: its job array is this file, not a
// copy that drifts.
func TestDocsShowTheFiles(t *testing.T) {
	for _, doc := range []string{"../docs/scale.md"} {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		blocks := map[string]bool{}
		for _, m := range regexp.MustCompile("(?ms)^```[a-z]*\n(.*?)^```$").FindAllStringSubmatch(string(data), -1) {
			blocks[m[1]] = true
		}
		for _, file := range []string{"slurm/count.sbatch", "k8s/count-job.yaml"} {
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !blocks[string(want)] {
				t.Errorf("%s: no fenced block is deploy/%s as it is", doc, file)
			}
		}
	}
}

// TestSbatchDirectives checks what the end-to-end test cannot see on a
// one-node cluster: a task is requeued on node failure (Slurm's default
// JobRequeue may be 0), and its log survives the requeue.
func TestSbatchDirectives(t *testing.T) {
	data, err := os.ReadFile("slurm/count.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"--requeue", "--open-mode=append", "--array=0-", "--mem="} {
		if !regexp.MustCompile(`(?m)^#SBATCH ` + regexp.QuoteMeta(d)).Match(data) {
			t.Errorf("count.sbatch: no #SBATCH %s", d)
		}
	}
	for _, f := range []string{"--checkpoint", `--shard "$SLURM_ARRAY_TASK_ID/$shards"`, "--json"} {
		if !strings.Contains(string(data), f) {
			t.Errorf("count.sbatch: no %s", f)
		}
	}
}

// TestCountSbatchDirect runs slurm/count.sbatch as one task of an array
// would, without Slurm (its environment set by hand, squeue and scontrol
// faked): the shard's files are named by the shard, --engine is passed on,
// the submission file records the array, and merge prints from it the
// command that counts the missing shards with the array's settings. A
// squeue that prints garbage spoils the file, which merge then ignores,
// saying so.
func TestCountSbatchDirect(t *testing.T) {
	bin := queensBinary(t)
	for _, c := range []struct{ name, limit, want, note string }{
		{"good", "1-00:00:00", `(?m)(?:resubmit them: |^)QUEENS=\S+/queens QUEENS_N=12 QUEENS_SHARDS=4 QUEENS_ENGINE=join QUEENS_SHARD_BASE=1 QUEENS_PARTS=\S+/p ` +
			`sbatch --array=1,2,4 --cpus-per-task=1 --time=1-00:00:00 --partition=batch --account=nq /x/count.sbatch$`, ""},
		{"garbage", "\x1b[2J$(reboot)", `(?m)(?:resubmit them: |^)QUEENS_N=12 QUEENS_SHARDS=4 QUEENS_ENGINE=join QUEENS_PARTS=\S+/p sbatch --array=0,1,3 deploy/slurm/count.sbatch( |$)`,
			`\S+/p/submission ignored: line \d+: time=.*: want \[D-\]HH:MM:SS\)$`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			env, _ := fakeSlurm(t, "FAKESLURM_TIME="+c.limit, "FAKESLURM_SCRIPT=/x/count.sbatch", "QUEENS="+bin, "QUEENS_N=12", "QUEENS_SHARDS=4",
				"QUEENS_SHARD_BASE=1", "QUEENS_ENGINE=join", "QUEENS_PARTS="+filepath.Join(dir, "p"), "SLURM_JOB_ID=77", "SLURM_ARRAY_TASK_ID=3",
				"SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=4", "SLURM_CPUS_PER_TASK=1", "SLURM_JOB_PARTITION=batch", "SLURM_JOB_ACCOUNT=nq")
			if out, errOut, code := runScript(t, dir, env, "slurm/count.sbatch"); code != 0 {
				t.Fatalf("count.sbatch: exit status %d\n%s%s", code, out, errOut)
			}
			line := readLog(t, dir, "p/2.jsonl") // task 3 less base 1
			if !strings.Contains(line, `"shard":2,"shards":4,"scheme":"join-parts-3","engine":"join"`) {
				t.Errorf("p/2.jsonl: %s", line)
			}
			out, errOut, code := run(t, bin, []string{"merge", filepath.Join(dir, "p/2.jsonl")}, "QUEENS_MAX_ARRAY_SIZE=")
			// The command is in the error line, or on stdout when too long.
			if code != 1 || !regexp.MustCompile(c.want).MatchString(out+errOut) || !regexp.MustCompile(c.note).MatchString(strings.TrimSpace(errOut)) {
				t.Errorf("merge: exit status %d\n%s%s\nwant %s\nsubmission:\n%s", code, out, errOut, c.want, readLog(t, dir, "p/submission"))
			}
		})
	}
}
