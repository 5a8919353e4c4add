//go:build !amd64 || purego

// Without the vector kernels (another CPU architecture, or built with
// -tags purego to test the byte-by-byte path on a CPU that has one),
// records are read by the byte-by-byte scanner.

package scene

const (
	hasSqueezeAVX512 = false
	hasSqueezeAVX2   = false
)

func squeezeAVX512(dst, src []byte, masks []uint64, st *lexState) (n, blocks int) {
	panic("scene: squeezeAVX512 is not built into this binary")
}

func squeezeAVX2(dst, src []byte, masks []uint64, st *lexState) (n, blocks int) {
	panic("scene: squeezeAVX2 is not built into this binary")
}
