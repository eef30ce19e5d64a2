//go:build !purego

#include "textflag.h"

// func probeAVX2(tab *uint64, xs *uint64, n int, c uint, pieces int, wl *uint64, wbits uint64) uint64
//
// probeWide on AVX2: for each of the n >= 1 patterns x at xs, ANDs the
// pieces 512-lane table entries its chunks of c bits select (entry v of
// piece p at tab + ((p<<c)+v)*64), two 256-bit halves at a time, counts
// the lanes left plus those of them in wl, doubles that when x has a bit
// of wbits, and returns the sum. The lanes are counted in the vector
// registers, a nibble at a time by table (VPSHUFB), the bytes summed by
// VPSADBW: a round trip through memory for scalar POPCNTs measured twice
// as slow, as the loads wait for the wide stores.
TEXT ·probeAVX2(SB), NOSPLIT, $0-64
	MOVQ tab+0(FP), DI
	MOVQ xs+8(FP), SI
	MOVQ n+16(FP), DX
	MOVQ c+24(FP), CX
	MOVQ pieces+32(FP), R8
	MOVQ wl+40(FP), R9
	MOVQ wbits+48(FP), R10
	VMOVDQU (R9), Y8
	VMOVDQU 32(R9), Y9
	MOVL $0x0f0f0f0f, AX
	VMOVD AX, X15
	VPBROADCASTD X15, Y15      // the low nibble of each byte
	MOVQ $0x0302020102010100, AX
	VMOVQ AX, X14
	MOVQ $0x0403030203020201, AX
	VPINSRQ $1, AX, X14, X14
	VINSERTI128 $1, X14, Y14, Y14 // the bits of each nibble value
	VPXOR Y12, Y12, Y12
	VPXOR Y13, Y13, Y13        // four lane sums
	MOVQ $1, R12
	SHLQ CX, R12
	DECQ R12
	MOVQ $64, R13
	SHLQ CX, R13

xloop:
	MOVQ (SI), AX
	MOVQ AX, BX
	ANDQ R12, BX
	SHLQ $6, BX
	VMOVDQU (DI)(BX*1), Y0
	VMOVDQU 32(DI)(BX*1), Y1
	MOVQ DI, R11
	MOVQ R8, R9
	DECQ R9
	JZ pdone

ploop:
	ADDQ R13, R11
	SHRQ CX, AX
	MOVQ AX, BX
	ANDQ R12, BX
	SHLQ $6, BX
	VPAND (R11)(BX*1), Y0, Y0
	VPAND 32(R11)(BX*1), Y1, Y1
	DECQ R9
	JNZ ploop

pdone:
	VPAND Y0, Y8, Y2
	VPAND Y1, Y9, Y3
	VPAND Y0, Y15, Y4
	VPSRLW $4, Y0, Y0
	VPAND Y0, Y15, Y0
	VPSHUFB Y4, Y14, Y4
	VPSHUFB Y0, Y14, Y0
	VPADDB Y4, Y0, Y0
	VPAND Y1, Y15, Y5
	VPSRLW $4, Y1, Y1
	VPAND Y1, Y15, Y1
	VPSHUFB Y5, Y14, Y5
	VPSHUFB Y1, Y14, Y1
	VPADDB Y5, Y1, Y1
	VPAND Y2, Y15, Y6
	VPSRLW $4, Y2, Y2
	VPAND Y2, Y15, Y2
	VPSHUFB Y6, Y14, Y6
	VPSHUFB Y2, Y14, Y2
	VPADDB Y6, Y2, Y2
	VPAND Y3, Y15, Y7
	VPSRLW $4, Y3, Y3
	VPAND Y3, Y15, Y3
	VPSHUFB Y7, Y14, Y7
	VPSHUFB Y3, Y14, Y3
	VPADDB Y7, Y3, Y3
	VPADDB Y1, Y0, Y0
	VPADDB Y3, Y2, Y2
	VPADDB Y2, Y0, Y0
	VPSADBW Y12, Y0, Y0
	MOVQ (SI), BX
	ANDQ R10, BX
	POPCNTQ BX, BX
	VMOVQ BX, X5
	VPSLLQ X5, Y0, Y0
	VPADDQ Y0, Y13, Y13
	ADDQ $8, SI
	DECQ DX
	JNZ xloop

	VEXTRACTI128 $1, Y13, X0
	VPADDQ X0, X13, X13
	VMOVQ X13, AX
	VPEXTRQ $1, X13, BX
	ADDQ BX, AX
	MOVQ AX, ret+56(FP)
	VZEROUPPER
	RET

// func andNotAVX2(dst, src *uint64, w *uint64, n int)
//
// andNotWide on AVX2: sets the n >= 1 512-bit entries at dst to those at
// src and not w.
TEXT ·andNotAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ w+16(FP), AX
	MOVQ n+24(FP), CX
	VMOVDQU (AX), Y2
	VMOVDQU 32(AX), Y3

loop:
	VPANDN (SI), Y2, Y0
	VPANDN 32(SI), Y3, Y1
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ loop
	VZEROUPPER
	RET
