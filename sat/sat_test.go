package sat_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-air/gini"
	"github.com/go-air/gini/dimacs"
	"github.com/go-air/gini/z"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/testutil"
	"github.com/queens-dev/queens/sat"
)

func key(s board.Solution) string { return fmt.Sprint([]int(s)) }

// collect enumerates every solution with gini and checks each is valid,
// contains placed, and is new.
func collect(t *testing.T, cnf *encode.CNF) []board.Solution {
	t.Helper()
	s, err := sat.New(cnf)
	if err != nil {
		t.Fatal(err)
	}
	var got []board.Solution
	seen := map[string]bool{}
	for sol, err := range s.Remaining(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if err := sol.Check(); err != nil || !sol.Contains(cnf.Place) || seen[key(sol)] {
			t.Fatalf("%s n=%d: bad or repeated solution %v (%v)", cnf.Encoding, cnf.N, sol, err)
		}
		seen[key(sol)] = true
		got = append(got, sol)
	}
	slices.SortFunc(got, func(a, b board.Solution) int { return strings.Compare(key(a), key(b)) })
	return got
}

func sameSet(t *testing.T, what string, got, want []board.Solution) {
	t.Helper()
	sortKeys := func(ss []board.Solution) []string {
		keys := make([]string, len(ss))
		for i, s := range ss {
			keys[i] = key(s)
		}
		slices.Sort(keys)
		return keys
	}
	g, w := sortKeys(got), sortKeys(want)
	for _, k := range w {
		if _, ok := slices.BinarySearch(g, k); !ok {
			t.Errorf("%s: missing %s", what, k)
		}
	}
	for _, k := range g {
		if _, ok := slices.BinarySearch(w, k); !ok {
			t.Errorf("%s: extra %s", what, k)
		}
	}
}

// TestAllEncodings: for every encoding and n = 1..10, gini's count is the
// published one and the solution set is the brute-force set, both ways;
// likewise for the parallel enumeration in several configurations.
func TestAllEncodings(t *testing.T) {
	want := map[int][]board.Solution{}
	for n := 1; n <= 10; n++ {
		want[n] = testutil.Solutions(n, nil)
	}
	for _, name := range encode.Encodings() {
		t.Run(string(name), func(t *testing.T) {
			t.Parallel()
			for n := 1; n <= 10; n++ {
				cnf, err := encode.Queens(n, name, nil)
				if err != nil {
					t.Fatal(err)
				}
				got := collect(t, cnf)
				known, _ := board.Known(n)
				if uint64(len(got)) != known.Total || len(want[n]) != int(known.Total) {
					t.Errorf("n=%d: gini %d, brute force %d, published %d", n, len(got), len(want[n]), known.Total)
				}
				sameSet(t, fmt.Sprintf("%s n=%d", name, n), got, want[n])
				checkParallel(t, cnf, want[n], known.Total)
			}
		})
	}
}

// TestSatisfiableIffValid: for random placements on boards n <= 8 and
// every encoding, fixing the board variables to the placement leaves a
// satisfiable CNF exactly when the placement is a solution.
func TestSatisfiableIffValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range encode.Encodings() {
		for n := 1; n <= 8; n++ {
			solutions := testutil.Solutions(n, nil)
			for range 40 {
				s := make(board.Solution, n)
				switch rng.IntN(3) {
				case 0:
					copy(s, rng.Perm(n))
				case 1:
					for row := range s {
						s[row] = rng.IntN(n)
					}
				default:
					if len(solutions) == 0 {
						continue
					}
					copy(s, solutions[rng.IntN(len(solutions))])
				}
				cnf, _ := encode.Queens(n, name, nil)
				for _, lit := range encode.Model(s) {
					cnf.Clauses = append(cnf.Clauses, []int{lit})
				}
				first, err := sat.First(context.Background(), cnf)
				if err != nil {
					t.Fatal(err)
				}
				if (first != nil) != board.Valid(s) {
					t.Fatalf("%s n=%d %v: satisfiable = %v, Valid = %v", name, n, s, first != nil, board.Valid(s))
				}
			}
		}
	}
}

// TestPlaced: with random pre-placed queens (n <= 10), the completions
// gini enumerates are the brute-force ones.
func TestPlaced(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 60 {
		cnf := randomPlaced(t, rng, i)
		sameSet(t, fmt.Sprintf("%s n=%d placed %v", cnf.Encoding, cnf.N, cnf.Place), collect(t, cnf), testutil.Solutions(cnf.N, cnf.Place))
	}
}

// randomPlaced returns the CNF of a board of 4 to 10 with 1 to 3 random
// pre-placed queens that do not attack each other, in the i-th encoding
// (cyclically).
func randomPlaced(t *testing.T, rng *rand.Rand, i int) *encode.CNF {
	t.Helper()
	n := 4 + rng.IntN(7)
	var placed []board.Queen
	for range 1 + rng.IntN(3) {
		q := board.Queen{Row: rng.IntN(n), Col: rng.IntN(n)}
		if board.CheckPlacement(n, append(slices.Clone(placed), q)) == nil {
			placed = append(placed, q)
		}
	}
	cnf, err := encode.Queens(n, encode.Encodings()[i%len(encode.Encodings())], placed)
	if err != nil {
		t.Fatal(err)
	}
	return cnf
}

// TestGoldenWithGini reads encode's golden files with gini's strict
// DIMACS reader (it checks the header counts) and counts their solutions
// with gini's own DIMACS loader: an independent check of the writer.
func TestGoldenWithGini(t *testing.T) {
	files, _ := filepath.Glob("../encode/testdata/queens-*.cnf")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		var n int
		var name string
		fmt.Sscanf(strings.ReplaceAll(filepath.Base(file), "-", " "), "queens %d %s", &n, &name)
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := dimacs.ReadCnfStrict(strings.NewReader(string(data)), &nullVis{}, true); err != nil {
				t.Fatalf("gini ReadCnfStrict: %v", err)
			}
			g, err := gini.NewDimacs(strings.NewReader(string(data)))
			if err != nil {
				t.Fatal(err)
			}
			count := 0
			for g.Solve() == 1 {
				var block []z.Lit
				for v := 1; v <= n*n; v++ {
					if g.Value(z.Var(v).Pos()) {
						block = append(block, z.Var(v).Neg())
					}
				}
				for _, m := range block {
					g.Add(m)
				}
				g.Add(0)
				count++
			}
			if known, _ := board.Known(n); uint64(count) != known.Total {
				t.Errorf("%s: gini counts %d, published %d", file, count, known.Total)
			}
		})
	}
}

type nullVis struct{}

func (*nullVis) Init(v, c int) {}
func (*nullVis) Add(m z.Lit)   {}
func (*nullVis) Eof()          {}

// TestClasp counts the models of the exported pairwise CNF (no auxiliary
// variables: models are solutions) with clasp -n 0, an independent
// all-models enumerator.
func TestClasp(t *testing.T) {
	if _, err := exec.LookPath("clasp"); err != nil {
		t.Skip("clasp not installed (apt-get install clasp); skipping the independent model count")
	}
	for n := 1; n <= 10; n++ {
		cnf, _ := encode.Queens(n, "pairwise", nil)
		file := filepath.Join(t.TempDir(), "q.cnf")
		f, _ := os.Create(file)
		if err := encode.WriteDIMACS(f, cnf); err != nil {
			t.Fatal(err)
		}
		f.Close()
		out, _ := exec.Command("clasp", "-n", "0", "-q", file).Output() // exit 10/20/30
		var models int
		for _, line := range strings.Split(string(out), "\n") {
			if rest, ok := strings.CutPrefix(line, "c Models"); ok {
				fmt.Sscanf(strings.TrimLeft(rest, " :"), "%d", &models)
			}
		}
		if known, _ := board.Known(n); uint64(models) != known.Total {
			t.Errorf("clasp -n 0 on pairwise n=%d: %d models, published %d\n%s", n, models, known.Total, out)
		}
	}
}

func TestTimeout(t *testing.T) {
	cnf, _ := encode.Queens(150, "pairwise", nil)
	s, err := sat.New(cnf)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	sol, err := s.Next(ctx)
	if sol != nil && err == nil {
		t.Skip("solved within 1ms; cannot test the timeout")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Next = %v, %v; want DeadlineExceeded", sol, err)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := sat.New(&encode.CNF{Vars: 3}); err == nil {
		t.Error("New accepted a CNF without a board")
	}
}

// TestSeeded: the seeded first solve returns a valid solution containing
// the pre-placed queens, for every encoding and several seeds, and
// finds no solution exactly when there is none (seeds without a
// completion fall back to the unseeded search).
func TestSeeded(t *testing.T) {
	seeds := uint64(4)
	if testing.Short() {
		seeds = 1 // boards of 50 to 64: seconds each
	}
	for _, name := range encode.Encodings() {
		for seed := range seeds {
			for _, tc := range []struct {
				n      int
				placed []board.Queen
				sat    bool
			}{
				{60, nil, true},
				{64, []board.Queen{{Row: 63, Col: 5}, {Row: 10, Col: 40}}, true},
				{50, []board.Queen{{Row: 0, Col: 0}, {Row: 49, Col: 48}}, true},
				{50, []board.Queen{{Row: 0, Col: 1}}, false}, // and row 49 emptied below
			} {
				cnf, err := encode.Queens(tc.n, name, tc.placed)
				if err != nil {
					t.Fatal(err)
				}
				if !tc.sat {
					for col := range tc.n {
						cnf.Clauses = append(cnf.Clauses, []int{-encode.Var(tc.n, tc.n-1, col)})
					}
				}
				s, _ := sat.NewSeeded(cnf, seed)
				sol, err := s.First(context.Background())
				if err != nil || (sol != nil) != tc.sat {
					t.Fatalf("%s n=%d placed %v seed %d: %v, %v; want satisfiable = %v", name, tc.n, tc.placed, seed, sol, err, tc.sat)
				}
				if sol != nil && (sol.Check() != nil || !sol.Contains(tc.placed)) {
					t.Errorf("%s n=%d seed %d: bad solution %v", name, tc.n, seed, sol)
				}
			}
		}
	}
}

// TestNewEncoded checks the streamed loading against the CNF path: the
// same solutions at n <= 8 for each encoding, with and without symmetry
// breaking, a valid first solution on a large board, and cancellation.
func TestNewEncoded(t *testing.T) {
	ctx := context.Background()
	for _, enc := range []encode.Encoding{encode.Pairwise, encode.Seq, encode.Commander, encode.Product} {
		for n := 1; n <= 8; n++ {
			for _, sym := range []bool{false, true} {
				e, err := encode.NewEncoder(n, encode.Options{Encoding: enc, Symmetry: sym})
				if err != nil {
					t.Fatal(err)
				}
				s, err := sat.NewEncoded(ctx, e, 1)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for sol, err := range s.Remaining(ctx) {
					if err != nil || !board.Valid(sol) {
						t.Fatalf("%s n=%d: %v, %v", enc, n, sol, err)
					}
					got = append(got, key(sol))
				}
				want := testutil.Solutions(n, nil)
				if sym {
					want = slices.DeleteFunc(want, func(s board.Solution) bool { return !board.IsCanonical(s) })
				}
				if len(got) != len(want) {
					t.Errorf("%s n=%d symmetry=%v: %d solutions, want %d", enc, n, sym, len(got), len(want))
				}
			}
		}
	}
	e, _ := encode.NewEncoder(300, encode.Options{Encoding: encode.Commander})
	s, err := sat.NewEncoded(ctx, e, 1)
	if err != nil {
		t.Fatal(err)
	}
	if sol, err := s.Next(ctx); err != nil || !board.Valid(sol) {
		t.Errorf("n=300: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := sat.NewEncoded(cancelled, e, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("NewEncoded(cancelled) = %v, want context.Canceled", err)
	}
}
