//go:build !purego

package scene

import "golang.org/x/sys/cpu"

// squeezeAVX512 is squeezeGeneric with AVX-512: a 64-byte block's bytes
// are classified by two nibble lookups (VPSHUFB) into mask registers, its
// strings found with a carry-less multiply (PCLMULQDQ), and the block
// compacted by one VPCOMPRESSB.
//
//go:noescape
func squeezeAVX512(dst, src []byte, masks []uint64, st *lexState) (n, blocks int)

// hasSqueezeAVX512 reports whether this CPU runs squeezeAVX512. cpu
// checks that the operating system saves the AVX-512 registers, too.
var hasSqueezeAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI2 &&
	cpu.X86.HasPOPCNT && cpu.X86.HasPCLMULQDQ

func init() {
	if hasSqueezeAVX512 {
		squeezeBlocks = squeezeAVX512
	}
}
