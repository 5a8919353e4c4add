package geometry

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
)

// componentData parses data as the data of a component, as Check sees it:
// validated JSON. ok is false when data is not valid JSON.
func componentData(data []byte) ([]byte, bool) {
	src := append([]byte(`{"entities": [{"id": 1, "components": [{"type": "T", "data": `), data...)
	src = append(src, "}]}]}"...)
	d, err := scene.Parse("t", src)
	if err != nil {
		return nil, false
	}
	return d.Component(0, "T")
}

func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// FuzzVec3: the one-pass reader of {x, y, z} objects agrees bit for bit
// with the general one, partial results of bad objects included.
func FuzzVec3(f *testing.F) {
	for _, s := range []string{
		`{"x": 25, "y": 100, "z": 25}`, `{"x":0.5,"y":-1e2,"z":3.25}`, `{}`, `null`, `7`, `"x"`,
		`{"x": 1, "y": "2", "z": 3}`, `{"x": 1, "x": 2}`, `{"\u0078": 5, "y": 1e400}`, `{"w": 1, "z": 0.1}`,
		`{"x": 123456789012345678901234567890, "y": 4.9e-324}`, `{ "x" : -0 , "q": [1, {"x": 2}] }`,
	} {
		f.Add([]byte(s))
	}
	def := scene.Vec3{X: 0.5, Y: -7, Z: 3}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, ok := componentData(data)
		if !ok {
			return
		}
		got, gok := Vec3(v, def)
		want, wok := vec3Members(v, def)
		if gok != wok || !sameBits(got.X, want.X) || !sameBits(got.Y, want.Y) || !sameBits(got.Z, want.Z) {
			t.Fatalf("Vec3(%s) = %v %v, want %v %v", v, got, gok, want, wok)
		}
	})
}

// FuzzMembers3: the one-pass member lookup, early end included, agrees
// with scene.Members for any keys.
func FuzzMembers3(f *testing.F) {
	for _, s := range []struct{ data, k1, k2, k3 string }{
		{`{"mesh":"builtin:cube","color":{"r":1,"g":0.5},"lit":true}`, "mesh", "", ""},
		{`{"mesh": "a", "material": "mesh", "mesh": "b"}`, "mesh", "", ""},
		{`{"size":{"x":60,"y":80},"color":{"r":1},"pivot":{"x":0}}`, "size", "pivot", ""},
		{`{"radius":35,"halfHeight":90,"stepHeight":30,"radius":1}`, "radius", "halfHeight", "offset"},
		{`{"a": 1, "": 2, "b": {"": 3}, "": 4}`, "", "a", "b"},
		{`{"x": 1, "\u0078": 2, "x\"": 3}`, "x", `x\"`, `\u0078`},
		{`{"k": "\"k\"", "q": ["k", {"k": 1}]}`, "k", "q", ""},
	} {
		f.Add([]byte(s.data), s.k1, s.k2, s.k3)
	}
	f.Fuzz(func(t *testing.T, data []byte, k1, k2, k3 string) {
		v, ok := componentData(data)
		if !ok {
			return
		}
		a1, a2, a3 := Members3(v, k1, k2, k3)
		b1, b2, b3 := slowMembers3(v, k1, k2, k3)
		if string(a1) != string(b1) || string(a2) != string(b2) || string(a3) != string(b3) ||
			(a1 == nil) != (b1 == nil) || (a2 == nil) != (b2 == nil) || (a3 == nil) != (b3 == nil) {
			t.Fatalf("Members3(%s, %q, %q, %q) = %s %s %s, Members gives %s %s %s", v, k1, k2, k3, a1, a2, a3, b1, b2, b3)
		}
	})
}

// TestNumber: the exact fast path takes the usual numbers of a scene and
// leaves the rest to strconv, and what it takes matches strconv bit for
// bit.
func TestNumber(t *testing.T) {
	for _, c := range []struct {
		in   string
		fast bool
	}{
		{"0", true}, {"-0", true}, {"7", true}, {"-12", true}, {"100", true}, {"12316.24", true},
		{"-0.3007057995", true}, {"0.7071067811865476", true}, {"0.1", true}, {"0.30000000000000004", false},
		{"1e22", true}, {"-2.5E+3", true}, {"123e-22", true}, {"0e400", true}, {"-0.0e-999", true},
		{"9007199254740991", true}, {"9007199254740992", false}, {"9007199254740993", false},
		{"1e23", false}, {"1e-23", false}, {"1.7976931348623157e308", false}, {"4.9e-324", false},
		{"1e400", false}, {"123456789012345678901234567890", false}, {"0.0000000000000000000001", false},
		{"1234567890123456789", false}, {"-", false}, {"", false}, {"x", false},
	} {
		// Alone, and followed by more of a span.
		for _, tail := range []string{"", "}", `,"y":1.25}}`} {
			f, end, ok := Number([]byte(c.in+tail), 0)
			if ok != c.fast {
				t.Errorf("Number(%q) fast = %v, want %v", c.in+tail, ok, c.fast)
				continue
			}
			if !ok {
				continue
			}
			want, err := strconv.ParseFloat(c.in, 64)
			if err != nil || end != len(c.in) || !sameBits(f, want) {
				t.Errorf("Number(%q) = %v (end %d), strconv gives %v, %v", c.in+tail, f, end, want, err)
			}
		}
	}
}

// TestDigitRun: the digit reader agrees with a plain loop for every run
// length and every byte that can end a run.
func TestDigitRun(t *testing.T) {
	const digits = "9081726354091827364554"
	for n := 0; n <= 20; n++ {
		for end := 0; end < 256; end++ {
			if '0' <= end && end <= '9' {
				continue
			}
			for _, tail := range []string{"", "7", "12345678", "\xff\x00/:0"} {
				b := []byte(digits[:n] + string(rune(end))[:1] + tail)
				b[n] = byte(end)
				for _, m0 := range []uint64{0, 7} {
					want, wi := m0, 0
					for wi < len(b) && '0' <= b[wi] && b[wi] <= '9' {
						want = want*10 + uint64(b[wi]-'0')
						wi++
					}
					got, gi := digitRun(b, 0, m0)
					if got != want || gi != wi {
						t.Fatalf("digitRun(%q, %d) = %d, %d; want %d, %d", b, m0, got, gi, want, wi)
					}
				}
			}
		}
	}
}

// FuzzNumber: wherever the fast path answers for a JSON number it reads
// the whole number and agrees with strconv.ParseFloat bit for bit.
func FuzzNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "12316.24", "-0.3007057995", "1e22", "9007199254740993", "123e-22",
		"0.1e-5", "5e-324", "1.5E+300", "99999999999999999999", "0.000001", "-1234.5678e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// A JSON number, without the white space json.Valid allows around it.
		if s == "" || !(s[0] == '-' || '0' <= s[0] && s[0] <= '9') || !('0' <= s[len(s)-1] && s[len(s)-1] <= '9') || !json.Valid([]byte(s)) {
			return
		}
		got, end, ok := Number([]byte(s+","), 0)
		if !ok {
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || end != len(s) || !sameBits(got, want) {
			t.Fatalf("Number(%q) = %v (end %d), strconv gives %v, %v", s, got, end, want, err)
		}
	})
}

// FuzzReadTRS: the fast Transform reader agrees bit for bit with
// scene.ParseTRS wherever it answers, and the fast member lookup with
// scene.Members.
func FuzzReadTRS(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"position": {"x": 1, "y": -2.5, "z": 3e2}}`, `{"position": {"x": 0.1, "y": 1e22, "z": -0}, "rotation": {"w": 0.7071067811865476, "y": 0.7071067811865476}}`,
		`{"scale": {"x": 123456789012345678}, "position": {"x": 9007199254740993}}`, `{"worldPosition": {"x": [1, {"a": "}"}]}, "position": {"q": "x", "x": 1.5}}`,
		`{"position": {"x": 1e-400, "y": 4.9e-324, "z": 2.2250738585072014e-308}}`, `{"position": null}`, `{"position": {"x": "1"}}`,
		`{ "position" : { "x" : 1 , "y" : 2 } , "position": {"z": 7} }`, `{"position": {"x": 0.30000000000000004, "y": 1.7976931348623157e308}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		raw, ok := componentData(data)
		if !ok {
			return
		}
		a1, a2, a3 := Members3(raw, "position", "scale", "worldPosition")
		b1, b2, b3 := slowMembers3(raw, "position", "scale", "worldPosition")
		if string(a1) != string(b1) || string(a2) != string(b2) || string(a3) != string(b3) {
			t.Fatalf("Members3(%s) = %s %s %s, Members gives %s %s %s", raw, a1, a2, a3, b1, b2, b3)
		}
		fast, ok := ReadTRS(raw)
		if !ok {
			return
		}
		want, err := scene.ParseTRS(raw)
		if err != nil {
			t.Fatalf("ReadTRS accepted %s, ParseTRS says %v", raw, err)
		}
		a := []float64{fast.Position.X, fast.Position.Y, fast.Position.Z, fast.Rotation.X, fast.Rotation.Y, fast.Rotation.Z, fast.Rotation.W, fast.Scale.X, fast.Scale.Y, fast.Scale.Z}
		b := []float64{want.Position.X, want.Position.Y, want.Position.Z, want.Rotation.X, want.Rotation.Y, want.Rotation.Z, want.Rotation.W, want.Scale.X, want.Scale.Y, want.Scale.Z}
		for k := range a {
			if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
				t.Fatalf("ReadTRS(%s) = %+v, ParseTRS = %+v", raw, fast, want)
			}
		}
	})
}
