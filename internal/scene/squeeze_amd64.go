//go:build !purego

package scene

import (
	"math"
	"strings"
	"time"

	"golang.org/x/sys/cpu"
)

// squeezeAVX512 is squeezeGeneric with AVX-512: a 64-byte block's bytes
// are classified by two nibble lookups (VPSHUFB) into mask registers, its
// strings found with a carry-less multiply (PCLMULQDQ), and the block
// compacted by one VPCOMPRESSB.
//
//go:noescape
func squeezeAVX512(dst, src []byte, masks []uint64, st *lexState) (n, blocks int)

// squeezeAVX2 is squeezeGeneric with AVX2, for CPUs without AVX-512: the
// same classification on two 32-byte halves, and a block compacted
// 8 bytes at a time by VPSHUFB with the shuffle squeezeShuffles holds for
// their kept-byte mask.
//
//go:noescape
func squeezeAVX2(dst, src []byte, masks []uint64, st *lexState) (n, blocks int)

// hasSqueezeAVX512 and hasSqueezeAVX2 report whether this CPU runs
// squeezeAVX512 and squeezeAVX2. cpu checks that the operating system
// saves the AVX-512 (or AVX) registers, too.
var (
	hasSqueezeAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI2 &&
		cpu.X86.HasPOPCNT && cpu.X86.HasPCLMULQDQ
	hasSqueezeAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT && cpu.X86.HasPCLMULQDQ
)

// squeezeShuffles[m] is the VPSHUFB shuffle that moves the bytes of an
// 8-byte group whose bits are set in m to its front, in order (the rest
// of the group's 8 bytes are zeros, overwritten by the next group).
//
//lint:ignore U1000 squeezeAVX2 (squeeze_amd64.s) reads it
var squeezeShuffles = func() (t [256]uint64) {
	for m := range t {
		var sh [8]byte
		for k := range sh {
			sh[k] = 0x80
		}
		k := 0
		for j := range 8 {
			if m&(1<<j) != 0 {
				sh[k] = byte(j)
				k++
			}
		}
		for k := range sh {
			t[m] |= uint64(sh[k]) << (8 * k)
		}
	}
	return t
}()

// The fastest kernel this CPU has is used, if it measures fast.
func init() {
	switch {
	case hasSqueezeAVX512:
		squeezeBlocks = squeezeAVX512
		useSqueeze = kernelFast(squeezeAVX512)
	case hasSqueezeAVX2:
		squeezeBlocks = squeezeAVX2
		useSqueeze = kernelFast(squeezeAVX2)
	}
}

// minKernelRate is the rate, in bytes a second, below which the kernel is
// not used: the byte-by-byte scanner reads a scene at about 0.6 GB/s, and
// the kernel is worth running ahead of it only when it is several times
// faster. It squeezes 5-8 GB/s on the AMD and Intel CPUs measured; a CPU
// that reports the features and runs them far slower (an emulated or
// trapped instruction, or a transition penalty like the one legacy SSE
// instructions once paid inside the loop on Intel) would make a cook
// several times slower, so the rate is measured rather than assumed.
const minKernelRate = 2 << 30

// kernelFast measures the kernel on a sample of pretty-printed records,
// the best of three runs, and reports whether it reaches minKernelRate.
// It costs well under a millisecond once, when the program starts; the
// two readings give one answer (TestCorpusEveryWay), so the choice only
// decides speed.
func kernelFast(kernel func(dst, src []byte, masks []uint64, st *lexState) (int, int)) bool {
	const record = "    {\n      \"id\": 12,\n      \"name\": \"Rock \\\"big\\\"\",\n      \"components\": [{\"type\": \"Transform\", \"data\": {\"position\": {\"x\": -1.5, \"y\": 0, \"z\": 2}}}]\n    },\n"
	src := []byte(strings.Repeat(record, (64<<10)/len(record)+1))[:64<<10]
	dst := make([]byte, len(src)+64)
	masks := make([]uint64, len(src)/32)
	best := time.Duration(math.MaxInt64)
	for range 3 {
		var st lexState
		start := time.Now()
		kernel(dst, src, masks, &st)
		best = min(best, time.Since(start))
	}
	return best <= time.Duration(float64(len(src))/minKernelRate*float64(time.Second))
}
