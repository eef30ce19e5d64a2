//go:build !amd64 || purego

package join

// hasWide is false: probeWide needs amd64 assembly.
const hasWide = false

func probeWide(tab *uint64, xs *uint64, n int, c uint, pieces int, wl *uint64, wbits uint64, out *uint64) {
	panic("join: probeWide without AVX-512")
}

func andNotWide(dst, src *uint64, w *uint64, n int) {
	panic("join: andNotWide without AVX-512")
}

func transposeWide(dst *uint64, src *[64]uint64, nbytes int) {
	panic("join: transposeWide without AVX-512")
}
