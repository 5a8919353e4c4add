package camera

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/enginejs"
	"github.com/worldcook/worldcook/internal/project"
	"github.com/worldcook/worldcook/internal/scene"
)

// TestAgainstTheEngine reads the cameras of the real projects' scenes
// (../shared/estella-projects, and with WORLDCOOK_ESTELLA every example
// of the engine) as worldcook does and as the engine's own TypeScript
// does, run in Node: the defaults a Camera takes, the main camera the
// director picks, and, where the engine's CameraPlugin.ts is among the
// sources (the checkout's), the extents buildCameraInfo gives an
// orthographic camera on a screen of the aspect worldcook assumed, the
// Canvas fit included.
func TestAgainstTheEngine(t *testing.T) {
	sdk := enginejs.Engine(t)
	var files []string
	if d := corpus.Projects(); d != "" {
		files = append(files, scenesUnder(d)...)
	}
	if d := os.Getenv("WORLDCOOK_ESTELLA"); d != "" {
		files = append(files, scenesUnder(filepath.Join(d, "examples"))...)
		if full := filepath.Join(d, "sdk", "src"); exists(filepath.Join(full, "camera", "CameraPlugin.ts")) {
			sdk = full
		}
	}
	if len(files) == 0 {
		t.Skip("no real project is there (../shared/estella-projects, WORLDCOOK_ESTELLA): nothing to compare")
	}
	full := exists(filepath.Join(sdk, "camera", "CameraPlugin.ts"))
	type mine struct {
		cams   []Camera
		main   int
		screen Screen
		fitted Screen // screen with the project's screen fit: Expand of its design resolution
		aspect float64
	}
	var in []map[string]any
	var ours []mine
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d, err := scene.Parse(f, src)
		if err != nil {
			continue // the corpus holds scenes the engine refuses too
		}
		var m mine
		var cams []map[string]any
		var canvas json.RawMessage
		for i := range d.Entities {
			if d.Entities[i].Hidden || d.Entities[i].IsPrefab() {
				continue
			}
			if data, ok := d.Component(i, "Camera"); ok {
				cams = append(cams, map[string]any{"entity": d.Entities[i].ID, "data": json.RawMessage(data)})
				m.cams = append(m.cams, Read(d.Entities[i].ID, d.Entities[i].Name, func(k string) ([]byte, bool) { return scene.Field(data, k) }))
			}
			if data, ok := d.Component(i, "Canvas"); ok && canvas == nil {
				canvas = data
				cv := ReadCanvas(d.Entities[i].ID, func(k string) ([]byte, bool) { return scene.Field(data, k) })
				m.screen.Canvas = &cv
			}
		}
		if len(cams) == 0 {
			continue
		}
		if dir, ok := project.Find(f); ok {
			if p, err := project.Load(dir); err == nil {
				m.screen.DesignWidth, m.screen.DesignHeight = p.DesignWidth, p.DesignHeight
			}
		}
		m.main = Main(m.cams)
		// The screen the engine draws on: the aspect worldcook assumed for
		// the main camera, 1000 pixels high.
		m.aspect, _ = m.screen.aspect(m.cams[max(m.main, 0)])
		// A project screen fit (features.rendering.cameraScaleMode
		// "expand"), handed to the engine as its resolveFitSource does.
		m.fitted = m.screen
		m.fitted.ScreenFit = ScreenFit(m.screen.DesignWidth, m.screen.DesignHeight, Expand, 0.5)
		fit := map[string]any{"designResolution": map[string]float64{"x": m.fitted.ScreenFit.Width, "y": m.fitted.ScreenFit.Height}, "scaleMode": Expand, "matchWidthOrHeight": 0.5}
		ours = append(ours, m)
		in = append(in, map[string]any{"file": f, "cameras": cams, "canvas": canvas, "fit": fit, "width": 1000 * m.aspect, "height": 1000})
	}
	bundle := enginejs.Bundle(t, sdk, "testdata/engine.ts")
	payload, _ := json.Marshal(map[string]any{"full": full, "scenes": in})
	var got []struct {
		Main    int64 `json:"main"`
		Cameras []struct {
			Orthographic bool       `json:"orthographic"`
			Far          float64    `json:"far"`
			OrthoSize    float64    `json:"orthoSize"`
			HalfW        float64    `json:"halfW"`
			HalfH        float64    `json:"halfH"`
			FitHalfW     float64    `json:"fitHalfW"`
			FitHalfH     float64    `json:"fitHalfH"`
			Corner       [2]float64 `json:"corner"`
		} `json:"cameras"`
	}
	if err := json.Unmarshal(enginejs.Run(t, bundle, payload), &got); err != nil {
		t.Fatal(err)
	}
	compared := 0
	for k, m := range ours {
		file := in[k]["file"].(string)
		e := got[k]
		wantMain := int64(-1)
		if m.main >= 0 {
			wantMain = m.cams[m.main].Entity
		}
		if e.Main != wantMain {
			t.Errorf("%s: the engine's main camera is %d, worldcook's %d", file, e.Main, wantMain)
		}
		for c, cam := range m.cams {
			ec := e.Cameras[c]
			if ec.Orthographic != cam.Orthographic || ec.Far != cam.FarPlane || ec.OrthoSize != cam.OrthoSize {
				t.Errorf("%s: camera %d: the engine reads %+v, worldcook %+v", file, cam.Entity, ec, cam)
			}
			if !full || !cam.Orthographic || !cam.FullFrame {
				continue
			}
			v := View(cam, m.screen, "own")
			if a, _ := m.screen.aspect(cam); a != m.aspect {
				continue // drawn for another screen than the one asked of the engine
			}
			near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
			if !near(v.Width, 2*ec.HalfW) || !near(v.Height, 2*ec.HalfH) {
				t.Errorf("%s: camera %d: the engine shows %v × %v, worldcook %v × %v", file, cam.Entity, 2*ec.HalfW, 2*ec.HalfH, v.Width, v.Height)
			}
			if f := View(cam, m.fitted, "own"); !near(f.Width, 2*ec.FitHalfW) || !near(f.Height, 2*ec.FitHalfH) || f.Fit != "screenFit" {
				t.Errorf("%s: camera %d with the project's screen fit: the engine shows %v × %v, worldcook %v × %v (fit %q)", file, cam.Entity, 2*ec.FitHalfW, 2*ec.FitHalfH, f.Width, f.Height, f.Fit)
			}
			// The corner of the view turned by 30° (counter-clockwise,
			// as worldcook turns it) is the corner of the engine's
			// screen.
			if math.Abs(ec.Corner[0]-1) > 1e-4 || math.Abs(ec.Corner[1]-1) > 1e-4 {
				t.Errorf("%s: camera %d turned by 30°: the corner worldcook turns lands at %v on the engine's screen, want (1, 1)", file, cam.Entity, ec.Corner)
			}
			compared++
		}
	}
	t.Logf("%d scenes with cameras compared (%d orthographic views against buildCameraInfo)", len(ours), compared)
}

func scenesUnder(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".esscene") && !strings.Contains(p, string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }
