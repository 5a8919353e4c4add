package route

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/enginejs"
	"github.com/worldcook/worldcook/internal/timeline"
	"github.com/worldcook/worldcook/manifest"
)

type engineRouteCase struct {
	Asset    map[string]any   `json:"asset"`
	Entities []engineRouteEnt `json:"entities"`
	Source   int              `json:"source"`
	FPS      float64          `json:"fps"`
	Speed    float64          `json:"speed"`
	Wrap     timeline.Wrap    `json:"wrap"`
	Loops    int              `json:"loops"`
	Camera   map[string]any   `json:"camera,omitempty"`
}

type engineRouteEnt struct {
	Path      *string        `json:"path"`
	Parent    int            `json:"parent"`
	Transform map[string]any `json:"transform"`
	name      string
}

// genRouteCase is a TimelinePlayer (entity 0) with a chain of children
// under it, turned and scaled, a clip keying some of them (position,
// scale, and with a whole engine rotation too: every interpolation, wrap
// mode and speed), and a source in the chain; or a follow camera after
// one of them.
func genRouteCase(r *rand.Rand, rotations bool) engineRouteCase {
	num := func(s float64) float64 { return (r.Float64()*2 - 1) * s }
	unit := func() map[string]any {
		x, y, z, w := num(1), num(1), num(1), num(1)
		n := math.Sqrt(x*x + y*y + z*z + w*w)
		return map[string]any{"x": x / n, "y": y / n, "z": z / n, "w": w / n}
	}
	trs := func() map[string]any {
		return map[string]any{
			"position": map[string]any{"x": num(100), "y": num(100), "z": num(100)},
			"rotation": unit(),
			"scale":    map[string]any{"x": 0.5 + r.Float64()*2, "y": 0.5 + r.Float64()*2, "z": 0.5 + r.Float64()*2},
		}
	}
	root := ""
	c := engineRouteCase{Entities: []engineRouteEnt{{Path: &root, Parent: -1, Transform: trs(), name: "Director"}}}
	path := ""
	for d := 0; d < 1+r.IntN(3); d++ {
		name := fmt.Sprintf("N%d", d)
		if path == "" {
			path = name
		} else {
			path += "/" + name
		}
		p := path
		c.Entities = append(c.Entities, engineRouteEnt{Path: &p, Parent: len(c.Entities) - 1, Transform: trs(), name: name})
	}
	c.Source = 1 + r.IntN(len(c.Entities)-1)
	props := []string{"position.x", "position.y", "position.z", "scale.x", "scale.z"}
	if rotations {
		props = append(props, "rotation.x", "rotation.w", "rotation.angle")
	}
	interps := []string{"hermite", "linear", "step", "easeIn", "easeOut", "easeInOut"}
	dur := 0.5 + math.Round(r.Float64()*300)/100
	var tracks []any
	for k := 0; k < 1+r.IntN(3); k++ {
		e := c.Entities[r.IntN(len(c.Entities))]
		var chans []any
		for ci := 0; ci < 1+r.IntN(3); ci++ {
			var keys []any
			t := 0.0
			for ki := 0; ki < 2+r.IntN(4); ki++ {
				keys = append(keys, map[string]any{"time": t, "value": num(200), "inTangent": num(50), "outTangent": num(50), "interpolation": interps[r.IntN(len(interps))]})
				t += math.Round(r.Float64()*dur*60) / 100
			}
			p := props[r.IntN(len(props))]
			if strings.HasPrefix(p, "rotation") || strings.HasPrefix(p, "scale") {
				for _, k := range keys {
					k.(map[string]any)["value"] = num(2)
				}
			}
			chans = append(chans, map[string]any{"property": p, "keyframes": keys})
		}
		tracks = append(tracks, map[string]any{"type": "property", "name": fmt.Sprint("t", k), "childPath": *e.Path, "component": "Transform", "channels": chans})
	}
	// The source's own chain is keyed at least once, so the route moves.
	tracks = append(tracks, map[string]any{"type": "property", "name": "walk", "childPath": *c.Entities[c.Source].Path, "component": "Transform", "channels": []any{
		map[string]any{"property": "position.x", "keyframes": []any{map[string]any{"time": 0, "value": 0, "interpolation": "linear"}, map[string]any{"time": dur, "value": 300}}}}})
	c.Wrap = timeline.Wrap(r.IntN(3))
	c.Asset = map[string]any{"version": "1.2", "type": "timeline", "duration": dur, "wrapMode": "once", "tracks": tracks}
	c.FPS = []float64{60, 30, 144}[r.IntN(3)]
	c.Speed = []float64{1, 0.5, 2, 1.37}[r.IntN(4)]
	c.Loops = 1 + r.IntN(2)
	if r.IntN(3) == 0 {
		c.Camera = map[string]any{"position": map[string]any{"x": num(50), "y": num(50), "z": 10.0}, "offsetX": num(20), "offsetY": num(20), "offsetZ": num(5), "followZ": r.IntN(2) == 0, "deadzone": r.Float64() * 10, "damping": []float64{0, 0.25, 0.1}[r.IntN(3)]}
	}
	return c
}

// scene writes a case as a project: the entities (ids from 1), the clip,
// a source on the animated entity or the follow camera.
func (c engineRouteCase) scene(t *testing.T) string {
	var ents []ent
	for i, e := range c.Entities {
		var parent any
		if e.Parent >= 0 {
			parent = int64(e.Parent + 1)
		}
		comps := []any{"Transform", e.Transform}
		if i == 0 {
			comps = append(comps, "TimelinePlayer", map[string]any{"timeline": "assets/clip.estimeline", "speed": c.Speed, "wrapMode": c.Wrap.String()}, "WorldPersistent", map[string]any{})
		}
		if i == c.Source && c.Camera == nil {
			comps = append(comps, source()...)
		}
		ents = append(ents, entity(int64(i+1), e.name, parent, comps...))
	}
	if c.Camera != nil {
		fc := map[string]any{"target": c.Source + 1}
		for _, k := range []string{"offsetX", "offsetY", "offsetZ", "followZ", "deadzone", "damping"} {
			fc[k] = c.Camera[k]
		}
		ents = append(ents, entity(100, "Cam", nil, append([]any{"Transform", map[string]any{"position": c.Camera["position"]}, "FollowTarget", fc}, source()...)...))
	}
	ents = append(ents, streamed(1000))
	clip, _ := json.Marshal(c.Asset)
	return project(t, ents, map[string]string{"assets/clip.estimeline": string(clip)})
}

// TestTimelineEngine plays generated clips with the engine's own loader,
// wrap and sampler (and follow step) in Node, and asks route for the
// same routes: every frame's position must agree (to 1e-9: the parents'
// composition is the engine's C++, spelled out in both), and the frame
// counts exactly.
func TestTimelineEngine(t *testing.T) {
	sdk := enginejs.Engine(t)
	rotations := false
	if e := os.Getenv("WORLDCOOK_ESTELLA"); e != "" {
		if _, err := os.Stat(filepath.Join(e, "sdk", "src", "math", "quat.ts")); err == nil {
			sdk, rotations = filepath.Join(e, "sdk", "src"), true
		}
	}
	bundle := enginejs.Bundle(t, sdk, filepath.Join("testdata", "timeline.ts"))
	r := rand.New(rand.NewPCG(33, 4))
	var cases []engineRouteCase
	for i := 0; i < 60; i++ {
		cases = append(cases, genRouteCase(r, rotations))
	}
	in, _ := json.Marshal(map[string]any{"cases": cases})
	var want [][][3]float64
	if err := json.Unmarshal(enginejs.Run(t, bundle, in), &want); err != nil {
		t.Fatal(err)
	}
	frames, follows := 0, 0
	for i, c := range cases {
		o := options(manifest.PlaneXZ, FromTimeline)
		o.FPS, o.Loops = c.FPS, c.Loops
		res, err := Make(c.scene(t), o)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if len(res.Routes) != 1 {
			t.Fatalf("case %d: %d routes (%v)", i, len(res.Routes), res.Notes)
		}
		got := res.Routes[0].Frames
		if len(got) != len(want[i]) {
			t.Fatalf("case %d: %d frames, the engine plays %d", i, len(got), len(want[i]))
		}
		for f, p := range got {
			w := want[i][f]
			near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }
			if !near(p.X, w[0]) || !near(p.Z, w[2]) {
				t.Fatalf("case %d frame %d: %v, the engine %v", i, f, p, w)
			}
		}
		frames += len(got)
		if c.Camera != nil {
			follows++
		}
	}
	t.Logf("%d frames of %d routes (%d follow cameras, rotations keyed: %v) the same as the engine's", frames, len(cases), follows, rotations)
}
