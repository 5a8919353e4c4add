package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
)

// projectsDir is ../shared/estella-projects beside the repository.
func projectsDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	d := filepath.Join(filepath.Dir(file), "..", "..", "shared", "estella-projects")
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		t.Skip("Estella projects not found at ../shared/estella-projects")
	}
	return d
}

// TestRealProjects makes every scene of the shared Estella projects a
// streamed world, at cell sizes that put its instances in different
// cells, and checks that the plan is deterministic, takes every entity
// exactly once, and that its cells' bounds hold every entity the engine
// spawns, by an expansion written out plainly here.
func TestRealProjects(t *testing.T) {
	root := projectsDir(t)
	scenes, _ := filepath.Glob(filepath.Join(root, "*", "*", "assets", "scenes", "*.esscene"))
	if len(scenes) == 0 {
		t.Fatal("no scenes under " + root)
	}
	// The 2D scenes whose layout says so: orthographic cameras and roots
	// spread on y, or one tilemap whose tiles do (hex, iso, staggered and
	// wang maps are one top-level entity each); lighting-3d is 3D.
	laidOut2D := map[string]bool{
		"examples/physics-playground/assets/scenes/showcase.esscene": true,
		"examples/platformer/assets/scenes/main.esscene":             true,
		"examples/sprite-rendering/assets/scenes/main.esscene":       true,
		"examples/tilemap-demo/assets/scenes/tiled-map.esscene":      true,
		"examples/tilemap-demo/assets/scenes/hex-map.esscene":        true,
		"examples/tilemap-demo/assets/scenes/iso-map.esscene":        true,
		"examples/tilemap-demo/assets/scenes/staggered-map.esscene":  true,
		"examples/tilemap-demo/assets/scenes/wang-map.esscene":       true,
		"templates/2d-platformer/assets/scenes/main.esscene":         true,
	}
	for _, file := range scenes {
		rel, _ := filepath.Rel(root, file)
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, plane := range []string{manifest.PlaneXZ, manifest.PlaneXY} {
			for _, cs := range []string{"50", "160"} {
				t.Run(fmt.Sprintf("%s/%s/%s", rel, plane, cs), func(t *testing.T) {
					streamed := withStreamedWorld(t, src, cs)
					d, err := scene.Parse(file, streamed)
					if err != nil {
						t.Fatal(err)
					}
					opts := Options{Plane: plane, SceneName: "main"}
					p, err := Check(d, opts)
					if err != nil {
						t.Fatal(err)
					}
					d2, _ := scene.Parse(file, streamed)
					p2, err := Check(d2, opts)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(p.Cells, p2.Cells) || !reflect.DeepEqual(p.Findings, p2.Findings) {
						t.Fatal("two checks of one scene differ")
					}
					checkPartition(t, p)
					mismatch := false
					for _, f := range p.Findings {
						mismatch = mismatch || f.Code == CodePlaneMismatch
					}
					if want := plane == manifest.PlaneXZ && laidOut2D[filepath.ToSlash(rel)]; mismatch != want {
						t.Errorf("plane-mismatch %v, want %v", mismatch, want)
					}
					for _, f := range p.Findings {
						switch f.Code {
						// Small cells cut the playground's joints apart.
						case CodeCameraInCell, CodeUIRootInCell, CodeGlobalLightInCell, CodeCrossCellRef, CodePersistentToCellRef,
							// The scenes get a StreamedWorld and no source.
							CodeNothingStreams, CodeNoStreamingSource, CodePlaneMismatch:
						default:
							t.Errorf("unexpected %s", f.String())
						}
					}
					for _, pt := range plainExpansion(t, d, filepath.Dir(filepath.Dir(filepath.Dir(file)))) {
						u, v := pt.pos.X, pt.pos.Z
						if plane == manifest.PlaneXY {
							v = pt.pos.Y
						}
						cell := cellOf(t, p, pt.root)
						if cell == "persistent" {
							continue
						}
						for _, c := range p.Cells {
							if c.Name == cell && !(u >= c.Bounds.MinX-1e-9 && u <= c.Bounds.MaxX+1e-9 && v >= c.Bounds.MinZ-1e-9 && v <= c.Bounds.MaxZ+1e-9) {
								t.Errorf("%s at (%g, %g) lies outside cell %s bounds %+v", pt.name, u, v, cell, c.Bounds)
							}
						}
					}
					for _, c := range p.Cells {
						t.Logf("%s grid %+v bounds %+v overhang %q by %g, %d entities spawn %d", c.Name, c.Grid, c.Bounds, c.Overhang.Name, c.Overhang.By, len(c.Entities), c.SpawnCount)
					}
				})
			}
		}
	}
}

// withStreamedWorld inserts a StreamedWorld settings entity first.
func withStreamedWorld(t *testing.T, src []byte, cellSize string) []byte {
	t.Helper()
	at := bytes.Index(src, []byte(`"entities"`))
	open := bytes.IndexByte(src[at:], '[') + at + 1
	rec := `{"id": 100000, "name": "Streamed World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": ` + cellSize + `}}]},`
	out := append([]byte(nil), src[:open]...)
	out = append(out, rec...)
	return append(out, src[open:]...)
}

// plainPoint is an expanded entity's world origin, with the id of the
// top-level entity it is placed with.
type plainPoint struct {
	name string
	root int64
	pos  scene.Vec3
}

// plainExpansion expands every top-level entity of d the plain way: JSON
// into maps, prefabs by uuid or project path, overrides applied in order,
// matrices composed down each tree. It handles what the shared projects
// use (flat prefabs, property and component overrides, added and removed
// entities).
func plainExpansion(t *testing.T, d *scene.Document, project string) []plainPoint {
	t.Helper()
	var doc struct {
		Entities []map[string]any `json:"entities"`
	}
	if err := json.Unmarshal(d.Src, &doc); err != nil {
		t.Fatal(err)
	}
	uuids := map[string]string{}
	filepath.Walk(project, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".meta") {
			var m struct{ UUID string }
			if b, err := os.ReadFile(p); err == nil && json.Unmarshal(b, &m) == nil && m.UUID != "" {
				uuids[m.UUID] = strings.TrimSuffix(p, ".meta")
			}
		}
		return nil
	})
	trsOf := func(comps []any) (scene.TRS, bool) {
		for _, c := range comps {
			cm := c.(map[string]any)
			if cm["type"] == "Transform" {
				b, _ := json.Marshal(cm["data"])
				tr, err := scene.ParseTRS(b)
				if err != nil {
					t.Fatal(err)
				}
				return tr, true
			}
		}
		return scene.TRS{}, false
	}
	byID := map[float64]map[string]any{}
	for _, e := range doc.Entities {
		byID[e["id"].(float64)] = e
	}
	var out []plainPoint
	var walk func(e map[string]any, parent *scene.Affine, root int64)
	walk = func(e map[string]any, parent *scene.Affine, root int64) {
		var here *scene.Affine
		if ref, ok := e["prefab"].(string); ok {
			file := ref
			if id, ok := strings.CutPrefix(ref, "@uuid:"); ok {
				file = uuids[id]
			} else {
				file = filepath.Join(project, ref)
			}
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("prefab %s: %v", ref, err)
			}
			var pf struct {
				RootEntityID string           `json:"rootEntityId"`
				Entities     []map[string]any `json:"entities"`
			}
			if err := json.Unmarshal(raw, &pf); err != nil {
				t.Fatal(err)
			}
			removed := map[string]bool{}
			for _, r := range asList(e["removed"]) {
				removed[fmt.Sprint(r)] = true
			}
			ents := map[string]map[string]any{}
			for _, pe := range pf.Entities {
				ents[fmt.Sprint(pe["prefabEntityId"])] = pe
			}
			for _, o := range asList(e["overrides"]) {
				om := o.(map[string]any)
				pe := ents[fmt.Sprint(om["prefabEntityId"])]
				if pe == nil {
					continue
				}
				comps := asList(pe["components"])
				switch om["type"] {
				case "property":
					for _, c := range comps {
						cm := c.(map[string]any)
						if cm["type"] == om["componentType"] {
							data, _ := cm["data"].(map[string]any)
							nd := map[string]any{}
							for k, v := range data {
								nd[k] = v
							}
							nd[om["propertyName"].(string)] = om["value"]
							cm["data"] = nd
						}
					}
				case "component_added", "component_replaced":
					cd := om["componentData"].(map[string]any)
					pe["components"] = append(comps, cd)
				}
			}
			var place func(id string, m *scene.Affine)
			place = func(id string, m *scene.Affine) {
				pe := ents[id]
				if pe == nil || removed[id] {
					return
				}
				tr, ok := trsOf(asList(pe["components"]))
				var wm *scene.Affine
				if ok {
					x := tr.Matrix()
					if m != nil {
						x = m.Mul(x)
					}
					wm = &x
					out = append(out, plainPoint{name: fmt.Sprint(pe["name"]), root: root, pos: x.Origin()})
				}
				for _, c := range asList(pe["children"]) {
					place(fmt.Sprint(c), wm)
				}
			}
			place(pf.RootEntityID, parent)
			return
		}
		if tr, ok := trsOf(asList(e["components"])); ok {
			x := tr.Matrix()
			if parent != nil {
				x = parent.Mul(x)
			}
			here = &x
			out = append(out, plainPoint{name: fmt.Sprint(e["name"]), root: root, pos: x.Origin()})
		}
		for _, c := range asList(e["children"]) {
			if k := byID[c.(float64)]; k != nil {
				walk(k, here, root)
			}
		}
	}
	for _, e := range doc.Entities {
		if e["parent"] == nil {
			walk(e, nil, int64(e["id"].(float64)))
		}
	}
	for _, pt := range out {
		if math.IsNaN(pt.pos.X) {
			t.Fatalf("%s has no position", pt.name)
		}
	}
	return out
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// TestLighting3DSunAndSky: lighting-3d's Sun (directional) and Sky
// (ambient with an environment) land in a cell once the scene is cut,
// and are the scene-wide lights reported; nothing else is.
func TestLighting3DSunAndSky(t *testing.T) {
	file := filepath.Join(projectsDir(t), "examples", "lighting-3d", "assets", "scenes", "main.esscene")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Skip("lighting-3d not found: " + err.Error())
	}
	d, err := scene.Parse(file, withStreamedWorld(t, src, "1000"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Check(d, Options{SceneName: "main"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range p.Findings {
		if f.Code == CodeGlobalLightInCell {
			got = append(got, f.EntityName)
		}
	}
	if strings.Join(got, ",") != "Sun,Sky" {
		t.Errorf("scene-wide lights reported: %q, want Sun and Sky", got)
	}
}
