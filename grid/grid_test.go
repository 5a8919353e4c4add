package grid

import (
	"math"
	"strings"
	"testing"
)

// same is equality that tells -0 from +0 and takes NaN as equal to NaN.
func same(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}

func sameRect(a, b Rect) bool {
	return same(a.MinX, b.MinX) && same(a.MinZ, b.MinZ) && same(a.MaxX, b.MaxX) && same(a.MaxZ, b.MaxZ)
}

func TestIndex(t *testing.T) {
	negZero := math.Copysign(0, -1)
	cases := []struct {
		v, size, want float64
	}{
		{0, 1000, 0},
		{negZero, 1000, negZero}, // -0/size is -0, and Floor keeps it
		{999.999, 1000, 0},
		{1000, 1000, 1}, // a border belongs to the cell above it
		{-1000, 1000, -1},
		{-1000.0001, 1000, -2},
		{-1e-9, 1000, -1},
		{0.3, 0.1, 2}, // 0.3/0.1 is 2.9999999999999996 in float64
		{1e300, 1e-300, math.Inf(1)},
		{-1e300, 1e-300, math.Inf(-1)},
		{math.Inf(1), 1000, math.Inf(1)},
		{math.NaN(), 1000, math.NaN()},
	}
	for _, c := range cases {
		if got := Index(c.v, c.size); !same(got, c.want) {
			t.Errorf("Index(%v, %v) = %v, want %v", c.v, c.size, got, c.want)
		}
	}
}

func TestLocate(t *testing.T) {
	negZero := math.Copysign(0, -1)
	cases := []struct {
		name    string
		u, v, s float64
		key     Key
		square  Rect
		ok      bool
	}{
		{"origin", 0, 0, 1000, Key{}, Rect{0, 0, 1000, 1000}, true},
		{"negative", -1, -2500, 1000, Key{X: -1, Z: -3}, Rect{-1000, -3000, 0, -2000}, true},
		{"on a border", 1000, -1000, 1000, Key{X: 1, Z: -1}, Rect{1000, -1000, 2000, 0}, true},
		// The square keeps the sign of the floored zero.
		{"negative zero", negZero, negZero, 1000, Key{}, Rect{negZero, negZero, 1000, 1000}, true},
		{"fraction", 0.3, 0.25, 0.1, Key{X: 2, Z: 2}, Rect{0.2, 0.2, 0.30000000000000004, 0.30000000000000004}, true},
		{"int32 max", math.MaxInt32 + 0.5, 0, 1, Key{X: math.MaxInt32}, Rect{math.MaxInt32, 0, 1 << 31, 1}, true},
		{"int32 min", 0, math.MinInt32, 1, Key{Z: math.MinInt32}, Rect{0, math.MinInt32, 1, math.MinInt32 + 1}, true},
		{"past int32 max", 1 << 31, 0, 1, Key{}, Rect{}, false},
		{"past int32 min", 0, math.MinInt32 - 0.5, 1, Key{}, Rect{}, false},
		{"huge", 1e300, 0, 1000, Key{}, Rect{}, false},
		{"overflowing index", 1e300, 0, 1e-300, Key{}, Rect{}, false},
		// The index fits, its square's upper side does not.
		{"square not finite", 1.6e308, 0, 1.5e308, Key{}, Rect{}, false},
		{"NaN", math.NaN(), 0, 1000, Key{}, Rect{}, false},
		{"NaN second", 0, math.NaN(), 1000, Key{}, Rect{}, false},
		{"+Inf", math.Inf(1), 0, 1000, Key{}, Rect{}, false},
		{"-Inf", 0, math.Inf(-1), 1000, Key{}, Rect{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k, sq, ok := Locate(c.u, c.v, c.s)
			if ok != c.ok || k != c.key || !sameRect(sq, c.square) {
				t.Errorf("Locate(%v, %v, %v) = %+v, %+v, %v; want %+v, %+v, %v", c.u, c.v, c.s, k, sq, ok, c.key, c.square, c.ok)
			}
			if ok && k.Level != 0 {
				t.Errorf("level %d", k.Level)
			}
		})
	}
}

func TestSquareAndCenter(t *testing.T) {
	cases := []struct {
		k      Key
		size   float64
		square Rect
		center Point
	}{
		{Key{}, 1000, Rect{0, 0, 1000, 1000}, Point{500, 500}},
		{Key{X: -1, Z: 2}, 1000, Rect{-1000, 2000, 0, 3000}, Point{-500, 2500}},
		{Key{X: 3}, 0.1, Rect{0.30000000000000004, 0, 0.4, 0.1}, Point{0.35000000000000003, 0.05}},
		// Computed in float64: the upper side of the last cell does not
		// wrap round to the int32 minimum.
		{Key{X: math.MaxInt32, Z: math.MinInt32}, 1, Rect{math.MaxInt32, math.MinInt32, 1 << 31, math.MinInt32 + 1}, Point{math.MaxInt32 + 0.5, math.MinInt32 + 0.5}},
	}
	for _, c := range cases {
		if got := Square(c.k, c.size); !sameRect(got, c.square) {
			t.Errorf("Square(%+v, %v) = %+v, want %+v", c.k, c.size, got, c.square)
		}
		if got := Center(c.k, c.size); !same(got.X, c.center.X) || !same(got.Z, c.center.Z) {
			t.Errorf("Center(%+v, %v) = %+v, want %+v", c.k, c.size, got, c.center)
		}
	}
	// Key 0 squares from +0, whatever sign the point had.
	if sq := Square(Key{}, 1000); math.Signbit(sq.MinX) {
		t.Error("Square of key 0 has MinX -0")
	}
}

// A located point's square is its key's, but for the sign of a zero.
func TestLocateAgreesWithSquare(t *testing.T) {
	for _, s := range []float64{1, 0.1, 3, 1000, 1e-3} {
		for _, u := range []float64{-12345.678, -1, -0.5, 0, 0.5, 7, 99999.9} {
			k, sq, ok := Locate(u, -u, s)
			if !ok {
				t.Fatalf("Locate(%v, %v, %v) refused", u, -u, s)
			}
			want := Square(k, s)
			if sq != want { // == takes -0 as +0
				t.Errorf("Locate(%v, %v, %v) square %+v, Square %+v", u, -u, s, sq, want)
			}
		}
	}
}

func TestCompare(t *testing.T) {
	keys := []Key{
		{X: math.MinInt32, Z: 5}, {X: -1, Z: math.MinInt32}, {X: -1, Z: 0}, {X: -1, Z: math.MaxInt32},
		{X: 0, Z: -1}, {X: 0, Z: 0}, {X: math.MaxInt32, Z: math.MinInt32}, {Level: 1, X: math.MinInt32},
	}
	for i, a := range keys {
		for j, b := range keys {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := a.Compare(b); got != want {
				t.Errorf("%+v.Compare(%+v) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestRect(t *testing.T) {
	a, b := Rect{0, 0, 1, 1}, Rect{1, -2, 3, 0.5}
	if got := a.Union(b); got != (Rect{0, -2, 3, 1}) {
		t.Errorf("Union = %+v", got)
	}
	cases := []struct {
		a, b Rect
		want bool
	}{
		{a, b, true}, // touching on x = 1
		{a, Rect{1.5, 0, 2, 1}, false},
		{a, Rect{0, 1.0000001, 1, 2}, false},
		{a, Rect{0.25, 0.25, 0.75, 0.75}, true},
		{a, Rect{math.NaN(), 0, 1, 1}, false},
	}
	for _, c := range cases {
		if got := c.a.Intersects(c.b); got != c.want || c.b.Intersects(c.a) != c.want {
			t.Errorf("%+v.Intersects(%+v) = %v, want %v both ways", c.a, c.b, got, c.want)
		}
	}
	if got := a.Union(Rect{math.NaN(), 0, 1, 1}); !math.IsNaN(got.MinX) {
		t.Errorf("Union with NaN = %+v, want a NaN MinX", got)
	}
}

func TestVec3Finite(t *testing.T) {
	cases := []struct {
		v    Vec3
		want bool
	}{
		{Vec3{1, -2, 3}, true},
		{Vec3{math.MaxFloat64, -math.MaxFloat64, 0}, true},
		{Vec3{math.NaN(), 0, 0}, false},
		{Vec3{0, math.Inf(1), 0}, false},
		{Vec3{0, 0, math.Inf(-1)}, false},
	}
	for _, c := range cases {
		if got := c.v.Finite(); got != c.want {
			t.Errorf("%+v.Finite() = %v", c.v, got)
		}
	}
}

func TestName(t *testing.T) {
	cases := []struct {
		scene string
		k     Key
		name  string
		file  string
	}{
		{"main", Key{}, "main.cell_0_0", "main.cell_0_0.json"},
		{"levels/boss", Key{X: -1, Z: 3}, "levels/boss.cell_-1_3", "levels_boss.cell_-1_3.json"},
		{"levels/boss é", Key{X: -1}, "levels/boss é.cell_-1_0", "levels_boss___.cell_-1_0.json"},
		{"w", Key{X: math.MinInt32, Z: math.MaxInt32}, "w.cell_-2147483648_2147483647", "w.cell_-2147483648_2147483647.json"},
		{".", Key{X: 1, Z: 2}, "..cell_1_2", "..cell_1_2.json"},
	}
	for _, c := range cases {
		name := Name(c.scene, c.k)
		if name != c.name {
			t.Errorf("Name(%q, %+v) = %q, want %q", c.scene, c.k, name, c.name)
		}
		if got := File(name); got != c.file {
			t.Errorf("File(%q) = %q, want %q", name, got, c.file)
		}
		prefix, k, ok := ParseFile(c.file)
		if !ok || k != c.k || prefix != FilePrefix(c.scene) {
			t.Errorf("ParseFile(%q) = %q, %+v, %v; want %q, %+v", c.file, prefix, k, ok, FilePrefix(c.scene), c.k)
		}
	}
}

func TestFileSafeAndPrefix(t *testing.T) {
	cases := []struct{ in, safe, prefix string }{
		{"main", "main", "main"},
		{"levels/boss", "levels_boss", "levels_boss"},
		{"a b\\c:d", "a_b_c_d", "a_b_c_d"},
		{"é", "__", "__"},
		// "." and ".." alone would name a directory; a cell's file name
		// holds more than them, so its prefix keeps the dots.
		{".", "_", "."},
		{"..", "__", ".."},
		{"...", "...", "..."},
		{"", "", ""},
	}
	for _, c := range cases {
		if got := FileSafe(c.in); got != c.safe {
			t.Errorf("FileSafe(%q) = %q, want %q", c.in, got, c.safe)
		}
		if got := FilePrefix(c.in); got != c.prefix {
			t.Errorf("FilePrefix(%q) = %q, want %q", c.in, got, c.prefix)
		}
	}
}

func TestParseFile(t *testing.T) {
	cases := []struct {
		file   string
		prefix string
		k      Key
		ok     bool
	}{
		{"main.cell_0_0.json", "main", Key{}, true},
		{"levels_boss.cell_-1_3.json", "levels_boss", Key{X: -1, Z: 3}, true},
		{"a.cell_1_2.cell_3_4.json", "a.cell_1_2", Key{X: 3, Z: 4}, true},
		{".cell_0_0.json", "", Key{}, true},
		{"w.cell_2147483647_-2147483648.json", "w", Key{X: math.MaxInt32, Z: math.MinInt32}, true},
		{"main.cell_0_0", "", Key{}, false},
		{"main.cell_0_0.JSON", "", Key{}, false},
		{"main.world.json", "", Key{}, false},
		{"main.cell_1.json", "", Key{}, false},
		{"main.cell_1_2_3.json", "", Key{}, false},
		{"main.cell__1.json", "", Key{}, false},
		{"main.cell_1_.json", "", Key{}, false},
		{"main.cell_+1_0.json", "", Key{}, false},
		{"main.cell_01_0.json", "", Key{}, false},
		{"main.cell_-0_0.json", "", Key{}, false},
		{"main.cell_0_ 1.json", "", Key{}, false},
		{"main.cell_2147483648_0.json", "", Key{}, false},
		{"main.cell_0_-2147483649.json", "", Key{}, false},
		// Coarser levels carry their level after the tag.
		{"main.cell_L1_2_3.json", "main", Key{Level: 1, X: 2, Z: 3}, true},
		{"main.cell_L30_-1_0.json", "main", Key{Level: 30, X: -1}, true},
		{"main.cell_L0_2_3.json", "", Key{}, false},  // level 0 has no tag
		{"main.cell_L01_2_3.json", "", Key{}, false}, // one spelling only
		{"main.cell_L31_2_3.json", "", Key{}, false}, // past MaxLevel
		{"main.cell_L-1_2_3.json", "", Key{}, false},
		{"main.cell_L1_2.json", "", Key{}, false},
		{"main.cell_L_2_3.json", "", Key{}, false},
		// The last tag counts, and what follows it is no cell.
		{"main.cell_1_2.cell_x.json", "", Key{}, false},
	}
	for _, c := range cases {
		prefix, k, ok := ParseFile(c.file)
		if prefix != c.prefix || k != c.k || ok != c.ok {
			t.Errorf("ParseFile(%q) = %q, %+v, %v; want %q, %+v, %v", c.file, prefix, k, ok, c.prefix, c.k, c.ok)
		}
	}
}

func TestOtherLevelsRefused(t *testing.T) {
	for name, f := range map[string]func(){
		"Name":   func() { Name("main", Key{Level: MaxLevel + 1}) },
		"Square": func() { Square(Key{Level: 31}, 1000) },
		"Center": func() { Center(Key{Level: -1}, 1000) },
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, "levels run from 0") {
					t.Errorf("%s of an out-of-range level: recovered %v, want a refusal", name, r)
				}
			}()
			f()
		}()
	}
}

func TestLevels(t *testing.T) {
	cases := []struct {
		k      Key
		name   string
		square Rect
		center Point
	}{
		{Key{}, "main.cell_0_0", Rect{0, 0, 1000, 1000}, Point{500, 500}},
		{Key{Level: 1, X: -1}, "main.cell_L1_-1_0", Rect{-2000, 0, 0, 2000}, Point{-1000, 1000}},
		{Key{Level: 3, X: 1, Z: -2}, "main.cell_L3_1_-2", Rect{8000, -16000, 16000, -8000}, Point{12000, -12000}},
	}
	for _, c := range cases {
		if got := Name("main", c.k); got != c.name {
			t.Errorf("Name(%+v) = %q, want %q", c.k, got, c.name)
		}
		if got := Square(c.k, 1000); got != c.square {
			t.Errorf("Square(%+v) = %+v, want %+v", c.k, got, c.square)
		}
		if got := Center(c.k, 1000); got != c.center {
			t.Errorf("Center(%+v) = %+v, want %+v", c.k, got, c.center)
		}
		_, k, ok := ParseFile(File(c.name))
		if !ok || k != c.k {
			t.Errorf("ParseFile(File(%q)) = %+v, %v", c.name, k, ok)
		}
		// The centre of a level's square is located back in the cell.
		got, sq, ok := LocateLevel(c.center.X, c.center.Z, 1000, c.k.Level)
		if !ok || got != c.k || sq != c.square {
			t.Errorf("LocateLevel(centre of %+v) = %+v, %+v, %v", c.k, got, sq, ok)
		}
	}
	if _, _, ok := LocateLevel(1e300, 0, 1000, 30); ok {
		t.Error("LocateLevel accepted a point beyond the int32 range")
	}
}
