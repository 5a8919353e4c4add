package assets

import (
	"slices"
	"strings"
	"testing"
)

// TestComponentRules: what the engine's own discovery of a component
// loads, through both readers of component data (a scene entity's
// components one by one, and a record's components list).
func TestComponentRules(t *testing.T) {
	g := New(t.TempDir(), nil, Rules{})
	for _, tc := range []struct {
		name, typ, data string
		want            []Found
	}{
		{"a skeleton with its atlas", "SpineAnimation", `{"skeletonPath": "s.json", "atlasPath": "s.atlas", "material": ""}`,
			[]Found{{"SpineAnimation.atlasPath", "s.atlas"}, {"SpineAnimation.skeletonPath", "s.json"}}},
		{"a skeleton without its atlas loads nothing", "SpineAnimation", `{"skeletonPath": "s.json", "atlasPath": ""}`, nil},
		{"an atlas alone loads nothing", "DragonBonesAnimation", `{"atlasPath": "@uuid:aaaaaaaa-0000-4000-8000-000000000001"}`, nil},
		{"the pair's material still loads", "DragonBonesAnimation", `{"skeletonPath": "d.json", "material": "m.esmaterial"}`,
			[]Found{{"DragonBonesAnimation.material", "m.esmaterial"}}},
		{"a tileset list replaces the single tileset", "TilemapLayer", `{"tileset": "t.png", "tilesetAsset": "old.estileset", "tilesetAssets": ["a.estileset", "b.estileset"]}`,
			[]Found{{"TilemapLayer.tileset", "t.png"}, {"TilemapLayer.tilesetAssets", "a.estileset"}, {"TilemapLayer.tilesetAssets", "b.estileset"}}},
		{"an empty list leaves the single tileset", "TilemapLayer", `{"tilesetAsset": "old.estileset", "tilesetAssets": []}`,
			[]Found{{"TilemapLayer.tilesetAsset", "old.estileset"}}},
		{"a list of no names still replaces it", "TilemapLayer", `{"tilesetAsset": "old.estileset", "tilesetAssets": [""]}`, nil},
		{"effect textures", "PostProcessVolume", `{"effects": [{"type": "lut", "uniforms": {"u_strength": 1}, "textures": {"u_lut": "assets/lut.png", "u_mask": ""}},
			{"type": "vignette"}, {"type": "grain", "textures": {"u_noise": "@uuid:aaaaaaaa-0000-4000-8000-000000000002", "u_n": 3}}], "isGlobal": true}`,
			[]Found{{"PostProcessVolume.effects.textures.u_lut", "assets/lut.png"}, {"PostProcessVolume.effects.textures.u_noise", "@uuid:aaaaaaaa-0000-4000-8000-000000000002"}}},
	} {
		got := g.ComponentRefs(tc.typ, []byte(tc.data))
		slices.SortFunc(got, func(a, b Found) int {
			if a.Field != b.Field {
				return strings.Compare(a.Field, b.Field)
			}
			return strings.Compare(a.Value, b.Value)
		})
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: ComponentRefs =\n%q\nwant\n%q", tc.name, got, tc.want)
		}
		rec := `{"components": [{"type": "` + tc.typ + `", "data": ` + tc.data + `}]}`
		if got, _ := g.Refs([]byte(rec)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Refs =\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
}
