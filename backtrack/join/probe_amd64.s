//go:build !purego

#include "textflag.h"

// func probeWide(tab *uint64, xs *uint64, n int, c uint, pieces int, wl *uint64, wbits uint64, out *uint64, init *uint64)
//
// For each of the n patterns x at xs, ANDs the 512 lanes at init and the
// pieces 512-lane table entries its chunks of c bits select (entry v of
// piece p at tab + ((p<<c)+v)*64: the lanes of the group compatible with
// chunk value v), counts the lanes left plus those of them in wl (the
// lanes that count twice), doubles that when x has a bit of wbits, and
// adds it to the eight lane sums at out.
TEXT ·probeWide(SB), NOSPLIT, $0-72
	MOVQ tab+0(FP), DI
	MOVQ xs+8(FP), SI
	MOVQ n+16(FP), DX
	MOVQ c+24(FP), CX
	MOVQ pieces+32(FP), R8
	MOVQ wl+40(FP), R9
	MOVQ wbits+48(FP), R10
	VMOVDQU64 (R9), Z7
	MOVQ init+64(FP), R9
	VMOVDQU64 (R9), Z8
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
	VPANDQ (DI)(BX*1), Z8, Z0
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

// func transposeWide(dst *uint64, src *[64]uint64, nbytes int)
//
// Turns the 64 words at src on their side, for their lowest 8*nbytes
// bits (nbytes >= 1): the word at dst + 64*j gets bit i from bit j of
// src[i]. Eight words at a time go down to bytes (VPMOVQB), 64 bytes
// make one register, and VPMOVB2M takes the top bit of each byte.
TEXT ·transposeWide(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ nbytes+16(FP), CX
	VMOVDQU64 0(SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 128(SI), Z2
	VMOVDQU64 192(SI), Z3
	VMOVDQU64 256(SI), Z4
	VMOVDQU64 320(SI), Z5
	VMOVDQU64 384(SI), Z6
	VMOVDQU64 448(SI), Z7
	ADDQ $448, DI // the word of bit 7

byteloop:
	VPMOVQB Z0, X16
	VPMOVQB Z1, X17
	VPMOVQB Z2, X18
	VPMOVQB Z3, X19
	VPMOVQB Z4, X20
	VPMOVQB Z5, X21
	VPMOVQB Z6, X22
	VPMOVQB Z7, X23
	VPUNPCKLQDQ X17, X16, X16
	VPUNPCKLQDQ X19, X18, X18
	VPUNPCKLQDQ X21, X20, X20
	VPUNPCKLQDQ X23, X22, X22
	VINSERTI64X2 $1, X18, Z16, Z16
	VINSERTI64X2 $2, X20, Z16, Z16
	VINSERTI64X2 $3, X22, Z16, Z16
	VPMOVB2M Z16, K1
	KMOVQ K1, 0(DI)
	VPADDB Z16, Z16, Z16
	VPMOVB2M Z16, K1
	KMOVQ K1, -64(DI)
	VPADDB Z16, Z16, Z16
	VPMOVB2M Z16, K1
	KMOVQ K1, -128(DI)
	VPADDB Z16, Z16, Z16
	VPMOVB2M Z16, K1
	KMOVQ K1, -192(DI)
	VPADDB Z16, Z16, Z16
	VPMOVB2M Z16, K1
	KMOVQ K1, -256(DI)
	VPADDB Z16, Z16, Z16
	VPMOVB2M Z16, K1
	KMOVQ K1, -320(DI)
	VPADDB Z16, Z16, Z16
	VPMOVB2M Z16, K1
	KMOVQ K1, -384(DI)
	VPADDB Z16, Z16, Z16
	VPMOVB2M Z16, K1
	KMOVQ K1, -448(DI)
	VPSRLQ $8, Z0, Z0
	VPSRLQ $8, Z1, Z1
	VPSRLQ $8, Z2, Z2
	VPSRLQ $8, Z3, Z3
	VPSRLQ $8, Z4, Z4
	VPSRLQ $8, Z5, Z5
	VPSRLQ $8, Z6, Z6
	VPSRLQ $8, Z7, Z7
	ADDQ $512, DI
	DECQ CX
	JNZ byteloop
	VZEROUPPER
	RET
