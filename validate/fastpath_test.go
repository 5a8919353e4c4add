package validate

import (
	"math"
	"testing"

	"github.com/worldcook/worldcook/scene"
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
		got, gok := vec3(v, def)
		want, wok := vec3Members(v, def)
		if gok != wok || !sameBits(got.X, want.X) || !sameBits(got.Y, want.Y) || !sameBits(got.Z, want.Z) {
			t.Fatalf("vec3(%s) = %v %v, want %v %v", v, got, gok, want, wok)
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
		a1, a2, a3 := members3(v, k1, k2, k3)
		b1, b2, b3 := slowMembers3(v, k1, k2, k3)
		if string(a1) != string(b1) || string(a2) != string(b2) || string(a3) != string(b3) ||
			(a1 == nil) != (b1 == nil) || (a2 == nil) != (b2 == nil) || (a3 == nil) != (b3 == nil) {
			t.Fatalf("members3(%s, %q, %q, %q) = %s %s %s, Members gives %s %s %s", v, k1, k2, k3, a1, a2, a3, b1, b2, b3)
		}
	})
}
