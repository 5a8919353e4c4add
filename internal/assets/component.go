package assets

import (
	"github.com/worldcook/worldcook/internal/scene"
)

// This file holds what the engine's components say about their own assets
// beyond their reference fields: some components list their assets with a
// discovery of their own, which the engine's scene preload follows instead
// of the plain fields.

// Skeletal components (SpineAnimation, DragonBonesAnimation) name their
// skeleton and atlas as a pair: the engine loads the pair only when both
// are set, and neither when one is empty.
const (
	SkeletonField = "skeletonPath"
	AtlasField    = "atlasPath"
)

// componentKeys are keys whose presence makes a component worth walking
// although they are no reference fields: a PostProcessVolume's effect
// textures.
var componentKeys = map[string]bool{"textures": true}

// applyComponentRules adjusts found, the references extracted from the
// data of one component of type typ whose fields are named prefix+".f",
// to what the engine's discovery of that component loads.
func applyComponentRules(typ string, data []byte, prefix string, found []Found) []Found {
	if !bothSet(data, SkeletonField, AtlasField) {
		found = drop(found, prefix+"."+SkeletonField, prefix+"."+AtlasField)
	}
	switch typ {
	case "TilemapLayer":
		// A non-empty tilesetAssets list replaces the single tilesetAsset
		// of older layers, whatever the list holds.
		if v, ok := scene.Field(data, "tilesetAssets"); ok && scene.KindOf(v) == scene.Array && hasElement(v) {
			found = drop(found, prefix+".tilesetAsset")
		}
	case "PostProcessVolume":
		// Each effect's textures (sampler uniform → texture) preload with
		// the scene, whatever the uniform is called.
		effects, ok := scene.Field(data, "effects")
		if !ok || scene.KindOf(effects) != scene.Array {
			break
		}
		scene.Each(effects, func(eff []byte) bool {
			tex, ok := scene.Field(eff, "textures")
			if !ok || scene.KindOf(tex) != scene.Object {
				return true
			}
			scene.Members(tex, func(k, v []byte) bool {
				if scene.KindOf(v) != scene.String {
					return true
				}
				s, err := scene.Str(v)
				if err != nil || s == "" {
					return true
				}
				name := string(k)
				if n, err := scene.Str(append(append([]byte{'"'}, k...), '"')); err == nil {
					name = n
				}
				f := Found{Field: prefix + ".effects.textures." + name, Value: s}
				for _, g := range found {
					if g == f {
						return true
					}
				}
				found = append(found, f)
				return true
			})
			return true
		})
	}
	return found
}

// bothSet reports whether the keys a and b of obj both hold a non-empty
// string.
func bothSet(obj []byte, a, b string) bool {
	return nonEmpty(obj, a) && nonEmpty(obj, b)
}

func nonEmpty(obj []byte, key string) bool {
	v, ok := scene.Field(obj, key)
	if !ok || scene.KindOf(v) != scene.String {
		return false
	}
	s, err := scene.Str(v)
	return err == nil && s != ""
}

func hasElement(arr []byte) bool {
	found := false
	scene.Each(arr, func([]byte) bool { found = true; return false })
	return found
}

// drop removes from found the references held by the given fields.
func drop(found []Found, fields ...string) []Found {
	out := found[:0]
	for _, f := range found {
		keep := true
		for _, d := range fields {
			if f.Field == d {
				keep = false
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}
