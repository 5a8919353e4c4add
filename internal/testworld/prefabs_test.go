package testworld_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/testworld"
	"github.com/worldcook/worldcook/validate"
)

// TestPrefabHeavyWorld checks that a prefab-heavy world is deterministic,
// that about the asked share of its props are instances of its library,
// and that worldcook expands every instance without a finding.
func TestPrefabHeavyWorld(t *testing.T) {
	o := testworld.Options{Entities: 20000, Seed: 3, PrefabFraction: 0.3}
	gen := func() ([]byte, []testworld.File) {
		var buf bytes.Buffer
		if err := testworld.Write(&buf, o); err != nil {
			t.Fatal(err)
		}
		files, err := testworld.PrefabLibrary(o)
		if err != nil {
			t.Fatal(err)
		}
		return buf.Bytes(), files
	}
	src, files := gen()
	src2, files2 := gen()
	if !bytes.Equal(src, src2) || len(files) != len(files2) {
		t.Fatal("two runs differ")
	}
	if len(files) != 2*testworld.DefaultPrefabs {
		t.Fatalf("%d library files, want a prefab and a .meta for each of %d", len(files), testworld.DefaultPrefabs)
	}
	dir := t.TempDir()
	for k, f := range files {
		if !bytes.Equal(f.Data, files2[k].Data) {
			t.Fatalf("%s differs between runs", f.Path)
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := scene.Parse(filepath.Join(dir, "world.esscene"), src)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entities) != o.Entities {
		t.Fatalf("%d records, want %d", len(d.Entities), o.Entities)
	}
	instances, roots := 0, 0
	for i := range d.Entities {
		if !d.Entities[i].HasParent {
			roots++
		}
		if d.Entities[i].IsPrefab() {
			instances++
		}
	}
	if share := float64(instances) / float64(roots); share < 0.27 || share > 0.33 {
		t.Errorf("%d of %d roots are instances (%.2f), want about 0.3", instances, roots, share)
	}
	p, err := validate.Check(d, validate.Options{SceneName: "world"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Findings) != 0 {
		t.Fatalf("findings: %v", p.Findings[0].String())
	}
	spawned := p.PersistentSpawnCount
	for _, c := range p.Cells {
		spawned += c.SpawnCount
	}
	if spawned <= len(d.Entities) {
		t.Errorf("%d entities spawned for %d records with %d instances", spawned, len(d.Entities), instances)
	}
	// Without instances the world does not depend on the library options.
	var a, b bytes.Buffer
	testworld.Write(&a, testworld.Options{Entities: 3000, Seed: 3})
	testworld.Write(&b, testworld.Options{Entities: 3000, Seed: 3, Prefabs: 7})
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("a world without instances changed with the library size")
	}
}
