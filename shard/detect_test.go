package shard

import (
	"math"
	"math/big"
	"testing"
)

// detectionExact is 1 − C(parts−forged, k)/C(parts, k) in exact
// arithmetic.
func detectionExact(parts, forged, k int) float64 {
	if k > parts-forged {
		return 1
	}
	miss := new(big.Rat).SetFrac(new(big.Int).Binomial(int64(parts-forged), int64(k)), new(big.Int).Binomial(int64(parts), int64(k)))
	f, _ := new(big.Rat).Sub(big.NewRat(1, 1), miss).Float64()
	return f
}

// TestDetection checks the probabilities against exact binomials and a
// few that follow by hand.
func TestDetection(t *testing.T) {
	for parts := 1; parts <= 40; parts++ {
		for forged := 0; forged <= parts; forged++ {
			for k := 0; k <= parts; k++ {
				got, want := Detection(parts, forged, k), detectionExact(parts, forged, k)
				if forged == 0 || k == 0 {
					want = 0
				}
				if math.Abs(got-want) > 1e-12 {
					t.Fatalf("Detection(%d, %d, %d) = %v, want %v", parts, forged, k, got, want)
				}
			}
		}
	}
	// One forged piece: caught with probability k/parts.
	if got := Detection(38605, 1, 16); math.Abs(got-16.0/38605) > 1e-15 {
		t.Errorf("Detection(38605, 1, 16) = %v, want %v", got, 16.0/38605)
	}
	if got, want := Detection(100000, 1000, 300), detectionExact(100000, 1000, 300); math.Abs(got-want) > 1e-9 {
		t.Errorf("Detection(100000, 1000, 300) = %v, want %v", got, want)
	}
	for _, c := range []struct {
		parts, forged int
		p             float64
	}{{38605, 386, 0.99}, {9523, 1, 0.5}, {100, 3, 0.9}, {5, 5, 0.999}} {
		k, err := PiecesFor(c.parts, c.forged, c.p)
		if err != nil || Detection(c.parts, c.forged, k) < c.p || k > 0 && Detection(c.parts, c.forged, k-1) >= c.p {
			t.Errorf("PiecesFor(%d, %d, %v) = %d, %v: not the least k", c.parts, c.forged, c.p, k, err)
		}
	}
	if k, _ := PiecesFor(9523, 1, 0.5); k != 4762 {
		t.Errorf("PiecesFor(9523, 1, 0.5) = %d, want 4762", k)
	}
	for _, p := range []float64{0, 1, -1, math.NaN()} {
		if _, err := PiecesFor(10, 1, p); err == nil {
			t.Errorf("PiecesFor(p = %v): no error", p)
		}
	}
}
