package validate

import (
	"math"
	"os"
	"path/filepath"
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

// rigPrefab is a camera rig: a root and, below it, the Camera, turned by
// 30° about z.
const rigPrefab = `{
  "version": "2", "name": "Rig", "rootEntityId": "0",
  "entities": [
    {"prefabEntityId": "0", "name": "Rig", "parent": null, "children": ["1"], "visible": true,
     "components": [{"type": "Transform", "data": {"position": {"x": 0, "y": 0, "z": 0}}}, {"type": "WorldPersistent", "data": {}}]},
    {"prefabEntityId": "1", "name": "Lens", "parent": "0", "children": [], "visible": true,
     "components": [{"type": "Transform", "data": {"position": {"x": 0, "y": 0, "z": 10}, "rotation": {"x": 0, "y": 0, "z": 0.25881904510252074, "w": 0.9659258262890683}}},
       {"type": "Camera", "data": {"projectionType": 1, "orthoSize": 100}}]}
  ]
}`

// TestViewOfAPrefabCamera: a Camera inside a prefab instance is the main
// camera where the instance puts it, its rectangle turned as its world
// rotation turns it (the instance root's turn composed), and sized by the
// project's camera fit, which the engine prefers to the scene's Canvas.
func TestViewOfAPrefabCamera(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("project.esproject", `{"designResolution": {"width": 800, "height": 400}, "features": {"rendering": {"cameraScaleMode": "fixed-width"}}}`)
	write("assets/prefabs/Rig.esprefab", rigPrefab)
	file := filepath.Join(root, "assets", "scenes", "main.esscene")
	turn := `[{"prefabEntityId": "0", "type": "property", "componentType": "Transform", "propertyName": "rotation", "value": {"x": 0, "y": 0, "z": 0.25881904510252074, "w": 0.9659258262890683}}]`
	es := []E{{ID: 1, C: []string{sw("100")}},
		{ID: 2, Raw: `{"id": 2, "name": "Rig", "parent": null, "prefab": "assets/prefabs/Rig.esprefab", "overrides": ` + turn + `, "added": [], "removed": []}`},
		{ID: 3, Name: "UI", C: []string{tr(0, 0, 0), comp("WorldPersistent", `{}`), comp("Canvas", `{"designResolution": {"x": 100, "y": 100}}`)}},
		{ID: 4, Name: "Player", C: []string{tr(0, 0, 0), comp("WorldPersistent", `{}`), comp("WorldStreamingSource", `{}`)}},
	}
	for _, plane := range []string{manifest.PlaneXY, manifest.PlaneXZ} {
		p := checkAt(t, file, Options{Plane: plane}, es...)
		if p.View == nil || len(p.Sources) != 1 {
			t.Fatalf("%s: no main view (%d sources): the camera inside the instance was not read", plane, len(p.Sources))
		}
		// Fixed width: 800 wide on a 2:1 screen, so 400 high; turned by
		// 30° (the lens) and 30° (the rig) on x and y, not at all on x
		// and z.
		want := manifest.View{Camera: p.View.Camera, CameraName: "Lens", Via: "main", Projection: "orthographic", Width: 800, Height: 400, Aspect: 2, AspectFrom: "designResolution", Fit: "screenFit", Rotation: 60}
		if plane == manifest.PlaneXZ {
			want.Rotation = 0
		}
		if got := p.Sources[0].View; got == nil || !sameView(*got, want) {
			t.Errorf("%s: the player's view %+v, want %+v", plane, got, want)
		}
	}
}

// sameView compares views, the rotation to a billionth of a degree.
func sameView(a, b manifest.View) bool {
	if math.Abs(a.Rotation-b.Rotation) > 1e-6 {
		return false
	}
	a.Rotation = b.Rotation
	return a == b
}
