package simulate

import (
	"github.com/worldcook/worldcook/streaming"
)

// NewStream computes the shared stream of o's route over world under o's
// policy (streaming.NewStream): the sources bound as the policy binds
// them, every cell within radius of them in each frame. Runs of o's
// route over world under that policy, whatever their radii (up to
// radius), budget and cap, may share it (Options.Stream). It declines
// (streaming.ErrStreamTooLarge) a stream of more than limit distances.
func NewStream(world *streaming.World, o Options, radius float64, limit int) (*streaming.Stream, error) {
	route := o.Parsed
	if route == nil {
		var err error
		if route, err = streaming.ReadRoute(o.Route); err != nil {
			return nil, err
		}
	}
	bound, frames, p, err := o.shared(world, route)
	if err != nil {
		return nil, err
	}
	return streaming.NewStream(world, bound, frames, radius, p, limit)
}

// shared binds route as o's policy binds it for a shared stream: the
// sources, the frames its scheduler steps and the stream's policy.
func (o Options) shared(world *streaming.World, route *streaming.Route) ([]streaming.Source, [][]streaming.Point, streaming.StreamPolicy, error) {
	if o.policy() == Estella {
		sources := world.RuntimeSources
		if sources == nil {
			sources = world.Sources
		}
		bound, sampled, err := o.bind(route, sources, world.View, world.Plane, true)
		return bound, sampled, streaming.StreamPolicy{Runtime: true}, err
	}
	bound, frames, err := o.bind(route, world.Sources, world.View, world.Plane, false)
	return bound, frames, streaming.StreamPolicy{Distance: o.Settings.Distance}, err
}
