package deploy

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/backtrack/join"
	"github.com/queens-dev/queens/shard"
)

// sizing runs a function of sizing.sh and returns what it prints.
func sizing(t *testing.T, fn string, args ...any) string {
	t.Helper()
	words := []string{"-c", `source sizing.sh && "$@"`, "sizing", fn}
	for _, a := range args {
		words = append(words, fmt.Sprint(a))
	}
	out, err := exec.Command("bash", words...).Output()
	if err != nil {
		t.Fatalf("sizing.sh %s %v: %v", fn, args, err)
	}
	return strings.TrimSpace(string(out))
}

// TestSizingLimitsAndPieces checks sizing.sh's engines' limits and pieces
// against the packages: the largest boards, and the pieces of every
// split (whole constellations, sub-parts of them, the join's).
func TestSizingLimitsAndPieces(t *testing.T) {
	if got := sizing(t, "queens_max_n", "constellations"); got != strconv.Itoa(backtrack.CountMaxN) {
		t.Errorf("queens_max_n constellations = %s, want backtrack.CountMaxN %d", got, backtrack.CountMaxN)
	}
	if got := sizing(t, "queens_max_n", "join"); got != strconv.Itoa(join.MaxN) {
		t.Errorf("queens_max_n join = %s, want join.MaxN %d", got, join.MaxN)
	}
	for n := 1; n <= backtrack.CountMaxN; n++ {
		sp, err := backtrack.Subproblems(n)
		if err != nil {
			t.Fatal(err)
		}
		if got := sizing(t, "queens_pieces", n, "constellations", 0); got != strconv.Itoa(len(sp)) {
			t.Errorf("queens_pieces %d constellations 0 = %s, want %d", n, got, len(sp))
		}
		if n <= join.MaxN {
			jp, err := join.Pieces(n)
			if err != nil {
				t.Fatal(err)
			}
			if got := sizing(t, "queens_pieces", n, "join", 0); got != strconv.Itoa(len(jp)) {
				t.Errorf("queens_pieces %d join = %s, want %d", n, got, len(jp))
			}
		}
	}
	for _, c := range []struct{ n, split int }{{8, 2}, {12, 7}, {16, 256}} {
		_, parts, err := shard.Spec{N: c.n, Shards: 1, Split: c.split}.Pieces()
		if err != nil {
			t.Fatal(err)
		}
		if got := sizing(t, "queens_pieces", c.n, "constellations", c.split); got != strconv.Itoa(parts) {
			t.Errorf("queens_pieces %d constellations %d = %s, want %d", c.n, c.split, got, parts)
		}
	}
}

// TestSizingCoreHours checks sizing.sh's core-hours against docs/scale.md's
// table "Sizing n = 20 to 28, per engine", so that the merge's time moves
// with the page.
func TestSizingCoreHours(t *testing.T) {
	data, err := os.ReadFile("../docs/scale.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "| n | constellations, core-hours | join, core-hours |")
	if !ok {
		t.Fatal(`docs/scale.md: no table "| n | constellations, core-hours | join, core-hours |"`)
	}
	// A figure: 0.83, 4,830 or 5.25·10^7, the first of its cell.
	figure := regexp.MustCompile(`^\s*([0-9][0-9,]*(?:\.[0-9]+)?)(?:·10\^([0-9]+))?`)
	value := func(cell string) float64 {
		m := figure.FindStringSubmatch(cell)
		if m == nil {
			t.Fatalf("docs/scale.md: cell %q: no figure", cell)
		}
		v, _ := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
		if m[2] != "" {
			e, _ := strconv.Atoi(m[2])
			v *= math.Pow(10, float64(e))
		}
		return v
	}
	rows := 0
	for _, line := range strings.Split(table, "\n")[2:] {
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			break
		}
		n, err := strconv.Atoi(strings.TrimSpace(cells[1]))
		if err != nil {
			t.Fatalf("docs/scale.md: row %q", line)
		}
		for i, engine := range []string{"constellations", "join"} {
			want := value(cells[2+i]) * 3600
			got, err := strconv.ParseFloat(sizing(t, "queens_core_seconds", n, engine), 64)
			if err != nil || math.Abs(got-want) > 1e-6*want {
				t.Errorf("queens_core_seconds %d %s = %v, docs/scale.md says %v core-hours", n, engine, got/3600, want/3600)
			}
		}
		rows++
	}
	if rows != 9 {
		t.Errorf("docs/scale.md's table has %d rows, want n = 20 to 28", rows)
	}
}

// TestSizingMerge checks the merge's CPUs, time and memory: a CPU for each
// core-hour of recount, at most one a piece drawn and the most given; time
// for each CPU's share of the pieces at 10 times the mean, the lines read
// and 10 minutes; the memory of its recount on those CPUs and of K lines.
// --verify 16 of the join's pieces at n = 28 is about 27 core-hours (it was
// about 2,500 before the join's pruning; issue 41 quoted that figure).
func TestSizingMerge(t *testing.T) {
	for _, c := range []struct {
		n, k          int
		engine        string
		split, verify int
		most          int
	}{
		{12, 4, "constellations", 0, 16, 64}, {12, 4, "join", 0, 16, 64}, {20, 64, "join", 0, 16, 64},
		{28, 1 << 24, "constellations", 4096, 16, 64}, {28, 1 << 24, "join", 0, 16, 64}, {28, 1 << 24, "join", 0, 64, 8},
		{32, 1000, "constellations", 65536, 16, 64}, {16, 8, "constellations", 0, 0, 64},
	} {
		var cpus, secs, mem int
		out := sizing(t, "queens_merge", c.n, c.k, c.engine, c.split, c.verify, c.most)
		if _, err := fmt.Sscanf(out, "%d %d %d", &cpus, &secs, &mem); err != nil {
			t.Fatalf("queens_merge %v: %q", c, out)
		}
		pieces, _ := strconv.Atoi(sizing(t, "queens_pieces", c.n, c.engine, c.split))
		total, _ := strconv.ParseFloat(sizing(t, "queens_core_seconds", c.n, c.engine), 64)
		mean := total / float64(pieces)
		v := min(c.verify, pieces)
		want := max(1, min(v, c.most, int(math.Ceil(float64(v)*mean/3600))))
		share := (v + cpus - 1) / cpus
		low := float64(share)*mean*10 + float64(c.k)*120e-6 + 600
		if cpus != want || float64(secs) < low || float64(secs) > low+60 || secs%60 != 0 {
			t.Errorf("queens_merge %v = %d CPUs, %d s; want %d CPUs and %.0f s in whole minutes", c, cpus, secs, want, low)
		}
		count, _ := strconv.Atoi(sizing(t, "queens_count_memory", c.n, c.engine, cpus))
		if lines := 32 + (c.k*64+1<<20-1)>>20; mem != count+lines {
			t.Errorf("queens_merge %v: %d MiB, want %d for the recount and %d for the lines", c, mem, count, lines)
		}
		if c.n == 28 && c.engine == "join" && c.verify == 16 {
			if h := float64(v) * mean / 3600; h < 26 || h > 28 {
				t.Errorf("n = 28, --verify 16 of the join's pieces: %.0f core-hours, want about 27", h)
			}
		}
	}
	if got := sizing(t, "queens_slurm_time", 5589720); got != "64-16:42:00" {
		t.Errorf("queens_slurm_time 5589720 = %s", got)
	}
}

// TestSizingMemory: a join shard's halves get 2 GiB a thread from n = 23,
// 4 GiB from 26, 8 GiB at 28 (480 MiB at 22, rounded up, and the default's
// up to 21; never below the join's default), and the task or
// pod twice that and a margin, since queens lets the halves take at most
// half of what the process may use (an 8Gi pod of 4 threads would give
// each 1 GiB); the constellation counter 256 MiB.
func TestSizingMemory(t *testing.T) {
	for _, c := range []struct{ n, threads, share int }{{23, 4, 2048}, {25, 1, 2048}, {26, 2, 4096}, {28, 4, 8192}, {28, 1, 8192}, {22, 2, 512}} {
		mem, _ := strconv.Atoi(sizing(t, "queens_join_memory", c.n, c.threads))
		task, _ := strconv.Atoi(sizing(t, "queens_count_memory", c.n, "join", c.threads))
		if mem != c.threads*c.share || task/2 < mem || task > 2*mem+256 {
			t.Errorf("n = %d on %d threads: --memory %d MiB, task %d MiB; want %d MiB a thread, the task twice that", c.n, c.threads, mem, task, c.share)
		}
	}
	for n := 1; n <= join.MaxN; n++ {
		for _, threads := range []int{1, 4} {
			mem, _ := strconv.Atoi(sizing(t, "queens_join_memory", n, threads))
			if def := join.DefaultMemory(n, threads) >> 20; int64(mem) < def {
				t.Errorf("n = %d on %d threads: --memory %d MiB, below the join's default %d MiB", n, threads, mem, def)
			}
		}
		if got := sizing(t, "queens_count_memory", n, "constellations", 4); got != "256" {
			t.Errorf("queens_count_memory %d constellations 4 = %s, want 256", n, got)
		}
	}
}
