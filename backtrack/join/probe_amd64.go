//go:build !purego

package join

import "golang.org/x/sys/cpu"

// hasWide reports whether this machine runs probeWide: AVX-512 with its
// population count (and the system saves the registers).
var hasWide = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ

// probeWide is written in probe_amd64.s.
//
//go:noescape
func probeWide(tab *uint64, xs *uint64, n int, c uint, pieces int, wl *uint64, wbits uint64, out *uint64)

// andNotWide is written in probe_amd64.s.
//
//go:noescape
func andNotWide(dst, src *uint64, w *uint64, n int)

// transposeWide is written in probe_amd64.s.
//
//go:noescape
func transposeWide(dst *uint64, src *[64]uint64, nbytes int)
