package tune

import (
	"errors"
	"fmt"

	"github.com/worldcook/worldcook/internal/initworld"
)

// Edit is the edit of the scene that makes the recommendation what the
// game runs (tune --diff, --write): the recommended radii on every
// WorldStreamingSource a route drives, where the runtime reads them, and
// the cell size on StreamedWorld when it is not the authored one. name is
// the scene's path in the diff (relative to where it applies from); with
// write the scene is replaced by the result, atomically (never a
// read-only one). The budget and cap have no place in the scene: they
// stay in the yaml snippet.
func (r *Result) Edit(name string, write bool) (*initworld.Result, error) {
	switch {
	case r.Best == nil:
		return nil, errors.New("no candidate is feasible: there is no recommendation to put on the scene")
	case !r.Scene:
		return nil, fmt.Errorf("%s is a cooked world: --diff and --write edit the scene, so tune the scene itself", r.World)
	case len(r.Driven) == 0:
		return nil, fmt.Errorf("%s has no WorldStreamingSource the routes drive to put the radii on; worldcook init gives the main camera one", r.World)
	}
	c := r.Best.Candidate
	edit := initworld.Retune{Sources: r.Driven, Load: c.Load, Unload: c.Unload, Prefetch: c.Prefetch, Name: name}
	if r.Authored != nil && c.CellSize != r.Authored.Candidate.CellSize {
		edit.CellSize = c.CellSize
	}
	return initworld.RetuneFile(r.World, edit, write)
}
