package validate

import (
	"testing"

	"github.com/worldcook/worldcook/manifest"
)

// TestViews: a source's view is its own camera's, else its nearest
// ancestor's, else the main camera's (the first active full-frame one);
// a scene without a camera has none.
func TestViews(t *testing.T) {
	ortho := func(size int64) string {
		return comp("Camera", `{"projectionType": 1, "orthoSize": `+itoa(size)+`, "aspectRatio": 2}`)
	}
	src := comp("WorldStreamingSource", `{}`)
	persist := comp("WorldPersistent", `{}`)
	p := check(t, Options{},
		E{ID: 1, C: []string{sw("100")}},
		// An overlay (a minimap) and an inactive camera come first: the
		// main camera is the first active full-frame one.
		E{ID: 2, Name: "Minimap", C: []string{tr(0, 0, 0), persist, comp("Camera", `{"projectionType": 1, "orthoSize": 9, "viewport": {"x": 0.8, "y": 0.8, "z": 0.2, "w": 0.2}}`)}},
		E{ID: 3, Name: "Idle", C: []string{tr(0, 0, 0), persist, comp("Camera", `{"isActive": false, "priority": 5}`)}},
		E{ID: 4, Name: "Main", C: []string{tr(0, 0, 0), persist, comp("Camera", `{"projectionType": 0, "farPlane": 700}`)}},
		E{ID: 5, Name: "Rig", C: []string{tr(0, 0, 0), persist, ortho(30)}},
		E{ID: 6, Name: "Arm", Parent: at(5), C: []string{tr(0, 0, 0)}},
		E{ID: 7, Name: "OnArm", Parent: at(6), C: []string{tr(0, 0, 0), src}},
		E{ID: 8, Name: "OwnCam", C: []string{tr(0, 0, 0), persist, src, ortho(10)}},
		E{ID: 9, Name: "Player", C: []string{tr(0, 0, 0), persist, src}},
	)
	want := map[string]manifest.View{
		"OnArm":  {Camera: 5, CameraName: "Rig", Via: "ancestor", Projection: "orthographic", Width: 120, Height: 60, Aspect: 2, AspectFrom: "aspectRatio"},
		"OwnCam": {Camera: 8, CameraName: "OwnCam", Via: "own", Projection: "orthographic", Width: 40, Height: 20, Aspect: 2, AspectFrom: "aspectRatio"},
		"Player": {Camera: 4, CameraName: "Main", Via: "main", Projection: "perspective", Distance: 700},
	}
	if len(p.Sources) != 3 {
		t.Fatalf("%d sources", len(p.Sources))
	}
	for _, s := range p.Sources {
		if s.View == nil || *s.View != want[s.Name] {
			t.Errorf("%s: view %+v, want %+v", s.Name, s.View, want[s.Name])
		}
	}
	if w := want["Player"]; p.View == nil || *p.View != w {
		t.Errorf("main view %+v, want %+v", p.View, w)
	}

	// No camera: no view, for the sources or the world.
	p = check(t, Options{}, E{ID: 1, C: []string{sw("100")}}, E{ID: 2, C: []string{tr(0, 0, 0), persist, src}})
	if p.View != nil || p.Sources[0].View != nil {
		t.Errorf("without a camera: view %+v, source's %+v", p.View, p.Sources[0].View)
	}
	// A camera the engine does not spawn ("visible": false) shows nothing.
	p = check(t, Options{}, E{ID: 1, C: []string{sw("100")}}, E{ID: 2, C: []string{tr(0, 0, 0), persist, src}},
		E{Raw: `{"id": 3, "name": "Hidden", "parent": null, "children": [], "components": [` + comp("Camera", `{}`) + `], "visible": false}`})
	if p.View != nil {
		t.Errorf("a hidden camera gave a view: %+v", p.View)
	}
}
