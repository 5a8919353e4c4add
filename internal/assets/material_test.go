package assets

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestDecodeMaterial(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      Material
	}{
		{"imported model", `{"type": "material", "shader": "builtin:model", "properties": {"u_normalMap": "n.png", "u_metallic": 1, "u_emissive": {"r": 1}, "u_emissiveMap": "/assets/e.png"}}`,
			Material{Type: "material", Shader: "builtin:model", Textures: []Found{{"properties.u_emissiveMap", "/assets/e.png"}, {"properties.u_normalMap", "n.png"}}}},
		{"an instance takes its parent's shader", `{"type": "material", "instanceOf": "base.esmaterial", "shader": "x.esshader", "properties": {}}`,
			Material{Type: "material", Parent: "base.esmaterial"}},
		{"an empty instanceOf is none", `{"type": "material", "instanceOf": "", "shader": "x.esshader"}`,
			Material{Type: "material", Shader: "x.esshader"}},
		{"a repeated key takes the last value", `{"type": "material", "properties": {"u_a": "a.png", "u_a": 2, "u_b": 1, "u_b": "b.png"}}`,
			Material{Type: "material", Textures: []Found{{"properties.u_b", "b.png"}}}},
		{"an escaped key is its text", `{"type": "material", "properties": {"u_\u0061": "a.png"}}`,
			Material{Type: "material", Textures: []Found{{"properties.u_a", "a.png"}}}},
		{"non-strings are uniforms", `{"type": "material", "instanceOf": 3, "shader": ["s"], "properties": {"u": [ "a.png" ], "v": null, "w": true}}`,
			Material{Type: "material"}},
		{"properties that are not an object", `{"type": "material", "properties": ["a.png"]}`, Material{Type: "material"}},
		{"not an object", `["a.png"]`, Material{}},
	} {
		got, err := DecodeMaterial([]byte(tc.doc))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got.Type != tc.want.Type || got.Parent != tc.want.Parent || got.Shader != tc.want.Shader || !slices.Equal(got.Textures, tc.want.Textures) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if _, err := DecodeMaterial([]byte(`{"type": "material",`)); err == nil {
		t.Error("a truncated material decoded")
	}
}

// TestMaterialClosure walks the hand-made project of testdata/materials:
// what each material loads, as the engine's material loader loads it.
func TestMaterialClosure(t *testing.T) {
	g := New("testdata/materials", nil, Rules{})
	crate := []string{"assets/models/crate_m0.esmaterial", "assets/models/crate_normal.png", "assets/textures/ao.png", "assets/textures/glow.png"}
	for _, tc := range []struct {
		mat    string
		want   []string
		misses []string // each a part of one miss's message, in order
	}{
		// Every string property, whatever its name: a bare name beside the
		// material, a logical path, a "/" path; builtin: is code, numbers
		// and objects are uniforms, and a repeated key's last value wins.
		{"assets/models/crate_m0.esmaterial", crate, nil},
		// The parent and its textures, the instance's own texture beside
		// it; an instance's shader is its parent's, so its own is not read.
		{"assets/materials/crate_red.esmaterial", append([]string{"assets/materials/crate_red.esmaterial", "assets/materials/red.png"}, crate...), nil},
		// A project shader beside the material; members the loader does
		// not read ("texture") name nothing.
		{"assets/materials/water.esmaterial", []string{"assets/materials/water.esmaterial", "assets/materials/water.esshader", "assets/textures/stone.png"}, nil},
		// A cycle is walked once and reported once, from its smallest path,
		// whichever material leads into it. The engine never finishes
		// loading a material on it or below it: none of their textures
		// (loop_b's red.png) load.
		{"assets/materials/leaf.esmaterial", []string{"assets/materials/leaf.esmaterial", "assets/materials/loop_a.esmaterial", "assets/materials/loop_b.esmaterial"},
			[]string{`"loop_b.esmaterial" (assets/materials/loop_b.esmaterial), referenced by assets/materials/loop_a.esmaterial, leads back to assets/materials/loop_a.esmaterial (instanceOf assets/materials/loop_a.esmaterial → assets/materials/loop_b.esmaterial → assets/materials/loop_a.esmaterial)`}},
		{"assets/materials/loop_b.esmaterial", []string{"assets/materials/loop_a.esmaterial", "assets/materials/loop_b.esmaterial"},
			[]string{"referenced by assets/materials/loop_a.esmaterial, leads back to assets/materials/loop_a.esmaterial"}},
		{"assets/materials/self.esmaterial", []string{"assets/materials/self.esmaterial"},
			[]string{"instanceOf assets/materials/self.esmaterial → assets/materials/self.esmaterial"}},
		// A document that is not a material loads nothing more.
		{"assets/materials/odd.esmaterial", []string{"assets/materials/odd.esmaterial"}, []string{`its "type" is "texture"`}},
		// A missing parent fails the instance's load: its textures are not
		// loaded (nor reported), the parent is.
		{"assets/materials/orphan.esmaterial", []string{"assets/materials/orphan.esmaterial"}, []string{`"assets/materials/gone.esmaterial", referenced by assets/materials/orphan.esmaterial, does not exist`}},
		// So does a parent the loader refuses.
		{"assets/materials/odd_child.esmaterial", []string{"assets/materials/odd.esmaterial", "assets/materials/odd_child.esmaterial"}, []string{`its "type" is "texture"`}},
	} {
		paths, misses := g.Closure([]string{tc.mat})
		slices.Sort(tc.want)
		if !slices.Equal(paths, tc.want) {
			t.Errorf("%s loads\n%q\nwant\n%q", tc.mat, paths, tc.want)
		}
		if len(misses) != len(tc.misses) {
			t.Errorf("%s: misses %+v, want %d", tc.mat, misses, len(tc.misses))
			continue
		}
		for i, m := range misses {
			if !strings.Contains(m.Message(), tc.misses[i]) || strings.Contains(m.Message(), "\n") {
				t.Errorf("%s: miss %q, want it to hold %q", tc.mat, m.Message(), tc.misses[i])
			}
		}
	}
}

// TestMaterialChainBound: a chain of instances longer than the bound is
// walked once, reported at the bound, and costs what it reaches.
func TestMaterialChainBound(t *testing.T) {
	root := t.TempDir()
	const n = MaxMaterialChain + 6
	for i := range n {
		parent := ""
		if i+1 < n {
			parent = fmt.Sprintf(`"instanceOf": "m%03d.esmaterial", `, i+1)
		}
		writeFile(t, root, fmt.Sprintf("assets/m%03d.esmaterial", i), `{"type": "material", `+parent+`"properties": {}}`)
	}
	g := New(root, nil, Rules{})
	paths, misses := g.Closure([]string{"assets/m000.esmaterial"})
	if len(paths) != n {
		t.Errorf("%d materials listed, want %d", len(paths), n)
	}
	if len(misses) != 1 || !strings.Contains(misses[0].Message(), fmt.Sprintf("more than %d materials down an instanceOf chain", MaxMaterialChain)) {
		t.Errorf("misses %+v", misses)
	}
	// From the middle the rest of the chain is within the bound.
	if _, misses := New(root, nil, Rules{}).Closure([]string{"assets/m010.esmaterial"}); len(misses) != 0 {
		t.Errorf("misses from the middle %+v", misses)
	}
}

func TestCodeNamedFields(t *testing.T) {
	r := DefaultRules().compile()
	got, err := Extract([]byte(`{"components": [
		{"type": "BehaviorTreeAgent", "data": {"bt": "patrol"}},
		{"type": "BehaviorTreeAgent", "data": {"bt": "assets/ai/guard.esbt"}},
		{"type": "StateMachineAgent", "data": {"fsm": "aaaaaaaa-0000-4000-8000-000000000001"}},
		{"type": "StateMachineAgent", "data": {"fsm": "enemy"}},
		{"type": "Animator", "data": {"controller": "hero"}},
		{"type": "Animator", "data": {"controller": "assets/a/hero.esanimator"}},
		{"type": "SpriteAnimator", "data": {"clip": "assets/a/coin.esanim"}},
		{"type": "SpineAnimation", "data": {"skeletonPath": "s.json", "atlasPath": "s.atlas"}}],
		"overrides": [{"type": "property", "componentType": "BehaviorTreeAgent", "propertyName": "bt", "value": "chase"}]}`), r.fields, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Found{
		{"Animator.controller", "assets/a/hero.esanimator"},
		{"BehaviorTreeAgent.bt", "assets/ai/guard.esbt"},
		{"SpineAnimation.atlasPath", "s.atlas"},
		{"SpineAnimation.skeletonPath", "s.json"},
		{"SpriteAnimator.clip", "assets/a/coin.esanim"},
		{"StateMachineAgent.fsm", "aaaaaaaa-0000-4000-8000-000000000001"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Extract =\n%q\nwant\n%q", got, want)
	}
}
