package validate

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/camera"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/place"
	"github.com/worldcook/worldcook/manifest"
)

// DefaultCellSize is StreamedWorld.cellSize when the field is absent (the
// engine's default).
const DefaultCellSize = 1000

// Per-entity flags, the model's (world.Flag).
const (
	fTransform     = world.Transform
	fPersistent    = world.Persistent
	fStreamedWorld = world.StreamedWorld
	fSource        = world.Source
	fExtent        = world.Extent
	fHasKids       = world.HasKids
	fNeedPos       = world.NeedPos
	fPrefab        = world.Prefab
	fCanvas        = world.Canvas
	fCamera        = world.Camera
	fTypo          = world.Misspelt
	fGlobalLight   = world.GlobalLight
)

// checker holds the state of one Check call: the rules read the model of
// the world (w) and its placement, and write findings.
type checker struct {
	d    *scene.Document
	opts Options
	plan *Plan
	xy   bool

	w *world.World
	// flags, parent and root are the model's arrays (w.FlagWords, ...),
	// read only.
	flags  []world.Flag
	parent []int32
	root   []int32

	res *assets.Resolver // the one resolver of asset references (resolver())

	// pl is a streamed world's placement: each entity's cell (-1 for the
	// persistent world) and the positions the rules want.
	pl       *place.Placement
	cellSize float64
	cams     []camera.Camera // the spawned cameras (collectViews)

	fents []int32 // entity index of each finding

	// model, when set, is the model checked (Model.Check), with the
	// roots persistent marks as if they carried WorldPersistent.
	model      *Model
	persistent []bool
	settings   *Settings
	source     bool
}

// Check partitions doc into its persistent world and cells, grows each
// cell's bounds over its content and checks the rules of a streamed world.
// Rule violations are Findings of the Plan. The error is for input that
// makes a plan impossible: a malformed Transform or overrides list (a
// *scene.Error naming the file, line, entity and field) or bad options.
//
// A scene without StreamedWorld yields Plan{Streamed: false}: only its
// structure (ids, hierarchy, references) is checked.
func Check(doc *scene.Document, opts Options) (*Plan, error) {
	opts, err := resolved(doc, opts)
	if err != nil {
		return nil, err
	}
	c := &checker{
		d:    doc,
		opts: opts,
		xy:   opts.Plane == manifest.PlaneXY,
		plan: &Plan{Doc: doc, SceneName: opts.SceneName, Plane: opts.Plane},
	}
	if err := c.run(); err != nil {
		return nil, err
	}
	return c.plan, nil
}

// resolved checks that there is a document and fills in what opts leave
// to it: the plane parsed, the scene's name from its file.
func resolved(doc *scene.Document, opts Options) (Options, error) {
	if doc == nil {
		return opts, fmt.Errorf("validate: no document")
	}
	plane, err := manifest.ParsePlane(opts.Plane)
	if err != nil {
		return opts, err
	}
	opts.Plane = plane
	if opts.SceneName == "" {
		opts.SceneName = strings.TrimSuffix(filepath.Base(doc.Path), SceneExt)
	}
	return opts, nil
}

func (c *checker) run() error {
	w := c.modelWorld()
	if w == nil {
		var err error
		if w, err = world.Build(c.d, world.Options{Components: c.opts.Components, Prefabs: c.opts.Prefabs, Resolver: c.resolver}); err != nil {
			return err
		}
	}
	c.w, c.plan.world = w, w
	c.flags, c.parent, c.root = w.FlagWords(), w.Parents(), w.Roots()
	c.structure()
	if w.Streamed() {
		if err := c.partition(); err != nil {
			return err
		}
	}
	c.checkRefs()
	if c.plan.Streamed {
		c.collectSources()
		c.collectViews()
	}
	c.runRules(phaseScene)
	if c.plan.Streamed {
		c.runRules(phaseWorld)
		c.runCellRules()
		c.spawnCounts()
		c.collectAssets()
	}
	c.finish()
	return nil
}
