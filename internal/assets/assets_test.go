package assets

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func writeFile(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "project.esproject", "{}")
	writeFile(t, root, "assets/t.png", "png")
	writeFile(t, root, "assets/t.png.meta", `{"uuid": "AAAAAAAA-0000-4000-8000-000000000001"}`)
	writeFile(t, root, "assets/maps/m.tmj", `{}`)
	writeFile(t, root, "assets/maps/near.png", "png")
	writeFile(t, root, "assets/env/e.esenv", `{}`)
	writeFile(t, root, "assets/env/spec.png", "png")
	outside := t.TempDir()
	writeFile(t, outside, "far.png", "png")
	writeFile(t, outside, "far.png.meta", `{"uuid": "aaaaaaaa-0000-4000-8000-0000000000ff"}`)
	g := New(root, NewIndex([]string{root, outside}), Rules{})
	for _, tc := range []struct {
		ref, from, want, reason string
		ok                      bool
	}{
		{"@uuid:aaaaaaaa-0000-4000-8000-000000000001", "", "assets/t.png", "", true},
		{"aaaaaaaa-0000-4000-8000-000000000001", "", "assets/t.png", "", true},
		{"@uuid:aaaaaaaa-0000-4000-8000-000000000009", "", "", "has no .meta", true},
		{"@uuid:aaaaaaaa-0000-4000-8000-0000000000ff", "", "", "outside the project", true},
		{"assets/t.png", "", "assets/t.png", "", true},
		{"/assets/t.png", "", "assets/t.png", "", true},
		{"assets\\t.png", "", "assets/t.png", "", true},
		{"builtin:cube", "", "", "", false},
		{"https://example.com/x.png", "", "", "", false},
		{"", "", "", "", false},
		{"../textures/x.png", "", "", "outside the project", true},
		{"../../../etc/passwd", "assets/maps/m.tmj", "", "outside the project", true},
		// File-relative kinds resolve against the document's folder first.
		{"near.png", "assets/maps/m.tmj", "assets/maps/near.png", "", true},
		{"../t.png", "assets/maps/m.tmj", "assets/t.png", "", true},
		{"spec.png", "assets/env/e.esenv", "assets/env/spec.png", "", true},
		// Project-relative kinds fall back to the document's folder.
		{"near.png", "assets/maps/x.esprefab", "assets/maps/near.png", "", true},
		{"assets/t.png", "assets/maps/m.tmj", "assets/t.png", "", true},
	} {
		p, reason, ok := g.Resolve(tc.ref, tc.from)
		if ok != tc.ok || (tc.want != "" && p != tc.want) || (tc.reason == "") != (reason == "") || !strings.Contains(reason, tc.reason) {
			t.Errorf("Resolve(%q, %q) = %q, %q, %v; want %q, %q, %v", tc.ref, tc.from, p, reason, ok, tc.want, tc.reason, tc.ok)
		}
	}
}

func TestHostileFiles(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "project.esproject", "{}")
	outside := t.TempDir()
	writeFile(t, outside, "secret.png", "secret")
	if err := os.Symlink(filepath.Join(outside, "secret.png"), filepath.Join(root, "escape.png")); err != nil {
		t.Skip("no symbolic links here")
	}
	writeFile(t, root, "real.png", "png!")
	if err := os.Symlink("real.png", filepath.Join(root, "inside.png")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.png"), 0o644); err != nil {
		t.Skip("no FIFOs here")
	}
	if err := os.Mkdir(filepath.Join(root, "dir.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A material that points through the escaping link and at the FIFO.
	writeFile(t, root, "m.esmaterial", `{"type": "material", "properties": {"u_albedo": "escape.png", "u_normalMap": "pipe.png"}}`)
	g := New(root, nil, Rules{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, tc := range []struct{ path, missing string }{
			{"escape.png", "cannot be read"},
			{"pipe.png", "named pipe"},
			{"dir.png", "a directory"},
			{"none.png", "does not exist"},
			{"inside.png", ""},
		} {
			a := g.Asset(tc.path)
			if (tc.missing == "") != (a.Missing == "") || !strings.Contains(a.Missing, tc.missing) {
				t.Errorf("%s: missing %q, want %q", tc.path, a.Missing, tc.missing)
			}
		}
		if a := g.Asset("inside.png"); a.Bytes != 4 {
			t.Errorf("a link inside the project counts its target: %d bytes, want 4", a.Bytes)
		}
		paths, misses := g.Closure([]string{"m.esmaterial"})
		if !slices.Equal(paths, []string{"m.esmaterial"}) || len(misses) != 2 {
			t.Errorf("closure %q, misses %+v", paths, misses)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("reading hostile files hung")
	}
}

func TestIndexSkipsWhatIsNotASidecar(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a/x.png.meta", `{"uuid": "AAAAAAAA-0000-4000-8000-000000000001"}`)
	writeFile(t, root, "b/y.png.meta", `{"uuid": "aaaaaaaa-0000-4000-8000-000000000001"}`) // a repeat: the first wins
	writeFile(t, root, "node_modules/z.png.meta", `{"uuid": "aaaaaaaa-0000-4000-8000-000000000002"}`)
	writeFile(t, root, ".hidden/z.png.meta", `{"uuid": "aaaaaaaa-0000-4000-8000-000000000003"}`)
	writeFile(t, root, "c/big.meta", `{"uuid": "aaaaaaaa-0000-4000-8000-000000000004", "pad": "`+strings.Repeat("x", MaxMetaBytes)+`"}`)
	writeFile(t, root, "c/bad.meta", `[1, 2]`)
	if err := syscall.Mkfifo(filepath.Join(root, "c", "pipe.meta"), 0o644); err != nil {
		t.Skip("no FIFOs here")
	}
	x := NewIndex([]string{root})
	if f, ok := x.Lookup("AAAAAAAA-0000-4000-8000-000000000001"); !ok || f != filepath.Join(root, "a", "x.png") {
		t.Errorf("lookup = %q, %v", f, ok)
	}
	for _, id := range []string{"2", "3", "4"} {
		if f, ok := x.Lookup("aaaaaaaa-0000-4000-8000-00000000000" + id); ok {
			t.Errorf("uuid %s found at %s", id, f)
		}
	}
}

func TestExtract(t *testing.T) {
	r := DefaultRules().compile()
	got, err := Extract([]byte(`{"id": 1, "name": "texture.png", "prefab": "@uuid:x", "overrides": [
		{"prefabEntityId": "n", "type": "property", "componentType": "Sprite", "propertyName": "texture", "value": "assets/o.png"},
		{"type": "property", "propertyName": "position", "value": "assets/not-a-ref.png"}],
		"components": [{"type": "Sprite", "data": {"texture": "assets/s.png", "color": "red", "extra": {"deep": ["@uuid:y"]}}},
		{"type": "TilemapLayer", "data": {"tilesetAssets": ["a.estileset", "b.estileset", 3], "mesh": "builtin:cube"}}]}`), r.fields, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Found{
		{"Sprite.extra.deep", "@uuid:y"},
		{"Sprite.texture", "assets/s.png"},
		{"TilemapLayer.mesh", "builtin:cube"},
		{"TilemapLayer.tilesetAssets", "a.estileset"},
		{"TilemapLayer.tilesetAssets", "b.estileset"},
		{"overrides.Sprite.texture", "assets/o.png"},
		{"prefab", "@uuid:x"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Extract =\n%q\nwant\n%q", got, want)
	}
}

func TestRulesWith(t *testing.T) {
	r, err := DefaultRules().With(Rules{Fields: []string{"portrait"}, Kinds: []Kind{{Ext: ".ESDIALOG", Follow: true}, {Ext: ".tmj", Follow: false}}})
	if err != nil {
		t.Fatal(err)
	}
	c := r.compile()
	if !c.fields["portrait"] || c.kindOf("a/b.esdialog") == nil || !c.kindOf("a/b.esdialog").Follow || c.kindOf("m.tmj").Follow {
		t.Errorf("extended rules: %+v", r)
	}
	for _, bad := range []Rules{{Fields: []string{""}}, {Kinds: []Kind{{Ext: "png"}}}, {Kinds: []Kind{{Ext: "./x"}}}} {
		if _, err := DefaultRules().With(bad); err == nil {
			t.Errorf("rules %+v accepted", bad)
		}
	}
}

func TestSharedAssetReadOnce(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "t.png", "png")
	writeFile(t, root, "a.esmaterial", `{"type": "material", "properties": {"u_albedo": "t.png"}}`)
	writeFile(t, root, "b.esmaterial", `{"type": "material", "properties": {"u_normalMap": "t.png"}}`)
	g := New(root, nil, Rules{})
	g.ClosureOf("a.esmaterial")
	// Replace the texture: a graph reads each file once per cook, so the
	// second material sees what the first saw.
	writeFile(t, root, "t.png", "a longer png")
	paths, _ := g.ClosureOf("b.esmaterial")
	if !slices.Equal(paths, []string{"b.esmaterial", "t.png"}) || g.Asset("t.png").Bytes != 3 {
		t.Errorf("closure %q, texture %d bytes; want it read once (3 bytes)", paths, g.Asset("t.png").Bytes)
	}
}

func TestCacheSharesAGraphPerProject(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	c := NewCache()
	g := c.Graph(a, []string{a}, nil, Rules{})
	if c.Graph(a, []string{a}, nil, Rules{}) != g {
		t.Error("the same project got two graphs")
	}
	if c.Graph(b, []string{b}, nil, Rules{}) == g || c.Graph(a, []string{a}, nil, Rules{Fields: []string{"x"}}) == g {
		t.Error("another project or other rules shared a graph")
	}
}

// TestResolveAsTheEngine covers the rules the resolver took from the
// engine where worldcook's two former rule sets disagreed.
func TestResolveAsTheEngine(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "project.esproject", "{}")
	writeFile(t, root, "assets/t.png", "png")
	writeFile(t, root, "assets/maps/assets/t.png", "a decoy beside the map")
	writeFile(t, root, "assets/prefabs/near.png", "png")
	writeFile(t, root, "t.png", "png")
	writeFile(t, root, " t.png", "a name with a space")
	if err := os.MkdirAll(filepath.Join(root, "assets", "prefabs", "dir.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "dir.png", "png")
	r := NewResolver(root, nil, Rules{})
	for _, tc := range []struct {
		name, ref, from, want, reason string
		ok                            bool
	}{
		// A logical path (assets/…) in a file-relative document is the
		// project's, as the engine's resolveDocumentRef has it.
		{"logical path in a map", "assets/t.png", "assets/maps/m.tmj", "assets/t.png", "", true},
		// A scene's paths are the project's, whatever folder the scene is
		// in (from is the scene).
		{"scene path", "t.png", "assets/scenes/main.esscene", "t.png", "", true},
		// A project path climbing out of a prefab is refused; it does not
		// fall back to the prefab's folder.
		{"climb out of a prefab", "../t.png", "assets/prefabs/p.esprefab", "", "outside the project", true},
		{"prefab's folder", "near.png", "assets/prefabs/p.esprefab", "assets/prefabs/near.png", "", true},
		// Names are taken as written: a leading space names another file.
		{"space kept", " t.png", "", " t.png", "", true},
		// A folder is no file: the next base is tried.
		{"folder skipped", "dir.png", "assets/prefabs/p.esprefab", "dir.png", "", true},
		{"builtin", "builtin:quad", "assets/prefabs/p.esprefab", "", "", false},
	} {
		got := r.Resolve(tc.ref, tc.from)
		if got.Ref != tc.ok || got.Path != tc.want || (tc.reason == "") != (got.Reason == "") || !strings.Contains(got.Reason, tc.reason) {
			t.Errorf("%s: Resolve(%q, %q) = %+v; want %q, %q, %v", tc.name, tc.ref, tc.from, got, tc.want, tc.reason, tc.ok)
		}
	}
}

// TestResolverIsShared: a cache hands the same resolver, and a graph over
// it, to every scene of one project.
func TestResolverIsShared(t *testing.T) {
	root := t.TempDir()
	c := NewCache()
	r := c.Resolver(root, []string{root}, nil, Rules{})
	g := c.GraphOf(r)
	if c.Resolver(root, []string{root}, nil, Rules{}) != r || c.Graph(root, []string{root}, nil, Rules{}) != g || g.Resolver() != r {
		t.Error("one project got two resolvers or graphs")
	}
}

// TestResolveConcurrently resolves the same references from many
// goroutines (run with -race).
func TestResolveConcurrently(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.png", "png")
	writeFile(t, root, "a.png.meta", `{"uuid": "aaaaaaaa-0000-4000-8000-000000000001"}`)
	r := NewResolver(root, NewIndex([]string{root}), Rules{})
	done := make(chan Resolved)
	for k := 0; k < 8; k++ {
		go func(k int) {
			ref := "a.png"
			if k%2 == 0 {
				ref = "@uuid:aaaaaaaa-0000-4000-8000-000000000001"
			}
			done <- r.Resolve(ref, "")
		}(k)
	}
	for k := 0; k < 8; k++ {
		if got := <-done; got.Path != "a.png" {
			t.Errorf("resolved %+v", got)
		}
	}
}
