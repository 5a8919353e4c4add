#include "textflag.h"

// func squeezeAVX512(dst, src []byte, masks []uint64, st *lexState) (n, blocks int)
//
// The scalar part follows lexBlock in squeeze.go step by step.
TEXT ·squeezeAVX512(SB), NOSPLIT, $0-96
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
	SHRQ $6, CX
	MOVQ masks_base+48(FP), DX
	MOVQ st+72(FP), BX
	MOVQ CX, blocks+88(FP)
	TESTQ CX, CX
	JZ   done

	MOVL $0x22, AX
	VPBROADCASTB AX, Z16 // '"'
	MOVL $0x5c, AX
	VPBROADCASTB AX, Z17 // '\\'
	MOVL $0x20, AX
	VPBROADCASTB AX, Z18 // ' ', and the bit that folds '[' onto '{'
	MOVL $0x0a, AX
	VPBROADCASTB AX, Z19 // '\n'
	MOVL $0x0d, AX
	VPBROADCASTB AX, Z20 // '\r'
	MOVL $0x09, AX
	VPBROADCASTB AX, Z21 // '\t'
	MOVL $0x7b, AX
	VPBROADCASTB AX, Z23 // '{' and '['
	MOVL $0x7d, AX
	VPBROADCASTB AX, Z24 // '}' and ']'
	MOVL $0x3a, AX
	VPBROADCASTB AX, Z25 // ':'
	MOVL $0x2c, AX
	VPBROADCASTB AX, Z26 // ','

loop:
	VMOVDQU64 (SI), Z0
	VPCMPEQB  Z16, Z0, K1 // quotes
	VPCMPEQB  Z17, Z0, K2 // backslashes
	VPCMPEQB  Z18, Z0, K3
	VPCMPEQB  Z19, Z0, K4 // line breaks
	VPCMPEQB  Z20, Z0, K5
	VPCMPEQB  Z21, Z0, K6
	KORQ      K3, K5, K3
	KORQ      K3, K6, K3
	KORQ      K3, K4, K3  // white space
	VPORQ     Z18, Z0, Z1
	VPCMPEQB  Z23, Z1, K5
	VPCMPEQB  Z24, Z1, K6
	KORQ      K5, K6, K5
	VPCMPEQB  Z25, Z1, K6
	KORQ      K5, K6, K5
	VPCMPEQB  Z26, Z1, K6
	KORQ      K5, K6, K5  // structural
	KMOVQ     K1, R8      // q
	KMOVQ     K2, R9      // bs
	KMOVQ     K3, R10     // ws
	KMOVQ     K4, R11     // nl
	KMOVQ     K5, R12     // structural

	// Escapes.
	MOVQ 8(BX), R13 // st.esc
	MOVQ R13, AX
	NOTQ AX
	ANDQ AX, R9     // bs &^= esc
	MOVQ R9, R14
	SHLQ $1, R14
	ORQ  R13, R14   // follows
	MOVQ $0xaaaaaaaaaaaaaaaa, AX
	ANDQ R9, AX
	MOVQ R14, R15
	NOTQ R15
	ANDQ R15, AX    // oddStarts
	ADDQ R9, AX     // seq
	MOVQ $0, R15
	ADCQ $0, R15    // new esc
	SHLQ $1, AX
	MOVQ $0x5555555555555555, R13
	XORQ R13, AX
	ANDQ R14, AX    // escaped
	NOTQ AX
	ANDQ R8, AX     // unescaped quotes

	// Inside strings.
	MOVQ AX, R13
	SHLQ $1, R13
	XORQ R13, AX
	MOVQ AX, R13
	SHLQ $2, R13
	XORQ R13, AX
	MOVQ AX, R13
	SHLQ $4, R13
	XORQ R13, AX
	MOVQ AX, R13
	SHLQ $8, R13
	XORQ R13, AX
	MOVQ AX, R13
	SHLQ $16, R13
	XORQ R13, AX
	MOVQ AX, R13
	SHLQ $32, R13
	XORQ R13, AX
	XORQ 0(BX), AX  // in

	// Token bytes, and white space outside strings.
	ORQ  R10, R8
	ORQ  R12, R8
	ORQ  AX, R8
	NOTQ R8         // tokens
	MOVQ AX, R13
	NOTQ R13
	ANDQ R13, R10   // ws &^= in

	// Merged tokens.
	MOVQ R10, R13
	SHRQ $1, R13
	ANDQ R8, R13
	SHLQ $1, R13    // starts
	MOVQ 24(BX), R12
	ANDQ R10, R12
	ANDQ $1, R12
	ORQ  16(BX), R12 // cin
	MOVQ R10, R14
	ADDQ R13, R14
	MOVQ $0, R9
	ADCQ $0, R9
	ADDQ R12, R14   // sum
	ADCQ $0, R9     // new gap
	MOVQ R10, R13
	NOTQ R13
	ANDQ R14, R13
	ANDQ R8, R13
	JNZ  bad

	SARQ $63, AX
	MOVQ AX, 0(BX)
	MOVQ R15, 8(BX)
	MOVQ R9, 16(BX)
	SHRQ $63, R8
	MOVQ R8, 24(BX)

	NOTQ R10        // keep
	MOVQ R10, 0(DX)
	MOVQ R11, 8(DX)
	KMOVQ R10, K1
	VPCOMPRESSB Z0, K1, Z2
	VMOVDQU64 Z2, (DI)
	POPCNTQ R10, R10
	ADDQ R10, DI
	ADDQ $64, SI
	ADDQ $16, DX
	DECQ CX
	JNZ  loop

done:
	MOVQ dst_base+0(FP), AX
	SUBQ AX, DI
	MOVQ DI, n+80(FP)
	VZEROUPPER
	RET

bad:
	MOVQ blocks+88(FP), AX
	SUBQ CX, AX
	MOVQ AX, blocks+88(FP)
	JMP  done
