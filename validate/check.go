package validate

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/camera"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
)

// DefaultCellSize is StreamedWorld.cellSize when the field is absent (the
// engine's default).
const DefaultCellSize = 1000

// Per-entity flags, set by the passes below. One small word per entity
// keeps a world of millions of entities cheap to describe.
const (
	fTransform     uint32 = 1 << iota // carries a Transform
	fPersistent                       // carries WorldPersistent
	fStreamedWorld                    // carries StreamedWorld
	fSource                           // carries WorldStreamingSource
	fRefs                             // carries a component with declared reference fields
	fExtent                           // carries a component with a spatial extent
	fHasKids                          // some entity names it as parent
	fListed                           // its parent's children list names it
	fOnPath                           // on the parent chain being walked
	fDone                             // placed in the topological order
	fNeedPos                          // its world position is wanted (sources, reference ends)
	fPrefab                           // a prefab-instance entry
	fNonFinite                        // a non-finite world point was already reported
	fCanvas                           // carries Canvas or UICanvas
	fCamera                           // carries Camera
	fTypo                             // carries a component named like a misspelt streaming component
	fGlobalLight                      // its first Light2D lights the whole scene (globalLight)
)

// ref is one entity reference: a single field's value or one list element.
type ref struct {
	from   int32
	elem   int32 // list index, -1 for a single field
	target int64
	comp   string
	field  string
	// peid is set for a prefab instance's property override: the prefab
	// entity the override edits.
	peid string
	// bad holds a value that is not an entity id (5.5, 1e400).
	bad []byte
	// path names the expanded instance entity that holds the reference
	// ("House#12/Wing").
	path string
}

// checker holds the state of one Check call.
type checker struct {
	// extentMisses are the asset references of entities outside instances
	// whose box the extents could not read (instances keep theirs in
	// their templates); reportAssets turns them into findings.
	extentMisses []assetMiss

	d     *scene.Document
	opts  Options
	plan  *Plan
	table *fieldTable
	xy    bool

	parent []int32 // parent index, -1 for top-level entities (after cuts)
	root   []int32
	order  []int32 // parents before children
	flags  []uint32
	// cls holds the flags classify sets (what each entity carries, which
	// positions are wanted) while the structural passes set theirs in
	// flags; run merges them.
	cls []uint32
	// blockRefs holds the references componentFlags collected, per block
	// of entities, for classify to gather in authored order.
	blockRefs [][]ref

	refs    []ref
	sources []int32
	worlds  []int32 // entities carrying StreamedWorld, authored order
	canvas  int32
	ppu     float64

	prefabIdx []int32          // prefab-instance entries, authored order
	inst      []instance       // their placement, parallel to prefabIdx (streamed only)
	instAt    []int32          // entity index → 1 + index in prefabIdx (streamed, with prefabs)
	prefabs   *Prefabs         // prefab reader, set when a streamed world is partitioned
	res       *assets.Resolver // the one resolver of asset references (resolver())
	gen       []genRange       // ids the engine generates for instance internals
	maxID     int64            // the document's highest id (once genDone)
	genDone   bool
	expanded  bool // some instance is expanded

	cellSize float64
	cellsOK  bool
	doc      []int32 // -1 persistent, else cell index
	cells    []cellAcc
	pos      map[int32]scene.Vec3 // world positions of fNeedPos entities
	cams     []camera.Camera      // the spawned cameras (collectViews)

	fents []int32 // entity index of each finding
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
	if doc == nil {
		return nil, fmt.Errorf("validate: no document")
	}
	plane, err := manifest.ParsePlane(opts.Plane)
	if err != nil {
		return nil, err
	}
	opts.Plane = plane
	if opts.SceneName == "" {
		opts.SceneName = strings.TrimSuffix(filepath.Base(doc.Path), SceneExt)
	}
	c := &checker{
		d:      doc,
		opts:   opts,
		table:  newFieldTable(opts.Components),
		xy:     opts.Plane == manifest.PlaneXY,
		canvas: -1,
		ppu:    defaultPPU,
		plan:   &Plan{Doc: doc, SceneName: opts.SceneName, Plane: opts.Plane},
	}
	if err := c.run(); err != nil {
		return nil, err
	}
	return c.plan, nil
}

func (c *checker) run() error {
	n := len(c.d.Entities)
	c.flags = make([]uint32, n)
	c.cls = make([]uint32, n)
	c.parent = make([]int32, n)
	c.plan.cut = make([]bool, n)
	// Reading which components each entity carries needs only the
	// components and the structural passes only the ids, parents and
	// children, and each writes its own flag words: on a large world a
	// second goroutine starts on the components while this one checks the
	// structure and then joins it. What the flags call for is then
	// collected in authored order.
	var next atomic.Int64
	c.blockRefs = make([][]ref, (n+classifyBlock-1)/classifyBlock)
	if placerCount(n) > 1 {
		done := make(chan struct{})
		go func() {
			defer close(done)
			c.componentFlags(&next)
		}()
		c.structure()
		c.componentFlags(&next)
		<-done
	} else {
		c.structure()
		c.componentFlags(&next)
	}
	if err := c.classify(); err != nil {
		return err
	}
	for i, fl := range c.cls {
		c.flags[i] |= fl
	}
	c.cls = nil
	if len(c.worlds) > 0 {
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
