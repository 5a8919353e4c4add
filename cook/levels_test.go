package cook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/testworld"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
	"github.com/worldcook/worldcook/validate"
)

// largeWorld is a generated world with large content among its props.
func largeWorld(entities int) testworld.Options {
	return testworld.Options{Entities: entities, Seed: 5, LargeFraction: 0.005, Extent: 24000, RefFraction: 0.05}
}

// cookGenerated cooks a generated world in memory with the given levels.
func cookGenerated(t testing.TB, o testworld.Options, levels int) *World {
	t.Helper()
	var buf bytes.Buffer
	if err := testworld.Write(&buf, o); err != nil {
		t.Fatal(err)
	}
	d, err := scene.Parse("main.esscene", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	plan, err := validate.Check(d, validate.Options{SceneName: "main", Levels: levels})
	if err != nil {
		t.Fatal(err)
	}
	if n := plan.Errors(false); n > 0 {
		t.Fatalf("%d errors: %+v", n, plan.Findings[0])
	}
	w, err := buildWorld(context.Background(), plan, options{})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestLevelledWorldForTheRuntime checks a levelled world against what
// Estella's residency runtime reads of it (estella-sdk/residency:
// WorldStreamer.loadManifest registers each cell by name and path,
// desiredResidency streams by the minX..maxZ box alone, persistentEntityRows
// resolves persistentRefs in the scene named scene, the report lists name,
// x and z, cellSize and entityCount): every such field present with its
// type, names unique, each path a document whose entities lie in the box,
// and every reference of a cell resolved in the cell or in the persistent
// rows the manifest names.
func TestLevelledWorldForTheRuntime(t *testing.T) {
	w := cookGenerated(t, largeWorld(8000), 4)
	files := map[string][]byte{}
	for _, f := range w.Files {
		files[f.Path] = f.Bytes
	}
	raw := files[w.ManifestPath]
	if _, err := manifest.Decode("main.world.json", raw); err != nil {
		t.Fatalf("the cooked manifest does not read back: %v", err)
	}
	var m struct {
		Scene          *string  `json:"scene"`
		CellSize       *float64 `json:"cellSize"`
		PersistentRefs *[]int64 `json:"persistentRefs"`
		Persistent     struct{ Path string }
		Cells          []map[string]any `json:"cells"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m.Scene == nil || *m.Scene != "main" || m.CellSize == nil || *m.CellSize != 1000 || m.PersistentRefs == nil {
		t.Fatalf("manifest lacks scene, cellSize or persistentRefs: %s", raw[:200])
	}
	persistent := docIDs(t, files[m.Persistent.Path])
	rows := map[int64]bool{}
	for _, id := range *m.PersistentRefs {
		if !persistent[id] {
			t.Fatalf("persistentRefs names %d, which the persistent scene lacks", id)
		}
		rows[id] = true
	}
	names := map[string]bool{}
	levels := map[int]int{}
	for _, c := range m.Cells {
		name, _ := c["name"].(string)
		path, _ := c["path"].(string)
		for _, k := range []string{"x", "z", "minX", "minZ", "maxX", "maxZ", "entityCount"} {
			if _, ok := c[k].(float64); !ok {
				t.Fatalf("cell %s: %s is not a number", name, k)
			}
		}
		if names[name] || name == "" {
			t.Fatalf("cell name %q empty or repeated", name)
		}
		names[name] = true
		lv, has := c["level"].(float64)
		if has && lv == 0 {
			t.Fatalf("cell %s writes level 0", name)
		}
		levels[int(lv)]++
		key := grid.Key{Level: int32(lv), X: int32(c["x"].(float64)), Z: int32(c["z"].(float64))}
		if want := grid.Name("main", key); name != want {
			t.Fatalf("cell %s: level %v, x, z name %s", name, lv, want)
		}
		if path != "world/"+grid.File(name) || files[path] == nil {
			t.Fatalf("cell %s: path %q is no cooked document", name, path)
		}
		box := grid.Rect{MinX: c["minX"].(float64), MinZ: c["minZ"].(float64), MaxX: c["maxX"].(float64), MaxZ: c["maxZ"].(float64)}
		if sq := grid.Square(key, 1000); box.Union(sq) != box {
			t.Fatalf("cell %s: box %+v does not hold its square %+v", name, box, sq)
		}
		var doc struct {
			Entities []struct {
				ID         int64            `json:"id"`
				Parent     *int64           `json:"parent"`
				Components []map[string]any `json:"components"`
			} `json:"entities"`
		}
		if err := json.Unmarshal(files[path], &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Entities) != int(c["entityCount"].(float64)) {
			t.Fatalf("cell %s: %d entities, entityCount %v", name, len(doc.Entities), c["entityCount"])
		}
		ids := map[int64]bool{}
		for _, e := range doc.Entities {
			ids[e.ID] = true
		}
		for _, e := range doc.Entities {
			for _, comp := range e.Components {
				data, _ := comp["data"].(map[string]any)
				if comp["type"] == "Transform" && e.Parent == nil {
					p, _ := data["position"].(map[string]any)
					x, _ := p["x"].(float64)
					z, _ := p["z"].(float64)
					if x < box.MinX || x > box.MaxX || z < box.MinZ || z > box.MaxZ {
						t.Fatalf("cell %s: root %d at (%v, %v) is outside its box %+v", name, e.ID, x, z, box)
					}
				}
				for _, f := range []string{"connectedEntity"} {
					if v, ok := data[f].(float64); ok && v > 0 && !ids[int64(v)] && !rows[int64(v)] {
						t.Fatalf("cell %s: entity %d %v.%s = %v resolves neither in the cell nor in the persistent rows", name, e.ID, comp["type"], f, v)
					}
				}
			}
		}
	}
	if len(levels) < 2 {
		t.Fatalf("cells per level %v: nothing was promoted", levels)
	}
}

func docIDs(t *testing.T, b []byte) map[int64]bool {
	var doc struct {
		Entities []struct {
			ID int64 `json:"id"`
		} `json:"entities"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	ids := map[int64]bool{}
	for _, e := range doc.Entities {
		ids[e.ID] = true
	}
	return ids
}

// levelRoute drives the player in a loop through the world's middle, a
// few cells a second at 60 frames a second.
func levelRoute(frames int) [][]streaming.Point {
	out := make([][]streaming.Point, frames)
	for f := range out {
		a := 2 * math.Pi * float64(f) / float64(frames)
		p := streaming.Point{X: 12000 + 7000*math.Cos(a), Z: 12000 + 5000*math.Sin(2*a)}
		out[f] = []streaming.Point{p, p}
	}
	return out
}

// residency is what one run of a scheduler over a route measured.
type residency struct {
	peak, loaded int64
	mean         float64
	holeFrames   int
}

func (r residency) String() string {
	return fmt.Sprintf("peak %d, mean %.0f, loaded %d, hole frames %d", r.peak, r.mean, r.loaded, r.holeFrames)
}

func measure(frames []streaming.FrameReport) residency {
	var r residency
	var sum float64
	for _, f := range frames {
		r.peak = max(r.peak, f.ResidentBytes)
		sum += float64(f.ResidentBytes)
		r.loaded += f.RequestedBytes
		if len(f.Holes) > 0 {
			r.holeFrames++
		}
	}
	r.mean = sum / float64(len(frames))
	return r
}

// simulateBoth runs the budgeted scheduler and the runtime's over route.
func simulateBoth(t testing.TB, w *World, route [][]streaming.Point) (seed, estella residency) {
	t.Helper()
	sw := streaming.WorldFromManifest(w.Manifest, nil)
	s, err := streaming.NewScheduler(sw, sw.Sources, streaming.Settings{}, streaming.NewModelLoader(streaming.ModelIO{LatencyFrames: 2}))
	if err != nil {
		t.Fatal(err)
	}
	var fs []streaming.FrameReport
	for _, p := range route {
		fs = append(fs, s.Step(p))
	}
	seed = measure(fs)
	e, err := streaming.NewEstella(sw, sw.RuntimeSources, streaming.EstellaHost{Prepare: streaming.ModelIO{LatencyFrames: 2}})
	if err != nil {
		t.Fatal(err)
	}
	fs = fs[:0]
	for _, p := range route {
		fs = append(fs, e.Step(p).FrameReport)
	}
	return seed, measure(fs)
}

// TestLevelledWorldSimulates runs both schedulers on a world with large
// content, without and with levels: levelled cells are ordinary cells to
// both, and the levels keep less resident without more pop-in.
func TestLevelledWorldSimulates(t *testing.T) {
	route := levelRoute(600)
	flat := cookGenerated(t, largeWorld(30000), 0)
	lev := cookGenerated(t, largeWorld(30000), 4)
	fs, fe := simulateBoth(t, flat, route)
	ls, le := simulateBoth(t, lev, route)
	for _, c := range []struct {
		policy    string
		flat, lev residency
	}{{"seed", fs, ls}, {"estella", fe, le}} {
		t.Logf("%s: levels 0: %v; levels 4: %v", c.policy, c.flat, c.lev)
		if c.lev.holeFrames > c.flat.holeFrames {
			t.Errorf("%s: levels made %d hole frames, %d without", c.policy, c.lev.holeFrames, c.flat.holeFrames)
		}
		if c.lev.peak > c.flat.peak*4/5 {
			t.Errorf("%s: peak resident bytes %d with levels, %d without", c.policy, c.lev.peak, c.flat.peak)
		}
	}
}

// BenchmarkLevels measures what levels are for on the large-content world
// of 60,000 entities and its loop route: peak and mean resident bytes,
// bytes loaded and hole frames under both policies, at --levels 0 and 4
// (docs/benchmarks.md, "Levels"). The figures are deterministic; the time
// is the cook and both simulations.
func BenchmarkLevels(b *testing.B) {
	route := levelRoute(1200)
	for _, levels := range []int{0, 4} {
		b.Run(fmt.Sprintf("levels=%d", levels), func(b *testing.B) {
			var s, e residency
			for b.Loop() {
				s, e = simulateBoth(b, cookGenerated(b, largeWorld(60000), levels), route)
			}
			for _, p := range []struct {
				name string
				r    residency
			}{{"seed", s}, {"estella", e}} {
				b.ReportMetric(float64(p.r.peak), p.name+"-peak-resident-B")
				b.ReportMetric(p.r.mean, p.name+"-mean-resident-B")
				b.ReportMetric(float64(p.r.loaded), p.name+"-loaded-B")
				b.ReportMetric(float64(p.r.holeFrames), p.name+"-hole-frames")
			}
		})
	}
}

// TestRealProjectsLevels cooks every scene of the Estella example projects
// as a streamed world (streamedVariant) at levels 0 and 4: where nothing
// is larger than a cell the two worlds are byte for byte the same, and
// where something is (physics-3d's Ground, a tilemap layer) it is the
// only content promoted, with no new finding.
func TestRealProjectsLevels(t *testing.T) {
	files := corpus.ProjectFiles(".esscene")
	if len(files) == 0 {
		t.Skip("the Estella example projects are not in ../shared/estella-projects")
	}
	same, promoted := 0, 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		variant, _ := streamedVariant(t, src, manifest.PlaneXZ)
		d, err := scene.Parse(file, variant)
		if err != nil {
			continue // not a scene this test can vary
		}
		var worlds [2]*World
		for k, levels := range []int{0, 4} {
			plan, err := validate.Check(d, validate.Options{SceneName: "main", Levels: levels, Assets: []string{filepath.Dir(file)}})
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if worlds[k], err = buildWorld(context.Background(), plan, options{}); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		}
		flat, lev := worlds[0], worlds[1]
		if len(lev.Plan.Promotions) == 0 {
			same++
			if len(flat.Files) != len(lev.Files) {
				t.Fatalf("%s: levels changed the files with nothing promoted", file)
			}
			for k := range flat.Files {
				if !bytes.Equal(flat.Files[k].Bytes, lev.Files[k].Bytes) {
					t.Fatalf("%s: levels changed %s with nothing promoted", file, flat.Files[k].Path)
				}
			}
			continue
		}
		promoted++
		if a, b := lev.Plan.Errors(false), flat.Plan.Errors(false); a > b {
			t.Fatalf("%s: %d errors with levels, %d without", file, a, b)
		}
		for _, p := range lev.Plan.Promotions {
			f := p.Footprint
			t.Logf("%s: %q (%d) %.0f×%.0f to %s", strings.TrimPrefix(file, corpus.Projects()+"/"), p.Name, p.Entity, f.MaxX-f.MinX, f.MaxZ-f.MinZ, p.Cell)
		}
	}
	t.Logf("%d scenes unchanged, %d with promotions", same, promoted)
}
