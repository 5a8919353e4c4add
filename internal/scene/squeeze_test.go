package scene

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// squeezeBytes is the kernels' definition, one byte at a time: the
// compact text, the masks of the blocks done, and how many were.
func squeezeBytes(src []byte) (out []byte, masks []uint64, blocks int) {
	inString, escNext := false, false
	lastToken, gap := false, false
	for k := 0; k+64 <= len(src); k += 64 {
		var keep, nl uint64
		var kept []byte
		s0, e0, t0, g0 := inString, escNext, lastToken, gap
		bad := false
		for j, c := range src[k : k+64] {
			escaped := escNext
			escNext = c == '\\' && !escaped
			if c == '"' && !escaped {
				inString = !inString
			}
			// An opening quote counts as inside, a closing one not.
			inside := inString || c == '"' && !escaped
			space := !inside && (c == ' ' || c == '\n' || c == '\r' || c == '\t')
			structural := c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ','
			token := !inside && c != '"' && !space && !structural
			if space {
				gap = gap || lastToken
			} else {
				if token && gap {
					bad = true
				}
				gap, lastToken = false, token
			}
			if c == '\n' {
				nl |= 1 << j
			}
			if !space {
				keep |= 1 << j
				kept = append(kept, c)
			}
		}
		if bad {
			inString, escNext, lastToken, gap = s0, e0, t0, g0
			return out, masks, k / 64
		}
		out = append(out, kept...)
		masks = append(masks, keep, nl)
	}
	return out, masks, len(src) / 64
}

// runKernel runs a kernel over src in calls of step blocks, carrying the
// state from call to call as the parser does, and returns the state the
// last call left, which after a stop must be the state before the block
// that stopped it.
func runKernel(kernel func(dst, src []byte, masks []uint64, st *lexState) (int, int), src []byte, step int) ([]byte, []uint64, int, lexState) {
	dst := make([]byte, len(src)+64)
	masks := make([]uint64, len(src)/32)
	var st lexState
	n, done := 0, 0
	for done < len(src)/64 {
		end := min(len(src)/64, done+step)
		w, b := kernel(dst[n:], src[done*64:end*64], masks[done*2:], &st)
		n += w
		done += b
		if done < end {
			break
		}
	}
	return dst[:n], masks[:done*2], done, st
}

func kernels() map[string]func(dst, src []byte, masks []uint64, st *lexState) (int, int) {
	k := map[string]func(dst, src []byte, masks []uint64, st *lexState) (int, int){"generic": squeezeGeneric}
	if hasSqueezeAVX512 {
		k["avx512"] = squeezeAVX512
	}
	if hasSqueezeAVX2 {
		k["avx2"] = squeezeAVX2
	}
	return k
}

func checkKernels(t *testing.T, src []byte) {
	t.Helper()
	src = src[:len(src)/64*64]
	wantOut, wantMasks, wantBlocks := squeezeBytes(src)
	for _, step := range []int{1, 3, 1 << 30} {
		// The portable kernel defines the state carried between calls
		// (and left by a stop); the byte-at-a-time definition keeps none.
		_, _, _, wantState := runKernel(squeezeGeneric, src, step)
		for name, kernel := range kernels() {
			out, masks, blocks, st := runKernel(kernel, src, step)
			if blocks != wantBlocks || !bytes.Equal(out, wantOut) || !slices.Equal(masks, wantMasks) {
				t.Fatalf("%s kernel, %d blocks a call, on %q:\nblocks %d, want %d\nout   %q\nwant  %q\nmasks %x\nwant  %x",
					name, step, src, blocks, wantBlocks, out, wantOut, masks, wantMasks)
			}
			if st != wantState {
				t.Fatalf("%s kernel, %d blocks a call, on %q: left state %+v, the portable kernel %+v", name, step, src, st, wantState)
			}
		}
	}
}

func TestSqueezeKernels(t *testing.T) {
	if !hasSqueezeAVX512 && !hasSqueezeAVX2 {
		t.Log("this CPU has neither AVX-512 VBMI2 nor AVX2: only the portable kernel is checked")
	}
	pretty := []byte(`{
    "id": 12,
    "name": "Rock \"big\" \\",
    "components": [
        {
            "type": "Transform",
            "data": {"position": {"x": -1.5e3, "y": 0, "z": 2}}
        }
    ],
    "visible": true,
    "tag": "a\\\"b \\\\\" c",
    "back": "\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\"
}`)
	pad := bytes.Repeat([]byte(" "), 64)
	cases := map[string][]byte{
		"pretty":             append(pretty, pad...),
		"merged number":      append([]byte(`[1 2]`), pad...),
		"merged literal":     append([]byte(`[tr ue]`), pad...),
		"number, then key":   append([]byte(`{"a": 1 , "b" : 2}`), pad...),
		"gap across blocks":  append(append(bytes.Repeat([]byte("x"), 63), bytes.Repeat([]byte(" "), 70)...), append([]byte("1"), pad...)...),
		"token at block end": append(append(bytes.Repeat([]byte(" "), 63), '7'), append([]byte(" 8"), pad...)...),
		"quote at block end": append(append(bytes.Repeat([]byte(" "), 63), '"'), append([]byte(`a b" 1`), pad...)...),
		"backslashes across": append(append(bytes.Repeat([]byte(" "), 60), []byte(`"\\\\`)...), append([]byte(`\" 1 "`), pad...)...),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) { checkKernels(t, src) })
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("\"\\ \n\t\r{}[]:,1ae-.x\x80\x0c")
	for range 2000 {
		src := make([]byte, 64*(1+r.IntN(6)))
		for i := range src {
			if r.IntN(4) == 0 {
				src[i] = ' '
			} else {
				src[i] = alphabet[r.IntN(len(alphabet))]
			}
		}
		checkKernels(t, src)
	}
}

func FuzzSqueeze(f *testing.F) {
	f.Add([]byte(`{"a": [1, 2.5e3, "x y\"z\\\\"],   "b":{"c" :null}}                          `))
	f.Add([]byte("[1 2]\n\t\"\\\\\" 3 4 \"                                                        "))
	f.Fuzz(func(t *testing.T, src []byte) { checkKernels(t, src) })
}

func TestNthBit(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 10000 {
		x := r.Uint64() & r.Uint64()
		if r.IntN(8) == 0 {
			x = r.Uint64()
		}
		var positions []int
		for i := range 64 {
			if x&(1<<i) != 0 {
				positions = append(positions, i)
			}
		}
		for n, want := range positions {
			if got := nthBit(x, n); got != want {
				t.Fatalf("nthBit(%#x, %d) = %d, want %d", x, n, got, want)
			}
		}
	}
}
