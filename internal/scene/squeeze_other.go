//go:build !amd64 || purego

// Without the vector kernel (another CPU architecture, or built with
// -tags purego to test the byte-by-byte path on a CPU that has AVX-512),
// records are read by the byte-by-byte scanner.

package scene

const hasSqueezeAVX512 = false

func squeezeAVX512(dst, src []byte, masks []uint64, st *lexState) (n, blocks int) {
	panic("scene: squeezeAVX512 is not built into this binary")
}
