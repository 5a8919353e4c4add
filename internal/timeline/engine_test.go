package timeline

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/internal/enginejs"
)

// engineCase is one generated timeline with the times to evaluate it at,
// a playback clock to advance, and the entities its tracks animate.
type engineCase struct {
	Asset    map[string]any `json:"asset"`
	Times    []float64      `json:"times"`
	Frames   int            `json:"frames"`
	DT       float64        `json:"dt"`
	Speed    float64        `json:"speed"`
	Mode     Wrap           `json:"mode"`
	Entities []engineEntity `json:"entities"`
}

type engineEntity struct {
	Path      string         `json:"path"`
	Transform map[string]any `json:"transform"`
}

type engineAnswer struct {
	RealQuat bool `json:"realQuat"`
	Cases    []struct {
		Values [][]float64 `json:"values"`
		Clock  []float64   `json:"clock"`
		Poses  [][]struct {
			Position map[string]float64 `json:"position"`
			Rotation map[string]float64 `json:"rotation"`
			Scale    map[string]float64 `json:"scale"`
		} `json:"poses"`
	} `json:"cases"`
}

var interps = []string{"hermite", "linear", "step", "easeIn", "easeOut", "easeInOut", "", "cubic"}

var properties = []string{"position.x", "position.y", "position.z", "scale.x", "scale.y", "scale.z",
	"rotation.x", "rotation.y", "rotation.z", "rotation.w", "rotation.angle", "tintColor.r"}

// generate makes a timeline with every interpolation (and an unknown one,
// and none), tangents, repeated and out-of-order key times, an old format
// version now and then, and the three wrap modes.
func generate(r *rand.Rand, n int) engineCase {
	num := func(scale float64) float64 {
		if r.IntN(8) == 0 {
			return float64(r.IntN(11)-5) * scale / 4 // round values hit the edges
		}
		return (r.Float64()*2 - 1) * scale
	}
	dur := math.Round(r.Float64()*400) / 100
	var tracks []any
	paths := []string{"", "Hero", "Hero/Arm"}
	var ents []engineEntity
	for _, p := range paths {
		ents = append(ents, engineEntity{Path: p, Transform: map[string]any{
			"position": map[string]any{"x": num(100), "y": num(100), "z": num(100)},
			"rotation": map[string]any{"x": num(1), "y": num(1), "z": num(1), "w": num(1)},
			"scale":    map[string]any{"x": num(3), "y": num(3), "z": num(3)},
		}})
	}
	for ti := 0; ti < 1+r.IntN(3); ti++ {
		var chans []any
		angle := r.IntN(3) == 0 // a 2D turn, or the quaternion keyed: not both
		for ci := 0; ci < 1+r.IntN(4); ci++ {
			prop := properties[r.IntN(len(properties))]
			switch {
			case angle && prop != "rotation.angle" && prop[:3] == "rot":
				prop = "rotation.angle"
			case !angle && prop == "rotation.angle":
				prop = "rotation.w"
			}
			scale := map[byte]float64{'p': 500, 's': 4, 'r': 1, 't': 1}[prop[0]]
			if prop == "rotation.angle" {
				scale = 7
			}
			var keys []any
			t := 0.0
			for ki := 0; ki < r.IntN(6); ki++ {
				k := map[string]any{"time": t, "value": num(scale)}
				if r.IntN(6) != 0 {
					k["inTangent"] = num(300)
				}
				if r.IntN(6) != 0 {
					k["outTangent"] = num(300)
				}
				if r.IntN(10) == 0 {
					k["outTangent"] = 2e5 // a step, in a 1.0 document
				}
				if in := interps[r.IntN(len(interps))]; in != "" {
					k["interpolation"] = in
				}
				keys = append(keys, k)
				switch r.IntN(8) {
				case 0: // the same time again
				case 1:
					t -= 0.1 // out of order
				default:
					t += math.Round(r.Float64()*150) / 100
				}
			}
			chans = append(chans, map[string]any{"property": prop, "keyframes": keys})
		}
		tracks = append(tracks, map[string]any{"type": "property", "name": fmt.Sprint("t", ti), "childPath": paths[r.IntN(len(paths))], "component": "Transform", "channels": chans})
	}
	tracks = append(tracks, map[string]any{"type": "activation", "name": "bars", "childPath": "Hero", "ranges": []any{}})
	asset := map[string]any{"type": "timeline", "duration": dur, "wrapMode": Wrap(r.IntN(3)).String(), "tracks": tracks}
	switch r.IntN(4) {
	case 0: // no version: 1.0, migrated
	case 1:
		asset["version"] = "1.1"
	default:
		asset["version"] = "1.2"
	}
	var times []float64
	for i := 0; i < 40; i++ {
		times = append(times, -0.5+float64(i)*(dur+1)/39)
	}
	times = append(times, 0, dur, r.Float64()*dur)
	speeds := []float64{1, 0.5, 2, 1.37}
	return engineCase{Asset: asset, Times: times, Frames: 300, DT: []float64{1.0 / 60, 1.0 / 30, 1.0 / 144}[n%3], Speed: speeds[r.IntN(len(speeds))], Mode: Wrap(r.IntN(3)), Entities: ents}
}

func pose(tr map[string]any) Pose {
	g := func(k, a string) float64 { return tr[k].(map[string]any)[a].(float64) }
	return Pose{
		Position: [3]float64{g("position", "x"), g("position", "y"), g("position", "z")},
		Rotation: [4]float64{g("rotation", "x"), g("rotation", "y"), g("rotation", "z"), g("rotation", "w")},
		Scale:    [3]float64{g("scale", "x"), g("scale", "y"), g("scale", "z")},
	}
}

// TestEngine evaluates generated timelines with the engine's own loader,
// channel evaluator, wrap and sampler in Node and asks the same of this
// package: the channel values and the playback clock must be the same to
// the bit. Rotation writers call the engine's quaternion code, absent from
// the sources kept beside worldcook; with WORLDCOOK_ESTELLA naming a whole
// engine checkout the poses are compared too (rotation.angle within 1e-12:
// Go's and V8's sines may differ in the last bit).
func TestEngine(t *testing.T) {
	sdk := enginejs.Engine(t)
	if e := os.Getenv("WORLDCOOK_ESTELLA"); e != "" {
		if _, err := os.Stat(filepath.Join(e, "sdk", "src", "math", "quat.ts")); err == nil {
			sdk = filepath.Join(e, "sdk", "src")
		}
	}
	bundle := enginejs.Bundle(t, sdk, filepath.Join("testdata", "engine.ts"))
	r := rand.New(rand.NewPCG(33, 1))
	var cases []engineCase
	for i := 0; i < 300; i++ {
		cases = append(cases, generate(r, i))
	}
	in, err := json.Marshal(map[string]any{"cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	var ans engineAnswer
	if err := json.Unmarshal(enginejs.Run(t, bundle, in), &ans); err != nil {
		t.Fatal(err)
	}
	if len(ans.Cases) != len(cases) {
		t.Fatalf("the engine answered %d cases of %d", len(ans.Cases), len(cases))
	}
	compared := 0
	for i, c := range cases {
		raw, _ := json.Marshal(c.Asset)
		a, err := Parse("case.estimeline", raw)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		got := ans.Cases[i]
		k := 0
		for _, tr := range a.Tracks {
			for ci := range tr.Channels {
				for ti, tm := range c.Times {
					want := got.Values[k][ti]
					if v := tr.Channels[ci].At(tm); math.Float64bits(v) != math.Float64bits(want) && !(v == 0 && want == 0) {
						t.Fatalf("case %d track %s channel %s at %v: %v, the engine %v", i, tr.Name, tr.Channels[ci].Property, tm, v, want)
					}
					compared++
				}
				k++
			}
		}
		if k != len(got.Values) {
			t.Fatalf("case %d: %d channels, the engine %d", i, k, len(got.Values))
		}
		clock := 0.0
		for f := 0; f < c.Frames; f++ {
			tm, stopped := WrapTime(clock+c.DT*c.Speed, a.Duration, c.Mode)
			clock = tm
			if tm != got.Clock[2*f] || stopped != (got.Clock[2*f+1] == 1) {
				t.Fatalf("case %d frame %d: clock %v stopped %v, the engine %v %v", i, f, tm, stopped, got.Clock[2*f], got.Clock[2*f+1])
			}
		}
		if !ans.RealQuat {
			continue
		}
		// Which entities take a 2D turn (rotation.angle): the engine's
		// Euler reading calls asin, whose slope near a pole turns a
		// last-bit difference between Go's and V8's sines into 1e-8.
		turned := map[string]bool{}
		for _, tr := range a.Tracks {
			for _, ch := range tr.Channels {
				if ch.Property == "rotation.angle" && len(ch.Keyframes) > 0 {
					turned[tr.ChildPath] = true
				}
			}
		}
		poses := map[string]*Pose{}
		for _, e := range c.Entities {
			p := pose(e.Transform)
			poses[e.Path] = &p
		}
		for ti, tm := range c.Times {
			for _, tr := range a.Tracks {
				if p := poses[tr.ChildPath]; p != nil {
					tr.Apply(tm, p)
				}
			}
			for ei, e := range c.Entities {
				w := got.Poses[ti][ei]
				wp := Pose{
					Position: [3]float64{w.Position["x"], w.Position["y"], w.Position["z"]},
					Rotation: [4]float64{w.Rotation["x"], w.Rotation["y"], w.Rotation["z"], w.Rotation["w"]},
					Scale:    [3]float64{w.Scale["x"], w.Scale["y"], w.Scale["z"]},
				}
				if !near(*poses[e.Path], wp, turned[e.Path]) {
					t.Fatalf("case %d at %v entity %q: pose %+v, the engine %+v", i, tm, e.Path, *poses[e.Path], wp)
				}
			}
		}
	}
	t.Logf("%d channel values, %d clock frames compared with the engine (poses: %v)", compared, len(cases)*300, ans.RealQuat)
}

// near: positions and scales to the bit, rotations to the bit unless the
// entity is turned by rotation.angle (then within 1e-6).
func near(a, b Pose, turned bool) bool {
	ok := func(x, y float64) bool { return x == y }
	if turned {
		ok = func(x, y float64) bool { return math.Abs(x-y) <= 1e-6 }
	}
	for i := 0; i < 3; i++ {
		if a.Position[i] != b.Position[i] || a.Scale[i] != b.Scale[i] {
			return false
		}
	}
	for i := 0; i < 4; i++ {
		if !ok(a.Rotation[i], b.Rotation[i]) {
			return false
		}
	}
	return true
}
