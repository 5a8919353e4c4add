package testworld

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Prefab-heavy worlds: a share of the props are prefab-instance entries of
// a small library of prefabs (plain ones with children, variants of them,
// and prefabs that nest them), most placed by a root position override
// only, some with the edits instances carry (a child moved, a child
// removed, an entity added, a joint to another prop). The library is
// written beside the scene by PrefabLibrary.

// DefaultPrefabs is the library size when PrefabFraction is set.
const DefaultPrefabs = 50

// maxPrefabs bounds the library.
const maxPrefabs = 10000

// File is one file of a prefab library, its path relative to the scene's
// folder.
type File struct {
	Path string
	Data []byte
}

// prefabUUID is the uuid of library prefab k of a world seed.
func prefabUUID(seed uint64, k int) string {
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", uint32(seed*0x9E3779B1), k)
}

func prefabPath(k int) string { return "prefabs/P" + strconv.Itoa(k) + ".esprefab" }

// prefab kinds by k % 5: 0–2 plain, 3 a variant of the plain prefab
// before it, 4 a prefab nesting a plain prefab in a slot.
func prefabKind(k int) int {
	switch k % 5 {
	case 3:
		return 1
	case 4:
		return 2
	}
	return 0
}

type pfComp struct {
	Type string         `json:"type"`
	Data map[string]any `json:"data"`
}

type pfEntity struct {
	PrefabEntityID string         `json:"prefabEntityId"`
	Name           string         `json:"name"`
	Parent         *string        `json:"parent"`
	Children       []string       `json:"children"`
	Components     []pfComp       `json:"components"`
	Visible        bool           `json:"visible"`
	NestedPrefab   map[string]any `json:"nestedPrefab,omitempty"`
}

type pfDoc struct {
	Version      string           `json:"version"`
	Name         string           `json:"name"`
	RootEntityID string           `json:"rootEntityId"`
	BasePrefab   string           `json:"basePrefab,omitempty"`
	Entities     []pfEntity       `json:"entities"`
	Overrides    []map[string]any `json:"overrides,omitempty"`
}

func pvec(x, y, z float64) map[string]any { return map[string]any{"x": x, "y": y, "z": z} }

func str(s string) *string { return &s }

// PrefabLibrary returns the prefab library a prefab-heavy world's
// instances name: each prefab and its .meta sidecar. It is empty when the
// options ask for no instances.
func PrefabLibrary(o Options) ([]File, error) {
	o, err := o.normalize()
	if err != nil || o.PrefabFraction == 0 {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x4c49_4252_4152_5900))
	cell := o.CellSize
	var files []File
	for k := 0; k < o.Prefabs; k++ {
		name := "P" + strconv.Itoa(k)
		doc := pfDoc{Version: "2", Name: name, RootEntityID: "root"}
		switch prefabKind(k) {
		case 0:
			root := pfEntity{PrefabEntityID: "root", Name: name, Visible: true, Components: []pfComp{
				{"Transform", map[string]any{}},
				{"Mesh2D", map[string]any{"mesh": "builtin:cube"}},
				{"BoxCollider3D", map[string]any{"halfExtents": pvec(40, 40, 40)}},
			}}
			n := 1 + rng.IntN(4)
			kids := []pfEntity{}
			for c := 1; c <= n; c++ {
				id := "c" + strconv.Itoa(c)
				parent := "root"
				if c > 1 && rng.IntN(3) == 0 {
					parent = "c1"
				}
				comps := []pfComp{{"Transform", map[string]any{"position": pvec(float64(rng.IntN(int(cell*0.6)))-cell*0.3, float64(rng.IntN(200)), float64(rng.IntN(int(cell*0.6)))-cell*0.3)}}}
				switch rng.IntN(3) {
				case 0:
					comps = append(comps, pfComp{"Light2D", map[string]any{"type": 0, "radius": 100 + rng.IntN(200)}})
				case 1:
					comps = append(comps, pfComp{"Sprite", map[string]any{"size": map[string]any{"x": 60, "y": 80}}})
				default:
					comps = append(comps, pfComp{"SphereCollider3D", map[string]any{"radius": 20 + rng.IntN(30)}})
				}
				kids = append(kids, pfEntity{PrefabEntityID: id, Name: "Part " + id, Parent: str(parent), Components: comps, Visible: true})
			}
			for c := range kids {
				kids[c].Children = []string{}
				p := *kids[c].Parent
				if p == "root" {
					root.Children = append(root.Children, kids[c].PrefabEntityID)
				} else {
					kids[0].Children = append(kids[0].Children, kids[c].PrefabEntityID)
				}
			}
			doc.Entities = append([]pfEntity{root}, kids...)
		case 1:
			doc.BasePrefab = "@uuid:" + prefabUUID(o.Seed, k-1)
			doc.Entities = []pfEntity{{PrefabEntityID: "v1", Name: "Banner", Parent: str("root"), Children: []string{}, Visible: true, Components: []pfComp{
				{"Transform", map[string]any{"position": pvec(0, 250, 0)}},
				{"Sprite", map[string]any{"size": map[string]any{"x": 120, "y": 40}}},
			}}}
			doc.Overrides = []map[string]any{{"prefabEntityId": "root", "type": "property", "componentType": "Transform", "propertyName": "scale", "value": pvec(1.25, 1.25, 1.25)}}
		case 2:
			doc.Entities = []pfEntity{
				{PrefabEntityID: "root", Name: name, Children: []string{"c1", "slot"}, Visible: true, Components: []pfComp{{"Transform", map[string]any{}}}},
				{PrefabEntityID: "c1", Name: "Fence", Parent: str("root"), Children: []string{}, Visible: true, Components: []pfComp{
					{"Transform", map[string]any{"position": pvec(-cell*0.2, 0, 0)}},
					{"BoxCollider3D", map[string]any{"halfExtents": pvec(cell*0.1, 20, 5)}},
				}},
				{PrefabEntityID: "slot", Name: "", Parent: str("root"), Children: []string{}, Visible: true, Components: []pfComp{},
					NestedPrefab: map[string]any{"prefabPath": "@uuid:" + prefabUUID(o.Seed, k-4), "overrides": []map[string]any{
						{"prefabEntityId": "root", "type": "property", "componentType": "Transform", "propertyName": "position", "value": pvec(cell*0.15, 0, 0)},
					}}},
			}
		}
		data, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return nil, err
		}
		meta, _ := json.MarshalIndent(map[string]any{"uuid": prefabUUID(o.Seed, k), "version": "2.0", "type": "prefab"}, "", "  ")
		files = append(files, File{prefabPath(k), append(data, '\n')}, File{prefabPath(k) + ".meta", append(meta, '\n')})
	}
	return files, nil
}

// writeInstance writes one prefab-instance entry at a random place.
func (g *generator) writeInstance() {
	id, ok := g.take()
	if !ok {
		return
	}
	rng, e := g.prng, g.e
	k := rng.IntN(g.o.Prefabs)
	a, b := g.rng.Int64N(g.extent), g.rng.Int64N(g.extent)
	x, y, z := g.pos(a, 0, b)
	e.elem()
	e.beginObject()
	e.keyInt("id", id)
	e.keyStr("name", "P"+strconv.Itoa(k)+" "+strconv.FormatInt(id, 10))
	e.key("parent")
	e.null()
	e.keyStr("prefab", "@uuid:"+prefabUUID(g.o.Seed, k))
	e.key("overrides")
	e.beginArray()
	g.propertyOverride("root", "position", x, y, z)
	// Every kind of library prefab has a child "c1".
	if rng.IntN(6) == 0 {
		g.propertyOverride("c1", "position", 5000, 0, 0)
	}
	// A joint to the latest prop of the same cell, as a hinge to a post.
	cx, cz := a/g.cell, b/g.cell
	slot := g.cells[cellHash(cx, cz)]
	onBorder := a%g.cell == 0 || b%g.cell == 0
	if rng.IntN(50) == 0 && !onBorder && slot.id != 0 && slot.cx == cx && slot.cz == cz {
		e.elem()
		e.beginObject()
		e.keyStr("prefabEntityId", "root")
		e.keyStr("type", "component_added")
		e.key("componentData")
		e.beginObject()
		e.keyStr("type", "HingeJoint3D")
		e.key("data")
		e.beginObject()
		e.keyInt("connectedEntity", slot.id)
		e.endObject()
		e.endObject()
		e.endObject()
	}
	e.endArray()
	e.key("added")
	e.beginArray()
	if rng.IntN(8) == 0 {
		e.elem()
		e.beginObject()
		e.keyStr("prefabEntityId", "extra")
		e.keyStr("name", "Lantern")
		e.key("components")
		e.beginArray()
		g.transform(0, 12000, 0, nil, 0)
		g.pointLight(15000)
		e.endArray()
		e.keyBool("visible", true)
		e.keyStr("parentId", "root")
		e.endObject()
	}
	e.endArray()
	e.key("removed")
	e.beginArray()
	if rng.IntN(6) == 0 {
		e.elem()
		e.str("c1")
	}
	e.endArray()
	e.endObject()
}

// propertyOverride writes a Transform property override of a vector in
// hundredths.
func (g *generator) propertyOverride(entity, prop string, x, y, z int64) {
	e := g.e
	e.elem()
	e.beginObject()
	e.keyStr("prefabEntityId", entity)
	e.keyStr("type", "property")
	e.keyStr("componentType", "Transform")
	e.keyStr("propertyName", prop)
	e.vec3("value", x, y, z)
	e.endObject()
}
