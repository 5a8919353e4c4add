package validate

import "github.com/worldcook/worldcook/scene"

// What a component makes of its entity for a streamed world, beyond where
// it sits: a few kinds of entity serve the whole world and must not
// unload with a cell. The rules that report them placed in a cell, and
// worldcook init that marks their roots WorldPersistent, share these.

// Light2D kinds that apply scene-wide (the engine's Light2DType): a
// directional light shines along its rotation wherever it sits, an
// ambient light adds a flat term to every lit pixel.
const (
	light2DDirectional = 1
	light2DAmbient     = 2
)

// GlobalLight reports whether c lights the whole scene from wherever it
// sits: a Light2D of type 1 (directional) or 2 (ambient). Point and spot
// lights (0, 3, and the default 0 when type is absent) light their
// neighbourhood and may stream with it.
func GlobalLight(c scene.Component) bool {
	if c.Type != "Light2D" {
		return false
	}
	v, ok := scene.Field(c.Data, "type")
	if !ok {
		return false
	}
	f, err := scene.Float(v)
	return err == nil && (f == light2DDirectional || f == light2DAmbient)
}

// StreamingSource reports whether c asks for cells to exist around its
// entity: a WorldStreamingSource. A source in a cell would unload with
// the cell it keeps loaded, and the entity it rides on with it.
func StreamingSource(c scene.Component) bool { return c.Type == "WorldStreamingSource" }
