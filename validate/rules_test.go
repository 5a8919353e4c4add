package validate

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
)

// TestRules has one case per finding code (and the shapes each takes): it
// fails if a rule is removed or starts firing where it should not.
func TestRules(t *testing.T) {
	settings := E{ID: 1, Name: "Settings", C: []string{sw("100")}}
	source := E{ID: 9, Name: "Camera", C: []string{tr(0, 0, 0), persistent, comp("WorldStreamingSource", `{}`)}}
	ortho := E{ID: 8, Name: "Camera", C: []string{tr(0, 0, 100), persistent, comp("Camera", `{"projectionType": 1, "orthoSize": 360}`)}}
	persp := E{ID: 8, Name: "Camera", C: []string{tr(0, 50, 10), persistent, comp("Camera", `{"projectionType": 0, "farPlane": 900}`)}}
	cases := []struct {
		name string
		es   []E
		opts Options
		want []string
		// all compares the setup warnings too (setupCodes), which most
		// cases, worlds of a cell or two without a source, would all get.
		all bool
	}{
		{name: "clean", es: []E{settings, {ID: 2, C: []string{tr(5, 0, 5)}}}},
		{name: "clean, setup included", all: true, es: []E{settings, {ID: 2, C: []string{tr(5, 0, 5)}}, {ID: 3, C: []string{tr(305, 0, 5)}}, source}},
		{name: "nothing-streams: one cell", all: true, es: []E{settings, {ID: 2, C: []string{tr(5, 0, 5)}}, {ID: 3, C: []string{tr(50, 0, 50)}}, source},
			want: []string{"nothing-streams@1:StreamedWorld.cellSize"}},
		{name: "nothing-streams: no cell", all: true, es: []E{settings, source},
			want: []string{"nothing-streams@1:StreamedWorld.cellSize"}},
		{name: "no-streaming-source", all: true, es: []E{settings, {ID: 2, C: []string{tr(5, 0, 5)}}, {ID: 3, C: []string{tr(305, 0, 5)}}},
			want: []string{"no-streaming-source@1:StreamedWorld"}},
		{name: "no-streaming-source: every source disabled", all: true, es: []E{settings, {ID: 2, C: []string{tr(5, 0, 5)}}, {ID: 3, C: []string{tr(305, 0, 5)}},
			{ID: 9, C: []string{tr(0, 0, 0), persistent, comp("WorldStreamingSource", `{"enabled": false}`)}}},
			want: []string{"no-streaming-source@1:StreamedWorld"}},
		{name: "plane-mismatch: a 2D scene cut on xz", es: []E{settings, {ID: 10, C: []string{tr(0, 0, 0)}}, {ID: 11, C: []string{tr(100, 50, 0)}}, {ID: 12, C: []string{tr(200, 100, 0)}}, {ID: 13, C: []string{tr(300, 150, 0)}}, {ID: 14, C: []string{tr(400, 200, 0)}}, {ID: 15, C: []string{tr(500, 250, 0)}}, {ID: 16, C: []string{tr(600, 300, 0)}}, {ID: 17, C: []string{tr(700, 350, 0)}}, {ID: 18, C: []string{tr(800, 400, 0)}}, {ID: 19, C: []string{tr(900, 450, 0)}}},
			want: []string{"plane-mismatch@1:StreamedWorld"}},
		{name: "the same scene cut on xy", es: []E{settings, {ID: 10, C: []string{tr(0, 0, 0)}}, {ID: 11, C: []string{tr(100, 50, 0)}}, {ID: 12, C: []string{tr(200, 100, 0)}}, {ID: 13, C: []string{tr(300, 150, 0)}}, {ID: 14, C: []string{tr(400, 200, 0)}}, {ID: 15, C: []string{tr(500, 250, 0)}}, {ID: 16, C: []string{tr(600, 300, 0)}}, {ID: 17, C: []string{tr(700, 350, 0)}}, {ID: 18, C: []string{tr(800, 400, 0)}}, {ID: 19, C: []string{tr(900, 450, 0)}}}, opts: Options{Plane: "xy"}},
		{name: "plane-mismatch: a ground-level 3D scene cut on xy", es: []E{settings, {ID: 10, C: []string{tr(0, 0, 0)}}, {ID: 11, C: []string{tr(100, 0, 50)}}, {ID: 12, C: []string{tr(200, 0, 100)}}, {ID: 13, C: []string{tr(300, 0, 150)}}, {ID: 14, C: []string{tr(400, 0, 200)}}, {ID: 15, C: []string{tr(500, 0, 250)}}, {ID: 16, C: []string{tr(600, 0, 300)}}, {ID: 17, C: []string{tr(700, 0, 350)}}, {ID: 18, C: []string{tr(800, 0, 400)}}, {ID: 19, C: []string{tr(900, 0, 450)}}}, opts: Options{Plane: "xy"},
			want: []string{"plane-mismatch@1:StreamedWorld"}},
		{name: "layers a few units apart on z are not a layout", es: []E{settings, {ID: 10, C: []string{tr(0, 0, 0)}}, {ID: 11, C: []string{tr(100, 1, 0)}}, {ID: 12, C: []string{tr(200, 2, 0)}}, {ID: 13, C: []string{tr(300, 0, 0)}}, {ID: 14, C: []string{tr(400, 1, 0)}}, {ID: 15, C: []string{tr(500, 2, 0)}}, {ID: 16, C: []string{tr(600, 0, 0)}}, {ID: 17, C: []string{tr(700, 1, 0)}}, {ID: 18, C: []string{tr(800, 2, 0)}}, {ID: 19, C: []string{tr(900, 0, 0)}}}},
		{name: "plane-mismatch: orthographic camera standing back at z 100 over a 2D floor", es: []E{settings, ortho,
			{ID: 10, C: []string{tr(0, -300, 0)}}, {ID: 11, C: []string{tr(400, 0, 0)}}, {ID: 12, C: []string{tr(-400, 300, 1)}}},
			want: []string{"plane-mismatch@1:StreamedWorld"}},
		{name: "an orthographic camera over content on x and z is 3D", es: []E{settings, ortho,
			{ID: 10, C: []string{tr(0, 0, -300)}}, {ID: 11, C: []string{tr(400, 5, 0)}}, {ID: 12, C: []string{tr(-400, 0, 300)}}}},
		{name: "plane-mismatch: a perspective camera over content on x and z cut on xy", opts: Options{Plane: "xy"}, es: []E{settings, persp,
			{ID: 10, C: []string{tr(0, 0, -300)}}, {ID: 11, C: []string{tr(400, 5, 0)}}, {ID: 12, C: []string{tr(-400, 0, 300)}}},
			want: []string{"plane-mismatch@1:StreamedWorld"}},
		{name: "a perspective camera over a 2D floor cut on xy", opts: Options{Plane: "xy"}, es: []E{settings, persp,
			{ID: 10, C: []string{tr(0, -300, 0)}}, {ID: 11, C: []string{tr(400, 0, 0)}}, {ID: 12, C: []string{tr(-400, 300, 1)}}}},
		{name: "persistent-not-root", es: []E{settings,
			{ID: 2, C: []string{tr(5, 0, 5)}},
			{ID: 3, Parent: at(2), C: []string{tr(1, 0, 1), persistent}}},
			want: []string{"persistent-not-root@3:WorldPersistent"}},
		{name: "streamed world below the top level", es: []E{
			{ID: 2, C: []string{tr(5, 0, 5)}},
			{ID: 3, Parent: at(2), C: []string{sw("100")}}},
			want: []string{"persistent-not-root@3:StreamedWorld"}},
		{name: "multiple-streamed-world", es: []E{settings, {ID: 2, C: []string{sw("50")}}},
			want: []string{"multiple-streamed-world@2:StreamedWorld"}},
		{name: "bad-cell-size zero", es: []E{{ID: 1, C: []string{sw("0")}}}, want: []string{"bad-cell-size@1:StreamedWorld.cellSize"}},
		{name: "bad-cell-size negative", es: []E{{ID: 1, C: []string{sw("-5")}}}, want: []string{"bad-cell-size@1:StreamedWorld.cellSize"}},
		{name: "bad-cell-size string", es: []E{{ID: 1, C: []string{sw(`"1000"`)}}}, want: []string{"bad-cell-size@1:StreamedWorld.cellSize"}},
		{name: "bad-cell-size out of range", es: []E{{ID: 1, C: []string{sw("1e999")}}}, want: []string{"bad-cell-size@1:StreamedWorld.cellSize"}},
		{name: "bad-cell-size beyond float32", es: []E{{ID: 1, C: []string{sw("1e308")}}}, want: []string{"bad-cell-size@1:StreamedWorld.cellSize"}},
		{name: "cell index overflows int32", es: []E{{ID: 1, C: []string{sw("1")}}, {ID: 2, C: []string{tr(1e15, 0, 0)}}},
			want: []string{"bad-cell-size@2:Transform.position"}},
		{name: "negative cell index overflows int32", es: []E{{ID: 1, C: []string{sw("1")}}, {ID: 2, C: []string{tr(0, 0, -3e9)}}},
			want: []string{"bad-cell-size@2:Transform.position"}},
		{name: "world position overflows", es: []E{settings,
			{ID: 2, C: []string{comp("Transform", `{"position": {"x": 1}, "scale": {"x": 1e300, "y": 1, "z": 1}}`)}},
			{ID: 3, Parent: at(2), C: []string{comp("Transform", `{"position": {"x": 1e300}, "scale": {"x": 1e300, "y": 1, "z": 1}}`)}}},
			want: []string{"bad-cell-size@3:Transform"}},
		{name: "duplicate-id", es: []E{settings, {ID: 2, C: []string{tr(5, 0, 5)}}, {ID: 2, Name: "Again", C: []string{tr(5, 0, 5)}}},
			want: []string{"duplicate-id@2:id"}},
		{name: "parent-cycle", es: []E{settings,
			{ID: 2, Parent: at(3), C: []string{tr(5, 0, 5)}},
			{ID: 3, Parent: at(2), C: []string{tr(5, 0, 5)}}},
			want: []string{"parent-cycle@2:parent"}},
		{name: "self parent", es: []E{settings, {ID: 2, Parent: at(2), C: []string{tr(5, 0, 5)}}},
			want: []string{"parent-cycle@2:parent"}},
		{name: "missing-parent", es: []E{settings, {ID: 2, Parent: at(42), C: []string{tr(5, 0, 5)}}},
			want: []string{"missing-parent@2:parent"}},
		{name: "child not listed", es: []E{settings,
			{ID: 2, C: []string{tr(5, 0, 5)}, Kids: []int64{}},
			{ID: 3, Parent: at(2), C: []string{tr(1, 0, 1)}}},
			want: []string{"inconsistent-topology@3:parent"}},
		{name: "listed child elsewhere", es: []E{settings,
			{ID: 2, C: []string{tr(5, 0, 5)}, Kids: []int64{3}},
			{ID: 3, C: []string{tr(1, 0, 1)}}},
			want: []string{"inconsistent-topology@2:children"}},
		{name: "listed child missing", es: []E{settings, {ID: 2, C: []string{tr(5, 0, 5)}, Kids: []int64{77}}},
			want: []string{"inconsistent-topology@2:children"}},
		{name: "bad-source-radii prefetch below load", es: []E{settings,
			{ID: 2, C: []string{tr(0, 0, 0), persistent, comp("WorldStreamingSource", `{"prefetchRadius": 100, "loadRadius": 200, "unloadRadius": 300}`)}}},
			want: []string{"bad-source-radii@2:WorldStreamingSource.prefetchRadius"}},
		{name: "bad-source-radii unload not above load", es: []E{settings,
			{ID: 2, C: []string{tr(0, 0, 0), persistent, comp("WorldStreamingSource", `{"loadRadius": 2000, "unloadRadius": 2000}`)}}},
			want: []string{"bad-source-radii@2:WorldStreamingSource.unloadRadius"}},
		{name: "control-in-source-name: a tab", es: []E{settings,
			{ID: 2, Name: "Main\tCamera", C: []string{tr(0, 0, 0), persistent, comp("WorldStreamingSource", `{}`)}}},
			want: []string{"control-in-source-name@2"}},
		{name: "control-in-source-name: a carriage return", es: []E{settings,
			{ID: 2, Name: "Cam\r", C: []string{tr(0, 0, 0), persistent, comp("WorldStreamingSource", `{}`)}}},
			want: []string{"control-in-source-name@2"}},
		{name: "a tab in a name that is no source", es: []E{settings,
			{ID: 2, Name: "Main\tCrate", C: []string{tr(0, 0, 0)}}}},
		{name: "bad-source-radii not a number", es: []E{settings,
			{ID: 2, C: []string{tr(0, 0, 0), persistent, comp("WorldStreamingSource", `{"loadRadius": "far"}`)}}},
			want: []string{"bad-source-radii@2:WorldStreamingSource.loadRadius"}},
		{name: "source radii defaults are sane", es: []E{settings,
			{ID: 2, C: []string{tr(0, 0, 0), persistent, comp("WorldStreamingSource", `{}`)}}}},
		{name: "prefetch may be below unload", es: []E{settings,
			{ID: 2, C: []string{tr(0, 0, 0), persistent, comp("WorldStreamingSource", `{"prefetchRadius": 2000, "loadRadius": 2000, "unloadRadius": 5000}`)}}}},
		{name: "source-in-cell", es: []E{settings,
			{ID: 2, Name: "Player", C: []string{tr(5, 0, 5), comp("WorldStreamingSource", `{}`)}}},
			want: []string{"source-in-cell@2:WorldStreamingSource"}},
		{name: "source-in-cell below a cell root", es: []E{settings,
			{ID: 2, Name: "Rig", C: []string{tr(5, 0, 5)}},
			{ID: 3, Name: "Cam", Parent: at(2), C: []string{tr(0, 1, 0), comp("WorldStreamingSource", `{"enabled": true}`)}}},
			want: []string{"source-in-cell@3:WorldStreamingSource"}},
		{name: "a disabled source in a cell streams nothing", es: []E{settings,
			{ID: 2, C: []string{tr(5, 0, 5), comp("WorldStreamingSource", `{"enabled": false}`)}}}},
		{name: "a source under a persistent root", es: []E{settings,
			{ID: 2, C: []string{tr(5, 0, 5), persistent}},
			{ID: 3, Parent: at(2), C: []string{tr(0, 1, 0), comp("WorldStreamingSource", `{}`)}}}},
		{name: "global-light-in-cell directional", es: []E{settings,
			{ID: 2, Name: "Sun", C: []string{tr(0, 0, 0), comp("Light2D", `{"type": 1, "intensity": 0.85}`)}}},
			want: []string{"global-light-in-cell@2:Light2D"}},
		{name: "global-light-in-cell ambient with an environment, below a root", es: []E{settings,
			{ID: 2, C: []string{tr(0, 0, 0)}},
			{ID: 3, Name: "Sky", Parent: at(2), C: []string{comp("Light2D", `{"type": 2, "environment": "assets/env/sky.esenv"}`)}}},
			want: []string{"global-light-in-cell@3:Light2D"}},
		{name: "global-light-in-cell ambient without a Transform", es: []E{settings,
			{ID: 2, C: []string{tr(0, 0, 0)}},
			{ID: 3, Name: "Sky", Parent: at(2), C: []string{comp("Light2D", `{"type": 2}`)}}},
			want: []string{"global-light-in-cell@3:Light2D"}},
		{name: "point and spot lights are local", es: []E{settings,
			{ID: 2, C: []string{tr(0, 0, 0), comp("Light2D", `{"type": 0}`)}},
			{ID: 3, C: []string{tr(0, 0, 0), comp("Light2D", `{"type": 3, "radius": 10}`)}},
			{ID: 4, C: []string{tr(0, 0, 0), comp("Light2D", `{}`)}}}},
		// An entity's first Light2D is the one read, as the engine's
		// component lookup finds it.
		{name: "a sun after a point light on one entity", es: []E{settings,
			{ID: 2, C: []string{tr(0, 0, 0), comp("Light2D", `{"type": 0}`), comp("Light2D", `{"type": 1}`)}}}},
		{name: "a point light after a sun on one entity", es: []E{settings,
			{ID: 2, C: []string{tr(0, 0, 0), comp("Light2D", `{"type": 1}`), comp("Light2D", `{"type": 0}`)}}},
			want: []string{"global-light-in-cell@2:Light2D"}},
		{name: "a hidden sun spawns no light", es: []E{settings,
			{ID: 2, Raw: `{"id": 2, "name": "Sun", "parent": null, "children": [], "components": [` + tr(0, 0, 0) + `, ` + comp("Light2D", `{"type": 1}`) + `], "visible": false}`}}},
		{name: "a persistent sun, a disabled one", es: []E{settings,
			{ID: 2, C: []string{tr(0, 0, 0), persistent, comp("Light2D", `{"type": 1}`)}},
			{ID: 3, C: []string{tr(0, 0, 0), comp("Light2D", `{"type": 1, "enabled": false}`)}}}},
		{name: "misspelt WorldPersistent", es: []E{settings,
			{ID: 2, Name: "Player", C: []string{tr(5, 0, 5), comp("WorldPersistant", `{}`), comp("WorldStreamingSource", `{}`)}}},
			want: []string{"misspelt-streaming-component@2:WorldPersistant", "source-in-cell@2:WorldStreamingSource"}},
		{name: "misspelt StreamedWorld in a scene without one", es: []E{
			{ID: 1, Name: "Settings", C: []string{comp("StreamWorld", `{"cellSize": 100}`)}},
			{ID: 2, C: []string{tr(5, 0, 5)}}},
			want: []string{"misspelt-streaming-component@1:StreamWorld"}},
		{name: "misspelt source, case and transposition", es: []E{settings,
			{ID: 2, C: []string{tr(5, 0, 5), comp("worldStreamingSoucre", `{}`)}}},
			want: []string{"misspelt-streaming-component@2:worldStreamingSoucre"}},
		{name: "names three edits away are other components", es: []E{settings,
			{ID: 2, C: []string{tr(5, 0, 5), comp("StreamWorlds2", `{}`), comp("WorldPersist", `{}`)}}}},
		{name: "unplaceable-prefab", es: []E{settings,
			{ID: 2, Raw: `{"id": 2, "name": "Coin", "parent": null, "prefab": "@uuid:00000000-0000-0000-0000-000000000000", "overrides": [], "added": [], "removed": []}`}},
			want: []string{"unplaceable-prefab@2:prefab", "unresolved-prefab@2:prefab"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := checkAll(t, tc.opts, tc.es...)
			want := tc.want
			if want == nil {
				want = []string{}
			}
			got := codes(p)
			if tc.all {
				got = allCodes(p)
			}
			if !slices.Equal(got, want) {
				t.Errorf("findings\n got %v\nwant %v", got, want)
			}
			for _, f := range p.Findings {
				rule, ok := RuleByID(f.Code)
				if !ok {
					t.Errorf("finding code %q has no rule", f.Code)
				}
				if f.Severity != rule.Level {
					t.Errorf("%s severity %s, want %s", f.Code, f.Severity, rule.Level)
				}
				if f.Message == "" || f.Hint == "" || f.Line < 4 || f.EntityName == "" {
					t.Errorf("incomplete finding %+v", f)
				}
			}
		})
	}
}

// TestMissingParentBecomesRoot: the orphan is placed by its own position
// and its parent link is cut so writers emit null.
func TestMissingParentBecomesRoot(t *testing.T) {
	p := check(t, Options{},
		E{ID: 1, C: []string{sw("100")}},
		E{ID: 2, Parent: at(42), C: []string{tr(250, 0, 50)}},
		E{ID: 3, Parent: at(2), C: []string{tr(10, 0, 0)}})
	i, _ := p.Doc.Lookup(2)
	j, _ := p.Doc.Lookup(3)
	if !p.CutParent(i) || p.CutParent(j) {
		t.Errorf("cut: %v %v, want true false", p.CutParent(i), p.CutParent(j))
	}
	if got := cellOf(t, p, 2); got != "test.cell_2_0" {
		t.Errorf("orphan placed in %s", got)
	}
	if got := cellOf(t, p, 3); got != "test.cell_2_0" {
		t.Errorf("orphan's child placed in %s", got)
	}
	if p.Errors(false) != 0 || p.Errors(true) != 1 {
		t.Errorf("errors %d strict %d", p.Errors(false), p.Errors(true))
	}
}

func TestParentCycleIsCutAndPlaced(t *testing.T) {
	p := check(t, Options{},
		E{ID: 1, C: []string{sw("100")}},
		E{ID: 5, Parent: at(4), C: []string{tr(10, 0, 0)}},
		E{ID: 4, Parent: at(3), C: []string{tr(10, 0, 0)}},
		E{ID: 3, Parent: at(5), C: []string{tr(10, 0, 0)}})
	if got := codes(p); !slices.Equal(got, []string{"parent-cycle@5:parent"}) {
		t.Fatalf("findings %v", got)
	}
	if !strings.Contains(p.Findings[0].Message, "5 → 4 → 3 → 5") {
		t.Errorf("cycle not named: %s", p.Findings[0].Message)
	}
	// The first member in authored order became the root; the whole cycle
	// went to one document.
	c := cellOf(t, p, 5)
	for _, id := range []int64{3, 4} {
		if got := cellOf(t, p, id); got != c {
			t.Errorf("entity %d in %s, want %s", id, got, c)
		}
	}
}

func TestNotStreamed(t *testing.T) {
	p := check(t, Options{},
		E{ID: 1, C: []string{tr(0, 0, 0), joint("2")}},
		E{ID: 2, C: []string{tr(5000, 0, 0), persistent, comp("WorldStreamingSource", `{"loadRadius": 9, "unloadRadius": 1}`)}},
		E{ID: 3, Parent: at(1), C: []string{persistent, joint("99")}},
		E{ID: 3, Name: "Dup"})
	if p.Streamed || len(p.Cells) != 0 || p.Persistent != nil || p.Sources != nil {
		t.Errorf("non-streamed plan has a partition: %+v", p)
	}
	want := []string{"dangling-ref@3:RevoluteJoint.connectedEntity", "duplicate-id@3:id"}
	if got := codes(p); !slices.Equal(got, want) {
		t.Errorf("findings\n got %v\nwant %v", got, want)
	}
}

func TestMalformedTransformIsInputError(t *testing.T) {
	d := parse(t, sceneJSON(E{ID: 1, C: []string{sw("100")}}, E{ID: 2, C: []string{comp("Transform", `{"position": {"x": "far"}}`)}}))
	_, err := Check(d, Options{})
	var se *scene.Error
	if !errors.As(err, &se) || se.Line != 6 || !strings.Contains(err.Error(), "Transform.position.x") {
		t.Fatalf("err = %v, want a *scene.Error at line 6 naming Transform.position.x", err)
	}
}

func TestBadPlaneOption(t *testing.T) {
	if _, err := Check(parse(t, sceneJSON(E{ID: 1})), Options{Plane: "yz"}); err == nil {
		t.Fatal("plane yz accepted")
	}
}

func TestFindingsOrder(t *testing.T) {
	p := check(t, Options{},
		E{ID: 1, C: []string{sw("100")}},
		E{ID: 2, C: []string{tr(0, 0, 0), persistent, joint("99"), comp("MeshSkin", `{"joints": [4, 98, 4]}`)}, Parent: at(50)},
		E{ID: 4, C: []string{tr(500, 0, 0)}})
	var got []string
	for _, f := range p.Findings {
		got = append(got, f.Code+":"+f.Field)
	}
	want := []string{
		"dangling-ref:RevoluteJoint.connectedEntity",
		"dangling-ref:MeshSkin.joints[1]",
		"missing-parent:parent",
		"persistent-to-cell-ref:MeshSkin.joints[0]",
		"persistent-to-cell-ref:MeshSkin.joints[2]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("order\n got %v\nwant %v", got, want)
	}
}

func TestPlaneXY(t *testing.T) {
	p := check(t, Options{Plane: "xy"},
		E{ID: 1, C: []string{sw("100")}},
		E{ID: 2, C: []string{tr(150, 250, 999)}})
	if got := cellOf(t, p, 2); got != "test.cell_1_2" {
		t.Errorf("xy cell %s", got)
	}
	if p.Plane != "xy" || p.Cells[0].Grid != (Rect{MinX: 100, MinZ: 200, MaxX: 200, MaxZ: 300}) {
		t.Errorf("plane %s grid %+v", p.Plane, p.Cells[0].Grid)
	}
}

func TestSources(t *testing.T) {
	p := check(t, Options{},
		E{ID: 1, C: []string{sw("100")}},
		E{ID: 2, Name: "Rig", C: []string{tr(100, 0, 0), persistent}},
		E{ID: 3, Name: "Cam", Parent: at(2), C: []string{tr(10, 20, 30), comp("WorldStreamingSource", `{"loadRadius": 500, "unloadRadius": 800, "prefetchRadius": 600, "enabled": false}`)}},
		E{ID: 4, Name: "Probe", C: []string{tr(-5, 0, -5), comp("WorldStreamingSource", `{}`)}})
	if len(p.Sources) != 2 {
		t.Fatalf("sources %+v", p.Sources)
	}
	s := p.Sources[0]
	if s.Entity != 3 || s.Name != "Cam" || s.Position.X != 110 || s.Position.Y != 20 || s.Position.Z != 30 ||
		s.LoadRadius != 500 || s.UnloadRadius != 800 || s.PrefetchRadius != 600 || s.Enabled {
		t.Errorf("source %+v", s)
	}
	d := p.Sources[1]
	if d.PrefetchRadius != 3000 || d.LoadRadius != 2000 || d.UnloadRadius != 3000 || !d.Enabled {
		t.Errorf("defaults %+v", d)
	}
}

func TestSceneName(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ file, root, want string }{
		{dir + "/main.esscene", "", "main"},
		{dir + "/levels/boss.esscene", dir, "levels/boss"},
		{dir + "/a b/c.esscene", dir, "a b/c"},
	}
	for _, c := range cases {
		got, err := SceneName(c.file, c.root)
		if err != nil || got != c.want {
			t.Errorf("SceneName(%q, %q) = %q, %v; want %q", c.file, c.root, got, err, c.want)
		}
	}
	if _, err := SceneName(dir+"/x.esscene", dir+"/levels"); err == nil {
		t.Error("scene outside the root accepted")
	}
	for _, bad := range []string{"t\tab", "new\nline", "e\x1bsc", "del\x7f"} {
		if _, err := SceneName(dir+"/"+bad+".esscene", ""); err == nil || !strings.Contains(err.Error(), "control character") {
			t.Errorf("SceneName(%q): %v, want a control character refused", bad, err)
		}
	}
}
