package encode_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/sat"
)

var update = flag.Bool("update", false, "update golden files")

// TestSize checks the built formulas against the closed forms of the
// package comment and against the counts of an independent generator
// (another program, written apart from this package: the numbers below),
// for every encoding.
func TestSize(t *testing.T) {
	closed := map[encode.Encoding]func(n int) (int, int){
		"pairwise": func(n int) (int, int) { return n * n, n*(n-1)*(5*n-1)/3 + 2*n },
		"seq": func(n int) (int, int) {
			if n == 1 {
				return 1, 2
			}
			return 5*n*n - 6*n + 2, 16*n*n - 28*n + 14
		},
		"ladder": func(n int) (int, int) {
			switch n {
			case 1:
				return 1, 2
			case 2:
				return 8, 20 // rows and columns without ladder variables
			}
			return 5*n*n - 2*n - 4, 16*n*n - 16*n - 4
		},
		"totalizer": func(n int) (int, int) {
			switch n {
			case 1:
				return 1, 2
			case 2:
				return 4, 10
			}
			return 9*n*n - 24*n + 16, 28*n*n - 76*n + 50
		},
	}
	independent := map[encode.Encoding]map[int][2]int{
		"pairwise":  {8: {64, 744}, 100: {10000, 1646900}},
		"seq":       {8: {274, 604}, 100: {49402, 117812}},
		"commander": {8: {142, 610}, 100: {29176, 135908}},
	}
	for _, name := range encode.Encodings() {
		t.Run(string(name), func(t *testing.T) {
			for n := 1; n <= 40; n++ {
				cnf, err := encode.Queens(n, name, nil)
				if err != nil {
					t.Fatal(err)
				}
				v, c, err := encode.Size(n, name)
				if err != nil || v != cnf.Vars || c != len(cnf.Clauses) {
					t.Errorf("n=%d: Size = %d, %d, %v; built %d vars, %d clauses", n, v, c, err, cnf.Vars, len(cnf.Clauses))
				}
				if f := closed[name]; f != nil {
					if fv, fc := f(n); fv != v || fc != c {
						t.Errorf("n=%d: Size = %d, %d; closed form %d, %d", n, v, c, fv, fc)
					}
				}
			}
			for n, want := range independent[name] {
				v, c, _ := encode.Size(n, name)
				if c = oneWay(name, n, v, c); v != want[0] || c != want[1] {
					t.Errorf("Size(%d, %s) = %d, %d; independent generator %d, %d", n, name, v, c, want[0], want[1])
				}
			}
		})
	}
}

// oneWay returns the clauses of the independent generator of
// shared/GINI.md, given the encoding's vars and clauses on an n×n board:
// it defines the auxiliary variables of seq, product, binary and bimander
// one way only, and queens adds one clause per auxiliary variable for the
// other direction (commander has both ways in both).
func oneWay(name encode.Encoding, n, vars, clauses int) int {
	if name == encode.Commander {
		return clauses
	}
	return clauses - (vars - n*n)
}

// TestWellFormed checks what every clause must be: literals in range, no
// variable twice in a clause, the board variables first.
func TestWellFormed(t *testing.T) {
	for _, name := range encode.Encodings() {
		for _, n := range []int{1, 2, 3, 7, 12} {
			cnf, err := encode.Queens(n, name, []board.Queen{{Row: 0, Col: 0}})
			if err != nil {
				t.Fatal(err)
			}
			if cnf.N != n || cnf.Encoding != name || cnf.Vars < n*n {
				t.Errorf("%s n=%d: N=%d Encoding=%q Vars=%d", name, n, cnf.N, cnf.Encoding, cnf.Vars)
			}
			for i, c := range cnf.Clauses {
				seen := map[int]bool{}
				for _, lit := range c {
					v := max(lit, -lit)
					if v < 1 || v > cnf.Vars || seen[v] {
						t.Fatalf("%s n=%d clause %d %v: bad literal %d", name, n, i, c, lit)
					}
					seen[v] = true
				}
			}
			last := cnf.Clauses[len(cnf.Clauses)-1]
			if !slices.Equal(last, []int{1}) {
				t.Errorf("%s n=%d: last clause %v, want the pre-placed queen [1]", name, n, last)
			}
		}
	}
}

// TestPairwiseSatisfiesIffValid: the pairwise CNF has no auxiliary
// variables, so an assignment of the board satisfies it exactly when the
// queens on it form a solution. (For every encoding, sat's tests check the
// same with gini.)
func TestPairwiseSatisfiesIffValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 8; n++ {
		cnf, _ := encode.Queens(n, "pairwise", nil)
		for range 2000 {
			s := make(board.Solution, n)
			if rng.IntN(2) == 0 {
				copy(s, rng.Perm(n)) // one per row and column, maybe attacking
			} else {
				for row := range s {
					s[row] = rng.IntN(n)
				}
			}
			if ok, _ := cnf.Satisfies(encode.Model(s)); ok != board.Valid(s) {
				t.Fatalf("n=%d %v: satisfies = %v, Valid = %v", n, s, ok, board.Valid(s))
			}
			// Any square set with a row of 0 or 2 queens falsifies it.
			model := encode.Model(s)
			model[rng.IntN(len(model))] *= -1
			if ok, _ := cnf.Satisfies(model); ok {
				got, err := encode.Decode(n, model)
				if err != nil || !board.Valid(got) {
					t.Fatalf("n=%d: model %v satisfies the CNF but is no solution", n, model)
				}
			}
		}
	}
}

func TestQueensErrors(t *testing.T) {
	tests := []struct {
		n     int
		enc   encode.Encoding
		place []board.Queen
		want  error
	}{
		{0, "pairwise", nil, board.ErrSize},
		{201, "pairwise", nil, board.ErrSize},
		{8, "nosuch", nil, encode.ErrEncoding},
		{8, "seq", []board.Queen{{Row: 0, Col: 0}, {Row: 1, Col: 1}}, board.ErrPlacement},
		{8, "seq", []board.Queen{{Row: 8, Col: 0}}, board.ErrPlacement},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d-%s-%v", tt.n, tt.enc, tt.place), func(t *testing.T) {
			if _, err := encode.Queens(tt.n, tt.enc, tt.place); !errors.Is(err, tt.want) {
				t.Errorf("Queens = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestResolveAuto(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want encode.Encoding
	}{{1, "pairwise"}, {40, "pairwise"}, {41, "commander"}, {1000, "commander"}} {
		if got, err := encode.Resolve(encode.Auto, tt.n); got != tt.want || err != nil {
			t.Errorf("Resolve(auto, %d) = %q, %v; want %q", tt.n, got, err, tt.want)
		}
	}
}

// TestGolden pins the DIMACS output byte for byte (go test ./encode
// -update rewrites the files). sat's tests read the same files with gini's
// strict reader and count their solutions.
func TestGolden(t *testing.T) {
	for _, name := range encode.Encodings() {
		for _, n := range []int{1, 2, 4, 8} {
			file := filepath.Join("testdata", fmt.Sprintf("queens-%d-%s.cnf", n, name))
			t.Run(filepath.Base(file), func(t *testing.T) {
				cnf, err := encode.Queens(n, name, nil)
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if err := encode.WriteDIMACS(&buf, cnf); err != nil {
					t.Fatal(err)
				}
				if *update {
					if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(buf.Bytes(), want) {
					t.Errorf("WriteDIMACS differs from %s (go test ./encode -update, then review the diff)", file)
				}
				back, err := encode.ReadDIMACS(bytes.NewReader(want))
				if err != nil {
					t.Fatal(err)
				}
				if back.Vars != cnf.Vars || !slices.EqualFunc(back.Clauses, cnf.Clauses, slices.Equal) {
					t.Errorf("ReadDIMACS(%s) differs from Queens", file)
				}
			})
		}
	}
}

func ExampleWriteDIMACS() {
	cnf, _ := encode.Queens(2, "pairwise", nil)
	encode.WriteDIMACS(os.Stdout, cnf)
	// Output:
	// c N-Queens puzzle as CNF, generated by github.com/queens-dev/queens
	// c n 2
	// c encoding pairwise
	// c placed none
	// c variables 1..4: queen at ROW:COL (1-based) is variable (ROW-1)*2 + COL
	// p cnf 4 10
	// 1 2 0
	// -1 -2 0
	// 3 4 0
	// -3 -4 0
	// 1 3 0
	// -1 -3 0
	// 2 4 0
	// -2 -4 0
	// -1 -4 0
	// -2 -3 0
}

func ExampleVar() {
	// The queen at 1-based 3:5 on an 8×8 board is 0-based row 2, column 4.
	fmt.Println(encode.Var(8, 2, 4))
	// Output: 21
}

func ExampleDecode() {
	s, err := encode.Decode(4, []int{-1, 2, -3, -4, -5, -6, -7, 8, 9, -10, -11, -12, -13, -14, 15, -16})
	fmt.Println(s.Queens(), err, board.Valid(s))
	// Output: [1:2 2:4 3:1 4:3] <nil> true
}

// Read back a CNF that queens wrote: its header keeps the instance (n,
// the encoding, the pre-placed queens), so the CNF can be solved and its
// models decoded as boards.
func ExampleReadDIMACS() {
	cnf, _ := encode.Queens(6, encode.Seq, []board.Queen{{Row: 0, Col: 1}})
	var file bytes.Buffer
	encode.WriteDIMACS(&file, cnf)

	back, err := encode.ReadDIMACS(&file)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(back.N, back.Encoding, back.Place, back.Vars, len(back.Clauses))
	for s, err := range sat.All(context.Background(), back) {
		fmt.Println(s, err)
	}
	// Output:
	// 6 seq [1:2] 146 423
	// [1 3 5 0 2 4] <nil>
}
