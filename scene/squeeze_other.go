//go:build !amd64

package scene

const hasSqueezeAVX512 = false

func squeezeAVX512(dst, src []byte, masks []uint64, st *lexState) (n, blocks int) {
	panic("scene: squeezeAVX512 is amd64 only")
}
