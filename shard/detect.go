package shard

import (
	"fmt"
	"math"
)

// Detection returns the probability that recounting k pieces drawn at
// random without replacement from parts catches a worker that forged
// forged of them: 1 − C(parts−forged, k) / C(parts, k), the chance that
// the draw meets at least one forged piece (the hypergeometric
// distribution). k and forged are clamped to 0..parts.
func Detection(parts, forged, k int) float64 {
	if parts <= 0 {
		return 0
	}
	forged, k = min(max(forged, 0), parts), min(max(k, 0), parts)
	if forged == 0 || k == 0 {
		return 0
	}
	if k > parts-forged {
		return 1 // every draw meets a forged piece
	}
	// C(parts−forged, k)/C(parts, k) = Π_{i<k} (parts−forged−i)/(parts−i),
	// in logarithms so that large k neither underflows early nor loses
	// the small probabilities.
	logMiss := 0.0
	for i := range k {
		logMiss += math.Log1p(-float64(forged) / float64(parts-i))
	}
	return -math.Expm1(logMiss)
}

// PiecesFor returns the smallest number of pieces to recount, of parts,
// so that a worker that forged forged of them is caught with probability
// at least p (0 < p < 1). It is parts when even that is needed: one
// forged piece in parts is caught by k pieces with probability k/parts.
// Errors: p out of (0, 1), forged below 1.
func PiecesFor(parts, forged int, p float64) (int, error) {
	if !(p > 0 && p < 1) {
		return 0, fmt.Errorf("detection probability %v: want more than 0 and less than 1", p)
	}
	if forged < 1 {
		return 0, fmt.Errorf("forged pieces %d: want at least 1", forged)
	}
	// Detection grows with k: bisect.
	lo, hi := 0, parts
	for lo < hi {
		mid := lo + (hi-lo)/2
		if Detection(parts, forged, mid) >= p {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, nil
}
