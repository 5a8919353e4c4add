package initworld

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
)

// FuzzMakeRepair makes the edits of validate --fix (a mark, moves both
// ways between a prefab instance entry and a scene entity, an un-mark) on
// arbitrary scenes: an error or an edit that parses, never a panic. The
// seeds are the street of prefab instances --fix is tested on and init's
// scenes.
func FuzzMakeRepair(f *testing.F) {
	for _, file := range []string{
		filepath.Join("..", "repair", "testdata", "instances", "assets", "scenes", "street.esscene"),
		filepath.Join("testdata", "door.esscene"),
		filepath.Join("testdata", "compact.esscene"),
	} {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(`{"entities":[{"id":1,"prefab":"p","overrides":null},{"id":2,"components":[{"type":"Transform","data":{}}]}]}`))
	f.Add([]byte(`{"entities":[{"id":1,"prefab":"p","overrides":[{"prefabEntityId":"r","type":"property","componentType":"Transform","propertyName":"position","value":3}]},{"id":2,"children":null,"components":[{"type":"Transform","data":{"position":[]}}]}]}`))
	turned := scene.TRS{Position: scene.Vec3{X: -2.5, Y: 1, Z: 1e-7}, Rotation: scene.Quat{Y: 0.7071067811865476, W: 0.7071067811865476}, Scale: scene.Vec3{X: 0.5, Y: 0.5, Z: 0.5}}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := scene.Parse("fuzz.esscene", src)
		if err != nil {
			return
		}
		inst, plain := int64(-1), int64(-1)
		for i := range d.Entities {
			e := &d.Entities[i]
			switch {
			case e.IsPrefab() && inst < 0:
				inst = e.ID
			case !e.IsPrefab() && plain < 0:
				plain = e.ID
			}
		}
		if inst < 0 || plain < 0 {
			return
		}
		roots := map[int64]string{inst: "r"}
		for _, r := range []Repair{
			{Persist: []int64{inst, plain}, Roots: roots},
			{Moves: []Move{{Entity: inst, Under: plain, Transform: turned, From: scene.Identity, Unpersist: true}}, Roots: roots},
			{Moves: []Move{{Entity: plain, Under: inst, Transform: turned, Unpersist: true}}, Roots: roots},
			{Persist: []int64{inst}, Moves: []Move{{Entity: inst, Under: plain, Transform: turned}}, Roots: map[int64]string{}},
		} {
			res, err := MakeRepair("fuzz.esscene", src, r)
			if err != nil {
				continue
			}
			if _, err := scene.Parse("fuzz.esscene", res.After()); err != nil {
				t.Fatalf("the edit does not parse: %v", err)
			}
		}
	})
}
