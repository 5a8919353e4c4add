//go:build !purego

package scene

import (
	"testing"
	"time"
)

// TestKernelFast: the kernel is used only where it measures fast; one
// that takes a millisecond for the 64 KiB sample (a 65 MB/s kernel) is
// left out, one that returns at once is kept.
func TestKernelFast(t *testing.T) {
	fast := func(dst, src []byte, masks []uint64, st *lexState) (int, int) { return 0, len(src) / 64 }
	slow := func(dst, src []byte, masks []uint64, st *lexState) (int, int) {
		time.Sleep(time.Millisecond)
		return 0, len(src) / 64
	}
	if !kernelFast(fast) {
		t.Error("an instant kernel measured slow")
	}
	if kernelFast(slow) {
		t.Error("a 65 MB/s kernel measured fast")
	}
	t.Logf("this CPU's AVX-512 kernel is used: %v", useSqueeze)
}
