package validate

import (
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
)

// What a component makes of its entity for a streamed world, beyond where
// it sits: a few kinds of entity serve the whole world and must not
// unload with a cell. The rules that report them placed in a cell, and
// worldcook init that marks their roots WorldPersistent, share these.

// GlobalLight reports whether c lights the whole scene from wherever it
// sits (the rule global-light-in-cell applies, globalLight).
func GlobalLight(c scene.Component) bool {
	return world.IsGlobalLight(c)
}

// StreamingSource reports whether c asks for cells to exist around its
// entity: a WorldStreamingSource. A source in a cell would unload with
// the cell it keeps loaded, and the entity it rides on with it.
func StreamingSource(c scene.Component) bool { return c.Type == "WorldStreamingSource" }
