package validate

import (
	"fmt"
	"math"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/place"
	"github.com/worldcook/worldcook/manifest"
)

// Model is the model of one scene, built once and checked many times as
// if the scene were edited: worldcook init tries cell sizes and marks
// roots WorldPersistent round after round, and each round checked on the
// model costs a cut of measured numbers (place.Trace) and the rules,
// not an edited scene written, parsed, modelled and placed again.
//
// A check of the model is the check of the scene with a StreamedWorld of
// the cell size asked for and WorldPersistent on the roots asked for
// (TestModelMatchesEditedCheck). The findings about the world as a
// whole, which Check attaches to the StreamedWorld entity
// (nothing-streams, plane-mismatch, no-streaming-source), are made only
// for a model of an edit that adds one (NewModel). A Model is not safe
// for concurrent use.
type Model struct {
	doc   *scene.Document
	opts  Options
	w     *world.World
	tr    *place.Trace
	build *checker // whose resolver the world reads assets with
	// settings is the entity the edit adds, nil for none.
	settings *Settings
	// layout, once a check has measured it, is every check's.
	layout *manifest.Layout
	// spawns is each entity's world.SpawnCount, once asked.
	spawns []int32
}

// spawnCounts is each entity's spawn count (world.World.SpawnCount).
func (m *Model) spawnCounts() []int32 {
	if m.spawns == nil {
		m.spawns = make([]int32, m.w.Len())
		for i := range m.spawns {
			m.spawns[i] = int32(m.w.SpawnCount(int32(i)))
		}
	}
	return m.spawns
}

// Assume is the edit a Model is checked as if it were made.
type Assume struct {
	// CellSize is the StreamedWorld's cellSize; it must be above 0.
	CellSize float64
	// Persistent marks, by entity index, the top-level entities checked
	// as if they carried WorldPersistent.
	Persistent []bool
	// Source says the edit gives an entity an enabled
	// WorldStreamingSource: the world has a source.
	Source bool
}

// Settings is the settings entity an edit adds after the last entity,
// carrying the StreamedWorld.
type Settings struct {
	ID   int64
	Name string
}

// NewModel builds the model of doc for Model.Check, with opts as Check
// takes them (opts.CellSize is Assume's). With settings, the edit adds
// that entity after the last: the findings about the world as a whole
// are attached to it, at no position until the plan is relocated into
// the edited scene (Plan.Relocate), and the ids the engine generates are
// numbered above its id too; the plan's persistent world does not list
// it. The error is Check's.
func NewModel(doc *scene.Document, opts Options, settings *Settings) (*Model, error) {
	opts, err := resolved(doc, opts)
	if err != nil {
		return nil, err
	}
	plane := opts.Plane
	m := &Model{doc: doc, opts: opts, build: &checker{d: doc, opts: opts}, settings: settings}
	var added int64
	if settings != nil {
		added = settings.ID
	}
	w, err := world.Build(doc, world.Options{Components: opts.Components, Prefabs: opts.Prefabs, Resolver: m.build.resolver, Streamed: true, AddedID: added})
	if err != nil {
		return nil, err
	}
	if err := w.Expand(); err != nil {
		return nil, err
	}
	w.Extents() // before the measurers share it
	if m.tr, err = place.Measure(w, place.Options{XY: plane == manifest.PlaneXY}); err != nil {
		return nil, err
	}
	m.w = w
	return m, nil
}

// Check checks the model as if the edit a were made (see Model).
func (m *Model) Check(a Assume) (*Plan, error) {
	if !(a.CellSize > 0) {
		return nil, fmt.Errorf("validate: a model is checked at a cell size above 0, not %v", a.CellSize)
	}
	opts := m.opts
	opts.CellSize = a.CellSize
	c := &checker{
		d:          m.doc,
		opts:       opts,
		xy:         opts.Plane == manifest.PlaneXY,
		plan:       &Plan{Doc: m.doc, SceneName: opts.SceneName, Plane: opts.Plane},
		model:      m,
		persistent: a.Persistent,
		settings:   m.settings,
		source:     a.Source,
	}
	if err := c.run(); err != nil {
		return nil, err
	}
	return c.plan, nil
}

// Targets are the ids the scene's entity references name, those left
// dangling included: an id the edit gives an entity must not be one.
func (m *Model) Targets() []int64 {
	refs := m.w.Refs()
	out := make([]int64, 0, len(refs))
	for _, r := range refs {
		if r.Bad == nil {
			out = append(out, r.Target)
		}
	}
	return out
}

// World is the model's world: its entities, hierarchy, instances and
// what each entity carries, as the checks read them.
func (m *Model) World() *world.World { return m.w }

// modelWorld is the model's world, nil for a Check of a document.
func (c *checker) modelWorld() *world.World {
	if c.model == nil {
		return nil
	}
	return c.model.w
}

// modelResolver is the resolver the model's world was built with, nil for
// a Check of a document.
func (c *checker) modelResolver() *assets.Resolver {
	if c.model == nil {
		return nil
	}
	return c.model.build.resolver()
}

// worldEntity is the entity whose StreamedWorld decides the cell size
// (the first); a model's is the settings entity assumed, the index after
// the last entity (settingsEntity), or none.
func (c *checker) worldEntity() (int32, bool) {
	if ws := c.w.Worlds(); len(ws) > 0 {
		return ws[0], true
	}
	if c.settings != nil {
		return int32(len(c.d.Entities)), true
	}
	return -1, false
}

// settingsEntity reports whether entity index i is a model's assumed
// settings entity, which the document does not hold.
func (c *checker) settingsEntity(i int32) bool {
	return c.settings != nil && int(i) == len(c.d.Entities)
}

// assumedSource reports whether the edit a model is checked under gives
// an entity an enabled source.
func (c *checker) assumedSource() bool {
	return c.model != nil && c.source
}

// EntityOf is the index of the entity finding k of a plan is about:
// for a model's plan (Model.Check), the index after the last entity is
// the settings entity's.
func (p *Plan) EntityOf(k int) int { return int(p.fents[k]) }

// Relocate gives the findings of a model's plan (Model.Check) the
// positions they have in doc, the scene edited as the check assumed: the
// same entities at the same indices, then the settings entity. The plan
// is then doc's.
func (p *Plan) Relocate(doc *scene.Document) {
	for k := range p.Findings {
		f := &p.Findings[k]
		f.File = doc.Path
		f.Line, f.Column, f.LineText = 0, 0, ""
		if k < len(p.fents) && int(p.fents[k]) < len(doc.Entities) {
			locate(doc, int(p.fents[k]), f)
		}
	}
	p.Doc = doc
}

// place cuts the world: a model from its trace, with its assumed
// persistent roots.
func (c *checker) place(opts place.Options) (*place.Placement, error) {
	if c.model == nil {
		return place.Place(c.w, opts)
	}
	opts.Persistent = c.persistent
	return c.model.tr.Place(opts)
}

// Span is the union of the cells' bounds of the model cut as if the
// edit a were made (place.Trace.Span), false when no cell has content.
func (m *Model) Span(a Assume) (Rect, bool, error) {
	if !(a.CellSize > 0) {
		return Rect{}, false, fmt.Errorf("validate: a model is cut at a cell size above 0, not %v", a.CellSize)
	}
	return m.tr.Span(m.placeOptions(a))
}

// placeOptions are the options a model is cut with under a.
func (m *Model) placeOptions(a Assume) place.Options {
	return place.Options{SceneName: m.opts.SceneName, CellSize: a.CellSize, CellsOK: a.CellSize <= math.MaxFloat32,
		XY: m.opts.Plane == manifest.PlaneXY, Levels: m.opts.Levels, Persistent: a.Persistent}
}
