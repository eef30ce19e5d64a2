//go:build !purego

#include "textflag.h"

// func probeWide(tab *uint64, xs *uint64, n int, c uint, pieces int, wl *uint64, wbits uint64, out *uint64)
//
// For each of the n patterns x at xs, ANDs the pieces 512-lane table
// entries its chunks of c bits select (entry v of piece p at
// tab + ((p<<c)+v)*64: the lanes of the group compatible with chunk
// value v), counts the lanes left plus those of them in wl (the lanes
// that count twice), doubles that when x has a bit of wbits, and adds it
// to the eight lane sums at out.
TEXT ·probeWide(SB), NOSPLIT, $0-64
	MOVQ tab+0(FP), DI
	MOVQ xs+8(FP), SI
	MOVQ n+16(FP), DX
	MOVQ c+24(FP), CX
	MOVQ pieces+32(FP), R8
	MOVQ wl+40(FP), R9
	MOVQ wbits+48(FP), R10
	VMOVDQU64 (R9), Z7
	VPXORQ Z6, Z6, Z6
	MOVQ $1, R12
	SHLQ CX, R12
	DECQ R12
	MOVQ $64, R13
	SHLQ CX, R13
	TESTQ DX, DX
	JZ done

xloop:
	MOVQ (SI), AX
	MOVQ AX, BX
	ANDQ R12, BX
	SHLQ $6, BX
	VMOVDQU64 (DI)(BX*1), Z0
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
	VPANDQ (R11)(BX*1), Z0, Z0
	DECQ R9
	JNZ ploop

pdone:
	VPANDQ Z0, Z7, Z1
	VPOPCNTQ Z0, Z0
	VPOPCNTQ Z1, Z1
	VPADDQ Z1, Z0, Z0
	MOVQ (SI), AX
	ANDQ R10, AX
	POPCNTQ AX, AX
	VMOVQ AX, X2
	VPSLLQ X2, Z0, Z0
	VPADDQ Z0, Z6, Z6
	ADDQ $8, SI
	DECQ DX
	JNZ xloop

done:
	MOVQ out+56(FP), R11
	VMOVDQU64 Z6, (R11)
	VZEROUPPER
	RET

// func andNotWide(dst, src *uint64, w *uint64, n int)
//
// Sets the n 512-bit entries at dst to those at src and not w (n >= 1).
TEXT ·andNotWide(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ w+16(FP), AX
	MOVQ n+24(FP), CX
	VMOVDQU64 (AX), Z1

loop:
	VPANDNQ (SI), Z1, Z0
	VMOVDQU64 Z0, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ loop
	VZEROUPPER
	RET
