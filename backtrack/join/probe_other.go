//go:build !amd64 || purego

package join

// The 512-lane paths need amd64 assembly.
const hasAVX512, hasAVX2 = false, false

func probeWide(tab *uint64, xs *uint64, n int, c uint, pieces int, wl *uint64, wbits uint64, out *uint64, init *uint64) {
	panic("join: probeWide without AVX-512")
}

func andNotWide(dst, src *uint64, w *uint64, n int) {
	panic("join: andNotWide without AVX-512")
}

func transposeWide(dst *uint64, src *[64]uint64, nbytes int) {
	panic("join: transposeWide without AVX-512")
}

func probeAVX2(tab *uint64, xs *uint64, n int, c uint, pieces int, wl *uint64, wbits uint64, init *uint64) uint64 {
	panic("join: probeAVX2 without AVX2")
}

func andNotAVX2(dst, src *uint64, w *uint64, n int) {
	panic("join: andNotAVX2 without AVX2")
}

func transposeAVX2(dst *uint64, src *[64]uint64, nbytes int, valid *uint64) {
	panic("join: transposeAVX2 without AVX2")
}
