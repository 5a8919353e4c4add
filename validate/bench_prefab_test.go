package validate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/testworld"
	"github.com/worldcook/worldcook/internal/world"
)

// BenchmarkCheckPrefabHeavy measures Check on a world where 30% of the
// props are instances of a 50-prefab library (nested, variants, edits),
// beside the plain world of as many records: the target is at most 1.3×.
func BenchmarkCheckPrefabHeavy(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		if testing.Short() && n > 100_000 {
			continue
		}
		for _, frac := range []float64{0, 0.3} {
			dir := b.TempDir()
			o := testworld.Options{Entities: n, Seed: 1, PrefabFraction: frac}
			files, err := testworld.PrefabLibrary(o)
			if err != nil {
				b.Fatal(err)
			}
			for _, f := range files {
				p := filepath.Join(dir, filepath.FromSlash(f.Path))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			var buf bytes.Buffer
			if err := testworld.Write(&buf, o); err != nil {
				b.Fatal(err)
			}
			d, err := scene.Parse(filepath.Join(dir, "world.esscene"), buf.Bytes())
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("prefabs=%g/entities=%d", frac, n), func(b *testing.B) {
				b.SetBytes(int64(len(d.Src)))
				b.ReportAllocs()
				for b.Loop() {
					p, err := Check(d, benchOpts)
					if err != nil {
						b.Fatal(err)
					}
					if e := p.Errors(false); e != 0 || len(p.Cells) == 0 {
						b.Fatalf("%d errors, %d cells", e, len(p.Cells))
					}
				}
			})
		}
	}
}

// TestExpansionIndependentOfExpanders checks a prefab-heavy world with one
// and with several goroutines expanding its instances: the plans agree.
func TestExpansionIndependentOfExpanders(t *testing.T) {
	dir := t.TempDir()
	o := testworld.Options{Entities: 6000, Seed: 5, PrefabFraction: 0.5}
	files, err := testworld.PrefabLibrary(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := testworld.Write(&buf, o); err != nil {
		t.Fatal(err)
	}
	plan := func(parts int) *Plan {
		old := world.ExpanderCount
		world.ExpanderCount = func(int) int { return parts }
		defer func() { world.ExpanderCount = old }()
		d, err := scene.Parse(filepath.Join(dir, "world.esscene"), buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		p, err := Check(d, Options{SceneName: "world"})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := plan(1)
	for _, parts := range []int{2, 3, 7} {
		p := plan(parts)
		if !reflect.DeepEqual(one.Cells, p.Cells) || !reflect.DeepEqual(one.Findings, p.Findings) || one.PersistentSpawnCount != p.PersistentSpawnCount {
			t.Fatalf("%d expanders give another plan", parts)
		}
	}
}
