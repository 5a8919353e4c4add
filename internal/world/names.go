package world

import (
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// What some components make of their entity, read with the components:
// a light that lights the whole scene, a component whose name misspells
// a streaming component (the engine knows a component by its exact name:
// "StreamWorld" or "WorldPersistant" is data no system reads).

// GlobalLightKind names the type of a Light2D the renderer applies to the
// whole scene (RenderFrame's collectLights): directional (type 1) or
// ambient (type 2, a flat term or its environment). "" for point (0) and
// spot (3) lights, which light around their position, and for a disabled
// light, which lights nothing. The type is read first: most lights are
// point lights, whose "enabled" flag (often after a colour) need not be
// looked for.
func GlobalLightKind(data []byte) string {
	tv, _, _ := geometry.Members3(data, "type", "", "")
	var kind string
	switch geometry.Num(tv, 0) {
	case 1:
		kind = "1 (directional)"
	case 2:
		kind = "2 (ambient)"
	default:
		return ""
	}
	if !geometry.Enabled(data) {
		return ""
	}
	return kind
}

// IsGlobalLight reports whether c lights the whole scene from wherever
// it sits.
func IsGlobalLight(c scene.Component) bool {
	return c.Type == "Light2D" && GlobalLightKind(c.Data) != ""
}

// streamingComponents are the names a near miss is checked against.
var streamingComponents = [...]string{"StreamedWorld", "WorldPersistent", "WorldStreamingSource"}

// maxTypoDistance is the largest edit distance that counts as a misspelling.
const maxTypoDistance = 2

// IntendedComponent returns the streaming component typ is a misspelling
// of: within maxTypoDistance edits (insertions, deletions, substitutions
// and transpositions of adjacent letters) and not the name itself. "" when
// typ is none.
func IntendedComponent(typ string) string {
	for _, want := range streamingComponents {
		if typ == want {
			return ""
		}
	}
	for _, want := range streamingComponents {
		if d := len(typ) - len(want); d > maxTypoDistance || d < -maxTypoDistance {
			continue
		}
		if editDistance(typ, want, maxTypoDistance) <= maxTypoDistance {
			return want
		}
	}
	return ""
}

// editDistance is the optimal-string-alignment distance between a and b
// (byte-wise), or limit+1 once it is known to exceed limit.
func editDistance(a, b string, limit int) int {
	// Three rows of at most len(b)+1 cells: the names are short.
	var buf [3][64]int
	if len(b) >= len(buf[0]) {
		return limit + 1
	}
	prev2, prev, cur := buf[0][:len(b)+1], buf[1][:len(b)+1], buf[2][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// TypoCache remembers, per component type met, the streaming component
// it misspells ("" for none), so a world of many entities computes each
// distance once per name. One per goroutine.
type TypoCache map[string]string

func (tc TypoCache) Intended(typ string) string {
	// Lengths outside every name's reach are not cached: most types are.
	if len(typ) < len("StreamedWorld")-maxTypoDistance || len(typ) > len("WorldStreamingSource")+maxTypoDistance {
		return ""
	}
	want, ok := tc[typ]
	if !ok {
		want = IntendedComponent(typ)
		tc[typ] = want
	}
	return want
}
