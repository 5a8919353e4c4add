package tune

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// TestViewDecidesTheSearch: on the demo, whose camera sees 900 around
// the player, the search requires no pop-in by default, tries load radii
// from the view's reach on and never recommends one below it; load radii
// given below it are not run, and a space of only those is refused.
func TestViewDecidesTheSearch(t *testing.T) {
	outs := told{}
	o := Options{}
	outs.watch(&o)
	res, err := Run(context.Background(), demoSetup(t, Spec{}), o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Require.FailOn, []string{streaming.FailPopIn}) || len(res.Warnings) != 0 {
		t.Errorf("default requirement %v, warnings %v; want pop-in, none", res.Require.FailOn, res.Warnings)
	}
	if res.ViewReach != 900 || res.Best == nil || len(outs) == 0 {
		t.Fatalf("reach %v, best %v: %s", res.ViewReach, res.Best != nil, res.Infeasible())
	}
	for _, out := range outs {
		if c := out.Candidate; c.Load < 900 {
			t.Errorf("candidate %s leaves the view uncovered", c.Describe())
		}
	}
	best := res.Best
	for _, f := range best.Routes {
		if len(f.Held) > 0 {
			t.Errorf("the recommendation %s shows %v", best.Candidate.Describe(), f.Held)
		}
	}

	res, err = Run(context.Background(), demoSetup(t, Spec{Load: "500,900,1200"}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Uncovered != 9 || res.Evaluated != 18 {
		t.Errorf("--load-radius 500,900,1200: %d uncovered, %d evaluated; want 9 and 18", res.Uncovered, res.Evaluated)
	}
	if _, err := Run(context.Background(), demoSetup(t, Spec{Load: "100,500"}), Options{}); err == nil || !strings.Contains(err.Error(), "below 900") {
		t.Errorf("only uncovering radii: %v", err)
	}
	// A view given overrides the camera's.
	s := demoSetup(t, Spec{})
	s.Base.View = &streaming.View{HalfWidth: 400, HalfHeight: 300}
	if res, err = Run(context.Background(), s, Options{}); err != nil || res.ViewReach != 500 {
		t.Errorf("--view-size 800x600: reach %v, %v", res.ViewReach, err)
	}
}

// xyWorld is a world cut on x and y without a camera, its source at
// (1485, 5447).
const xyWorld = `{"version": 1, "name": "Flat", "entities": [
 {"id": 1, "name": "World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": 1000}}]},
 {"id": 2, "name": "Source", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 1485, "y": 5447, "z": 0}}},
   {"type": "WorldPersistent", "data": {}},
   {"type": "WorldStreamingSource", "data": {"prefetchRadius": 100, "loadRadius": 100, "unloadRadius": 200, "enabled": true}}]},
 {"id": 3, "name": "Hut", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 1500, "y": 5500, "z": 0}}}]},
 {"id": 4, "name": "Rock", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 1500, "y": 500, "z": 0}}}]}
]}`

// TestNoViewAndEstellaXY: without a view the search requires no holes
// and warns that smaller radii then look better; under Estella's runtime
// on a world cut on x and y it says that no radius helps.
func TestNoViewAndEstellaXY(t *testing.T) {
	dir := t.TempDir()
	scene, route := filepath.Join(dir, "flat.esscene"), filepath.Join(dir, "route.csv")
	os.WriteFile(scene, []byte(xyWorld), 0o644)
	os.WriteFile(route, []byte("x,y\n1485,5447\n1490,5447\n1495,5447\n"), 0o644)
	setup := func(p simulate.Policy) Setup {
		s := Setup{World: scene, Routes: []string{route}, Base: simulate.Options{Policy: p}}
		s.Open.Validate.Plane = manifest.PlaneXY
		return s
	}
	res, err := Run(context.Background(), setup(simulate.Budgeted), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Require.FailOn, []string{streaming.FailHoles}) || len(res.Warnings) != 2 || res.Warnings[1].Code != "no-view" ||
		!strings.Contains(res.Warnings[1].Message, "a smaller load radius always looks better") {
		t.Errorf("no view: require %v, warnings %+v", res.Require.FailOn, res.Warnings)
	}
	// The world is cut on x and y: said once, of the world tuned.
	if w := res.Warnings[0]; w.Code != "xy-plane" || strings.Contains(w.Message, "no radius") {
		t.Errorf("budgeted on xy: %+v", w)
	}
	if _, err := Run(context.Background(), setup(simulate.Budgeted), Options{Require: streaming.Gate{FailOn: []string{streaming.FailPopIn}}}); err == nil || !strings.Contains(err.Error(), "pop-in needs a view") {
		t.Errorf("--require pop-in without a view: %v", err)
	}
	res, err = Run(context.Background(), setup(simulate.Estella), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := res.Infeasible(); res.Best != nil || !strings.Contains(msg, "Estella's runtime samples the streaming sources on X and Z, so on this world cut on X and Y") || !strings.Contains(msg, "no radius changes that") {
		t.Errorf("estella on xy: best %d, %q", bestIndex(res), msg)
	}
	if w := res.Warnings[0]; w.Code != "xy-plane" || !strings.Contains(w.Message, "no radius makes it stream this world as cut") {
		t.Errorf("estella on xy: %+v", w)
	}
}
