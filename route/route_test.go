package route

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/golden"
	"github.com/worldcook/worldcook/internal/tilemap"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
)

// A route's CSV reads back, through simulate's reader, to the very
// numbers written: the shortest round-trip form loses no bit.
func TestCSVRoundTrip(t *testing.T) {
	hard := []float64{0.1 + 0.2, 1e-7, 1234567.5, math.Copysign(0, -1), 5e-324, -1.7976931348623157e308, 1.0 / 3, 100}
	for _, plane := range []string{manifest.PlaneXZ, manifest.PlaneXY} {
		for _, column := range []bool{false, true} {
			r := &Route{Name: "r", Plane: plane, Source: "Cam, \"main\"", Column: column}
			for i, v := range hard {
				r.Frames = append(r.Frames, Point{v, hard[len(hard)-1-i]})
			}
			var buf bytes.Buffer
			if err := r.WriteCSV(&buf); err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(t.TempDir(), "r.csv")
			os.WriteFile(f, buf.Bytes(), 0o644)
			rt, err := streaming.ReadRoute(f)
			if err != nil {
				t.Fatal(err)
			}
			_, frames, err := rt.Bind(nil, plane, streaming.Source{Name: "x", Load: 1, Unload: 2, Prefetch: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(frames) != len(r.Frames) {
				t.Fatalf("%d frames read back, %d written", len(frames), len(r.Frames))
			}
			for i, f := range frames {
				if math.Float64bits(f[0].X) != math.Float64bits(r.Frames[i].X) || math.Float64bits(f[0].Z) != math.Float64bits(r.Frames[i].Z) {
					t.Fatalf("frame %d: read back %v, wrote %v", i, f[0], r.Frames[i])
				}
			}
			if column && !strings.Contains(buf.String(), `"Cam, ""main"""`) {
				t.Fatalf("the source is not quoted:\n%s", buf.String())
			}
			golden.Compare(t, filepath.Join("testdata", "csv-"+plane+map[bool]string{true: "-source", false: ""}[column]+".csv"), buf.Bytes())
		}
	}
}

const walkTimeline = `{"version": "1.2", "type": "timeline", "duration": 2, "wrapMode": "once", "tracks": [
  {"type": "property", "name": "walk", "childPath": "Rig/Hero", "component": "Transform", "channels": [
    {"property": "position.x", "keyframes": [{"time": 0, "value": 0, "interpolation": "linear"}, {"time": 2, "value": 100}]}]},
  {"type": "activation", "name": "bars", "childPath": "Hero", "ranges": [{"start": 0, "end": 2}]}]}`

// A source carried by an animated entity under a turned, scaled parent:
// its world position each frame is the clip's local position taken
// through the parents.
func TestTimelineThroughParents(t *testing.T) {
	turn := map[string]any{"position": map[string]any{"x": 10, "y": 0, "z": 5}, "rotation": map[string]any{"x": 0, "y": math.Sqrt2 / 2, "z": 0, "w": math.Sqrt2 / 2}, "scale": map[string]any{"x": 2, "y": 2, "z": 2}}
	rig := entity(2, "Rig", int64(1), "Transform", turn)
	hero := entity(3, "Hero", int64(2), "Transform", at(0, 0, 0))
	cam := entity(4, "Eye", int64(3), append([]any{"Transform", at(0, 3, 0)}, source()...)...)
	cam["parent"] = int64(3)
	scene := project(t, []ent{
		streamed(50),
		entity(1, "Director", nil, "Transform", at(0, 0, 0), "TimelinePlayer", map[string]any{"timeline": "assets/walk.estimeline", "speed": 2}, "WorldPersistent", map[string]any{}),
		rig, hero, cam,
	}, map[string]string{"assets/walk.estimeline": walkTimeline})
	res, err := Make(scene, options(manifest.PlaneXZ, FromTimeline))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Routes) != 1 {
		t.Fatalf("%d routes: %+v", len(res.Routes), res.Notes)
	}
	r := res.Routes[0]
	// speed 2: the 2 s clip plays in 1 s, 61 frames at 60 a second (the
	// clock adds up 1/60 × 2 sixty times to a hair under 2: one more).
	if r.Source != "Eye" || r.Name != "timeline-Director-Eye" || len(r.Frames) < 61 || len(r.Frames) > 62 {
		t.Fatalf("route %s of %s, %d frames", r.Name, r.Source, len(r.Frames))
	}
	// The rig turns +x onto -z and doubles it: the hero at x = 100 is at
	// x 10, z 5 - 200.
	last := r.Frames[len(r.Frames)-1]
	if math.Abs(last.X-10) > 1e-9 || math.Abs(last.Z-(5-200)) > 1e-9 {
		t.Fatalf("the last frame is at %v", last)
	}
	if mid := r.Frames[30]; math.Abs(mid.Z-(5-2*100*30.0/60)) > 1e-9 {
		t.Fatalf("frame 30 is at %v", mid)
	}
}

// markers on a 2D tilemap: the walk goes round the wall through its
// door, never across a collidable tile; a marker walled in is an error
// that names both markers.
func TestMarkersOnTiles(t *testing.T) {
	// 16×16 tiles of 10 units, the layer's top-left corner at (0, 160):
	// tile (tx, ty) is centred on (5 + 10·tx, 155 - 10·ty). A wall of
	// tile 4 down column 8 with a door at row 12, and tile 0 elsewhere.
	var c tilemap.Chunk
	for ty := 0; ty < 16; ty++ {
		if ty != 12 {
			c.Tiles[ty*16+8] = 4 | 0x8000 // flipped: the id is still 4
		}
	}
	// An island: tile (13, 2) ringed by collidable tiles.
	for _, p := range [][2]int{{12, 1}, {13, 1}, {14, 1}, {12, 2}, {14, 2}, {12, 3}, {13, 3}, {14, 3}} {
		c.Tiles[p[1]*16+p[0]] = 5
	}
	layer := entity(1, "Terrain", nil, "Transform", at(0, 160, 0), "TilemapLayer", map[string]any{
		"cellSize": map[string]any{"x": 10, "y": 10}, "collidableTileIds": []int{4, 5}, "chunks": tilemap.Encode([]tilemap.Chunk{c})})
	marker := func(id int64, name string, x, y float64, order string) ent {
		return entity(id, name, nil, "Transform", at(x, y, 0), "Marker", map[string]any{"type": "waypoint", "properties": map[string]any{"order": order}})
	}
	ents := []ent{streamed(40), layer, marker(2, "A", 25, 125, "1"), marker(3, "B", 135, 95, "2"), marker(4, "C", 135, 25, "3")}
	res, err := Make(project(t, ents, map[string]string{}), options(manifest.PlaneXY, FromMarkers))
	if err != nil {
		t.Fatal(err)
	}
	r := res.Routes[0]
	blocked := func(p Point) bool {
		tx, ty := int(math.Floor(p.X/10)), int(math.Floor((160-p.Z)/10))
		return tx >= 0 && tx < 16 && ty >= 0 && ty < 16 && c.Tiles[ty*16+tx]&tilemap.IDMask != 0
	}
	door := false
	for i, p := range r.Frames {
		if blocked(p) {
			t.Fatalf("frame %d at %v is on a collidable tile", i, p)
		}
		if p.X > 80 && p.X < 90 {
			door = door || (p.Z > 30 && p.Z < 40)
		}
	}
	if !door || r.Frames[0] != (Point{25, 125}) || r.Frames[len(r.Frames)-1] != (Point{135, 25}) {
		t.Fatalf("the walk does not go through the door from A to C: %v ... %v", r.Frames[0], r.Frames[len(r.Frames)-1])
	}
	if !strings.Contains(r.Follows, "grid path") {
		t.Fatalf("follows %q", r.Follows)
	}
	// The island: D cannot be reached from C.
	ents = append(ents, marker(5, "D", 135, 135, "4"))
	_, err = Make(project(t, ents, map[string]string{}), options(manifest.PlaneXY, FromMarkers))
	if err == nil || !strings.Contains(err.Error(), `marker "D" (entity 5) cannot be reached from marker "C" (entity 4)`) {
		t.Fatalf("error %v", err)
	}
	// The same markers on an xz world walk straight.
	res, err = Make(project(t, ents[:5], map[string]string{}), options(manifest.PlaneXZ, FromMarkers))
	if err != nil || !strings.Contains(res.Routes[0].Follows, "straight lines") {
		t.Fatalf("%v %+v", err, res)
	}
}

// The tour visits the cells row by row, each row the other way; the
// teleport holds each spawn for Hold seconds.
func TestTourAndTeleport(t *testing.T) {
	var ents []ent
	ents = append(ents, streamed(100))
	id := int64(1)
	for _, p := range [][2]float64{{50, 50}, {150, 50}, {250, 50}, {50, 150}, {250, 150}} {
		ents = append(ents, entity(id, "box", nil, "Transform", at(p[0], 0, p[1])))
		id++
	}
	ents = append(ents, entity(50, "Spawn B", nil, "Transform", at(250, 0, 150), "Marker", map[string]any{"type": "spawn"}),
		entity(51, "Spawn A", nil, "Transform", at(50, 0, 50), "Marker", map[string]any{"type": "spawn"}))
	o := options(manifest.PlaneXZ, FromTour, FromTeleport)
	o.Speed, o.Hold = 100, 0.5
	res, err := Make(project(t, ents, map[string]string{}), o)
	if err != nil {
		t.Fatal(err)
	}
	tour, tp := res.Routes[0], res.Routes[1]
	// 50,50 → 250,50 → (next row, backwards) 250,150 → 50,150: 500 units
	// at 100/s, 60 frames a second: 300 steps, 301 frames.
	if len(tour.Frames) != 301 || tour.Frames[0] != (Point{50, 50}) || tour.Frames[150] != (Point{250, 100}) || tour.Frames[300] != (Point{50, 150}) {
		t.Fatalf("tour: %d frames, %v %v %v", len(tour.Frames), tour.Frames[0], tour.Frames[150], tour.Frames[len(tour.Frames)-1])
	}
	if len(tp.Frames) != 60 || tp.Frames[0] != (Point{50, 50}) || tp.Frames[30] != (Point{250, 150}) || len(tp.Jumps) != 1 || tp.Jumps[0] != 30 {
		t.Fatalf("teleport: %d frames, %v, jumps %v", len(tp.Frames), tp.Frames[:1], tp.Jumps)
	}
}

// A world of one cell is toured by standing in it for Hold seconds: a
// one-frame walk would be the start and nothing else.
func TestTourOfOneCell(t *testing.T) {
	ents := []ent{streamed(100), entity(1, "box", nil, "Transform", at(30, 0, 70))}
	o := options(manifest.PlaneXZ, FromTour)
	o.Hold = 0.5
	res, err := Make(project(t, ents, map[string]string{}), o)
	if err != nil {
		t.Fatal(err)
	}
	tour := res.Routes[0]
	if len(tour.Frames) != 30 || tour.Frames[0] != (Point{50, 50}) || tour.Frames[29] != (Point{50, 50}) {
		t.Fatalf("tour of one cell: %d frames, %v … %v; want 30 frames at (50, 50)", len(tour.Frames), tour.Frames[0], tour.Frames[len(tour.Frames)-1])
	}
}

// Bad input is one line naming what is wrong.
func TestBadInput(t *testing.T) {
	player := func(ref string, speed any) ent {
		return entity(1, "Director", nil, "Transform", at(0, 0, 0), "TimelinePlayer", map[string]any{"timeline": ref, "speed": speed})
	}
	hero := entity(2, "Hero", int64(1), append([]any{"Transform", at(0, 0, 0)}, source()...)...)
	for _, tc := range []struct {
		name  string
		ents  []ent
		files map[string]string
		o     func(*Options)
		want  string
	}{
		{"missing clip", []ent{streamed(10), player("assets/gone.estimeline", 1), hero}, nil, nil, `TimelinePlayer.timeline: "assets/gone.estimeline": `},
		{"bad clip", []ent{streamed(10), player("assets/w.estimeline", 1), hero}, map[string]string{"assets/w.estimeline": `{"tracks": [`}, nil, "w.estimeline: line 1"},
		{"no duration", []ent{streamed(10), player("assets/w.estimeline", 1), hero}, map[string]string{"assets/w.estimeline": strings.Replace(walkTimeline, `"duration": 2`, `"duration": 0`, 1)}, nil, "has no duration"},
		{"speed 0", []ent{streamed(10), player("assets/w.estimeline", 0), hero}, map[string]string{"assets/w.estimeline": walkTimeline}, nil, "TimelinePlayer.speed"},
		{"no position track", []ent{streamed(10), player("assets/w.estimeline", 1), hero}, map[string]string{"assets/w.estimeline": `{"duration": 1, "tracks": [{"type": "audio", "events": []}]}`}, nil, "moves no entity's Transform"},
		{"fps", []ent{streamed(10)}, nil, func(o *Options) { o.FPS = 0 }, "--fps 0"},
		{"speed", []ent{streamed(10)}, nil, func(o *Options) { o.Speed = -1 }, "--speed -1 is negative"},
		{"source", []ent{streamed(10), entity(2, "Hero", nil, append([]any{"Transform", at(0, 0, 0)}, source()...)...)}, nil, func(o *Options) { o.Source = "Nobody"; o.From = []string{FromTeleport} }, `--source "Nobody"`},
		{"too long", []ent{streamed(10), entity(4, "near", nil, "Transform", at(1, 0, 0)), entity(3, "far", nil, "Transform", at(1e9, 0, 0))}, nil, func(o *Options) { o.From = []string{FromTour}; o.Speed = 1 }, "MaxRouteFrames"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.files
			if files == nil {
				files = map[string]string{}
			}
			o := options(manifest.PlaneXZ, FromTimeline)
			if tc.o != nil {
				tc.o(&o)
			}
			_, err := Make(project(t, tc.ents, files), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line with %q", err, tc.want)
			}
		})
	}
}

// The same scene and settings make the same bytes.
func TestDeterministic(t *testing.T) {
	var c tilemap.Chunk
	for ty := 0; ty < 15; ty++ {
		c.Tiles[ty*16+8] = 4
	}
	ents := []ent{streamed(40),
		entity(1, "Terrain", nil, "Transform", at(0, 160, 0), "TilemapLayer", map[string]any{"cellSize": map[string]any{"x": 10, "y": 10}, "collidableTileIds": []int{4}, "chunks": tilemap.Encode([]tilemap.Chunk{c})}),
		entity(2, "A", nil, "Transform", at(25, 125, 0), "Marker", map[string]any{"type": "spawn"}),
		entity(3, "B", nil, "Transform", at(135, 95, 0), "Marker", map[string]any{"type": "spawn"}),
	}
	scene := project(t, ents, map[string]string{})
	var first []string
	for run := 0; run < 3; run++ {
		res, err := Make(scene, options(manifest.PlaneXY))
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res.Routes {
			var b bytes.Buffer
			r.WriteCSV(&b)
			if run == 0 {
				first = append(first, b.String())
			} else if b.String() != first[i] {
				t.Fatalf("run %d: %s differs", run, r.Name)
			}
		}
	}
	if len(first) != 3 { // markers, tour, teleport
		t.Fatalf("%d routes", len(first))
	}
}

// The entities of a prefab instance are the engine's too: markers inside
// one are walked at the positions the instance puts them (its override
// moves the root, the markers keep their place below it) and named by
// their path below the instance.
func TestMarkersInsidePrefab(t *testing.T) {
	const pathPrefab = `{
  "version": "2", "name": "Path", "rootEntityId": "r",
  "entities": [
    {"prefabEntityId": "r", "name": "Path", "parent": null, "children": ["a", "b"], "visible": true,
     "components": [{"type": "Transform", "data": {"position": {"x": 0, "y": 0, "z": 0}}}]},
    {"prefabEntityId": "a", "name": "Start", "parent": "r", "children": [], "visible": true,
     "components": [{"type": "Transform", "data": {"position": {"x": 10, "y": 0, "z": 0}}}, {"type": "Marker", "data": {"type": "waypoint", "properties": {"order": "1"}}}]},
    {"prefabEntityId": "b", "name": "End", "parent": "r", "children": [], "visible": true,
     "components": [{"type": "Transform", "data": {"position": {"x": 70, "y": 0, "z": 0}}}, {"type": "Marker", "data": {"type": "waypoint", "properties": {"order": "2"}}}]}
  ]
}`
	path := ent{"id": int64(10), "name": "Trail", "parent": nil, "prefab": "assets/prefabs/Path.esprefab", "added": []any{}, "removed": []any{},
		"overrides": []any{map[string]any{"prefabEntityId": "r", "type": "property", "componentType": "Transform", "propertyName": "position",
			"value": map[string]any{"x": 200, "y": 0, "z": 50}}}}
	o := options(manifest.PlaneXZ, FromMarkers)
	o.Speed = 60
	res, err := Make(project(t, []ent{streamed(100), path}, map[string]string{"assets/prefabs/Path.esprefab": pathPrefab}), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Routes) != 1 {
		t.Fatalf("%d routes, notes %v", len(res.Routes), res.Notes)
	}
	r := res.Routes[0]
	// 60 units at 60 units/s and 60 frames a second: 61 frames.
	if len(r.Frames) != 61 || r.Frames[0] != (Point{210, 50}) || r.Frames[60] != (Point{270, 50}) {
		t.Fatalf("%d frames, %v ... %v", len(r.Frames), r.Frames[0], r.Frames[len(r.Frames)-1])
	}
	if !strings.Contains(r.Follows, `"Start" (Trail#10/Start) to "End" (Trail#10/End)`) {
		t.Errorf("follows %q", r.Follows)
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "prefab instance") {
			t.Errorf("note %q: the instance is expanded", n)
		}
	}
}
