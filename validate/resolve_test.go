package validate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
)

// TestResolutionAsTheEngine: the prefab expansion and the extents resolve
// references by the asset graph's rules, which follow the engine. Each
// case is one place where the expansion used to resolve otherwise.
func TestResolutionAsTheEngine(t *testing.T) {
	root, scenes := project(t)
	outside := t.TempDir()
	write := func(dir, rel, body string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const farUUID = "0f0f0f0f-0000-4000-8000-000000000000"
	write(scenes, "Local.esprefab", coinPrefab)
	write(outside, "Far.esprefab", coinPrefab)
	write(outside, "Far.esprefab.meta", `{"uuid": "`+farUUID+`"}`)
	if err := os.Symlink(filepath.Join(outside, "Far.esprefab"), filepath.Join(root, "assets", "prefabs", "Link.esprefab")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	at := `[{"prefabEntityId": "0", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 10, "y": 0, "z": 10}}]`
	mesh := func(id int64, ref string) E {
		return E{ID: id, C: []string{tr(20, 0, 20), comp("Mesh2D", `{"mesh": "`+ref+`"}`)}}
	}
	settings := E{ID: 1, C: []string{sw("100")}}
	for _, tc := range []struct {
		name  string
		opts  Options
		e     E
		codes []string
		msg   string // in the finding's message, when there is one
	}{
		// A scene's paths are the project's, not its folder's.
		{"path relative to the scene", Options{}, inst(2, "null", "Local.esprefab", at),
			[]string{"unresolved-prefab@2:prefab"}, "Local.esprefab does not exist"},
		// A Windows separator names the same file.
		{"backslashes", Options{}, inst(2, "null", `assets\\prefabs\\Coin.esprefab`, at), nil, ""},
		// The project is one folder; more asset folders add uuids, not
		// places to look paths up in, and no file outside the project.
		{"path under a second asset folder", Options{Assets: []string{root, outside}}, inst(2, "null", "Far.esprefab", at),
			[]string{"unresolved-prefab@2:prefab"}, "Far.esprefab does not exist"},
		{"uuid outside the project", Options{Assets: []string{root, outside}}, inst(2, "null", "@uuid:"+farUUID, at),
			[]string{"unresolved-prefab@2:prefab"}, "outside the project"},
		// A link that leads out of the project is not followed.
		{"link out of the project", Options{}, inst(2, "null", "assets/prefabs/Link.esprefab", at),
			[]string{"unresolved-prefab@2:prefab"}, "Link.esprefab cannot be read"},
		// A builtin: name or a URL names no file: no prefab, no mesh box,
		// and nothing missing.
		{"builtin prefab", Options{}, inst(2, "null", "builtin:coin", at),
			[]string{"unresolved-prefab@2:prefab"}, "names no file"},
		{"builtin mesh", Options{}, mesh(2, "builtin:teapot"), nil, ""},
		{"URL mesh", Options{}, mesh(2, "https://cdn.example.com/x.esmesh"), nil, ""},
		// A missing mesh is reported once, as the extents meet it; the
		// asset graph, which meets it too, does not repeat it.
		{"missing mesh once", Options{}, mesh(2, "assets/models/none.esmesh"),
			[]string{"missing-asset@2:Mesh2D.mesh"}, "none.esmesh does not exist; its extent is unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := checkAt(t, filepath.Join(scenes, "main.esscene"), tc.opts, settings, tc.e)
			want := tc.codes
			if want == nil {
				want = []string{}
			}
			if got := codes(p); !slices.Equal(got, want) {
				t.Errorf("findings\n got %v\nwant %v", got, want)
			}
			if tc.msg != "" && len(p.Findings) > 0 && !strings.Contains(p.Findings[0].Message, tc.msg) {
				t.Errorf("message %q lacks %q", p.Findings[0].Message, tc.msg)
			}
		})
	}
}

// TestOneResolverPerCheck: the prefab expansion, the extents and the asset
// graph of a check share one resolver, and with a cache so do the scenes
// of one project in a run.
func TestOneResolverPerCheck(t *testing.T) {
	_, scenes := project(t)
	doc := func(name string) *scene.Document {
		d, err := scene.Parse(filepath.Join(scenes, name), []byte(sceneJSON(E{ID: 1, C: []string{sw("100")}})))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	cache := assets.NewCache()
	shared := NewPrefabsFor(AssetResolver(filepath.Join(scenes, "a.esscene"), Options{}))
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"alone", Options{}},
		{"cache", Options{AssetCache: cache}},
		{"prefabs", Options{Prefabs: shared}},
		{"graph", Options{AssetGraph: assets.NewGraph(shared.Resolver())}},
	} {
		c := &checker{opts: tc.opts, d: doc("a.esscene")}
		g := c.assetGraph()
		w, err := world.Build(c.d, world.Options{Prefabs: tc.opts.Prefabs, Resolver: c.resolver})
		if err != nil {
			t.Fatal(err)
		}
		if g == nil || w.Prefabs().Resolver() != g.Resolver() {
			t.Errorf("%s: the expansion and the asset graph resolve apart", tc.name)
		}
	}
	a := &checker{opts: Options{AssetCache: cache}, d: doc("a.esscene")}
	b := &checker{opts: Options{AssetCache: cache}, d: doc("b.esscene")}
	if a.resolver() != b.resolver() {
		t.Error("two scenes of one project got two resolvers from one cache")
	}
}
