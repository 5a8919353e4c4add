//go:build !purego

#include "textflag.h"

// Byte classes, looked up by low and high nibble (VPSHUFB); a byte is in
// a class when both lookups have its bit. Bytes of 0x80 and above have no
// class (VPSHUFB gives zero for them).
//
//	0x01 '"'   0x02 '\\'   0x04 ' '   0x08 '\n'   0x10 '\t' '\n' '\r'
//	0x20 '[' ']' '{' '}'   0x40 ':'   0x80 ','
DATA lowNibble<>+0(SB)/8, $0x0000000000010004
DATA lowNibble<>+8(SB)/8, $0x0000308220581000
GLOBL lowNibble<>(SB), RODATA|NOPTR, $16
DATA highNibble<>+0(SB)/8, $0x2000220040850018
DATA highNibble<>+8(SB)/8, $0x0000000000000000
GLOBL highNibble<>(SB), RODATA|NOPTR, $16

// func squeezeAVX512(dst, src []byte, masks []uint64, st *lexState) (n, blocks int)
//
// Every instruction that touches a vector register is VEX or EVEX
// encoded (VMOVQ, VPCLMULQDQ), never legacy SSE (MOVQ, PCLMULQDQ): on
// Intel CPUs a legacy SSE instruction while the upper halves of the ZMM
// registers are in use pays a state transition, which made this loop run
// at 100-190 MB/s instead of 5-8 GB/s (TestKernelInstructionsAreVEX).
//
// The scalar part follows lexBlock in squeeze.go step by step. The state
// lives in registers (BX in, R15 esc, R13 gap, R14 scalar) and is copied
// to X8-X10 before each block, so that a block that stops the kernel
// leaves st as it was before that block. X8-X10 are used for nothing
// else: the classification below writes Z5 and Z6, whose low lanes are
// X5 and X6.
TEXT ·squeezeAVX512(SB), NOSPLIT, $0-96
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
	SHRQ $6, CX
	MOVQ masks_base+48(FP), DX
	MOVQ CX, blocks+88(FP)
	TESTQ CX, CX
	JZ   done

	MOVQ st+72(FP), AX
	MOVQ 0(AX), BX
	MOVQ 8(AX), R15
	MOVQ 16(AX), R13
	MOVQ 24(AX), R14

	VBROADCASTI32X4 lowNibble<>(SB), Z16
	VBROADCASTI32X4 highNibble<>(SB), Z17
	MOVL $0x0f, AX
	VPBROADCASTB AX, Z18
	MOVL $0x01, AX
	VPBROADCASTB AX, Z19 // quote
	MOVL $0x02, AX
	VPBROADCASTB AX, Z20 // backslash
	MOVL $0x14, AX
	VPBROADCASTB AX, Z21 // white space
	MOVL $0x08, AX
	VPBROADCASTB AX, Z22 // line break
	MOVL $0xf5, AX
	VPBROADCASTB AX, Z23 // not a token byte: quote, white space, structural
	MOVQ $-1, AX
	VMOVQ AX, X3         // all ones, for the prefix XOR by carry-less multiply

loop:
	VMOVQ BX, X8
	VMOVQ R15, X9
	VMOVQ R13, X10

	VMOVDQU64 (SI), Z0
	VPSRLW    $4, Z0, Z1
	VPANDQ    Z18, Z1, Z1
	VPSHUFB   Z0, Z16, Z5
	VPSHUFB   Z1, Z17, Z6
	VPANDQ    Z5, Z6, Z5  // classes
	VPTESTMB  Z19, Z5, K1
	VPTESTMB  Z20, Z5, K2
	VPTESTMB  Z21, Z5, K3
	VPTESTMB  Z22, Z5, K4
	VPTESTMB  Z23, Z5, K5
	KMOVQ     K1, R8      // q
	KMOVQ     K2, R9      // bs
	KMOVQ     K3, R10     // ws
	KMOVQ     K4, 8(DX)   // line breaks, straight to the masks
	KMOVQ     K5, R12     // q | ws | structural

	// Escapes.
	MOVQ R15, AX
	NOTQ AX
	ANDQ AX, R9     // bs &^= esc
	MOVQ R9, R11
	SHLQ $1, R11
	ORQ  R15, R11   // follows
	MOVQ $0xaaaaaaaaaaaaaaaa, AX
	ANDQ R9, AX
	MOVQ R11, R15
	NOTQ R15
	ANDQ R15, AX    // oddStarts
	ADDQ R9, AX     // seq
	MOVQ $0, R15
	ADCQ $0, R15    // esc for the next block
	SHLQ $1, AX
	MOVQ $0x5555555555555555, R9
	XORQ R9, AX
	ANDQ R11, AX    // escaped
	NOTQ AX
	ANDQ R8, AX     // unescaped quotes

	// Inside strings: the prefix XOR of the quotes, as a carry-less
	// multiplication by all ones.
	VMOVQ      AX, X4
	VPCLMULQDQ $0x00, X3, X4, X4
	VMOVQ      X4, AX
	XORQ      BX, AX // in
	MOVQ      AX, BX
	SARQ      $63, BX // in, for the next block

	// Token bytes, and white space outside strings.
	ORQ  AX, R12
	NOTQ R12        // tokens
	NOTQ AX
	ANDQ AX, R10    // ws &^= in

	// Merged tokens.
	MOVQ R10, R8
	SHRQ $1, R8
	ANDQ R12, R8
	SHLQ $1, R8     // starts
	MOVQ R14, R9
	ANDQ R10, R9
	ANDQ $1, R9
	ORQ  R13, R9    // cin
	MOVQ R10, R11
	ADDQ R8, R11
	MOVQ $0, R13
	ADCQ $0, R13
	ADDQ R9, R11    // sum
	ADCQ $0, R13    // gap for the next block
	MOVQ R10, R8
	NOTQ R8
	ANDQ R11, R8
	ANDQ R12, R8
	JNZ  bad
	MOVQ R12, R14
	SHRQ $63, R14   // scalar for the next block

	NOTQ R10        // keep
	MOVQ R10, 0(DX)
	KMOVQ R10, K1
	VPCOMPRESSB Z0, K1, Z2
	VMOVDQU64 Z2, (DI)
	POPCNTQ R10, R10
	ADDQ R10, DI
	ADDQ $64, SI
	ADDQ $16, DX
	DECQ CX
	JNZ  loop

save:
	MOVQ st+72(FP), AX
	MOVQ BX, 0(AX)
	MOVQ R15, 8(AX)
	MOVQ R13, 16(AX)
	MOVQ R14, 24(AX)

done:
	MOVQ dst_base+0(FP), AX
	SUBQ AX, DI
	MOVQ DI, n+80(FP)
	VZEROUPPER
	RET

bad:
	// Leave st as it was before this block (R14 is not yet changed).
	VMOVQ X8, BX
	VMOVQ X9, R15
	VMOVQ X10, R13
	MOVQ blocks+88(FP), AX
	SUBQ CX, AX
	MOVQ AX, blocks+88(FP)
	JMP  save

// func squeezeAVX2(dst, src []byte, masks []uint64, st *lexState) (n, blocks int)
//
// squeezeAVX512 for CPUs with AVX2 but without AVX-512: a block is read as
// two 32-byte halves, classified by the same nibble lookups, and each
// class's mask gathered with VPMOVMSKB. AVX2 has no VPCOMPRESSB: the
// block is compacted 8 bytes at a time by VPSHUFB with a shuffle from
// squeezeShuffles, looked up by those 8 bytes' kept-byte mask. The scalar
// part is squeezeAVX512's; the state is written to st before each block,
// so that a block that stops the kernel leaves st as it was before it.

// CLASS sets out to the mask of the block's bytes in class cls (a byte
// of the class bits in Y7 or Y9): the bytes whose classes (Y0, Y1) share a
// bit with it.
#define CLASS(cls, out) \
	VPAND     cls, Y0, Y2; \
	VPCMPEQB  Y10, Y2, Y2; \
	VPMOVMSKB Y2, out; \
	VPAND     cls, Y1, Y3; \
	VPCMPEQB  Y10, Y3, Y3; \
	VPMOVMSKB Y3, AX; \
	SHLQ      $32, AX; \
	ORQ       AX, out; \
	NOTQ      out

// BIT sets out to the mask of the block's bytes in the one-bit class
// 1<<(7-shift): shifting the classes (Y0, Y1) left by shift within each
// 16-bit lane brings each byte's class bit to its top bit, which
// VPMOVMSKB gathers (a low byte's bits shift into the high byte's bits 0-6,
// never its top bit). Two instructions a half instead of CLASS's three,
// and no NOT.
#define BIT(shift, out) \
	VPSLLW    $shift, Y0, Y2; \
	VPMOVMSKB Y2, out; \
	VPSLLW    $shift, Y1, Y3; \
	VPMOVMSKB Y3, AX; \
	SHLQ      $32, AX; \
	ORQ       AX, out

// COMPACT8 moves the kept bytes of the block's bytes 8j..8j+7 (at off)
// to DI: their
// kept-byte mask (byte j of the keep mask at 0(DX)) picks the shuffle.
#define COMPACT8(j, off) \
	MOVBQZX j(DX), AX; \
	VMOVQ   (R12)(AX*8), X2; \
	VMOVQ   off(SI), X3; \
	VPSHUFB X2, X3, X3; \
	VMOVQ   X3, (DI); \
	POPCNTQ AX, AX; \
	ADDQ    AX, DI

TEXT ·squeezeAVX2(SB), NOSPLIT, $0-96
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
	SHRQ $6, CX
	MOVQ masks_base+48(FP), DX
	MOVQ CX, blocks+88(FP)
	TESTQ CX, CX
	JZ   done2

	MOVQ st+72(FP), AX
	MOVQ 0(AX), BX
	MOVQ 8(AX), R15
	MOVQ 16(AX), R13
	MOVQ 24(AX), R14

	VBROADCASTI128 lowNibble<>(SB), Y13
	VBROADCASTI128 highNibble<>(SB), Y14
	MOVL $0x0f, AX
	VMOVD AX, X12
	VPBROADCASTB X12, Y12
	MOVL $0x14, AX
	VMOVD AX, X7
	VPBROADCASTB X7, Y7 // white space
	MOVL $0xf5, AX
	VMOVD AX, X9
	VPBROADCASTB X9, Y9 // not a token byte: quote, white space, structural
	VPXOR Y10, Y10, Y10
	MOVQ $-1, AX
	VMOVQ AX, X11       // all ones, for the prefix XOR by carry-less multiply

loop2:
	// The state before this block, in case the block stops the kernel.
	MOVQ st+72(FP), AX
	MOVQ BX, 0(AX)
	MOVQ R15, 8(AX)
	MOVQ R13, 16(AX)
	MOVQ R14, 24(AX)

	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VPSRLW  $4, Y0, Y2
	VPAND   Y12, Y2, Y2
	VPSRLW  $4, Y1, Y3
	VPAND   Y12, Y3, Y3
	VPSHUFB Y0, Y13, Y0
	VPSHUFB Y2, Y14, Y2
	VPAND   Y2, Y0, Y0 // classes of the first half
	VPSHUFB Y1, Y13, Y1
	VPSHUFB Y3, Y14, Y3
	VPAND   Y3, Y1, Y1 // classes of the second half

	BIT(7, R8)    // q (class 0x01)
	BIT(6, R9)    // bs (0x02)
	CLASS(Y7, R10) // ws
	BIT(4, R11)   // line breaks (0x08), straight to the masks
	MOVQ R11, 8(DX)
	CLASS(Y9, R12)  // q | ws | structural

	// Escapes.
	MOVQ R15, AX
	NOTQ AX
	ANDQ AX, R9     // bs &^= esc
	MOVQ R9, R11
	SHLQ $1, R11
	ORQ  R15, R11   // follows
	MOVQ $0xaaaaaaaaaaaaaaaa, AX
	ANDQ R9, AX
	MOVQ R11, R15
	NOTQ R15
	ANDQ R15, AX    // oddStarts
	ADDQ R9, AX     // seq
	MOVQ $0, R15
	ADCQ $0, R15    // esc for the next block
	SHLQ $1, AX
	MOVQ $0x5555555555555555, R9
	XORQ R9, AX
	ANDQ R11, AX    // escaped
	NOTQ AX
	ANDQ R8, AX     // unescaped quotes

	// Inside strings: the prefix XOR of the quotes, as a carry-less
	// multiplication by all ones.
	VMOVQ      AX, X4
	VPCLMULQDQ $0x00, X11, X4, X4
	VMOVQ      X4, AX
	XORQ      BX, AX // in
	MOVQ      AX, BX
	SARQ      $63, BX // in, for the next block

	// Token bytes, and white space outside strings.
	ORQ  AX, R12
	NOTQ R12        // tokens
	NOTQ AX
	ANDQ AX, R10    // ws &^= in

	// Merged tokens.
	MOVQ R10, R8
	SHRQ $1, R8
	ANDQ R12, R8
	SHLQ $1, R8     // starts
	MOVQ R14, R9
	ANDQ R10, R9
	ANDQ $1, R9
	ORQ  R13, R9    // cin
	MOVQ R10, R11
	ADDQ R8, R11
	MOVQ $0, R13
	ADCQ $0, R13
	ADDQ R9, R11    // sum
	ADCQ $0, R13    // gap for the next block
	MOVQ R10, R8
	NOTQ R8
	ANDQ R11, R8
	ANDQ R12, R8
	JNZ  bad2
	MOVQ R12, R14
	SHRQ $63, R14   // scalar for the next block

	NOTQ R10        // keep
	MOVQ R10, 0(DX)
	LEAQ ·squeezeShuffles(SB), R12
	COMPACT8(0, 0)
	COMPACT8(1, 8)
	COMPACT8(2, 16)
	COMPACT8(3, 24)
	COMPACT8(4, 32)
	COMPACT8(5, 40)
	COMPACT8(6, 48)
	COMPACT8(7, 56)
	ADDQ $64, SI
	ADDQ $16, DX
	DECQ CX
	JNZ  loop2

	MOVQ st+72(FP), AX
	MOVQ BX, 0(AX)
	MOVQ R15, 8(AX)
	MOVQ R13, 16(AX)
	MOVQ R14, 24(AX)

done2:
	MOVQ dst_base+0(FP), AX
	SUBQ AX, DI
	MOVQ DI, n+80(FP)
	VZEROUPPER
	RET

bad2:
	// st holds the state before this block already.
	MOVQ blocks+88(FP), AX
	SUBQ CX, AX
	MOVQ AX, blocks+88(FP)
	JMP  done2
