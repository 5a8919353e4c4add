package assets

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzDecodeMeta(f *testing.F) {
	f.Add([]byte(`{"uuid": "39f5134b-c99d-44f6-9023-13debee745da", "version": "2.0", "type": "model", "importer": {"scale": 1}}`))
	f.Add([]byte(`{"uuid": 7}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"uuid": "x", "type": ["a"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, ok := DecodeMeta(data)
		if ok && m.UUID == "" {
			t.Fatal("a sidecar without a uuid was accepted")
		}
	})
}

func FuzzExtract(f *testing.F) {
	f.Add([]byte(`{"components": [{"type": "Sprite", "data": {"texture": "@uuid:x"}}], "prefab": "a.esprefab"}`))
	f.Add([]byte(`{"tilesets": [{"source": "t.tsj", "image": "../x.png"}]}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["@uuid:deep"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`))
	f.Add([]byte(`{"propertyName": "texture", "value": "p.png"}`))
	f.Add([]byte(`{"type": "material", "instanceOf": "base.esmaterial", "properties": {"u_normalMap": "n.png", "u_\u0061": "a.png", "u_a": 1, "u_e": {"r": 1}}}`))
	f.Add([]byte(`{"type": "material", "shader": "w.esshader", "properties": {"u_albedo": "/assets/t.png"}}`))
	r := DefaultRules().compile()
	f.Fuzz(func(t *testing.T, data []byte) {
		found, err := Extract(data, r.fields, nil)
		// A material is read by its own decoder, which accepts exactly the
		// documents Extract accepts.
		m, merr := DecodeMaterial(data)
		if (err == nil) != (merr == nil) {
			t.Fatalf("Extract says %v, DecodeMaterial %v", err, merr)
		}
		if merr == nil {
			for i, x := range m.Textures {
				if x.Value == "" || !strings.HasPrefix(x.Field, "properties.") || (i > 0 && m.Textures[i-1].Field >= x.Field) {
					t.Fatalf("textures %q: empty, unnamed, unsorted or repeated", m.Textures)
				}
			}
			if m.Parent != "" && m.Shader != "" {
				t.Fatal("an instance reads its own shader")
			}
		}
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a message of two lines: %q", err)
			}
			return
		}
		for i, x := range found {
			if x.Value == "" {
				t.Fatalf("empty reference at %s", x.Field)
			}
			if i > 0 && (found[i-1].Field > x.Field || found[i-1] == x) {
				t.Fatal("references not sorted or repeated")
			}
		}
	})
}

// FuzzResolve: whatever a document writes, the resolver names a file
// inside the project or none, with a one-line reason.
func FuzzResolve(f *testing.F) {
	root := f.TempDir()
	for _, name := range []string{"assets/t.png", "assets/maps/m.tmj", "assets/maps/near.png"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	f.Add("assets/t.png", "")
	f.Add("../../etc/passwd", "assets/maps/m.tmj")
	f.Add("near.png", "assets/maps/m.tmj")
	f.Add("..\\..\\x", "assets/p.esprefab")
	f.Add("@uuid:aaaaaaaa-0000-4000-8000-000000000001", "")
	f.Add("builtin:cube", "")
	f.Add("/", "")
	r := NewResolver(root, nil, Rules{})
	f.Fuzz(func(t *testing.T, ref, from string) {
		got := r.Resolve(ref, from)
		if strings.Contains(got.Reason, "\n") {
			t.Fatalf("a reason of two lines: %q", got.Reason)
		}
		if got.Path != "" && (escapes(got.Path) || path.IsAbs(got.Path) || path.Clean(got.Path) != got.Path) {
			t.Fatalf("Resolve(%q, %q) names %q, outside the project", ref, from, got.Path)
		}
		if !got.Ref && (got.Path != "" || got.Reason != "") {
			t.Fatalf("not a reference, yet %+v", got)
		}
	})
}
