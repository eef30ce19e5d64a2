//go:build !purego

package join

import "golang.org/x/sys/cpu"

// hasAVX512 reports whether this machine runs probeWide: AVX-512 with its
// population count (and the system saves the registers); hasAVX2 whether
// it runs probeAVX2 and transposeAVX2: AVX2, asked for with BMI2 and
// POPCNT (which it uses), as x86-64-v3 has them together.
var (
	hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ
	hasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT
)

// probeWide is written in probe_amd64.s.
//
//go:noescape
func probeWide(tab *uint64, xs *uint64, n int, c uint, pieces int, wl *uint64, wbits uint64, out *uint64, init *uint64)

// andNotWide is written in probe_amd64.s.
//
//go:noescape
func andNotWide(dst, src *uint64, w *uint64, n int)

// transposeWide is written in probe_amd64.s.
//
//go:noescape
func transposeWide(dst *uint64, src *[64]uint64, nbytes int)

// probeAVX2 is probeWide on AVX2, written in probe_avx2_amd64.s: it
// returns the sum of the eight lane sums.
//
//go:noescape
func probeAVX2(tab *uint64, xs *uint64, n int, c uint, pieces int, wl *uint64, wbits uint64, init *uint64) uint64

// andNotAVX2 is andNotWide on AVX2, written in probe_avx2_amd64.s.
//
//go:noescape
func andNotAVX2(dst, src *uint64, w *uint64, n int)

// transposeAVX2 is transposeWide on AVX2, with its lanes in another
// order, written in probe_avx2_amd64.s.
//
//go:noescape
func transposeAVX2(dst *uint64, src *[64]uint64, nbytes int, valid *uint64)
