package validate

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
)

// TestModelMatchesEditedCheck: a Model checked as if a StreamedWorld of
// some cell size and WorldPersistent on some roots were added gives the
// plan Check gives for the scene with them written, but for the
// findings a model leaves to the StreamedWorld entity (Model) and the
// columns the written components move — at several cell sizes in turn
// on one model, with levels or none, and with one placer or several.
func TestModelMatchesEditedCheck(t *testing.T) {
	opts := Options{SceneName: "t", Components: map[string]ComponentFields{"FollowTarget": {Entity: []string{"target"}}}}
	compared, marked, cells, relocated, spans := 0, 0, 0, 0, 0
	for seed := 0; seed < 300; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 29))
		w := genWorld(r)
		w.addBoxes(r)
		o := opts
		if r.IntN(3) == 0 {
			o.Levels = 1 + r.IntN(4)
		}
		parts := 1 + 2*r.IntN(2)
		restore := withPlacers(parts)
		// The scene as authored: the StreamedWorld taken off its entity.
		swc := sw(strconv.FormatFloat(w.cellSize, 'g', -1, 64))
		authored := slices.Clone(w.es)
		worldAt := -1
		for k, e := range authored {
			if i := slices.Index(e.C, swc); i >= 0 {
				authored[k].C = slices.Delete(slices.Clone(e.C), i, i+1)
				worldAt = k
			}
		}
		if worldAt < 0 {
			t.Fatalf("seed %d: no StreamedWorld in the generated world", seed)
		}
		// Every other world gets its StreamedWorld on a settings entity
		// of its own, appended, as worldcook init writes it: the model
		// then makes the findings about the whole world too, and its
		// plan relocated into the edited scene has every position.
		var settings *Settings
		if seed%2 == 1 {
			settings = &Settings{ID: 1 + int64(r.IntN(100)), Name: "StreamedWorld"}
			for _, e := range authored {
				if e.ID == settings.ID {
					settings.ID = 1000 + int64(seed)
				}
			}
		}
		if seed%5 == 2 {
			// A root whose collider overflows under its scale: its range is
			// not finite, a fault, in no cell's bounds nor in the span.
			authored = append(authored, E{ID: 900, Name: "Overflow", C: []string{
				`{"type": "Transform", "data": {"position": {"x": 10, "y": 0, "z": 10}, "scale": {"x": 1e300, "y": 1, "z": 1}}}`,
				comp("BoxCollider3D", `{"halfExtents": {"x": 1e10, "y": 1, "z": 1}}`)}})
		}
		if seed%4 == 1 {
			// A root whose mesh cannot be read: a finding where it is
			// placed in a cell, none where it is marked persistent.
			authored = append(authored, E{ID: 901, Name: "Unread", C: []string{tr(20, 0, 30),
				comp("Mesh2D", `{"mesh": "assets/meshes/missing.esmesh"}`)}})
		}
		m, err := NewModel(parse(t, sceneJSON(authored...)), o, settings)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []float64{w.cellSize, w.cellSize / 2, w.cellSize * 3} {
			// The edit: the StreamedWorld back on its entity with size,
			// and WorldPersistent on some roots.
			edited := slices.Clone(authored)
			mark := make([]bool, len(edited))
			for k := range edited {
				edited[k].C = slices.Clone(edited[k].C)
			}
			if settings != nil {
				edited = append(edited, E{ID: settings.ID, Name: settings.Name, C: []string{sw(strconv.FormatFloat(size, 'g', -1, 64))}})
			} else {
				edited[worldAt].C = append(edited[worldAt].C, sw(strconv.FormatFloat(size, 'g', -1, 64)))
				mark[worldAt] = true
			}
			for k, e := range edited[:len(authored)] {
				if e.Parent == nil && r.IntN(4) == 0 {
					edited[k].C = append(edited[k].C, persistent)
					mark[k] = true
					marked++
				}
			}
			ed := parse(t, sceneJSON(edited...))
			want, err := Check(ed, o)
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.Check(Assume{CellSize: size, Persistent: mark})
			if err != nil {
				t.Fatal(err)
			}
			if settings != nil {
				got.Relocate(ed)
				// The settings entity is persistent; the model's plan
				// does not list it (NewModel).
				want.Persistent = slices.DeleteFunc(want.Persistent, func(i int32) bool { return int(i) == len(authored) })
				want.PersistentSpawnCount--
				relocated++
			}
			if d := planDiff(got, want, settings != nil); d != "" {
				t.Fatalf("seed %d, cell size %v, levels %d, %d placers: the model's plan differs in %s\n%s", seed, size, o.Levels, parts, d, sceneJSON(edited...))
			}
			// The span is the union of the edited scene's cells' bounds.
			span, ok, err := m.Span(Assume{CellSize: size, Persistent: mark})
			if err != nil {
				t.Fatal(err)
			}
			var u Rect
			for k, c := range want.Cells {
				if k == 0 {
					u = c.Bounds
					continue
				}
				u = u.Union(c.Bounds)
			}
			if ok != (len(want.Cells) > 0) || ok && span != u {
				t.Fatalf("seed %d, cell size %v, levels %d, %d placers: the model's span is %+v (%v), the cells' bounds span %+v (%d cells)\n%s", seed, size, o.Levels, parts, span, ok, u, len(want.Cells), sceneJSON(edited...))
			}
			spans++
			compared++
			cells += len(want.Cells)
		}
		restore()
	}
	if compared < 900 || marked < 500 || cells < 2000 || relocated < 400 || spans < 900 {
		t.Fatalf("weak test: %d plans compared, %d roots marked, %d cells, %d relocated, %d spans", compared, marked, cells, relocated, spans)
	}
}

// planDiff names the first part in which a model's plan differs from
// the plan of the scene edited as it assumed ("" for none); relocated,
// the model's plan was relocated into the edited scene, and has every
// finding at its position.
func planDiff(got, want *Plan, relocated bool) string {
	kept := func(fs []Finding) []Finding {
		if relocated {
			return fs
		}
		var out []Finding
		for _, f := range fs {
			switch f.Code {
			case CodeNothingStreams, CodePlaneMismatch, CodeNoStreamingSource:
				continue // attached to the StreamedWorld entity
			}
			f.Column, f.LineText = 0, ""
			out = append(out, f)
		}
		return out
	}
	for _, p := range []struct {
		name      string
		got, want any
	}{
		{"streamed", got.Streamed, want.Streamed},
		{"cell size", got.CellSize, want.CellSize},
		{"persistent world", got.Persistent, want.Persistent},
		{"cells", got.Cells, want.Cells},
		{"promotions", got.Promotions, want.Promotions},
		{"persistent refs", got.PersistentRefs, want.PersistentRefs},
		{"sources", got.Sources, want.Sources},
		{"view", got.View, want.View},
		{"layout", got.Layout, want.Layout},
		{"findings", kept(got.Findings), kept(want.Findings)},
		{"assets", got.Assets, want.Assets},
		{"spawn counts", got.PersistentSpawnCount, want.PersistentSpawnCount},
	} {
		if !reflect.DeepEqual(p.got, p.want) {
			return p.name + ":\n got  " + fmtAny(p.got) + "\n want " + fmtAny(p.want)
		}
	}
	return ""
}

func fmtAny(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(b)
}

// TestModelNumbersGeneratedIDsAboveTheSettings: the ids the engine
// generates for an instance's entities follow the document's highest id,
// which the settings entity an edit appends may be (ids 1 to 3 are taken,
// so init's is 4): the model numbers them above it, as Check of the
// edited scene does, and a reference to the id that then names the
// instance's wing is reported.
func TestModelNumbersGeneratedIDsAboveTheSettings(t *testing.T) {
	file := expansionProject(t)
	authored := []E{
		{ID: 1, C: []string{tr(10, 0, 10)}},
		entry("assets/House.esprefab", `[`+rootAt("100", "100")+`]`, `[]`, `[]`),
		{ID: 3, C: []string{tr(50, 0, 50), joint("6")}},
	}
	settings := &Settings{ID: 4, Name: "StreamedWorld"}
	opts := Options{SceneName: "test"}
	d, err := scene.Parse(file, []byte(sceneJSON(authored...)))
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(d, opts, settings)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Check(Assume{CellSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	edited := append(slices.Clone(authored), E{ID: 4, Name: "StreamedWorld", C: []string{sw("1000")}})
	ed, err := scene.Parse(file, []byte(sceneJSON(edited...)))
	if err != nil {
		t.Fatal(err)
	}
	want, err := Check(ed, opts)
	if err != nil {
		t.Fatal(err)
	}
	got.Relocate(ed)
	// The settings entity is persistent; the model's plan does not list
	// it (NewModel).
	want.Persistent = slices.DeleteFunc(want.Persistent, func(i int32) bool { return int(i) == len(authored) })
	want.PersistentSpawnCount--
	if !slices.Contains(codes(want), "ref-to-generated-id@3:RevoluteJoint.connectedEntity") {
		t.Fatalf("weak test: the edited scene's findings %v", codes(want))
	}
	if d := planDiff(got, want, true); d != "" {
		t.Fatalf("the model's plan differs in %s", d)
	}
}
