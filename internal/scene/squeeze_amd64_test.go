//go:build !purego

package scene

import (
	"os"
	"regexp"
	"strings"
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
	t.Logf("this CPU's vector kernel is used: %v", useSqueeze)
}

// TestKernelInstructionsAreVEX reads the kernel's source: an instruction
// naming a vector register must be VEX or EVEX encoded (its mnemonic
// starts with V, or it is a mask move). One legacy SSE instruction in the
// loop (MOVQ to an X register, PCLMULQDQ) made the kernel 50 times slower
// on Intel CPUs, with every test still passing.
func TestKernelInstructionsAreVEX(t *testing.T) {
	src, err := os.ReadFile("squeeze_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	vector := regexp.MustCompile(`\b[XYZ]([0-9]|[12][0-9]|3[01])\b`)
	// A macro's body is checked where it is defined, one instruction a
	// line; its uses name registers as arguments.
	macros := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^#define\s+(\w+)\(`).FindAllStringSubmatch(string(src), -1) {
		macros[m[1]] = true
	}
	for n, line := range strings.Split(string(src), "\n") {
		code, _, _ := strings.Cut(line, "//")
		fields := strings.Fields(strings.TrimSuffix(strings.TrimSpace(code), `\`))
		if name, _, isCall := strings.Cut(code, "("); isCall && macros[strings.TrimSpace(name)] {
			continue
		}
		if len(fields) < 2 || strings.HasSuffix(fields[0], ":") || !vector.MatchString(code) {
			continue
		}
		if op := fields[0]; !strings.HasPrefix(op, "V") && !strings.HasPrefix(op, "K") {
			t.Errorf("squeeze_amd64.s:%d: %s is a legacy SSE instruction on a vector register; use its V form", n+1, op)
		}
	}
}
