package shard

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/queens-dev/queens/backtrack"
)

// TestUint128 checks the arithmetic against math/big, and that the JSON
// form refuses what is not a whole number below 2^128.
func TestUint128(t *testing.T) {
	limit := new(big.Int).Lsh(big.NewInt(1), 128)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		x := Uint128{rng.Uint64() >> rng.IntN(64), rng.Uint64()}
		y := Uint128{rng.Uint64() >> rng.IntN(64), rng.Uint64()}
		if rng.IntN(4) == 0 {
			x.Hi = 0
		}
		m := rng.Uint64() >> rng.IntN(64)
		bx, by := x.Big(), y.Big()
		sum, over := x.Add(y)
		want := new(big.Int).Add(bx, by)
		if over != (want.Cmp(limit) >= 0) || !over && sum.Big().Cmp(want) != 0 {
			t.Fatalf("%v + %v = %v (over %v), want %v", x, y, sum, over, want)
		}
		prod, over := x.Mul64(m)
		want = new(big.Int).Mul(bx, new(big.Int).SetUint64(m))
		if over != (want.Cmp(limit) >= 0) || !over && prod.Big().Cmp(want) != 0 {
			t.Fatalf("%v × %d = %v (over %v), want %v", x, m, prod, over, want)
		}
		if c := x.Cmp(y); c != bx.Cmp(by) {
			t.Fatalf("Cmp(%v, %v) = %d", x, y, c)
		}
		d := max(m, 1)
		q, r := x.DivMod(d)
		wq, wr := new(big.Int).QuoRem(bx, new(big.Int).SetUint64(d), new(big.Int))
		if q.Big().Cmp(wq) != 0 || r != wr.Uint64() {
			t.Fatalf("%v / %d = %v r %d, want %v r %v", x, d, q, r, wq, wr)
		}
		b, _ := json.Marshal(x)
		var back Uint128
		if err := json.Unmarshal(b, &back); err != nil || back != x || string(b) != bx.String() || fmt.Sprintf("%d", x) != bx.String() {
			t.Fatalf("JSON %s of %v read back as %v, %v", b, bx, back, err)
		}
	}
	for _, bad := range []string{"", "-1", "01", "1.0", "1e3", "\"5\"", "340282366920938463463374607431768211456", "3402823669209384634633746074317682114560"} {
		var x Uint128
		if err := json.Unmarshal([]byte(`{"x":`+bad+`}`), &struct{ X *Uint128 }{&x}); err == nil {
			t.Errorf("%q read as %v", bad, x)
		}
	}
	if max, err := ParseUint128("340282366920938463463374607431768211455"); err != nil || max != (Uint128{^uint64(0), ^uint64(0)}) {
		t.Errorf("2^128-1 read as %v, %v", max, err)
	}
	if s := fmt.Sprintf("[%5d|%-5v]", From64(42), From64(7)); s != "[   42|7    ]" {
		t.Errorf("widths: %q", s)
	}
	for _, x := range []Uint128{{3, 12}, {1, 0}, {5, 7}, {0, 48}, {^uint64(0), ^uint64(0)}} {
		want := new(big.Rat).SetFrac(x.Big(), big.NewInt(24)).RatString()
		if got := fraction24Of(x); got != want {
			t.Errorf("fraction24Of(%v) = %s, want %s", x, got, want)
		}
	}
}

// bigResult returns shard 0 of 1 of n = 28 with every piece given a
// tally of 8 × 10^15 solutions (in the form a count can have):
// sums past 2^64, as a real count of n >= 28 has them.
func bigResult(t *testing.T) Result {
	t.Helper()
	s := Spec{N: 28, Shards: 1, Version: "v"}
	pieces, parts, err := s.Pieces()
	if err != nil {
		t.Fatal(err)
	}
	r := Result{N: 28, Shards: 1, Scheme: Scheme, Engine: EngineConstellations, Parts: parts, Pieces: pieces,
		Version: "v", Fingerprint: constellationPrint(s, pieces)}
	for _, p := range pieces {
		var tl backtrack.Tally
		if !p.Symmetric() {
			tl.Total24 = 24 * 8 * 1e15 // a multiple of 24 × any piece's images
			tl.Unique24 = tl.Total24 / 8
		}
		if err := p.CheckTally(28, tl); err != nil {
			t.Fatal(err)
		}
		r.Tallies = append(r.Tallies, tl)
	}
	r.Sums, _ = SumTallies(r.Tallies)
	return r
}

// TestSumsPast64 merges a line whose sums pass 2^64: they are kept
// exactly, written as JSON numbers and read back, and the merge says no
// count is published.
func TestSumsPast64(t *testing.T) {
	r := bigResult(t)
	if r.Total24.Hi == 0 {
		t.Fatalf("the sums %v do not pass 2^64", r.Total24)
	}
	back, err := Parse(r.AppendLine(nil))
	if err != nil || back.Sums != r.Sums {
		t.Fatalf("Parse of a line past 2^64 = %v, %v; want %v", back.Sums, err, r.Sums)
	}
	sum, err := Merge([]Result{back})
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Int).Div(r.Total24.Big(), big.NewInt(24))
	if sum.Total.Big().Cmp(want) != 0 || Published(sum) != "unknown" {
		t.Errorf("merge = %v solutions (%s), want %v (unknown)", sum.Total, Published(sum), want)
	}
}
