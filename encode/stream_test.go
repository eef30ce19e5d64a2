package encode_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/queens-dev/queens/backtrack"
	"github.com/queens-dev/queens/board"
	"github.com/queens-dev/queens/encode"
	"github.com/queens-dev/queens/internal/testutil"
	"github.com/queens-dev/queens/sat"
)

// TestStreamSameAsCNF: the streaming writer gives the bytes of the CNF
// writer, and Clauses and AppendFlat give its clauses, for every encoding,
// with pre-placed queens and symmetry breaking.
func TestStreamSameAsCNF(t *testing.T) {
	ctx := context.Background()
	for _, name := range encode.Encodings() {
		for _, n := range []int{1, 2, 5, 9, 23} {
			for _, sym := range []bool{false, true} {
				opt := encode.Options{Encoding: name, Place: []board.Queen{{Row: 0, Col: n / 2}}, Symmetry: sym}
				e, err := encode.NewEncoder(n, opt)
				if err != nil {
					t.Fatal(err)
				}
				cnf, err := e.CNF(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if v, c := e.Size(); v != cnf.Vars || c != len(cnf.Clauses) {
					t.Errorf("%s n=%d: Size %d, %d; CNF %d, %d", name, n, v, c, cnf.Vars, len(cnf.Clauses))
				}
				for _, d := range []encode.DIMACS{{}, {Generator: "queens test", ModelCounting: true, Comments: []string{"status sat", "two\nlines"}}} {
					var a, b bytes.Buffer
					if err := d.Write(&a, cnf); err != nil {
						t.Fatal(err)
					}
					if err := d.WriteEncoder(ctx, &b, e); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(a.Bytes(), b.Bytes()) {
						t.Errorf("%s n=%d symmetry=%v %+v: streamed DIMACS differs", name, n, sym, d)
					}
				}
				var got [][]int
				for c, err := range e.Clauses(ctx) {
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, slices.Clone(c))
				}
				if !slices.EqualFunc(got, cnf.Clauses, slices.Equal) {
					t.Errorf("%s n=%d: Clauses differs from CNF", name, n)
				}
				flat, err := e.AppendFlat(ctx, nil)
				var want []int32
				for _, c := range cnf.Clauses {
					for _, lit := range c {
						want = append(want, int32(lit))
					}
					want = append(want, 0)
				}
				if err != nil || !slices.Equal(flat, want) {
					t.Errorf("%s n=%d: AppendFlat differs from CNF (%v)", name, n, err)
				}
			}
		}
	}
}

// TestEmitCancel: a cancelled context stops a large encoding within a
// few thousand clauses, and the error says so.
func TestEmitCancel(t *testing.T) {
	e, err := encode.NewEncoder(2000, encode.Options{Encoding: encode.Seq})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	seen := 0
	err = e.Emit(ctx, func([]int) error {
		if seen++; seen == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || seen > 10+4096 {
		t.Errorf("Emit after cancel: %v after %d clauses", err, seen)
	}
	var w failWriter
	if err := e.WriteDIMACS(context.Background(), &w); !errors.Is(err, errFail) {
		t.Errorf("WriteDIMACS to a failing writer = %v", err)
	}
	for c, err := range e.Clauses(context.Background()) {
		if err != nil || c == nil {
			t.Fatal(c, err)
		}
		break // stopping early is no error
	}
}

var errFail = errors.New("disk full")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errFail }

// TestSizeNew checks the new encodings against the counts of an
// independent generator, another program written apart from this package
// (the variant of each is named in the package comment).
func TestSizeNew(t *testing.T) {
	want := map[encode.Encoding]map[int][2]int{
		encode.Pairwise:  {400: {160000, 106347600}},
		encode.Seq:       {400: {797602, 1911212}},
		encode.Commander: {400: {478820, 2226670}},
		encode.Product:   {8: {64, 744}, 100: {18980, 119640}, 400: {234880, 1896320}},
		encode.Binary:    {8: {174, 728}, 100: {13678, 269024}, 400: {179538, 5585016}},
		encode.Bimander:  {8: {124, 658}, 100: {12040, 309636}, 400: {170614, 8473704}},
	}
	for name, sizes := range want {
		for n, w := range sizes {
			v, c, err := encode.Size(n, name)
			if c = oneWay(name, n, v, c); err != nil || v != w[0] || c != w[1] {
				t.Errorf("Size(%d, %s) = %d, %d, %v; independent generator %d, %d", n, name, v, c, err, w[0], w[1])
			}
		}
	}
	for _, name := range []encode.Encoding{encode.Product, encode.Binary, encode.Bimander} {
		e, _ := encode.NewEncoder(100, encode.Options{Encoding: name})
		count := 0
		if err := e.Emit(context.Background(), func([]int) error { count++; return nil }); err != nil {
			t.Fatal(err)
		}
		if _, c := e.Size(); c != count {
			t.Errorf("%s n=100: Emit gave %d clauses, Size says %d", name, count, c)
		}
	}
}

func solutions(t *testing.T, cnf *encode.CNF) []board.Solution {
	t.Helper()
	var out []board.Solution
	for sol, err := range sat.All(context.Background(), cnf) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sol)
	}
	return out
}

// TestSymmetry: with lex-leader symmetry breaking gini finds exactly one
// solution per class (A002562) for n = 1..10, and each is the canonical
// one of its class; the classes cover backtrack's solutions.
func TestSymmetry(t *testing.T) {
	for _, name := range []encode.Encoding{encode.Pairwise, encode.Commander, encode.Bimander} {
		for n := 1; n <= 10; n++ {
			if name != encode.Pairwise && n > 8 {
				continue
			}
			e, err := encode.NewEncoder(n, encode.Options{Encoding: name, Symmetry: true})
			if err != nil {
				t.Fatal(err)
			}
			cnf, _ := e.CNF(context.Background())
			got := solutions(t, cnf)
			known, _ := board.Known(n)
			if uint64(len(got)) != known.Unique {
				t.Errorf("%s n=%d: %d solutions, want %d", name, n, len(got), known.Unique)
			}
			orbits := 0
			for _, s := range got {
				if !board.Valid(s) || !board.IsCanonical(s) {
					t.Errorf("%s n=%d: %v is not a canonical solution", name, n, s)
				}
				orbits += board.OrbitSize(s)
			}
			if uint64(orbits) != known.Total {
				t.Errorf("%s n=%d: the classes hold %d solutions, want %d", name, n, orbits, known.Total)
			}
		}
	}
}

// TestSymmetryPlaced: with pre-placed queens only the symmetries fixing
// the placement are broken, and the solutions found are the
// lexicographically smallest of their class under that subgroup, one per
// class, among backtrack's solutions containing the placement.
func TestSymmetryPlaced(t *testing.T) {
	tests := []struct {
		n      int
		placed []board.Queen
		want   []board.Transform
	}{
		{8, nil, nonIdentity()},
		{8, []board.Queen{{Row: 0, Col: 0}}, []board.Transform{board.Transpose}},
		{9, []board.Queen{{Row: 4, Col: 4}}, nonIdentity()},
		{8, []board.Queen{{Row: 0, Col: 2}, {Row: 7, Col: 5}}, []board.Transform{board.Rot180}},
		{8, []board.Queen{{Row: 0, Col: 1}}, nil},
	}
	for _, tt := range tests {
		got := encode.Stabilizer(tt.n, tt.placed)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Stabilizer(%d, %v) = %v, want %v", tt.n, tt.placed, got, tt.want)
		}
		cnf, err := encode.NewEncoder(tt.n, encode.Options{Encoding: encode.Pairwise, Place: tt.placed, Symmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		c, _ := cnf.CNF(context.Background())
		found := solutions(t, c)
		var all []board.Solution
		for s := range testutil.Values(t, backtrack.All(context.Background(), tt.n, backtrack.Options{})) {
			if s.Contains(tt.placed) {
				all = append(all, s)
			}
		}
		// Expected: the solutions smallest among their images under got.
		var want []string
		for _, s := range all {
			least := true
			for _, t := range got {
				if t.Apply(s).Less(s) {
					least = false
				}
			}
			if least {
				want = append(want, fmt.Sprint(s))
			}
		}
		var have []string
		for _, s := range found {
			have = append(have, fmt.Sprint(s))
		}
		slices.Sort(want)
		slices.Sort(have)
		if !slices.Equal(have, want) {
			t.Errorf("n=%d placed %v: gini finds %v, want %v", tt.n, tt.placed, have, want)
		}
	}
}

// TestReadBack: a file queens wrote reads back with its instance (n,
// encoding, placed queens, symmetries) and solves to the same solutions.
func TestReadBack(t *testing.T) {
	for _, name := range encode.Encodings() {
		opt := encode.Options{Encoding: name, Place: []board.Queen{{Row: 0, Col: 0}, {Row: 0, Col: 0}}, Symmetry: true}
		e, err := encode.NewEncoder(8, opt)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		d := encode.DIMACS{Generator: "queens v9.9.9", ModelCounting: true}
		if err := d.WriteEncoder(context.Background(), &buf, e); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "generated by queens v9.9.9\n") {
			t.Errorf("%s: header does not name the generator", name)
		}
		back, err := encode.ReadDIMACS(&buf)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := e.CNF(context.Background())
		if back.N != 8 || back.Encoding != name || !slices.Equal(back.Place, e.Place()) ||
			!slices.Equal(back.Symmetries, e.Symmetries()) || back.Vars != want.Vars ||
			!slices.EqualFunc(back.Clauses, want.Clauses, slices.Equal) {
			t.Errorf("%s: read back N=%d %q %v %v", name, back.N, back.Encoding, back.Place, back.Symmetries)
		}
		if a, b := solutions(t, back), solutions(t, want); len(a) != len(b) || len(a) == 0 {
			t.Errorf("%s: %d solutions read back, %d encoded", name, len(a), len(b))
		}
	}
}

func TestReadDIMACSQueensHeader(t *testing.T) {
	const head = "c N-Queens puzzle as CNF, generated by x\n"
	tests := []struct {
		name, in string
		n        int
		want     error
	}{
		{"other generator's file", "c n 4\np cnf 16 0\n", 0, nil},
		{"n", head + "c n 4\np cnf 16 0\n", 4, nil},
		{"unknown encoding", head + "c n 4\nc encoding future\np cnf 16 0\n", 4, nil},
		{"n too big for vars", head + "c n 5\np cnf 16 0\n", 0, encode.ErrHeader},
		{"bad n", head + "c n x\np cnf 16 0\n", 0, encode.ErrHeader},
		{"huge n", head + "c n 99999999999\np cnf 16 0\n", 0, encode.ErrHeader},
		{"bad queen", head + "c n 4\nc placed 1:x\np cnf 16 0\n", 0, encode.ErrHeader},
		{"attacking queens", head + "c n 4\nc placed 1:1 2:2\np cnf 16 0\n", 0, encode.ErrHeader},
		{"off-board queen", head + "c n 4\nc placed 5:1\np cnf 16 0\n", 0, encode.ErrHeader},
		{"bad symmetry", head + "c n 4\nc symmetry lex-leader spin\np cnf 16 0\n", 0, encode.ErrHeader},
	}
	for _, tt := range tests {
		cnf, err := encode.ReadDIMACS(strings.NewReader(tt.in))
		if !errors.Is(err, tt.want) || err == nil && cnf.N != tt.n {
			t.Errorf("%s: ReadDIMACS = %v, %v; want N=%d, %v", tt.name, cnf, err, tt.n, tt.want)
		}
	}
}

func TestModelCountingHeader(t *testing.T) {
	for _, tt := range []struct {
		enc  encode.Encoding
		sym  bool
		head string
	}{
		{encode.Pairwise, false, "c t mc\n"},
		{encode.Commander, false, "c t mc\n"},
		{encode.Pairwise, true, "c t mc\n"},
		{encode.Seq, false, "c t mc\n"},
		{encode.Bimander, true, "c t mc\n"},
	} {
		e, _ := encode.NewEncoder(3, encode.Options{Encoding: tt.enc, Symmetry: tt.sym})
		var buf bytes.Buffer
		if err := (encode.DIMACS{ModelCounting: true}).WriteEncoder(context.Background(), &buf, e); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if !strings.HasPrefix(out, tt.head) || strings.Contains(out, "c p show") {
			t.Errorf("%s symmetry=%v:\n%s", tt.enc, tt.sym, out)
		}
	}
}

func TestParseEncoding(t *testing.T) {
	for _, name := range encode.Encodings() {
		if got, err := encode.ParseEncoding(string(name)); got != name || err != nil {
			t.Errorf("ParseEncoding(%q) = %q, %v", name, got, err)
		}
	}
	if got, err := encode.ParseEncoding(""); got != encode.Auto || err != nil {
		t.Errorf("ParseEncoding(\"\") = %q, %v", got, err)
	}
	_, err := encode.ParseEncoding("Pairwise")
	if !errors.Is(err, encode.ErrEncoding) || !strings.Contains(err.Error(), "pairwise, seq, commander, product, binary, bimander, ladder, totalizer, sortnet or auto") {
		t.Errorf("ParseEncoding(Pairwise) = %v", err)
	}
	list := encode.Encodings()
	list[0] = "changed"
	if encode.Encodings()[0] != encode.Pairwise {
		t.Error("Encodings returns shared memory")
	}
}

func TestRandomPlacement(t *testing.T) {
	for n := 1; n <= 30; n++ {
		for k := 0; k <= n; k++ {
			if (n == 2 || n == 3) && k == n || n == 2 && k == 2 {
				continue
			}
			a, err := encode.RandomPlacement(n, k, 7)
			if err != nil {
				t.Fatalf("RandomPlacement(%d, %d): %v", n, k, err)
			}
			b, _ := encode.RandomPlacement(n, k, 7)
			if len(a) != k || board.CheckPlacement(n, a) != nil || !slices.Equal(a, b) {
				t.Fatalf("RandomPlacement(%d, %d) = %v, then %v", n, k, a, b)
			}
			for i := 1; i < len(a); i++ {
				if a[i-1].Row >= a[i].Row {
					t.Fatalf("RandomPlacement(%d, %d) = %v: not sorted by row", n, k, a)
				}
			}
		}
	}
	x, _ := encode.RandomPlacement(20, 10, 1)
	y, _ := encode.RandomPlacement(20, 10, 2)
	if slices.Equal(x, y) {
		t.Errorf("seeds 1 and 2 give the same placement %v", x)
	}
	for _, tt := range []struct{ n, k int }{{2, 2}, {3, 3}, {4, 5}, {4, -1}} {
		if _, err := encode.RandomPlacement(tt.n, tt.k, 1); !errors.Is(err, encode.ErrNoPlacement) {
			t.Errorf("RandomPlacement(%d, %d) = %v, want ErrNoPlacement", tt.n, tt.k, err)
		}
	}
	if _, err := encode.RandomPlacement(0, 0, 1); !errors.Is(err, board.ErrSize) {
		t.Errorf("RandomPlacement(0, 0) = %v", err)
	}
}

func ExampleEncoder_WriteDIMACS() {
	e, _ := encode.NewEncoder(300, encode.Options{Encoding: encode.Commander})
	vars, clauses := e.Size()
	fmt.Println(vars, clauses)
	// Streams about 16 MB without holding the formula in memory.
	err := e.WriteDIMACS(context.Background(), io.Discard)
	fmt.Println(err)
	// Output:
	// 267708 1247856
	// <nil>
}

func TestSizeErrors(t *testing.T) {
	for _, n := range []int{0, -1, board.MaxN + 1, math.MaxInt} {
		if _, _, err := encode.Size(n, encode.Pairwise); !errors.Is(err, board.ErrSize) {
			t.Errorf("Size(%d) = %v, want ErrSize", n, err)
		}
	}
	if _, _, err := encode.Size(8, "nosuch"); !errors.Is(err, encode.ErrEncoding) {
		t.Errorf("Size(8, nosuch) = %v", err)
	}
}

func ExampleDIMACS_Write() {
	cnf, _ := encode.Queens(2, encode.Seq, nil)
	d := encode.DIMACS{Generator: "queens v1.0.0", ModelCounting: true}
	var buf bytes.Buffer
	d.Write(&buf, cnf)
	// The header only: seq defines its auxiliary variables, so the
	// models are the solutions (none for n = 2).
	fmt.Print(buf.String()[:strings.Index(buf.String(), "1 2 0")])
	// Output:
	// c t mc
	// c N-Queens puzzle as CNF, generated by queens v1.0.0
	// c n 2
	// c encoding seq
	// c placed none
	// c variables 1..4: queen at ROW:COL (1-based) is variable (ROW-1)*2 + COL
	// c variables 5..10: auxiliary (seq)
	// p cnf 10 22
}

func nonIdentity() []board.Transform {
	all := board.Transforms()
	return all[1:]
}

// Find out which instance a CNF is from its clauses alone, whatever their
// order: here the seq CNF of n = 6 with a queen on 1:2, its clauses
// reversed.
func ExampleIdentify() {
	cnf, _ := encode.Queens(6, encode.Seq, []board.Queen{{Row: 0, Col: 1}})
	var h encode.ClauseHash
	for i := len(cnf.Clauses) - 1; i >= 0; i-- {
		h.Add(cnf.Clauses[i])
	}
	opt, ok, err := encode.Identify(context.Background(), &h, cnf.Vars, 6, nil, nil, [][]board.Queen{nil, {{Row: 0, Col: 1}}})
	fmt.Println(opt.Encoding, opt.Place, opt.Symmetry, ok, err)
	h.Add([]int{-1})
	_, ok, _ = encode.Identify(context.Background(), &h, cnf.Vars, 6, nil, nil, [][]board.Queen{nil, {{Row: 0, Col: 1}}})
	fmt.Println(ok)
	// Output:
	// seq [1:2] false true <nil>
	// false
}
