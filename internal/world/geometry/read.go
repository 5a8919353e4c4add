package geometry

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/worldcook/worldcook/internal/scene"
)

// The readers of component data the geometry reads for every entity of a
// world: one pass over the validated JSON for the usual shapes, falling
// back to the general readers of package scene, which define the
// semantics, for anything else.

// ReadTRS reads the Transform data of an entity, already validated as
// JSON, in one pass. It is the hot path of placement — every entity of a
// world has a Transform — so it reads the usual shape directly: an object
// whose position, rotation and scale are objects of plain numbers. It
// reports false for anything else (null, other shapes, escapes in keys,
// numbers its fast path does not convert exactly), and the caller falls
// back to scene.ParseTRS, which defines the semantics and the errors. The
// values it returns are bit-identical to ParseTRS's (FuzzReadTRS).
func ReadTRS(data []byte) (scene.TRS, bool) {
	t := scene.Identity
	i := ws(data, 0)
	if i >= len(data) || data[i] != '{' {
		return t, false
	}
	i = ws(data, i+1)
	if i < len(data) && data[i] == '}' {
		return t, true
	}
	for i < len(data) {
		key, j, ok := readKey(data, i)
		if !ok {
			return t, false
		}
		var x, y, z, w *float64
		switch string(key) {
		case "position":
			x, y, z = &t.Position.X, &t.Position.Y, &t.Position.Z
		case "rotation":
			x, y, z, w = &t.Rotation.X, &t.Rotation.Y, &t.Rotation.Z, &t.Rotation.W
		case "scale":
			x, y, z = &t.Scale.X, &t.Scale.Y, &t.Scale.Z
		}
		if x == nil {
			if j, ok = skip(data, j); !ok {
				return t, false
			}
		} else if j, ok = readVec(data, j, x, y, z, w); !ok {
			return t, false
		}
		j = ws(data, j)
		if j >= len(data) {
			return t, false
		}
		switch data[j] {
		case ',':
			i = ws(data, j+1)
		case '}':
			return t, true
		default:
			return t, false
		}
	}
	return t, false
}

// readKey reads `"key":` at i and returns the key and the offset of the
// value. Keys with escapes are left to the general reader.
func readKey(b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	j := i + 1
	for j < len(b) && b[j] != '"' {
		if b[j] == '\\' {
			return nil, 0, false
		}
		j++
	}
	if j >= len(b) {
		return nil, 0, false
	}
	k := ws(b, j+1)
	if k >= len(b) || b[k] != ':' {
		return nil, 0, false
	}
	return b[i+1 : j], ws(b, k+1), true
}

// readVec reads an object of numbers {x, y, z[, w]} at i into the given
// fields (w may be nil), ignoring other keys as ParseTRS does.
func readVec(b []byte, i int, x, y, z, w *float64) (int, bool) {
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	i = ws(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for i < len(b) {
		var key []byte
		var j int
		var ok bool
		if i+4 <= len(b) && b[i] == '"' && b[i+2] == '"' && b[i+3] == ':' && b[i+1] != '\\' {
			// A one-letter key followed by its colon, as compact text
			// writes "x", "y" and "z": read without a call of readKey.
			key, j = b[i+1:i+2], ws(b, i+4)
		} else if key, j, ok = readKey(b, i); !ok {
			return 0, false
		}
		var dst *float64
		if len(key) == 1 {
			switch key[0] {
			case 'x':
				dst = x
			case 'y':
				dst = y
			case 'z':
				dst = z
			case 'w':
				dst = w
			}
		}
		if dst == nil {
			if j, ok = skip(b, j); !ok {
				return 0, false
			}
		} else {
			var f float64
			if f, j, ok = Number(b, j); !ok {
				return 0, false
			}
			*dst = f
		}
		j = ws(b, j)
		if j >= len(b) {
			return 0, false
		}
		switch b[j] {
		case ',':
			i = ws(b, j+1)
		case '}':
			return j + 1, true
		default:
			return 0, false
		}
	}
	return 0, false
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// Number converts the JSON number at i when the conversion is exact with
// one rounding: a mantissa below 2^53 scaled by an exactly representable
// power of ten (the classic fast path strconv takes too: both operands
// are exact, so the one correctly rounded multiplication or division is
// the correctly rounded value of the decimal). Other numbers, and those of
// more than 19 digits (which could overflow the mantissa), report false.
// The result is never infinite: it is at most 2^53 × 1e22.
func Number(b []byte, i int) (float64, int, bool) {
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	start := i
	m, i := digitRun(b, i, 0)
	digits := i - start
	if digits == 0 {
		return 0, 0, false
	}
	exp := 0
	if i < len(b) && b[i] == '.' {
		frac := i + 1
		m, i = digitRun(b, frac, m)
		exp = frac - i
		digits += i - frac
	}
	if digits > 19 {
		return 0, 0, false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		eneg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		e := 0
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			if e < 1000 {
				e = e*10 + int(b[i]-'0')
			}
			i++
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if m >= 1<<53 {
		return 0, 0, false
	}
	f := float64(m)
	switch {
	case exp == 0:
	case exp > 0 && exp <= 22:
		f *= pow10[exp]
	case exp < 0 && exp >= -22:
		f /= pow10[-exp]
	default:
		if m != 0 {
			return 0, 0, false
		}
	}
	if neg {
		f = -f
	}
	return f, i, true
}

// digitRun reads the decimal digits at b[i:] onto m (m×10^k plus their
// value for k digits) and returns the result and the offset after them.
// Past 19 digits the result wraps; Number counts digits and gives up.
func digitRun(b []byte, i int, m uint64) (uint64, int) {
	for ; i < len(b); i++ {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		m = m*10 + uint64(d)
	}
	return m, i
}

// ws skips JSON white space.
func ws(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// skip steps over the validated JSON value at i.
func skip(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				var ok bool
				if i, ok = skipString(b, i); !ok {
					return 0, false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return 0, false
	}
	// A number or a literal: up to the next delimiter.
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n' && b[i] != '\r' && b[i] != '\t' {
		i++
	}
	return i, true
}

func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// Members3 returns the values of up to three members of the validated
// object obj (empty keys are unused), the last one winning when a key
// repeats, in one pass. The pass ends early once the rest of the object
// cannot hold any of the keys: extent components carry colours, flags and
// asset ids after the one or two fields placement reads.
func Members3(obj []byte, k1, k2, k3 string) (v1, v2, v3 []byte) {
	i := ws(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, nil, nil
	}
	i = ws(obj, i+1)
	for i < len(obj) && obj[i] != '}' {
		key, j, ok := readKey(obj, i)
		if !ok {
			return slowMembers3(obj, k1, k2, k3)
		}
		end, ok := skip(obj, j)
		if !ok {
			return slowMembers3(obj, k1, k2, k3)
		}
		found := true
		switch {
		case string(key) == k1:
			v1 = obj[j:end]
		case k2 != "" && string(key) == k2:
			v2 = obj[j:end]
		case k3 != "" && string(key) == k3:
			v3 = obj[j:end]
		default:
			found = false
		}
		if found && k1 != "" && !mayHoldKey(obj[end:], k1) && !mayHoldKey(obj[end:], k2) && !mayHoldKey(obj[end:], k3) {
			return v1, v2, v3
		}
		i = ws(obj, end)
		if i < len(obj) && obj[i] == ',' {
			i = ws(obj, i+1)
		}
	}
	return v1, v2, v3
}

// mayHoldKey reports whether b holds key k quoted ("k"), as a member key
// of b must appear in it; a false answer proves that no member of the
// rest of an object has that key, which is what Members3 compares (keys
// as authored, escapes undecoded). The empty key is unused: never held.
func mayHoldKey(b []byte, k string) bool {
	if k == "" {
		return false
	}
	for len(b) > 0 {
		// strings.Index of a view of b: converting k to a []byte for
		// bytes.Index would copy it into a zeroed buffer at every call.
		p := strings.Index(unsafe.String(&b[0], len(b)), k)
		if p < 0 {
			return false
		}
		if p > 0 && b[p-1] == '"' && p+len(k) < len(b) && b[p+len(k)] == '"' {
			return true
		}
		b = b[p+1:]
	}
	return false
}

// slowMembers3 is Members3 for objects with escaped keys.
func slowMembers3(obj []byte, k1, k2, k3 string) (v1, v2, v3 []byte) {
	scene.Members(obj, func(key, v []byte) bool {
		switch {
		case string(key) == k1:
			v1 = v
		case k2 != "" && string(key) == k2:
			v2 = v
		case k3 != "" && string(key) == k3:
			v3 = v
		}
		return true
	})
	return v1, v2, v3
}

// Vec2 reads an {x, y} field; a field of the wrong shape takes the
// defaults, as the engine drops invalid fields.
func Vec2(v []byte, dx, dy float64) [2]float64 {
	def := [2]float64{dx, dy}
	if v == nil {
		return def
	}
	if x, y := dx, dy; len(v) > 0 && v[0] == '{' {
		if _, ok := readVec(v, 0, &x, &y, nil, nil); ok {
			return [2]float64{x, y}
		}
	}
	out, err := scene.Vec2(v, def)
	if err != nil {
		return def
	}
	return out
}

// Vec3 reads {x, y, z}; missing axes take def's. When an axis is not a
// number it reports false with the axes read before it.
func Vec3(v []byte, def scene.Vec3) (scene.Vec3, bool) {
	// The usual object of plain numbers is read in one pass; anything
	// else (escaped keys, a value that is not a number, numbers off the
	// exact fast path) is read again from the start below.
	if len(v) > 0 && v[0] == '{' {
		out := def
		if _, ok := readVec(v, 0, &out.X, &out.Y, &out.Z, nil); ok {
			return out, true
		}
	}
	return vec3Members(v, def)
}

// vec3Members is Vec3 for any object: it defines the semantics.
func vec3Members(v []byte, def scene.Vec3) (scene.Vec3, bool) {
	if scene.KindOf(v) != scene.Object {
		return def, false
	}
	out := def
	ok := true
	scene.Members(v, func(k, val []byte) bool {
		var dst *float64
		switch string(k) {
		case "x":
			dst = &out.X
		case "y":
			dst = &out.Y
		case "z":
			dst = &out.Z
		default:
			return true
		}
		f, err := scene.Float(val)
		if err != nil {
			ok = false
			return false
		}
		*dst = f
		return true
	})
	return out, ok
}

// Quat reads a rotation quaternion {x, y, z, w}; a missing w is 1.
func Quat(v []byte) (scene.Quat, bool) {
	xyz, ok := Vec3(v, scene.Vec3{})
	if !ok {
		return scene.Quat{X: xyz.X, Y: xyz.Y, Z: xyz.Z, W: 1}, false
	}
	w := 1.0
	if wv, has := scene.Field(v, "w"); has {
		f, err := scene.Float(wv)
		if err != nil {
			return scene.Quat{X: xyz.X, Y: xyz.Y, Z: xyz.Z, W: 1}, false
		}
		w = f
	}
	return scene.Quat{X: xyz.X, Y: xyz.Y, Z: xyz.Z, W: w}, true
}

// Num reads a number field, def when absent or not a number.
func Num(v []byte, def float64) float64 {
	if scene.KindOf(v) != scene.Number {
		return def
	}
	if f, _, ok := Number(v, 0); ok {
		return f
	}
	f, err := scene.Float(v)
	if err != nil {
		return def
	}
	return f
}

// Str reads a JSON string value; anything else is "". A string without
// escapes aliases v, as entity names alias their document: reading the
// overrides of every instance of a large world copies nothing.
func Str(v []byte) string {
	if scene.KindOf(v) != scene.String {
		return ""
	}
	inner := v[1 : len(v)-1]
	if len(inner) > 0 && bytes.IndexByte(inner, '\\') < 0 {
		return unsafe.String(&inner[0], len(inner))
	}
	s, _ := scene.Str(v)
	return s
}

// Finite reports whether f is neither NaN nor infinite.
func Finite(f float64) bool {
	// f - f is +0 for every finite f, and NaN for an infinity or a NaN:
	// one subtraction and one comparison where placement asks for every
	// bound of every entity.
	return f-f == 0
}

// Enabled reads a component's "enabled" flag: true unless it is false.
// Most components do not write the flag: a search for the quoted key
// (Members3 compares keys as written) answers for them without reading
// every member.
func Enabled(data []byte) bool {
	if !mayHoldKey(data, "enabled") {
		return true
	}
	v, _, _ := Members3(data, "enabled", "", "")
	return !(scene.KindOf(v) == scene.Bool && v[0] == 'f')
}
