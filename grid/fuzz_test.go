package grid

import (
	"strconv"
	"strings"
	"testing"
)

// lenientCell is how a cook recognised a scene's cell file before
// ParseFile: any integers after the last ".cell_", then the file name
// compared with the one the scene's cell of those indices has.
func lenientCell(file, scene string) bool {
	base, ok := strings.CutSuffix(file, ".json")
	if !ok {
		return false
	}
	i := strings.LastIndex(base, ".cell_")
	if i < 0 {
		return false
	}
	xs, zs, ok := strings.Cut(base[i+len(".cell_"):], "_")
	if !ok {
		return false
	}
	x, err1 := strconv.ParseInt(xs, 10, 32)
	z, err2 := strconv.ParseInt(zs, 10, 32)
	if err1 != nil || err2 != nil {
		return false
	}
	return file == File(Name(scene, Key{X: int32(x), Z: int32(z)}))
}

// FuzzParseFile checks that ParseFile reads back exactly what File(Name)
// writes: every file name it accepts is the one its result spells, every
// cell's file name reads back to the cell and its scene's prefix, and it
// tells a scene's cell files from other files as the lenient reading did.
func FuzzParseFile(f *testing.F) {
	f.Add("main.cell_0_0.json", "main", int32(0), int32(0))
	f.Add("levels_boss.cell_-1_3.json", "levels/boss", int32(-1), int32(3))
	f.Add("a.cell_1_2.cell_3_4.json", "a.cell_1_2", int32(2147483647), int32(-2147483648))
	f.Add("main.cell_-0_01.json", ".", int32(5), int32(-5))
	f.Add("main.cell_L1_2_3.json", "..", int32(0), int32(0))
	f.Add(".cell_0_0.json", "é/ü", int32(1), int32(1))
	f.Fuzz(func(t *testing.T, file, scene string, x, z int32) {
		if prefix, k, ok := ParseFile(file); ok {
			if back := prefix + Name("", k) + fileExt; back != file {
				t.Fatalf("ParseFile(%q) = %q, %+v, which spells %q", file, prefix, k, back)
			}
		}
		// A file is a scene's cell file for ParseFile as it was for the
		// lenient reading.
		// Coarser levels' files are new: the lenient reading knew none.
		_, pk, ok := ParseFile(file)
		if strict := ok && pk.Level == 0 && file == File(Name(scene, pk)); strict != lenientCell(file, scene) {
			t.Fatalf("%q as a cell of scene %q: ParseFile says %v, the lenient reading %v", file, scene, strict, !strict)
		}
		k := Key{Level: int32(uint32(x^z) % (MaxLevel + 1)), X: x, Z: z}
		name := File(Name(scene, k))
		prefix, got, ok := ParseFile(name)
		if !ok || got != k || prefix != FilePrefix(scene) {
			t.Fatalf("ParseFile(%q) = %q, %+v, %v; want %q, %+v", name, prefix, got, ok, FilePrefix(scene), k)
		}
		if strings.ContainsAny(name, "/\\") || name == "." || name == ".." {
			t.Fatalf("cell file name %q is not one flat name", name)
		}
	})
}
