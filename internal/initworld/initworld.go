// Package initworld makes an authored Estella scene a streamed world, the
// first step before cook: it adds a StreamedWorld settings entity with a
// cell size, marks WorldPersistent the top-level entities that must not
// unload with a cell (cameras, UI roots, scene-wide lights, streaming
// sources and what they ride on, and roots a hard reference binds to
// them or across a cell border), and, when the scene has no streaming
// source, gives its main camera one.
//
// Which roots need marking is decided by validate itself: the scene is
// checked as the edit makes it, and the roots its findings name are
// marked, until it checks clean of them. The checks are of one model of
// the scene (validate.Model), parsed, modelled and measured once, so that
// init costs about what validating the result does; the edited scene is
// made only to be written. Every edit is an insertion into the authored
// text (edit.go), so the result keeps every byte of the scene; it is
// shown as a unified diff (diff.go) and written, on request, atomically
// (write.go).
package initworld

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/internal/camera"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/place"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// Options configure Make.
type Options struct {
	// CellSize is the cell size to write; 0 chooses one from the scene's
	// extent (ChooseCellSize).
	CellSize float64
	// Plane is the partition plane, manifest.PlaneXZ (default) or
	// manifest.PlaneXY: it decides which two axes the extent and the
	// cells span.
	Plane string
	// Check configures the validation of the edited scene (project
	// components, asset folders); its Plane is set from Plane.
	Check validate.Options

	// release hands back the pages of a mapped scene the parse is done
	// with (Run).
	release func(from, to int)
}

// Mark is one root marked WorldPersistent, or the camera given a source.
type Mark struct {
	Entity int64
	Name   string
	// Why says what it is or what binds it: "camera", "UI root",
	// "scene-wide light", "streaming source", or the hard reference.
	Why string
}

// Result is what Make decided, and the scene before and after.
type Result struct {
	File string
	// Streamed is set when the scene already is a streamed world: Make
	// changes nothing (After is Before, Diff is empty).
	Streamed bool
	// CellSize is the StreamedWorld cellSize written; Chosen when it was
	// chosen (from View, else from Extent) rather than given.
	CellSize float64
	Chosen   bool
	// View is what the camera of the scene's first enabled source shows
	// (else its main camera's), as validate reads it; nil without a
	// camera. With a view, the cell size is chosen so that the view spans
	// about 2×2 cells, and the source init adds wants every cell it shows.
	View *manifest.View
	// Radii are the radii of the source init adds (zero when it adds
	// none): load, unload, prefetch.
	Radii [3]float64
	// Extent is the extent on the partition plane of what streams, as
	// validate bounds it, when the size was chosen; Empty (and Extent
	// zero) when nothing streams or what does is one point.
	Extent validate.Rect
	Empty  bool
	// Plane is the plane the cells are cut on (manifest.PlaneXZ or
	// PlaneXY).
	Plane string
	// World is the id of the settings entity added.
	World int64
	// Persistent are the roots marked WorldPersistent, in authored order.
	Persistent []Mark
	// Source is the camera given a WorldStreamingSource, nil when the
	// scene has a source already (or no camera to carry one).
	Source *Mark
	// Notes name what Make could not fix by marking roots, one line each
	// (the file, line and column, the entity and how to fix it): the
	// errors and role findings validate still reports on the result.
	Notes []string
	// Errors counts the errors validate reports on the result.
	Errors int
	// Mismatch says the result is laid out on the other plane than it is
	// cut on: Notes hold validate's plane-mismatch, which says more than
	// a thin extent does.
	Mismatch bool

	// Before is the scene as read; After makes the scene as edited.
	Before []byte
	// Diff is the unified diff from Before to After, with a/ and b/
	// prefixes on the scene's path as DiffPath says.
	Diff []byte
	// ApplyIn is the folder the diff applies in when it is not where the
	// command ran ("" when it is): the scene's own, for a scene outside
	// the working directory.
	ApplyIn string

	ins []insertion
}

// After is the scene as edited: Before with the edit made (Before itself
// when there is none; nil for Run's result, which keeps no text). It is
// made when asked for: Write streams it.
func (r *Result) After() []byte {
	if len(r.ins) == 0 {
		return r.Before
	}
	return apply(r.Before, slices.Clone(r.ins))
}

// WriteAfter writes the scene as edited (After) to w, without holding it.
func (r *Result) WriteAfter(w io.Writer) error {
	return writeApplied(w, r.Before, sortedIns(r.ins))
}

// sortedIns is ins sorted by At (stable), as apply makes them.
func sortedIns(ins []insertion) []insertion {
	ins = slices.Clone(ins)
	slices.SortStableFunc(ins, func(a, b insertion) int { return a.At - b.At })
	return ins
}

// The radii a new streaming source gets without a view, in cells: the
// cells around it load, and prefetch and unload half a cell further out,
// the ratios of the engine's default radii (2000 / 3000 / 3000). With a
// view (radiiFor) the load radius is the view's reach and a cell, the
// others a cell beyond it.
const (
	loadCells     = 1
	prefetchCells = 1.5
	unloadCells   = 1.5
)

// radiiFor are the load, unload and prefetch radii of a source whose
// camera shows view, at cell size s: the load radius covers every cell the
// view touches (its reach: a rectangle's half-diagonal, a disc's radius)
// and a cell more, which the source crosses before the view does;
// prefetch and unload reach a cell beyond it. Each is rounded up to three
// significant digits.
func radiiFor(view *manifest.View, s float64) [3]float64 {
	if view == nil {
		return [3]float64{s * loadCells, s * unloadCells, s * prefetchCells}
	}
	load := ceil3(reach(view) + s)
	far := ceil3(load + s)
	return [3]float64{load, far, far}
}

// reach is how far from its source a view reaches.
func reach(v *manifest.View) float64 {
	if v.Projection == manifest.Perspective {
		return v.Distance
	}
	return math.Hypot(v.Width/2, v.Height/2)
}

// ceil3 rounds r > 0 up to three significant digits (a radius to read,
// never below r).
func ceil3(r float64) float64 {
	if !(r > 0) || math.IsInf(r, 0) {
		return r
	}
	step := math.Pow(10, math.Floor(math.Log10(r))-2)
	c, _ := strconv.ParseFloat(strconv.FormatFloat(math.Ceil(r/step-1e-9)*step, 'g', 12, 64), 64)
	if c < r {
		c, _ = strconv.ParseFloat(strconv.FormatFloat(c+step, 'g', 12, 64), 64)
	}
	return c
}

// viewCellSize is the cell size over which view spans about 2×2 cells:
// half the geometric mean of a rectangle's sides, a disc's radius,
// rounded as ChooseCellSize rounds.
func viewCellSize(v *manifest.View) float64 {
	side := v.Distance
	if v.Projection == manifest.Orthographic {
		side = math.Sqrt(v.Width*v.Height) / 2
		if math.IsInf(side, 0) {
			// Sides near the float range overflow their product.
			side = math.Sqrt(v.Width) * math.Sqrt(v.Height) / 2
		}
	}
	if !(side > 0) || math.IsInf(side, 0) {
		return validate.DefaultCellSize
	}
	return min(maxCellSize, max(1, readable(side)))
}

// modelRounds has the rounds before the last check the scene's model
// (validate.Model) rather than the edited scene; a test turns it off to
// prove the result the same (TestModelRoundsMatchEditRounds).
var modelRounds = true

// worldName names the settings entity init adds.
const worldName = "StreamedWorld"

// Make returns the edit that makes the scene in src (read from file) a
// streamed world. A scene that does not parse is an error (a
// *scene.Error naming file, line and column).
func Make(file string, src []byte, opts Options) (*Result, error) {
	plane, err := manifest.ParsePlane(opts.Plane)
	if err != nil {
		return nil, err
	}
	if opts.CellSize < 0 || math.IsNaN(opts.CellSize) || math.IsInf(opts.CellSize, 0) {
		return nil, fmt.Errorf("cell size %v is not a positive number; pass a size such as 100", opts.CellSize)
	}
	if opts.CellSize > math.MaxFloat32 {
		return nil, fmt.Errorf("cell size %v is beyond the 32-bit float range the engine keeps cellSize in; pass at most %v", opts.CellSize, maxCellSize)
	}
	doc, err := scene.ParseWith(file, src, scene.Options{Release: opts.release})
	if err != nil {
		return nil, err
	}
	r := &Result{File: file, Before: src, Plane: plane}
	if streamed(doc) {
		r.Streamed = true
		return r, nil
	}
	m := &maker{d: doc, opts: opts, r: r, marks: map[int]string{}}
	m.opts.Plane = plane
	m.opts.Check.Plane = plane
	// The settings entity's id must name nothing yet: no entity, and no
	// child, parent or entity reference left dangling, which it would
	// then resolve to. The references are the world's to read.
	r.World = freeID(doc, nil)
	model, err := validate.NewModel(doc, m.opts.Check, &validate.Settings{ID: r.World, Name: worldName})
	if err != nil {
		return nil, err
	}
	if id := freeID(doc, model.Targets()); id != r.World {
		r.World = id
		if model, err = validate.NewModel(doc, m.opts.Check, &validate.Settings{ID: r.World, Name: worldName}); err != nil {
			return nil, err
		}
	}
	if modelRounds {
		m.model = model
	}

	// Roles first: whether a root must be persistent because of what it
	// is does not depend on the cell size, and what it leaves streaming
	// is what the cell size is chosen for.
	r.CellSize = opts.CellSize
	if r.CellSize == 0 {
		r.CellSize = validate.DefaultCellSize
	}
	// A scene that cannot have a source (it writes none and has no
	// prefab instance to hold one) gets one on its main camera, which the
	// first check then reads: the view it shows, and the roles. Its
	// marks are then not checked again at this size: the extent is
	// measured with them (extent), and the references are checked with
	// them at the cell size chosen.
	early := !m.mayHaveSource() && m.camera(nil, false)
	plan, news, err := m.round(r.CellSize, false)
	if err != nil {
		return nil, err
	}
	if early && (plan.View == nil || plan.View.Camera != m.d.Entities[m.cam].ID) {
		// validate reads another main camera: the source goes there,
		// and the marks are checked with it.
		early, m.set = false, false
		if len(plan.Sources) == 0 && m.camera(plan, true) {
			news = true
		}
		if news {
			if plan, err = m.settle(r.CellSize, false); err != nil {
				return nil, err
			}
		}
	} else if early {
		m.mark(m.cam, "carries the streaming source")
	} else {
		if len(plan.Sources) == 0 && m.camera(plan, true) {
			// The roles marked so far are checked with the source.
			news = true
		}
		if news {
			if plan, err = m.settle(r.CellSize, false); err != nil {
				return nil, err
			}
		}
	}
	m.view = sourceView(plan)
	if v := m.view; m.model != nil && m.set && v != nil && v == plan.View && v.Camera == m.d.Entities[m.cam].ID {
		// The model has not the source init adds: its view is the main
		// camera's, which the source shows as its own (validate reads a
		// Camera on the source's entity first).
		own := *v
		own.Via = "own"
		m.view = &own
	}
	r.View = m.view
	if opts.CellSize == 0 {
		ext, ok, err := m.extent(plan, early)
		if err != nil {
			return nil, err
		}
		if ok {
			r.Extent = ext
		}
		r.Empty = !ok
		r.CellSize, r.Chosen = ChooseCellSize(ext, ok), true
		if m.view != nil {
			// What the player sees decides: a view of about 2×2 cells.
			r.CellSize = viewCellSize(m.view)
		}
	}
	// Then the references the cut at that size would break.
	if plan, err = m.settle(r.CellSize, true); err != nil {
		return nil, err
	}
	if m.model != nil {
		// The model was checked as the edit makes the scene: what is
		// reported of it gets the position it has in the edited scene,
		// which is made only when written (Result.After).
		m.model, m.last = nil, nil
		plan.ReleaseWorld()
		if err := m.relocate(plan); err != nil {
			return nil, err
		}
	}
	m.finish(plan)
	if m.set {
		r.Radii = radiiFor(m.view, r.CellSize)
	}
	return r, nil
}

// streamed reports whether an entity of d carries StreamedWorld. It reads
// every component of every entity, so it looks at a type's first byte
// before comparing the whole: "BoxCollider3D" is as long as
// "StreamedWorld", and a million of them would each cost a compare.
func streamed(d *scene.Document) bool {
	const typ = "StreamedWorld"
	for i := range d.Entities {
		for _, c := range d.Components(i) {
			if len(c.Type) == len(typ) && c.Type[0] == typ[0] && c.Type == typ {
				return true
			}
		}
	}
	return false
}

// sourceView is the view of the first enabled source's camera, else the
// main camera's.
func sourceView(p *validate.Plan) *manifest.View {
	for _, s := range p.Sources {
		if s.Enabled && s.View != nil {
			return s.View
		}
	}
	return p.View
}

// maker holds the state of one Make call.
type maker struct {
	d    *scene.Document
	opts Options
	r    *Result
	// marks are the roots to mark WorldPersistent (entity index → why);
	// cam is the camera to give a source, -1 for none.
	marks map[int]string
	cam   int
	set   bool
	// view is what the source's camera shows, once known (sourceView).
	view *manifest.View
	// last is the plan of the last edit checked (check), lastIns that
	// edit.
	last    *validate.Plan
	lastIns []insertion
	// model is the scene's model, which the rounds check as the edit
	// would make it (validate.Model) until the last, which checks the
	// edit itself; nil then.
	model *validate.Model
}

// root returns the top-level entity whose subtree holds entity i, as the
// model of the world validate built for the last edit reads it (a
// missing parent makes an entity top-level, a parent cycle is cut where
// validate reports it). The edit only adds, so entity i is found there by
// its id.
func (m *maker) root(i int) int {
	if m.last == nil || m.last.World() == nil {
		return i
	}
	d := m.last.Doc
	j, ok := d.Lookup(m.d.Entities[i].ID)
	if !ok {
		return i
	}
	r := m.last.World().Root(int32(j))
	if k, ok := m.d.Lookup(d.Entities[r].ID); ok {
		return k
	}
	return i
}

// mark records that the root of entity i must be persistent, and reports
// whether that is news.
func (m *maker) mark(i int, why string) bool {
	i = m.root(i)
	if _, ok := m.marks[i]; ok {
		return false
	}
	m.marks[i] = why
	return true
}

func (m *maker) index(id *int64) (int, bool) {
	if id == nil {
		return 0, false
	}
	return m.d.Lookup(*id)
}

// build makes the edit of the scene for cell size s.
func (m *maker) build(s float64) ([]insertion, error) {
	size := formatNum(s)
	world, err := addEntity(m.d, m.r.World, worldName, size)
	if err != nil {
		return nil, err
	}
	ins := []insertion{world}
	idx := make([]int, 0, len(m.marks)+1)
	for i := range m.marks {
		idx = append(idx, i)
	}
	if m.set && !slices.Contains(idx, m.cam) {
		idx = append(idx, m.cam)
	}
	slices.Sort(idx)
	for _, i := range idx {
		if m.d.Entities[i].IsPrefab() {
			continue // named in the notes: an instance entry has no components list
		}
		min := compact(m.d.Authored(i))
		var comps []string
		if _, ok := m.marks[i]; ok && !m.d.Has(i, "WorldPersistent") {
			comps = append(comps, component("WorldPersistent", "{}", min))
		}
		if m.set && i == m.cam {
			rd := radiiFor(m.view, s)
			comps = append(comps, component("WorldStreamingSource", fmt.Sprintf(`{ "prefetchRadius": %s, "loadRadius": %s, "unloadRadius": %s, "enabled": true }`,
				formatNum(rd[2]), formatNum(rd[0]), formatNum(rd[1])), min))
		}
		if len(comps) == 0 {
			continue
		}
		in, err := addComponents(m.d, i, comps)
		if err != nil {
			return nil, err
		}
		ins = append(ins, in)
	}
	slices.SortStableFunc(ins, func(a, b insertion) int { return a.At - b.At })
	return ins, nil
}

// check validates the scene edited for cell size s.
func (m *maker) check(s float64) (*validate.Plan, []insertion, error) {
	ins, err := m.build(s)
	if err != nil {
		return nil, nil, err
	}
	if m.last != nil && slices.Equal(ins, m.lastIns) {
		// The very edit checked last: its plan stands.
		return m.last, ins, nil
	}
	// The last edit's scene and model are let go before this one's are
	// made.
	m.last, m.lastIns = nil, nil
	if m.model != nil {
		plan, err := m.model.Check(validate.Assume{CellSize: m.cutSize(s), Persistent: m.persistent(), Source: m.set})
		if err != nil {
			return nil, nil, err
		}
		m.last, m.lastIns = plan, ins
		return plan, ins, nil
	}
	doc, err := m.edited(ins)
	if err != nil {
		return nil, nil, err
	}
	plan, err := validate.Check(doc, m.opts.Check)
	if err != nil {
		return nil, nil, err
	}
	m.last, m.lastIns = plan, ins
	return plan, ins, nil
}

// noted reports whether finish makes finding f a note: what marking
// cannot fix, and what the result says of the whole world.
func noted(f *validate.Finding) bool {
	switch {
	case f.Severity == validate.SeverityError,
		f.Code == validate.CodeCameraInCell, f.Code == validate.CodeUIRootInCell,
		f.Code == validate.CodePlaneMismatch, f.Code == validate.CodeNothingStreams:
		return true
	}
	return false
}

// relocate gives the findings of plan, a check of the scene's model as
// the last edit makes it, that finish notes the positions they have in
// the edited scene: entities keep their indices there, and the settings
// entity follows the last.
func (m *maker) relocate(plan *validate.Plan) error {
	d := m.d
	if len(d.Entities) == 0 {
		// The settings entity opens an empty list: read the edit.
		doc, err := m.edited(m.r.ins)
		if err != nil {
			return err
		}
		plan.Relocate(doc)
		return nil
	}
	ins := sortedIns(m.r.ins)
	var world insertion
	others := ins[:0:0]
	for _, e := range ins {
		if e.At == d.Offset(len(d.Entities)-1)+len(d.Authored(len(d.Entities)-1)) && strings.Contains(e.Text, `"`+worldName+`"`) {
			world = e
			continue
		}
		others = append(others, e)
	}
	ed := scene.NewEdits(edits(d.Src, others))
	last := len(d.Entities) - 1
	for k := range plan.Findings {
		f := &plan.Findings[k]
		if !noted(f) {
			continue
		}
		i := plan.EntityOf(k)
		if i < len(d.Entities) {
			at, ok := d.FieldAt(i, f.Field)
			if !ok {
				at = 0 // the record, as validate locates it
			}
			f.Line, f.Column = d.PositionAfter(i, at, ed, "")
			continue
		}
		// In the settings entity's record, which the edit appends after
		// the last record.
		text := lineEnds(world.Text, usesCRLF(d.Src))
		start := strings.IndexByte(text, '{')
		rec, err := scene.Parse(d.Path, []byte(`{"entities": [`+text[start:]+`]}`))
		if start < 0 || err != nil || len(rec.Entities) != 1 {
			return fmt.Errorf("%s: the settings entity does not parse (%v); report this with the scene", d.Path, err)
		}
		at, ok := rec.FieldAt(0, f.Field)
		if !ok {
			at = 0
		}
		f.Line, f.Column = d.PositionAfter(last, len(d.Authored(last)), ed, text[:start+at])
	}
	return nil
}

// edited is the scene with the edit ins made, read again only where the
// edit changed it.
func (m *maker) edited(ins []insertion) (*scene.Document, error) {
	out := apply(m.d.Src, slices.Clone(ins))
	doc, err := m.d.Inserted(out, inserted(m.d.Src, ins))
	if err != nil {
		return nil, fmt.Errorf("%s: the edited scene does not parse (%v); report this with the scene", m.d.Path, err)
	}
	return doc, nil
}

// settle marks roots until the scene edited for cell size s checks clean
// of what marking fixes: the roles (cameras, UI roots, scene-wide lights,
// streaming sources placed in cells) and, with refs, the hard references
// the cut breaks. Each round marks at least one more root, so it ends.
func (m *maker) settle(s float64, refs bool) (*validate.Plan, error) {
	for {
		plan, news, err := m.round(s, refs)
		if err != nil || !news {
			return plan, err
		}
	}
}

// round checks the scene edited for cell size s and marks the roots its
// findings name (settle); news says it marked one.
func (m *maker) round(s float64, refs bool) (*validate.Plan, bool, error) {
	plan, ins, err := m.check(s)
	if err != nil {
		return nil, false, err
	}
	m.r.ins = ins
	news := false
	for _, f := range plan.Findings {
		i, ok := m.index(f.Entity)
		if !ok {
			continue
		}
		switch f.Code {
		case validate.CodeCameraInCell:
			news = m.mark(i, "camera") || news
		case validate.CodeUIRootInCell:
			news = m.mark(i, "UI root") || news
		case validate.CodeSourceInCell:
			if m.set && i == m.cam {
				// The source init adds: its root is marked for
				// carrying it (Make).
				continue
			}
			news = m.mark(i, "streaming source") || news
		case validate.CodeGlobalLightInCell:
			news = m.mark(i, "scene-wide light") || news
		}
		if !refs {
			continue
		}
		j, hasTarget := m.index(f.Target)
		why := fmt.Sprintf("%s of %s holds %s", f.Field, who(f.Entity, f.EntityName), who(f.Target, f.TargetName))
		switch f.Code {
		case validate.CodeCrossCellRef:
			news = m.mark(i, why) || news
			if hasTarget {
				news = m.mark(j, why) || news
			}
		case validate.CodePersistentToCellRef:
			if hasTarget {
				news = m.mark(j, why) || news
			}
		case validate.CodeGeneratedIDConflict:
			news = m.mark(i, "its cell would generate the id of "+who(f.Target, f.TargetName)) || news
		}
	}
	return plan, news, nil
}

// mayHaveSource reports whether the scene may hold a streaming source:
// an entity writes one, or a prefab instance may bring one.
func (m *maker) mayHaveSource() bool {
	if m.model != nil {
		// The model has read which entities carry what.
		w := m.model.World()
		return len(w.Instances()) > 0 || len(w.Sources()) > 0
	}
	for i := range m.d.Entities {
		if m.d.Entities[i].IsPrefab() || m.d.Has(i, "WorldStreamingSource") {
			return true
		}
	}
	return false
}

// camera picks the camera to carry a streaming source: the scene's main
// camera, the one validate reads the view of (Plan.View: the engine's
// pick, camera.Main, of the cameras it spawns, those inside prefab
// instances included). Without a plan, before the scene is checked, it
// is read from the scene as written (mainCamera), for a scene without
// prefab instances: Make then checks that validate read the same. A
// main camera inside a prefab instance gets none: the instance entry has
// no components list to add it to, and a note says how to add it. With
// mark, the camera's root is marked WorldPersistent at once. It reports
// whether a camera was given the source.
func (m *maker) camera(plan *validate.Plan, mark bool) bool {
	best := -1
	if plan == nil {
		best = mainCamera(m.d, m.cameras())
	} else if v := plan.View; v != nil {
		const how = "which has no components list to add a WorldStreamingSource to; add a component_added WorldStreamingSource override on"
		i, ok := m.d.Lookup(v.Camera)
		switch {
		case !ok:
			// An entity of an instance's expansion, with an id the
			// engine generates.
			m.r.Notes = append(m.r.Notes, fmt.Sprintf("%s: the main camera, %s, is inside a prefab instance, %s its entity, or unpack the instance", m.d.Path, who(&v.Camera, v.CameraName), how))
			return false
		case m.d.Entities[i].IsPrefab():
			line, col := m.d.RecordPosition(i)
			m.r.Notes = append(m.r.Notes, fmt.Sprintf("%s:%d:%d: the main camera is prefab instance %s, %s its root, or unpack it", m.d.Path, line, col, who(&v.Camera, m.d.Entities[i].Name), how))
			return false
		}
		best = i
	}
	if best < 0 {
		return false
	}
	m.cam, m.set = best, true
	if mark {
		m.mark(best, "carries the streaming source")
	}
	return true
}

// mainCamera is the index of the main camera of a scene without prefab
// instances, -1 for none: of the cameras the scene spawns (not those with
// "visible": false), in authored order, the one the engine's camera
// director makes the main one (camera.Main).
func mainCamera(d *scene.Document, carries func(i int) bool) int {
	var cams []camera.Camera
	var at []int
	for i := range d.Entities {
		if !carries(i) {
			continue
		}
		e := &d.Entities[i]
		data, ok := d.Component(i, "Camera")
		if !ok || e.Hidden {
			continue
		}
		cams = append(cams, camera.Read(e.ID, e.Name, func(key string) ([]byte, bool) { return scene.Field(data, key) }))
		at = append(at, i)
	}
	if k := camera.Main(cams); k >= 0 {
		return at[k]
	}
	return -1
}

// cameras says which entities may carry a Camera: those the model saw
// carry one, or, without a model, every entity.
func (m *maker) cameras() func(i int) bool {
	if m.model == nil {
		return func(int) bool { return true }
	}
	w := m.model.World()
	return func(i int) bool { return w.Flags(int32(i))&world.Camera != 0 }
}

// extent measures what streams of the scene edited so far: the union of
// the bounds validate grows over the cells' content, with the scene cut
// so finely that the grid squares the bounds start from add little.
//
// The coarse plan was checked before the roots marked since were: with
// unmarked set, the cells are cut again at its size with them persistent.
func (m *maker) extent(coarse *validate.Plan, unmarked bool) (validate.Rect, bool, error) {
	var keep []bool
	u, ok := union(coarse)
	if unmarked {
		keep = m.persistent()
		var err error
		if u, ok, err = m.span(coarse, m.r.CellSize, keep); err != nil {
			return u, false, err
		}
	}
	if !ok {
		return u, false, nil
	}
	span := max(u.MaxX-u.MinX, u.MaxZ-u.MinZ)
	// A cell a thousandth of the span measures the extent to a thousandth;
	// far from the origin the cell indices must still fit in int32.
	far := max(math.Abs(u.MinX), math.Abs(u.MaxX), math.Abs(u.MinZ), math.Abs(u.MaxZ))
	fine := max(span/1000, far/1e8, 1e-6)
	// The scene edited at the fine size is the one edited at the coarse
	// size but for the cell size it is cut by, so its model is the coarse
	// plan's: only the placement is made again, as validate makes it
	// for a StreamedWorld of that cellSize.
	f, ok, err := m.span(coarse, fine, keep)
	if err != nil {
		return u, false, err
	}
	if ok {
		u = f
	}
	// What fits in one fine square or two is a point: it has no extent to
	// cut, only the squares it was measured with.
	if max(u.MaxX-u.MinX, u.MaxZ-u.MinZ) <= 2*fine {
		return u, false, nil
	}
	return u, true, nil
}

// span is the union of the cells' bounds of plan p's scene cut at cell
// size s, with the roots keep names persistent.
func (m *maker) span(p *validate.Plan, s float64, keep []bool) (validate.Rect, bool, error) {
	if m.model != nil {
		// The model carries no mark: they are all assumed.
		return m.model.Span(validate.Assume{CellSize: m.cutSize(s), Persistent: m.persistent()})
	}
	pl, err := m.place(p, s, keep)
	if err != nil {
		return validate.Rect{}, false, err
	}
	u, ok := unionOf(len(pl.Cells), func(k int) validate.Rect { return pl.Cells[k].Bounds })
	return u, ok, nil
}

// place cuts the model of plan p at cell size s as validate cuts a scene
// whose StreamedWorld says s, with the roots keep names persistent.
func (m *maker) place(p *validate.Plan, s float64, keep []bool) (*place.Placement, error) {
	s = m.cutSize(s)
	return place.Place(p.World(), place.Options{SceneName: p.SceneName, CellSize: s, CellsOK: s <= math.MaxFloat32,
		XY: m.opts.Plane == manifest.PlaneXY, Levels: m.opts.Check.Levels, Persistent: keep})
}

// cutSize is the cell size validate cuts a scene whose StreamedWorld says
// s by: the one the check's options give, whatever the scene says.
func (m *maker) cutSize(s float64) float64 {
	if m.opts.Check.CellSize > 0 {
		return m.opts.Check.CellSize
	}
	return s
}

// persistent marks the roots the edit makes persistent, as build writes
// them: an instance entry gets no WorldPersistent.
func (m *maker) persistent() []bool {
	keep := make([]bool, len(m.d.Entities))
	for i := range m.marks {
		keep[i] = !m.d.Entities[i].IsPrefab()
	}
	return keep
}

// union is the union of a plan's cell bounds.
func union(p *validate.Plan) (validate.Rect, bool) {
	return unionOf(len(p.Cells), func(k int) validate.Rect { return p.Cells[k].Bounds })
}

// unionOf is the union of n rectangles.
func unionOf(n int, rect func(k int) validate.Rect) (validate.Rect, bool) {
	if n == 0 {
		return validate.Rect{}, false
	}
	u := rect(0)
	for k := 1; k < n; k++ {
		b := rect(k)
		u.MinX, u.MinZ = min(u.MinX, b.MinX), min(u.MinZ, b.MinZ)
		u.MaxX, u.MaxZ = max(u.MaxX, b.MaxX), max(u.MaxZ, b.MaxZ)
	}
	return u, true
}

// finish records the marks, the diff and what is left.
func (m *maker) finish(plan *validate.Plan) {
	r := m.r
	idx := make([]int, 0, len(m.marks))
	for i := range m.marks {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		e := &m.d.Entities[i]
		if e.IsPrefab() {
			line, col := m.d.RecordPosition(i)
			r.Notes = append(r.Notes, fmt.Sprintf("%s:%d:%d: prefab instance %s must stay persistent (%s); add a component_added WorldPersistent override on its root, or unpack it", m.d.Path, line, col, who(&e.ID, e.Name), m.marks[i]))
			continue
		}
		if m.d.Has(i, "WorldPersistent") {
			continue
		}
		r.Persistent = append(r.Persistent, Mark{Entity: e.ID, Name: e.Name, Why: m.marks[i]})
	}
	if m.set {
		e := &m.d.Entities[m.cam]
		r.Source = &Mark{Entity: e.ID, Name: e.Name, Why: "main camera"}
	}
	errs, _ := plan.Counts()
	r.Errors = errs
	for k := range plan.Findings {
		if f := &plan.Findings[k]; noted(f) {
			r.Notes = append(r.Notes, f.String())
			r.Mismatch = r.Mismatch || f.Code == validate.CodePlaneMismatch
		}
	}
	var name string
	name, r.ApplyIn = DiffPath(r.File)
	r.Diff = unifiedDiffBy(name, r.Before, slices.Clone(r.ins), m.d)
}

// DiffPath is the path a diff names the scene at file by: relative to the
// working directory, slash-separated, as git diff writes paths, so that
// git apply and patch -p1 apply it where the command ran. A scene outside
// the working directory (a path that climbs out, or an absolute one
// elsewhere) is named by its file name, to be applied in its folder,
// which dir then names ("" otherwise).
func DiffPath(file string) (name, dir string) {
	abs, err := filepath.Abs(file)
	if err == nil {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return filepath.ToSlash(rel), ""
			}
		}
	}
	return filepath.Base(file), filepath.Dir(file)
}

// who names an entity in messages.
func who(id *int64, name string) string {
	if id == nil {
		return strconv.Quote(name)
	}
	if name == "" {
		return fmt.Sprintf("entity %d", *id)
	}
	return fmt.Sprintf("entity %d %q", *id, name)
}

// freeID is the id of the settings entity: the smallest positive id no
// entity has and none names, as a child, a parent or one of the
// references targets lists. An id below the highest leaves unchanged the
// ids the engine generates for prefab instances' internals (above the
// document's highest id), which references and persistentRefs may name.
func freeID(d *scene.Document, targets []int64) int64 {
	// Of k names, at most k lie in 1..k: one of 1..k+1 is free.
	n := len(d.Entities) + len(targets)
	for i := range d.Entities {
		kids, _ := d.Children(i)
		n += len(kids) + 1
	}
	used := make([]bool, n+2)
	take := func(id int64) {
		if id >= 1 && id <= int64(n+1) {
			used[id] = true
		}
	}
	for i := range d.Entities {
		e := &d.Entities[i]
		take(e.ID)
		if e.HasParent {
			take(e.Parent)
		}
		kids, _ := d.Children(i)
		for _, k := range kids {
			take(k)
		}
	}
	for _, t := range targets {
		take(t)
	}
	id := int64(1)
	for used[id] {
		id++
	}
	return id
}

// ChooseCellSize is the cell size that cuts extent into about 8×8 cells,
// rounded to a readable number (1, 2, 2.5 or 5 × 10^k) and at least 1, the
// engine's smallest; an empty or flat extent gets the engine's default.
func ChooseCellSize(extent validate.Rect, ok bool) float64 {
	span := max(extent.MaxX-extent.MinX, extent.MaxZ-extent.MinZ)
	if !ok || !(span > 0) || math.IsInf(span, 0) {
		return validate.DefaultCellSize
	}
	return min(maxCellSize, max(1, readable(span/cellsAcross)))
}

// cellsAcross is how many cells the chosen size puts across the extent.
const cellsAcross = 8

// maxCellSize is the largest cell size init chooses: the largest readable
// number (readable) a 32-bit float holds. The engine keeps cellSize in
// one, and validate refuses a larger one (bad-cell-size): a view or an
// extent that wide is cut into cells this size.
const maxCellSize = 2.5e38

// readable rounds x > 0 to the nearest (on a log scale) of 1, 2, 2.5 and
// 5 × 10^k.
func readable(x float64) float64 {
	k := math.Floor(math.Log10(x))
	best, bestD := x, math.Inf(1)
	for _, e := range []float64{k - 1, k, k + 1} {
		for _, mant := range []float64{1, 2, 2.5, 5} {
			c := mant * math.Pow(10, e)
			// Pow of a negative power is inexact: read it back rounded.
			c, _ = strconv.ParseFloat(strconv.FormatFloat(c, 'g', 3, 64), 64)
			if d := math.Abs(math.Log(c / x)); d < bestD {
				best, bestD = c, d
			}
		}
	}
	return best
}

// formatNum writes a number as JSON, shortest form.
func formatNum(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// Summary says in a few lines what the edit does, for people: the cell
// size and why, the roots marked and the source added.
func (r *Result) Summary() []string {
	if r.Streamed {
		return []string{r.File + " is already a streamed world (it has a StreamedWorld); nothing to do"}
	}
	size := "cell size " + formatNum(r.CellSize)
	switch {
	case r.Chosen && r.View != nil:
		size += " (the view spans about 2×2 cells)"
	case r.Chosen && r.Empty:
		size += " (the engine's default: nothing streams, or only one point does)"
	case r.Chosen:
		size += fmt.Sprintf(" (about %d×%d cells over the %s × %s extent of what streams)", cellsAcross, cellsAcross,
			strconv.FormatFloat(r.Extent.MaxX-r.Extent.MinX, 'g', 4, 64), strconv.FormatFloat(r.Extent.MaxZ-r.Extent.MinZ, 'g', 4, 64))
	}
	out := []string{fmt.Sprintf("%s: adds entity %d %q with %s", r.File, r.World, worldName, size)}
	if r.ApplyIn != "" && len(r.Diff) > 0 {
		out = append(out, fmt.Sprintf("%s: lies outside the working directory, so the diff names it %s: apply it in %s", r.File, filepath.Base(r.File), r.ApplyIn))
	}
	if v := r.View; v != nil {
		out = append(out, fmt.Sprintf("%s: assumes the view of %s: %s", r.File, who(&v.Camera, v.CameraName), ViewText(v)))
	} else {
		out = append(out, fmt.Sprintf("%s: assumes no view: the scene has no camera, so the radii follow the cell size, not what the player sees", r.File))
	}
	for _, m := range r.Persistent {
		out = append(out, fmt.Sprintf("%s: marks %s WorldPersistent: %s", r.File, who(&m.Entity, m.Name), m.Why))
	}
	if r.Source != nil {
		why := "a cell"
		if r.View != nil {
			why = fmt.Sprintf("the view's reach %s and a cell", strconv.FormatFloat(reach(r.View), 'g', 4, 64))
		}
		out = append(out, fmt.Sprintf("%s: gives %s, the main camera, a WorldStreamingSource (loadRadius %s: %s; prefetchRadius and unloadRadius %s, a cell beyond)",
			r.File, who(&r.Source.Entity, r.Source.Name), formatNum(r.Radii[0]), why, formatNum(r.Radii[1])))
	}
	if r.Thin() && r.Plane == manifest.PlaneXZ && !r.Mismatch {
		out = append(out, fmt.Sprintf("%s: what streams lies along one line of the x-z plane (%s × %s): if the scene is 2D, laid out on x and y, cut it with --plane xy (README, \"2D worlds\")",
			r.File, strconv.FormatFloat(r.Extent.MaxX-r.Extent.MinX, 'g', 4, 64), strconv.FormatFloat(r.Extent.MaxZ-r.Extent.MinZ, 'g', 4, 64)))
	}
	return out
}

// thinRatio is how much longer than wide an extent is before it counts
// as a line: a 3D level is seldom fifty times longer than it is deep,
// while a 2D scene measured on x and z is as deep as its sprites.
const thinRatio = 50

// Thin reports whether the chosen cell size was measured on an extent
// that is in effect a line: its short side at most 1/thinRatio of its
// long side. On the x-z plane that is what a 2D scene laid out on x and
// y looks like, cut into one row of cells.
func (r *Result) Thin() bool {
	if !r.Chosen || r.Empty {
		return false
	}
	w, h := r.Extent.MaxX-r.Extent.MinX, r.Extent.MaxZ-r.Extent.MinZ
	return min(w, h)*thinRatio <= max(w, h)
}

// ViewText says what a view is and what it was drawn from, for people:
// "orthographic, 1280 × 720 (orthoSize 360, aspect 1.778 from the
// project's designResolution)".
func ViewText(v *manifest.View) string {
	g := func(f float64) string { return strconv.FormatFloat(f, 'g', 4, 64) }
	if v.Projection == manifest.Perspective {
		return fmt.Sprintf("perspective, a disc of radius %s (its farPlane: it may turn every way)", g(v.Distance))
	}
	from := map[string]string{"aspectRatio": "the camera's aspectRatio", "designResolution": "the project's designResolution", "16:9": "16:9, as neither the camera nor the project says"}[v.AspectFrom]
	if from == "" {
		from = v.AspectFrom
	}
	height := fmt.Sprintf("orthoSize %s", g(v.Height/2))
	switch v.Fit {
	case "canvas":
		height = "the height the Canvas design resolution fits"
	case "screenFit":
		height = "the height the project's cameraScaleMode fits its design resolution to"
	}
	turned := ""
	if v.Rotation != 0 {
		turned = fmt.Sprintf(", turned %s° as the camera is", g(v.Rotation))
	}
	return fmt.Sprintf("orthographic, %s × %s%s (%s, aspect %s from %s)", g(v.Width), g(v.Height), turned, height, g(v.Aspect), from)
}
