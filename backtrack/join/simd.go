package join

import (
	"errors"
	"fmt"
	"os"
)

// SIMDEnv is the environment variable that forces the join's matcher
// onto a lower path than the best the CPU has: "avx512", "avx2" or "go"
// (empty or unset: the best).
const SIMDEnv = "QUEENS_SIMD"

// ErrSIMD is returned (wrapped) by [Count] and [SIMD] when [SIMDEnv]
// names a path that is unknown or that this CPU or build lacks.
var ErrSIMD = errors.New("unavailable matcher path")

// simd is a path of the matcher: the pure-Go 64-lane one, or a 512-lane
// one in assembly.
type simd int

const (
	simdGo     simd = iota // 64 lanes in pure Go: every CPU, -tags purego
	simdAVX2               // 512 lanes, two 256-bit ANDs per chunk, counted by VPSHUFB
	simdAVX512             // 512 lanes, one 512-bit AND per chunk, VPOPCNTQ
)

var simdNames = [...]string{simdGo: "go", simdAVX2: "avx2", simdAVX512: "avx512"}

func (s simd) String() string { return simdNames[s] }

// bestSIMD returns the best path this CPU and build run.
func bestSIMD() simd {
	switch {
	case hasAVX512:
		return simdAVX512
	case hasAVX2:
		return simdAVX2
	}
	return simdGo
}

// pickSIMD returns the path that the value env of [SIMDEnv] asks for, or
// an error wrapping ErrSIMD.
func pickSIMD(env string) (simd, error) {
	best := bestSIMD()
	if env == "" {
		return best, nil
	}
	for s, name := range simdNames {
		if name != env {
			continue
		}
		if simd(s) > best {
			return best, fmt.Errorf("%w: %s=%s, but this CPU or build runs at most %s", ErrSIMD, SIMDEnv, env, best)
		}
		return simd(s), nil
	}
	return best, fmt.Errorf("%w: %s=%q: want avx512, avx2 or go", ErrSIMD, SIMDEnv, env)
}

// envSIMD returns the path [SIMDEnv] asks for now (the best when unset,
// or with an error wrapping ErrSIMD).
func envSIMD() (simd, error) { return pickSIMD(os.Getenv(SIMDEnv)) }

// SIMD returns the path that [Count] matches halves on: "avx512" (512
// lanes, AVX-512 with VPOPCNTQ), "avx2" (512 lanes, AVX2 with BMI2 and
// POPCNT) or "go" (64 lanes in pure Go, as on every other CPU and with
// -tags purego): the best this CPU and build run, or the one the
// environment variable [SIMDEnv] forces (read at every call and at every
// Count). It returns an error wrapping [ErrSIMD] when [SIMDEnv] names an
// unknown path or one above the best (Count then fails with it).
func SIMD() (string, error) {
	s, err := envSIMD()
	return s.String(), err
}
