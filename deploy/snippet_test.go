package deploy

import (
	"os"
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
	for _, d := range []string{"--requeue", "--open-mode=append", "--array=0-"} {
		if !regexp.MustCompile(`(?m)^#SBATCH ` + regexp.QuoteMeta(d)).Match(data) {
			t.Errorf("count.sbatch: no #SBATCH %s", d)
		}
	}
	for _, f := range []string{"--checkpoint", "--shard-count \"$SLURM_ARRAY_TASK_COUNT\"", "--json"} {
		if !strings.Contains(string(data), f) {
			t.Errorf("count.sbatch: no %s", f)
		}
	}
}
