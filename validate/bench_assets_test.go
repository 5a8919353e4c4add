package validate

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// BenchmarkCheckAssets measures Check on a generated world of 100k
// entities inside a project whose .meta files resolve every material and
// texture the world references, against Check of the same world outside
// any project (no asset lists): the asset graph's cost.
func BenchmarkCheckAssets(b *testing.B) {
	d := generated(b, 100_000)
	root := b.TempDir()
	os.WriteFile(filepath.Join(root, "project.esproject"), []byte("{}"), 0o644)
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`@uuid:([0-9a-f-]{36})`).FindAllSubmatch(d.Src, -1) {
		id := string(m[1])
		if seen[id] {
			continue
		}
		seen[id] = true
		f := filepath.Join(root, "assets", id+".png")
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, []byte("png"), 0o644)
		os.WriteFile(f+".meta", []byte(`{"uuid": "`+id+`"}`), 0o644)
	}
	for _, tc := range []struct {
		name string
		path string
	}{
		{"outside-project", d.Path},
		{"project", filepath.Join(root, "world.esscene")},
	} {
		b.Run(tc.name, func(b *testing.B) {
			d.Path = tc.path
			b.SetBytes(int64(len(d.Src)))
			b.ReportAllocs()
			for b.Loop() {
				p, err := Check(d, benchOpts)
				if err != nil {
					b.Fatal(err)
				}
				if (tc.name == "project") != (p.Assets != nil) {
					b.Fatalf("assets %v", p.Assets != nil)
				}
			}
		})
	}
}
