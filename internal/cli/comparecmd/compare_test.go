package comparecmd_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/queens-dev/queens/internal/cli/clitest"
	"github.com/queens-dev/queens/internal/cli/comparecmd"
	"github.com/queens-dev/queens/shard"
)

func TestCompareAgrees(t *testing.T) {
	stdout, stderr, code := clitest.Run(t, "", "compare", "-n", "1-9", "--engines", "backtrack,sat/pairwise,sat/seq,sat/commander")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || stderr != "" || !strings.HasPrefix(lines[len(lines)-1], "agree: 36 runs over n = 1-9") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	for _, line := range lines[1 : len(lines)-1] {
		f := strings.Fields(line)
		if f[1] != "published" && f[len(f)-1] != "ok" {
			t.Errorf("row without ok: %s", line)
		}
	}
}

func TestCompareJSON(t *testing.T) {
	stdout, _, code := clitest.Run(t, "", "compare", "-n", "4,6", "--engines", "sat/seq", "--json")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stdout)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 5 {
		t.Fatalf("want 4 engine lines and a verdict, got:\n%s", stdout)
	}
	for i, line := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("line %d %q: %v", i, line, err)
		}
		if i == len(lines)-1 {
			if v["verdict"] != "agree" || v["runs"] != 4.0 {
				t.Errorf("verdict line %q", line)
			}
		} else if v["total"] != map[float64]float64{4: 2, 6: 4}[v["n"].(float64)] {
			t.Errorf("line %q: wrong total", line)
		}
	}
}

func TestCompareCatchesLyingSolver(t *testing.T) {
	liar := filepath.Join(t.TempDir(), "liar")
	os.WriteFile(liar, []byte("#!/bin/sh\necho 's UNSATISFIABLE'\nexit 20\n"), 0o755)
	stdout, stderr, code := clitest.Run(t, "", "compare", "-n", "6", "--engines", "backtrack", "--solver", liar)
	if code != 1 || !strings.Contains(stdout, "claims no solution (UNSAT), but the published count is 4: a solver bug") ||
		!strings.Contains(stdout, "only backtrack has this solution") || !strings.HasPrefix(stdout[strings.LastIndex(stdout[:len(stdout)-1], "\n")+1:], "DISAGREE") ||
		stderr != "queens: compare found 2 problems\n" {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
}

// TestCompareStrategies runs compare --strategies: every strategy on
// every n, each agreeing with the published counts, with the queens each
// Placed (lex's 2056 for n = 8) and generate-and-test's spaces.
func TestCompareStrategies(t *testing.T) {
	out, errs, code := clitest.Run(t, "", "compare", "--strategies", "-n", "4-8")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for n := 4; n <= 8; n++ {
		for _, s := range comparecmd.Strategies {
			if !regexp.MustCompile(fmt.Sprintf(`(?m)^ +%d  %-10s +\d+ +\d+ .* ok$`, n, s)).MatchString(out) {
				t.Errorf("no ok row for n=%d %v:\n%s", n, s, out)
			}
		}
	}
	for _, want := range []string{
		"   8  lex                92           2056            -",
		"   8  generate           92         109600        40320",
		"generate-and-test: 8! = 40320 permutations, C(64, 8) = 4426165368 placements",
		"agree: every solution valid",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	out, errs, code = clitest.Run(t, "", "compare", "--strategies", "-n", "11")
	if code != 0 || !strings.Contains(out, "left out, over their board limit: cells (n <= 10), generate (n <= 10)") {
		t.Errorf("n = 11: exit %d %s\n%s", code, errs, out)
	}
	if _, errs, code := clitest.Run(t, "", "compare", "--strategies", "-n", "8", "--json"); code != 2 {
		t.Errorf("--strategies --json: exit %d %s", code, errs)
	}
}

// TestCompareTableEngines: compare's counting engines are the engine
// table's, by the table's names: each that counts a whole board on the
// CPU runs alone under --engines and finds the published count, with
// --place only those that count completions run, and a name the table
// does not hold (compare's old "count") is unknown.
func TestCompareTableEngines(t *testing.T) {
	counted := 0
	for _, e := range shard.Engines() {
		if e.Count == nil {
			continue
		}
		counted++
		out, errs, code := clitest.Run(t, "", "compare", "-n", "8", "--engines", e.Name)
		if code != 0 || !regexp.MustCompile(`(?m)^   8  `+e.Name+` +92 +12 .* ok$`).MatchString(out) {
			t.Errorf("--engines %s: exit %d %s\n%s", e.Name, code, errs, out)
		}
		out, errs, code = clitest.Run(t, "", "compare", "-n", "8", "--place", "1:1", "--engines", e.Name)
		switch {
		case e.Place && code == 0 && regexp.MustCompile(`(?m)^   8  `+e.Name+` +4 +- .* ok$`).MatchString(out):
		case !e.Place && code == 2 && strings.Contains(errs, "engine "+e.Name+" counts whole boards: not with --place"):
		default:
			t.Errorf("--engines %s --place 1:1 (completions: %v): exit %d %s\n%s", e.Name, e.Place, code, errs, out)
		}
	}
	if counted < 2 {
		t.Errorf("the engine table has %d engines that count a whole board, want the constellations and the join", counted)
	}
	_, errs, code := clitest.Run(t, "", "compare", "-n", "8", "--engines", "count")
	if code != 2 || !strings.Contains(errs, `unknown engine "count" (backtrack, constellations, join, sat/ENCODING`) {
		t.Errorf("--engines count: exit %d %q; want unknown, naming the table's engines", code, errs)
	}
}
