package sat

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/go-air/gini"
	"github.com/go-air/gini/z"
	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
)

// TestModelsAreSolutions counts the models of every encoding's CNF over
// all its variables, with gini (each model excluded by a blocking clause
// on every variable, auxiliaries included) and with clasp -n 0 where it is
// installed, for n = 1..9, with and without symmetry breaking and a
// pre-placed queen: the counts must be the solutions the backtracker
// enumerates (the canonical ones of the broken symmetries), so that "c t
// mc" is true of every file queens writes.
func TestModelsAreSolutions(t *testing.T) {
	maxN := 9
	if testing.Short() {
		maxN = 7
	}
	clasp, err := exec.LookPath("clasp")
	if err != nil {
		t.Log("clasp not installed (apt-get install clasp): counting with gini only")
	}
	dir := t.TempDir()
	for _, enc := range encode.Encodings() {
		for _, sym := range []bool{false, true} {
			for _, place := range [][]board.Queen{nil, {{Row: 0, Col: 1}}} {
				for n := 1; n <= maxN; n++ {
					if board.CheckPlacement(n, place) != nil {
						continue
					}
					name := fmt.Sprintf("%s/n=%d/symmetry=%v/place=%v", enc, n, sym, place)
					e, err := encode.NewEncoder(n, encode.Options{Encoding: enc, Symmetry: sym, Place: place})
					if err != nil {
						t.Fatal(err)
					}
					want := canonicalSolutions(t, n, place, e.Symmetries())
					cnf, err := e.CNF(context.Background())
					if err != nil {
						t.Fatal(err)
					}
					if got := giniModels(cnf); got != want {
						t.Errorf("%s: gini counts %d models over all %d variables, want %d", name, got, cnf.Vars, want)
					}
					if clasp == "" {
						continue
					}
					path := filepath.Join(dir, "q.cnf")
					var buf bytes.Buffer
					if err := (encode.DIMACS{ModelCounting: true}).Write(&buf, cnf); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					if got := claspModels(t, clasp, path); got != want {
						t.Errorf("%s: clasp -n 0 counts %d models, want %d", name, got, want)
					}
				}
			}
		}
	}
}

// canonicalSolutions counts the solutions of the backtracker that hold
// place and are not larger than any of their images under group.
func canonicalSolutions(t *testing.T, n int, place []board.Queen, group []board.Transform) uint64 {
	t.Helper()
	var count uint64
	_, err := backtrack.Search(context.Background(), n, backtrack.Options{Place: place}, func(s board.Solution) bool {
		if !board.Valid(s) || !s.Contains(place) {
			t.Fatalf("backtracker: %v", s)
		}
		for _, tr := range group {
			if tr.Apply(s).Less(s) {
				return true
			}
		}
		count++
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return count
}

// giniModels counts the models of cnf over all its variables with gini,
// blocking each whole assignment.
func giniModels(cnf *encode.CNF) uint64 {
	g := gini.NewV(cnf.Vars)
	for _, c := range cnf.Clauses {
		for _, lit := range c {
			g.Add(z.Dimacs2Lit(lit))
		}
		g.Add(0)
	}
	var count uint64
	block := make([]z.Lit, cnf.Vars)
	for g.Solve() == 1 {
		count++
		for v := 1; v <= cnf.Vars; v++ { // the whole model first (the Add below loses it)
			block[v-1] = z.Var(v).Pos()
			if g.Value(block[v-1]) {
				block[v-1] = block[v-1].Not()
			}
		}
		for _, m := range block {
			g.Add(m)
		}
		g.Add(0)
	}
	return count
}

var claspModelsLine = regexp.MustCompile(`(?m)^c Models\s*:\s*(\d+)`)

// claspModels runs clasp -n 0 on path and reads its "Models : N" line.
func claspModels(t *testing.T, clasp, path string) uint64 {
	t.Helper()
	out, err := exec.Command(clasp, "-n", "0", "-q", path).Output()
	if code := exitStatus(err); code != 10 && code != 20 && code != 30 {
		t.Fatalf("clasp %s: %v\n%s", path, err, out)
	}
	m := claspModelsLine.FindSubmatch(out)
	if m == nil {
		t.Fatalf("clasp %s: no Models line in\n%s", path, out)
	}
	count, err := strconv.ParseUint(string(m[1]), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return count
}

// exitStatus returns the exit status of a finished command's error (0 for
// nil), or -1 if it did not run.
func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}
