//go:build !purego

#include "textflag.h"

// func probeAVX2(tab *uint64, xs *uint64, n int, c uint, pieces int, wl *uint64, wbits uint64) uint64
//
// probeWide on AVX2: for each of the n >= 1 patterns x at xs, ANDs the
// pieces 512-lane table entries its chunks of c bits select (entry v of
// piece p at tab + ((p<<c)+v)*64), two 256-bit halves at a time, counts
// the lanes left plus those of them in wl with eight scalar POPCNTs
// each, doubles that when x has a bit of wbits, and returns the sum.
TEXT ·probeAVX2(SB), NOSPLIT, $128-64
	MOVQ tab+0(FP), DI
	MOVQ xs+8(FP), SI
	MOVQ n+16(FP), DX
	MOVQ c+24(FP), CX
	MOVQ pieces+32(FP), R8
	MOVQ wl+40(FP), R9
	MOVQ wbits+48(FP), R10
	VMOVDQU (R9), Y8
	VMOVDQU 32(R9), Y9
	MOVQ $1, R12
	SHLQ CX, R12
	DECQ R12
	MOVQ $64, R13
	SHLQ CX, R13
	XORQ R14, R14

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
	VMOVDQU Y0, 0(SP)
	VMOVDQU Y1, 32(SP)
	VMOVDQU Y2, 64(SP)
	VMOVDQU Y3, 96(SP)
	POPCNTQ 0(SP), AX
	POPCNTQ 8(SP), BX
	POPCNTQ 16(SP), R9
	POPCNTQ 24(SP), R11
	ADDQ BX, AX
	ADDQ R11, R9
	POPCNTQ 32(SP), BX
	POPCNTQ 40(SP), R11
	ADDQ BX, AX
	ADDQ R11, R9
	POPCNTQ 48(SP), BX
	POPCNTQ 56(SP), R11
	ADDQ BX, AX
	ADDQ R11, R9
	POPCNTQ 64(SP), BX
	POPCNTQ 72(SP), R11
	ADDQ BX, AX
	ADDQ R11, R9
	POPCNTQ 80(SP), BX
	POPCNTQ 88(SP), R11
	ADDQ BX, AX
	ADDQ R11, R9
	POPCNTQ 96(SP), BX
	POPCNTQ 104(SP), R11
	ADDQ BX, AX
	ADDQ R11, R9
	POPCNTQ 112(SP), BX
	POPCNTQ 120(SP), R11
	ADDQ BX, AX
	ADDQ R11, R9
	ADDQ R9, AX
	MOVQ (SI), BX
	ANDQ R10, BX
	POPCNTQ BX, BX
	SHLXQ BX, AX, AX
	ADDQ AX, R14
	ADDQ $8, SI
	DECQ DX
	JNZ xloop

	MOVQ R14, ret+56(FP)
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
