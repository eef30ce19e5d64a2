package sets

import (
	"fmt"
	"math/bits"

	"github.com/queens-dev/queens/board"
)

// Fingerprint summarises a multiset of solutions in constant memory: how
// many there were, and the sum (modulo 2^128) and xor of a 128-bit hash of
// each. It does not depend on the order the solutions came in, and two
// different multisets have the same Fingerprint only by a hash collision
// in both the sum and the xor. A solution seen twice changes the count and
// the sum, so duplicates show too.
type Fingerprint struct {
	Count uint64
	SumHi uint64
	SumLo uint64
	XorHi uint64
	XorLo uint64
}

// Add folds one solution into f.
func (f *Fingerprint) Add(s board.Solution) {
	hi, lo := Hash(s)
	var carry uint64
	f.SumLo, carry = bits.Add64(f.SumLo, lo, 0)
	f.SumHi, _ = bits.Add64(f.SumHi, hi, carry)
	f.XorHi ^= hi
	f.XorLo ^= lo
	f.Count++
}

// Merge folds all of g into f, as if g's solutions had been added to f.
func (f *Fingerprint) Merge(g Fingerprint) {
	var carry uint64
	f.SumLo, carry = bits.Add64(f.SumLo, g.SumLo, 0)
	f.SumHi, _ = bits.Add64(f.SumHi, g.SumHi, carry)
	f.XorHi ^= g.XorHi
	f.XorLo ^= g.XorLo
	f.Count += g.Count
}

// String shows the count and the 256 bits of hash state in hex.
func (f Fingerprint) String() string {
	return fmt.Sprintf("%d:%016x%016x:%016x%016x", f.Count, f.SumHi, f.SumLo, f.XorHi, f.XorLo)
}

// Hash returns a 128-bit hash (high and low halves) of the solution: two
// independent 64-bit mixes over the board size and every column. It is
// deterministic across runs and machines.
func Hash(s board.Solution) (hi, lo uint64) {
	hi = 0x9e3779b97f4a7c15 ^ uint64(len(s))
	lo = 0xc2b2ae3d27d4eb4f ^ uint64(len(s))<<32
	for _, col := range s {
		hi = mix(hi ^ uint64(col) ^ 0x5851f42d4c957f2d)
		lo = mix(lo + uint64(col)*0x94d049bb133111eb + 0x2545f4914f6cdd1d)
	}
	return mix(hi ^ lo>>17), mix(lo + hi)
}

// mix is the splitmix64 finaliser: a bijection of 64-bit words with full
// avalanche.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
