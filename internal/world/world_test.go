package world

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
)

func parse(t *testing.T, path, src string) *scene.Document {
	t.Helper()
	d, err := scene.Parse(path, []byte(src))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	return d
}

func build(t *testing.T, d *scene.Document, root string) *World {
	t.Helper()
	w, err := Build(d, Options{Resolver: func() *assets.Resolver {
		return assets.NewResolver(root, assets.NewIndex([]string{root}), assets.Rules{})
	}})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return w
}

// TestHierarchy: parents resolve, roots and the parents-first order
// follow them, and every fault of the children lists and parent links is
// kept, in the order found, with what a message needs.
func TestHierarchy(t *testing.T) {
	d := parse(t, "h.esscene", `{"entities": [
		{"id": 1, "parent": null, "children": [2, 9, 4], "components": []},
		{"id": 2, "parent": 1, "children": [], "components": []},
		{"id": 3, "parent": 77, "children": [], "components": []},
		{"id": 4, "parent": 2, "children": [], "components": []},
		{"id": 5, "parent": 6, "children": [6], "components": []},
		{"id": 6, "parent": 5, "children": [5], "components": []},
		{"id": 7, "parent": 1, "children": [], "components": []}
	]}`)
	w := build(t, d, t.TempDir())
	wantParent := []int32{-1, 0, -1, 1, -1, 4, 0}
	if got := w.Parents(); !slices.Equal(got, wantParent) {
		t.Errorf("parents %v, want %v", got, wantParent)
	}
	wantRoot := []int32{0, 0, 2, 0, 4, 4, 0}
	if got := w.Roots(); !slices.Equal(got, wantRoot) {
		t.Errorf("roots %v, want %v", got, wantRoot)
	}
	pos := map[int32]int{}
	for k, i := range w.Order() {
		pos[i] = k
	}
	for i, p := range w.Parents() {
		if p >= 0 && pos[p] > pos[int32(i)] {
			t.Errorf("entity %d comes before its parent %d", i, p)
		}
	}
	var got []string
	for _, f := range w.Faults() {
		got = append(got, fmt.Sprintf("%d:%d/%d/%d/%d/%v", f.Kind, f.I, f.J, f.P, f.ID, f.Cycle))
	}
	want := []string{
		fmt.Sprintf("%d:2/-1/-1/77/[]", MissingParent),
		fmt.Sprintf("%d:0/-1/-1/9/[]", ChildMissing),
		fmt.Sprintf("%d:0/3/1/4/[]", ChildElsewhere),
		fmt.Sprintf("%d:3/-1/1/0/[]", Unlisted),
		fmt.Sprintf("%d:6/-1/0/0/[]", Unlisted),
		fmt.Sprintf("%d:4/-1/-1/0/[4 5]", Cycle),
	}
	if !slices.Equal(got, want) {
		t.Errorf("faults\n got %v\nwant %v", got, want)
	}
	for i, want := range []bool{false, false, true, false, true, false, false} {
		if w.CutParent(i) != want {
			t.Errorf("CutParent(%d) = %v", i, !want)
		}
	}
}

// TestLongCycle: a cycle keeps nine members, enough to say there are
// more than a message shows.
func TestLongCycle(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"entities": [`)
	for i := 1; i <= 12; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": %d, "parent": %d, "children": [%d], "components": []}`, i, i%12+1, (i+10)%12+1)
	}
	b.WriteString(`]}`)
	w := build(t, parse(t, "c.esscene", b.String()), t.TempDir())
	f := w.Faults()
	if len(f) != 1 || f[0].Kind != Cycle || f[0].I != 0 || len(f[0].Cycle) != cycleShown+1 {
		t.Fatalf("faults %+v", f)
	}
}

// TestFlagsAndRefs: what each entity carries, and the references both of
// whose ends then want a position.
func TestFlagsAndRefs(t *testing.T) {
	d := parse(t, "f.esscene", `{"entities": [
		{"id": 1, "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {}}]},
		{"id": 2, "parent": null, "children": [], "components": [{"type": "Transform", "data": {}}, {"type": "RevoluteJoint", "data": {"connectedEntity": 3}}]},
		{"id": 3, "parent": null, "children": [], "components": [{"type": "Transform", "data": {}}, {"type": "Sprite", "data": {}}, {"type": "WorldPersistant", "data": {}}]},
		{"id": 4, "parent": null, "children": [], "components": [{"type": "Light2D", "data": {"type": 2}}, {"type": "Camera", "data": {}}, {"type": "Canvas", "data": {"pixelsPerUnit": 32}}]},
		{"id": 5, "parent": null, "children": [], "components": [{"type": "WorldStreamingSource", "data": {}}]}
	]}`)
	w := build(t, d, t.TempDir())
	want := []Flag{StreamedWorld, Transform | Refs | NeedPos, Transform | Extent | Misspelt | NeedPos, Extent | GlobalLight | Camera | Canvas, Source | NeedPos}
	for i, f := range want {
		if got := w.Flags(int32(i)) &^ (listed | done); got != f {
			t.Errorf("entity %d flags %b, want %b", i+1, got, f)
		}
	}
	if !w.Streamed() || w.Canvas() != 3 || w.PPU() != 32 || !slices.Equal(w.Sources(), []int32{4}) {
		t.Errorf("streamed %v canvas %d ppu %v sources %v", w.Streamed(), w.Canvas(), w.PPU(), w.Sources())
	}
	if r := w.Refs(); len(r) != 1 || r[0].From != 1 || r[0].Target != 3 || r[0].Comp != "RevoluteJoint" {
		t.Errorf("refs %+v", r)
	}
}

// housePrefab is a root with a child and a grandchild, at (100, 0, 0),
// scaled 2, the child at x 10, the grandchild without a Transform.
const housePrefab = `{"version": "2", "name": "House", "rootEntityId": "h", "entities": [
  {"prefabEntityId": "h", "name": "House", "parent": null, "children": ["w"], "components": [{"type": "Transform", "data": {"position": {"x": 100}, "scale": {"x": 2, "y": 2, "z": 2}}}, {"type": "WorldStreamingSource", "data": {}}]},
  {"prefabEntityId": "w", "name": "Wing", "parent": "h", "children": ["d"], "components": [{"type": "Transform", "data": {"position": {"x": 10}}}, {"type": "Marker", "data": {}}]},
  {"prefabEntityId": "d", "name": "Door", "parent": "w", "children": ["k"], "components": []},
  {"prefabEntityId": "k", "name": "Knob", "parent": "d", "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 1}}}]}
]}`

// instanceScene places House twice under a moved parent: once moved by
// its root override, once as it is.
func instanceScene(t *testing.T) (*World, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "House.esprefab"), []byte(housePrefab), 0o644); err != nil {
		t.Fatal(err)
	}
	d := parse(t, filepath.Join(dir, "main.esscene"), `{"entities": [
		{"id": 1, "name": "Town", "parent": null, "children": [2, 3], "components": [{"type": "Transform", "data": {"position": {"x": 1000}}}]},
		{"id": 2, "name": "A", "parent": 1, "prefab": "House.esprefab", "overrides": [{"prefabEntityId": "h", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 5, "y": 0, "z": 0}}], "added": [], "removed": []},
		{"id": 3, "parent": 1, "prefab": "House.esprefab", "overrides": [], "added": [], "removed": []},
		{"id": 9, "parent": null, "children": [], "components": []}
	]}`)
	w := build(t, d, dir)
	if err := w.Expand(); err != nil {
		t.Fatal(err)
	}
	return w, dir
}

// TestExpandedEntities: the expanded world holds each instance's entities
// after its entry, with names, paths, parents, children, components and
// the ids the engine generates for them.
func TestExpandedEntities(t *testing.T) {
	w, _ := instanceScene(t)
	var got []string
	w.Spawned(func(e Ent) bool {
		p, ok := w.ParentOf(e)
		parent := "-"
		if ok {
			parent = w.Name(p)
		}
		got = append(got, fmt.Sprintf("%s<%s id=%d", w.Name(e), parent, w.ID(e)))
		return true
	})
	// Ids above the highest, 9, instance after instance, each instance's
	// first allocation (its root's) taken by its entry's own id.
	want := []string{"Town<- id=1", "A<Town id=2", "Wing<A id=11", "Door<Wing id=12", "Knob<Door id=13",
		"House<Town id=3", "Wing<House id=15", "Door<Wing id=16", "Knob<Door id=17", "<- id=9"}
	if !slices.Equal(got, want) {
		t.Errorf("spawned\n got %v\nwant %v", got, want)
	}
	a := Ent{I: 1}
	kids := w.Children(a)
	if len(kids) != 1 || w.Name(kids[0]) != "Wing" || w.Path(kids[0]) != "A#2/Wing" {
		t.Errorf("children of A: %v", kids)
	}
	if _, ok := w.Component(a, "WorldStreamingSource"); !ok || w.Flags(1)&Source == 0 {
		t.Error("the instance root carries no source")
	}
	if _, ok := w.Component(kids[0], "Marker"); !ok {
		t.Error("Wing carries no Marker")
	}
	if !slices.Equal(w.Sources(), []int32{1, 2}) {
		t.Errorf("sources %v", w.Sources())
	}
	if i, e, ok := w.GeneratedAt(16); !ok || i != 2 || w.Name(Ent{I: i, Sub: e + 1}) != "Door" {
		t.Errorf("GeneratedAt(16) = %d, %d, %v", i, e, ok)
	}
	if w.SpawnCount(1) != 4 || w.SpawnCount(3) != 1 {
		t.Errorf("spawn counts %d %d", w.SpawnCount(1), w.SpawnCount(3))
	}
}

// TestWorldMatrices: world matrices compose as the engine's transform
// system does, through instance roots placed by their overrides, never
// through an entity without a Transform; a walker and the matrix asked
// for one entity agree bit for bit; a pose moves what is below it.
func TestWorldMatrices(t *testing.T) {
	w, _ := instanceScene(t)
	at := func(e Ent) scene.Vec3 {
		t.Helper()
		m, ok, err := w.WorldOf(e, nil)
		if err != nil || !ok {
			t.Fatalf("%v: no world matrix (%v)", e, err)
		}
		return m.Origin()
	}
	for _, c := range []struct {
		e    Ent
		want float64
	}{
		{Ent{I: 0}, 1000},
		{Ent{I: 1}, 1005},         // A's root moved to 5 under Town
		{Ent{I: 1, Sub: 2}, 1025}, // Wing: 5 + 2×10
		{Ent{I: 2}, 1100},         // the other House where the prefab puts it
		{Ent{I: 2, Sub: 2}, 1120},
		{Ent{I: 1, Sub: 4}, 1}, // Knob under Door, which has no Transform
		{Ent{I: 2, Sub: 4}, 1},
	} {
		if got := at(c.e); got.X != c.want {
			t.Errorf("%s at x %v, want %v", w.Path(c.e), got.X, c.want)
		}
	}
	if _, ok, _ := w.WorldOf(Ent{I: 1, Sub: 3}, nil); ok {
		t.Error("Door, without a Transform, has a world matrix")
	}
	// A walker over the whole world gives the same matrices.
	slot := w.NewSlots()
	walk := w.Walker(w.Order(), slot)
	for _, i := range w.Order() {
		m, ok, err := walk.Next(i)
		want, wok, _ := w.WorldMatrix(i)
		if err != nil || ok != wok || m != want {
			t.Errorf("entity %d: walker %v %v, WorldMatrix %v %v", i, m, ok, want, wok)
		}
	}
	// Wing posed at x 20 takes Knob's parent chain with it only where
	// the chain composes.
	pose := func(e Ent) (scene.TRS, bool) {
		if e == (Ent{I: 1, Sub: 2}) {
			return scene.TRS{Position: scene.Vec3{X: 20}, Rotation: scene.Quat{W: 1}, Scale: scene.Vec3{X: 1, Y: 1, Z: 1}}, true
		}
		return scene.TRS{}, false
	}
	if m, ok, err := w.WorldOf(Ent{I: 1, Sub: 2}, pose); err != nil || !ok || m.Origin().X != 1045 {
		t.Errorf("posed Wing at %v (%v, %v), want x 1045", m.Origin(), ok, err)
	}
	if m, _, _ := w.WorldOf(Ent{I: 0}, func(e Ent) (scene.TRS, bool) {
		if e.I == 0 && e.Sub == 0 {
			return scene.TRS{Rotation: scene.Quat{W: 1}, Scale: scene.Vec3{X: 1, Y: 1, Z: 1}}, true
		}
		return scene.TRS{}, false
	}); m.Origin().X != 0 || math.Signbit(m.Origin().X) {
		t.Errorf("posed Town at %v", m.Origin())
	}
}
