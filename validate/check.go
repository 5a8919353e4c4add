package validate

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/scene"
)

// DefaultCellSize is StreamedWorld.cellSize when the field is absent (the
// engine's default).
const DefaultCellSize = 1000

// Streaming source defaults (the engine's WorldStreamingSource defaults).
const (
	DefaultPrefetchRadius = manifest.DefaultPrefetchRadius
	DefaultLoadRadius     = manifest.DefaultLoadRadius
	DefaultUnloadRadius   = manifest.DefaultUnloadRadius
)

// Per-entity flags, set by the passes below. One small word per entity
// keeps a world of millions of entities cheap to describe.
const (
	fTransform     uint16 = 1 << iota // carries a Transform
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
	// missed are the asset references the extents reported missing
	// (instfind.go), which the asset graph then leaves alone.
	missedMu sync.Mutex
	missed   map[missedRef]bool

	d     *scene.Document
	opts  Options
	plan  *Plan
	table *fieldTable
	xy    bool

	parent []int32 // parent index, -1 for top-level entities (after cuts)
	root   []int32
	order  []int32 // parents before children
	flags  []uint16
	// cls holds the flags classify sets (what each entity carries, which
	// positions are wanted) while the structural passes set theirs in
	// flags; run merges them.
	cls []uint16
	// blockRefs holds the references componentFlags collected, per block
	// of entities, for classify to gather in authored order.
	blockRefs [][]ref

	refs    []ref
	sources []int32
	worlds  []int32 // entities carrying StreamedWorld, authored order
	canvas  int32
	ppu     float64

	prefabIdx []int32    // prefab-instance entries, authored order
	inst      []instance // their placement, parallel to prefabIdx (streamed only)
	instAt    []int32    // entity index → 1 + index in prefabIdx (streamed, with prefabs)
	prefabs   *Prefabs   // asset index, set when a streamed world is partitioned
	gen       []genRange // ids the engine generates for instance internals
	maxID     int64      // the document's highest id (once genDone)
	genDone   bool
	expanded  bool // some instance is expanded

	cellSize float64
	cellsOK  bool
	doc      []int32 // -1 persistent, else cell index
	cells    []cellAcc
	pos      map[int32]scene.Vec3 // world positions of fNeedPos entities

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
	c.flags = make([]uint16, n)
	c.cls = make([]uint16, n)
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
		c.cellIDConflicts()
		c.cellRoles()
		c.spawnCounts()
		c.collectSources()
		c.collectAssets()
	}
	c.finish()
	return nil
}

// structure checks ids and the hierarchy and orders the entities parents
// first.
func (c *checker) structure() {
	c.hierarchy()
	c.topology()
	c.sortTopologically()
}

// hierarchy resolves parent ids to indices and reports duplicate ids and
// parents that are not in the scene.
func (c *checker) hierarchy() {
	d := c.d
	for _, dup := range d.Duplicates() {
		first := &d.Entities[dup.First]
		c.add(int32(dup.Second), Finding{
			Code:    CodeDuplicateID,
			Message: fmt.Sprintf("id %d is used by %s (entities[%d]) and %s (entities[%d]); the engine refuses to load the scene", dup.ID, quoteName(first.Name), dup.First, quoteName(d.Entities[dup.Second].Name), dup.Second),
			Field:   "id",
			Hint:    "give one of them an unused id, or re-save the scene from the editor",
		})
	}
	for i := range d.Entities {
		e := &d.Entities[i]
		c.parent[i] = -1
		if !e.HasParent {
			continue
		}
		p, ok := d.Lookup(e.Parent)
		if !ok {
			c.plan.cut[i] = true
			c.add(int32(i), Finding{
				Code:     CodeMissingParent,
				Severity: SeverityWarning,
				Message:  fmt.Sprintf("%s names parent %d, which is not in the scene; it is loaded and placed as a top-level entity", c.who(int32(i)), e.Parent),
				Field:    "parent",
				Hint:     "set parent to null or to the id of an existing entity",
			})
			continue
		}
		c.parent[i] = int32(p)
		c.flags[p] |= fHasKids
	}
}

// topology checks that every children list names exactly the entities
// whose parent it is: the parent links are what the loader uses.
func (c *checker) topology() {
	d := c.d
	for p := range d.Entities {
		kids, _ := d.Children(p)
		for _, id := range kids {
			j, ok := d.Lookup(id)
			switch {
			case !ok:
				c.add(int32(p), Finding{
					Code:    CodeInconsistentTopology,
					Message: fmt.Sprintf("%s lists child %d, which is not in the scene", c.who(int32(p)), id),
					Field:   "children",
					Hint:    fmt.Sprintf("remove %d from the children of %s", id, c.who(int32(p))),
				})
			case c.parent[j] != int32(p):
				c.add(int32(p), Finding{
					Code:    CodeInconsistentTopology,
					Message: fmt.Sprintf("%s lists child %s, whose parent is %s", c.who(int32(p)), c.who(int32(j)), c.parentText(int32(j))),
					Field:   "children",
					Hint:    fmt.Sprintf("remove %d from the children of %s, or set the parent of %s to %d", id, c.who(int32(p)), c.who(int32(j)), d.Entities[p].ID),
				})
			default:
				c.flags[j] |= fListed
			}
		}
	}
	for j := range d.Entities {
		p := c.parent[j]
		if p < 0 || c.flags[j]&fListed != 0 {
			continue
		}
		c.add(int32(j), Finding{
			Code:    CodeInconsistentTopology,
			Message: fmt.Sprintf("%s has parent %s, whose children do not list it", c.who(int32(j)), c.who(p)),
			Field:   "parent",
			Hint:    fmt.Sprintf("add %d to the children of %s, or re-save the scene from the editor", d.Entities[j].ID, c.who(p)),
		})
	}
}

func (c *checker) parentText(j int32) string {
	e := &c.d.Entities[j]
	switch {
	case !e.HasParent:
		return "null (it is a top-level entity)"
	case c.plan.cut[j]:
		return fmt.Sprintf("%d (not in the scene)", e.Parent)
	}
	return c.who(c.parent[j])
}

// sortTopologically orders entities parents first, finds each one's root,
// and breaks parent cycles. It walks each parent chain once with an
// explicit stack: hierarchies may be deep, and a cycle must end the walk.
// A cycle is cut at its first member in authored order, which becomes a
// top-level entity, so that the rest of the checks see a forest.
func (c *checker) sortTopologically() {
	n := len(c.parent)
	c.order = make([]int32, 0, n)
	c.root = make([]int32, n)
	flags, parent := c.flags, c.parent
	stack := make([]int32, 0, 64)
	for i := 0; i < n; i++ {
		if flags[i]&fDone != 0 {
			continue
		}
		for {
			stack = stack[:0]
			j := int32(i)
			for j >= 0 && flags[j]&(fDone|fOnPath) == 0 {
				flags[j] |= fOnPath
				stack = append(stack, j)
				j = parent[j]
			}
			if j >= 0 && flags[j]&fOnPath != 0 {
				k := len(stack) - 1
				for stack[k] != j {
					k--
				}
				m := j
				for _, s := range stack[k:] {
					m = min(m, s)
				}
				c.cycle(m)
				parent[m] = -1
				c.plan.cut[m] = true
				for _, s := range stack {
					flags[s] &^= fOnPath
				}
				continue
			}
			for k := len(stack) - 1; k >= 0; k-- {
				s := stack[k]
				flags[s] = flags[s]&^fOnPath | fDone
				if p := parent[s]; p >= 0 {
					c.root[s] = c.root[p]
				} else {
					c.root[s] = s
				}
				c.order = append(c.order, s)
			}
			break
		}
	}
}

// cycle reports the parent cycle through m, naming its members.
func (c *checker) cycle(m int32) {
	const show = 8
	var b strings.Builder
	j := m
	for k := 0; ; k++ {
		if k > 0 {
			b.WriteString(" → ")
		}
		if k == show {
			b.WriteString("…")
			break
		}
		b.WriteString(strconv.FormatInt(c.d.Entities[j].ID, 10))
		j = c.parent[j]
		if j == m {
			b.WriteString(" → ")
			b.WriteString(strconv.FormatInt(c.d.Entities[m].ID, 10))
			break
		}
	}
	c.add(m, Finding{
		Code:    CodeParentCycle,
		Message: fmt.Sprintf("%s is its own ancestor (%s); the engine refuses to load the scene", c.who(m), b.String()),
		Field:   "parent",
		Hint:    fmt.Sprintf("set the parent of %s, or of another entity of the cycle, to null or to an entity outside it", c.who(m)),
	})
}

// classifyBlock is how many entities componentFlags claims at a time.
const classifyBlock = 4096

// componentFlags sets c.cls from the components of the entities: what each
// carries, which positions are wanted, whether classify has more to do;
// and it collects the references their reference fields hold. Goroutines
// calling it together share the entities out in blocks claimed from next;
// each writes only the flag words and c.blockRefs slots of its own blocks.
func (c *checker) componentFlags(next *atomic.Int64) {
	d := c.d
	n := len(d.Entities)
	fields := c.table.lookup() // per goroutine: it caches in a map of its own
	project := c.table.project()
	for {
		from := int(next.Add(classifyBlock)) - classifyBlock
		if from >= n {
			return
		}
		var refs []ref
		for i := from; i < min(from+classifyBlock, n); i++ {
			var fl uint16
			for _, comp := range d.Components(i) {
				switch comp.Type {
				case "Transform":
					fl |= fTransform
				case "WorldPersistent":
					fl |= fPersistent
				case "StreamedWorld":
					fl |= fStreamedWorld
				case "WorldStreamingSource":
					fl |= fSource | fNeedPos
				case "Canvas", "UICanvas":
					fl |= fCanvas
				case "Camera":
					fl |= fCamera
				default:
					switch {
					case isExtentType(comp.Type):
						fl |= fExtent
					case isBuiltinRefType(comp.Type):
						fl |= fRefs
					case fl&fRefs == 0 && project && len(fields(comp.Type)) > 0:
						fl |= fRefs
					}
				}
			}
			if d.Entities[i].IsPrefab() {
				fl |= fPrefab
			}
			if fl&fRefs != 0 {
				refs = c.componentRefs(refs, int32(i), fields)
			}
			c.cls[i] = fl
		}
		c.blockRefs[from/classifyBlock] = refs
	}
}

// classify collects, in authored order, what the component flags call
// for: the streaming entities, the canvas, the references held by
// reference components and the prefab instances' overrides. It sets
// c.cls, not c.flags, and adds no findings.
func (c *checker) classify() error {
	d := c.d
	fields := c.table.lookup()
	const more = fStreamedWorld | fSource | fCanvas | fRefs | fPrefab
	var block []ref // the rest of the current block's component references
	for i, fl := range c.cls {
		if i%classifyBlock == 0 {
			block = c.blockRefs[i/classifyBlock]
		}
		if fl&more == 0 {
			continue
		}
		if fl&(fStreamedWorld|fSource|fCanvas) != 0 {
			for _, comp := range d.Components(i) {
				switch comp.Type {
				case "StreamedWorld":
					c.worlds = append(c.worlds, int32(i))
				case "Canvas":
					if c.canvas < 0 {
						c.canvas = int32(i)
					}
				}
			}
			if fl&fSource != 0 {
				c.sources = append(c.sources, int32(i))
			}
		}
		for len(block) > 0 && block[0].from == int32(i) {
			c.refs = append(c.refs, block[0])
			block = block[1:]
		}
		if fl&fPrefab != 0 {
			c.prefabIdx = append(c.prefabIdx, int32(i))
		}
	}
	c.blockRefs = nil
	// A streamed world reads each instance's overrides as it expands it
	// (placeInstances); elsewhere the references they hold are checked as
	// written.
	if len(c.worlds) == 0 {
		for _, i := range c.prefabIdx {
			ovs, err := parseOverrides(d, int(i))
			if err != nil {
				return err
			}
			c.refs = overrideRefs(c.refs, i, ovs, fields)
		}
	}
	// A reference wants the positions of both of its ends.
	for k := range c.refs {
		r := &c.refs[k]
		c.cls[r.from] |= fNeedPos
		if r.bad == nil {
			if j, ok := d.Lookup(r.target); ok {
				c.cls[j] |= fNeedPos
			}
		}
	}
	if c.canvas >= 0 {
		data, _ := d.Component(int(c.canvas), "Canvas")
		v, _ := scene.Field(data, "pixelsPerUnit")
		if ppu := num(v, defaultPPU); ppu > 0 && finite(ppu) {
			c.ppu = ppu
		}
	}
	return nil
}

// componentRefs appends the references held by entity i's components to
// refs; fields gives a component type's reference fields.
func (c *checker) componentRefs(refs []ref, i int32, fields func(string) []string) []ref {
	for _, comp := range c.d.Components(int(i)) {
		for _, f := range fields(comp.Type) {
			if v, ok := scene.Field(comp.Data, f); ok {
				refs = refValue(refs, i, comp.Type, f, v, "")
			}
		}
	}
	return refs
}

// refValue appends the references in one field value to refs: a number,
// or each number of a list. Strings (prefab-local ids), null and other
// shapes mean no entity in a scene.
func refValue(refs []ref, i int32, comp, field string, v []byte, peid string) []ref {
	switch scene.KindOf(v) {
	case scene.Number:
		refs = refNumber(refs, i, comp, field, -1, v, peid)
	case scene.Array:
		k := int32(0)
		scene.Each(v, func(el []byte) bool {
			if scene.KindOf(el) == scene.Number {
				refs = refNumber(refs, i, comp, field, k, el, peid)
			}
			k++
			return true
		})
	}
	return refs
}

func refNumber(refs []ref, i int32, comp, field string, elem int32, v []byte, peid string) []ref {
	if v[0] == '-' || string(v) == "0" {
		return refs // 0 and negative values mean no entity
	}
	r := ref{from: i, elem: elem, comp: comp, field: field, peid: peid}
	id, err := scene.Int(v)
	switch {
	case err != nil:
		if f, ferr := scene.Float(v); ferr == nil && f <= 0 {
			return refs
		}
		r.bad = v
	case id <= 0:
		return refs
	default:
		r.target = id
	}
	return append(refs, r)
}

// partition places every top-level entity of a streamed world and grows the
// cells' bounds. It is one pass over the topological order: a world matrix
// is the parent's times the local one, kept only for entities with children.
func (c *checker) partition() error {
	d := c.d
	c.plan.Streamed = true
	sw := c.worlds[0]
	for _, w := range c.worlds[1:] {
		c.add(w, Finding{
			Code:    CodeMultipleStreamedWorld,
			Message: fmt.Sprintf("%s carries a second StreamedWorld; the first, on %s, decides the cell size", c.who(w), c.who(sw)),
			Field:   "StreamedWorld",
			Hint:    fmt.Sprintf("remove StreamedWorld from %s", c.who(w)),
		})
	}
	c.cellSize, c.cellsOK = c.readCellSize(sw)
	c.plan.CellSize = c.cellSize
	c.prefabsFor() // before the placers share it
	for i := range d.Entities {
		if c.flags[i]&(fPersistent|fStreamedWorld) != 0 && c.parent[i] >= 0 {
			c.persistentNotRoot(int32(i), "")
		}
	}
	if err := c.placeInstances(); err != nil {
		return err
	}

	if err := c.place(); err != nil {
		return err
	}
	c.buildCells()
	c.checkPlane(sw)
	return nil
}

// readCellSize reads StreamedWorld.cellSize of entity sw.
func (c *checker) readCellSize(sw int32) (float64, bool) {
	data, _ := c.d.Component(int(sw), "StreamedWorld")
	v, ok := scene.Field(data, "cellSize")
	if !ok || scene.KindOf(v) == scene.Null {
		return DefaultCellSize, true
	}
	var msg string
	f, err := scene.Float(v)
	switch {
	case err != nil:
		msg = "StreamedWorld.cellSize " + err.Error()
	case !(f > 0):
		msg = "StreamedWorld.cellSize is " + string(v) + "; it must be a positive number"
	case f > math.MaxFloat32:
		// The engine keeps positions in 32-bit floats: a cell wider than
		// their whole range is one cell for any world, and its bounds
		// overflow the moment they are measured.
		msg = "StreamedWorld.cellSize is " + string(v) + ", beyond the 32-bit float range the engine stores positions in"
	default:
		return f, true
	}
	c.add(sw, Finding{
		Code:    CodeBadCellSize,
		Message: msg + "; every entity stays in the persistent world until it is fixed",
		Field:   "StreamedWorld.cellSize",
		Hint:    "set cellSize to a positive number of world units (the engine default is 1000)",
	})
	return 0, false
}

func (c *checker) persistentNotRoot(i int32, peid string) {
	comp := "WorldPersistent"
	if c.flags[i]&fPersistent == 0 {
		comp = "StreamedWorld"
	}
	r := c.root[i]
	if peid != "" {
		in := &c.inst[c.instAt[i]-1]
		comp = in.misComp
		c.add(i, Finding{
			Code:    CodePersistentNotRoot,
			Message: fmt.Sprintf("prefab entity %q of instance %s carries %s but is not the instance's root; only top-level entities are placed", peid, c.who(i), comp),
			Field:   "overrides",
			Hint:    fmt.Sprintf("add %s to the instance root instead (a component_added override on its root entity)", comp),
		})
		return
	}
	c.add(i, Finding{
		Code:    CodePersistentNotRoot,
		Message: fmt.Sprintf("%s carries %s but is not a top-level entity (its root is %s); only top-level entities are placed", c.who(i), comp, c.who(r)),
		Field:   comp,
		Hint:    fmt.Sprintf("move %s to the root %s, or make %s a top-level entity", comp, c.who(r), c.who(i)),
	})
}

// placeInstances expands every prefab instance as the engine will. The
// error is for an overrides list that is not a list.
func (c *checker) placeInstances() error {
	if len(c.prefabIdx) == 0 {
		return nil
	}
	prefabs := c.prefabsFor()
	defer func() { c.plan.PrefabFiles = prefabs.Files() }()
	c.instAt = make([]int32, len(c.flags))
	c.inst = make([]instance, len(c.prefabIdx))
	for k, i := range c.prefabIdx {
		c.instAt[i] = int32(k + 1)
	}
	// Instances are expanded by a few goroutines over contiguous runs,
	// each with caches of its own: an expansion a run meets again is
	// shared, and no run waits on another. What an expansion says does
	// not depend on who made it, so neither does the plan.
	n := len(c.prefabIdx)
	parts := max(1, min(expanderCount(n), n))
	var wg sync.WaitGroup
	errs := make([]error, parts)
	for p := 0; p < parts; p++ {
		lo, hi := n*p/parts, n*(p+1)/parts
		work := func() {
			x := newExpander()
			for k := lo; k < hi; k++ {
				i := int(c.prefabIdx[k])
				ovs, err := parseOverridesInto(x.ovBuf[:0], c.d, i)
				if err != nil {
					errs[p] = err // the first of this run: runs are in authored order
					return
				}
				x.ovBuf = ovs
				c.inst[k] = c.resolveInstance(x, i, ovs, prefabs)
			}
		}
		if parts == 1 {
			work()
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	fields := c.table.lookup()
	for k, i := range c.prefabIdx {
		in := c.inst[k]
		if in.tpl == nil || in.failed {
			// Not expanded: the references its overrides hold are checked
			// as written.
			ovs, _ := parseOverrides(c.d, int(i))
			from := len(c.refs)
			c.refs = overrideRefs(c.refs, i, ovs, fields)
			for _, r := range c.refs[from:] {
				c.flags[r.from] |= fNeedPos
				if r.bad == nil {
					if j, ok := c.d.Lookup(r.target); ok {
						c.flags[j] |= fNeedPos
					}
				}
			}
		}
		c.instanceFindings(i, &in)
		if in.persistent || in.streamed {
			c.flags[i] |= fPersistent
			if c.parent[i] >= 0 {
				c.persistentNotRoot(i, "")
			}
		}
		if in.misplaced != "" {
			c.persistentNotRoot(i, in.misplaced)
		}
		if compIndex(in.comps, "WorldStreamingSource") >= 0 {
			if c.flags[i]&fSource == 0 {
				c.sources = append(c.sources, i)
			}
			c.flags[i] |= fSource | fNeedPos
		}
		for _, comp := range in.comps {
			switch comp.Type {
			case "Camera":
				c.flags[i] |= fCamera
			case "Canvas", "UICanvas":
				c.flags[i] |= fCanvas
			}
		}
	}
	sort.Slice(c.sources, func(a, b int) bool { return c.sources[a] < c.sources[b] })
	c.instanceRefs()
	for k := range c.inst {
		if c.inst[k].tpl != nil && !c.inst[k].failed {
			c.expanded = true
			break
		}
	}
	return nil
}

// prefabsFor returns the asset index of this check.
func (c *checker) prefabsFor() *Prefabs {
	if c.prefabs == nil {
		c.prefabs = c.opts.Prefabs
		if c.prefabs == nil {
			dirs := c.opts.Assets
			if len(dirs) == 0 {
				dirs = DefaultAssetDirs(c.d.Path)
			}
			c.prefabs = NewPrefabs(dirs)
		}
	}
	return c.prefabs
}

// buildCells sorts the cells by x then z, lists their entities in authored
// order and renumbers c.doc accordingly.
func (c *checker) buildCells() {
	nc := len(c.cells)
	perm := make([]int32, nc)
	for k := range perm {
		perm[k] = int32(k)
	}
	sort.Slice(perm, func(a, b int) bool {
		ca, cb := &c.cells[perm[a]], &c.cells[perm[b]]
		if ca.x != cb.x {
			return ca.x < cb.x
		}
		return ca.z < cb.z
	})
	rank := make([]int32, nc)
	for r, k := range perm {
		rank[k] = int32(r)
	}
	persistent := 0
	for i, ci := range c.doc {
		if ci < 0 {
			persistent++
			continue
		}
		ci = rank[ci]
		c.doc[i] = ci
		c.cells[perm[ci]].count++
	}
	// One backing array for every cell's entity list.
	all := make([]int32, len(c.doc)-persistent)
	c.plan.Persistent = make([]int32, 0, persistent)
	c.plan.Cells = make([]Cell, nc)
	off := 0
	for r, k := range perm {
		a := &c.cells[k]
		name := CellName(c.opts.SceneName, a.x, a.z)
		cell := Cell{X: a.x, Z: a.z, Name: name, File: CellFile(name), Entities: all[off : off : off+a.count], Roots: a.roots, Grid: a.grid, Bounds: a.bounds, maxID: a.maxID}
		if a.over >= 0 && a.by > 0 {
			cell.Overhang = Overhang{Entity: c.d.Entities[a.over].ID, Name: c.d.Entities[a.over].Name, By: a.by}
			if a.sub > 0 {
				t := c.inst[c.instAt[a.over]-1].tpl
				cell.Overhang.Name = c.instancePath(a.over) + "/" + t.paths[a.sub-1]
			}
		}
		c.plan.Cells[r] = cell
		off += a.count
	}
	for i, ci := range c.doc {
		if ci < 0 {
			c.plan.Persistent = append(c.plan.Persistent, int32(i))
		} else {
			cl := &c.plan.Cells[ci]
			cl.Entities = append(cl.Entities, int32(i))
		}
	}
}

// checkRefs classifies every collected reference. In a scene that is not a
// streamed world only dangling references are findings.
func (c *checker) checkRefs() {
	d := c.d
	var prefs []int64
	// The names in messages are built only for the references that make
	// a finding: most stay within their cell.
	names := func(r *ref) (field, from string) {
		field = r.comp + "." + r.field
		if r.elem >= 0 {
			field += "[" + strconv.Itoa(int(r.elem)) + "]"
		}
		from = c.who(r.from)
		if r.path != "" {
			from += " (prefab entity " + r.path + ")"
		} else if r.peid != "" {
			from += fmt.Sprintf(" (override on prefab entity %q)", r.peid)
		}
		return field, from
	}
	for k := range c.refs {
		r := &c.refs[k]
		j, ok := int(-1), false
		if r.bad == nil {
			j, ok = d.Lookup(r.target)
		}
		if !ok && r.bad == nil && c.generatedRef(r, names) {
			continue
		}
		if !ok {
			field, from := names(r)
			f := Finding{
				Code:     CodeDanglingRef,
				Severity: SeverityWarning,
				Field:    field,
				Hint:     "set " + field + " to 0 for no entity, or to the id of an existing entity",
			}
			if c.opts.Strict {
				f.Severity = SeverityError
			}
			if r.bad != nil {
				f.Message = fmt.Sprintf("%s %s holds %s, which is not an entity id; the loader treats it as no entity", from, field, string(r.bad))
			} else {
				t := r.target
				f.Target = &t
				f.Message = fmt.Sprintf("%s %s references entity %d, which is not in the scene; the loader replaces it with 0 (no entity)", from, field, r.target)
			}
			f.Arrow = c.mark(r.from)
			c.add(r.from, f)
			continue
		}
		if !c.plan.Streamed {
			continue
		}
		di, dj := c.doc[r.from], c.doc[j]
		if di == dj || c.root[r.from] == c.root[j] {
			continue
		}
		if dj < 0 {
			prefs = append(prefs, r.target)
			continue
		}
		field, from := names(r)
		t := r.target
		f := Finding{
			Field:      field,
			Target:     &t,
			TargetName: d.Entities[j].Name,
			FromCell:   c.cellLabel(di),
			ToCell:     c.cellLabel(dj),
			Arrow:      c.arrow(r.from, int32(j)),
		}
		fr, tr := c.root[r.from], c.root[j]
		soft := fmt.Sprintf("declare %s.%s soft in worldcook.yaml (components: {%s: {softFields: [%s]}}) if the game resolves it itself", r.comp, r.field, r.comp, r.field)
		if di < 0 {
			f.Code = CodePersistentToCellRef
			f.Message = fmt.Sprintf("%s %s in the persistent world references %s in cell %s, which residency may unload", from, field, c.who(int32(j)), f.ToCell)
			f.Hint = fmt.Sprintf("mark %s WorldPersistent, or %s", c.rootOf(tr, int32(j)), soft)
		} else {
			f.Code = CodeCrossCellRef
			f.Message = fmt.Sprintf("%s %s in cell %s references %s in another cell, %s", from, field, f.FromCell, c.who(int32(j)), f.ToCell)
			f.Hint = fmt.Sprintf("move %s under %s so both share a cell, mark both roots %s and %s WorldPersistent, or %s", c.who(int32(j)), c.rootOf(fr, r.from), c.who(fr), c.who(tr), soft)
		}
		c.add(r.from, f)
	}
	if len(prefs) > 0 {
		sort.Slice(prefs, func(a, b int) bool { return prefs[a] < prefs[b] })
		out := prefs[:1]
		for _, id := range prefs[1:] {
			if id != out[len(out)-1] {
				out = append(out, id)
			}
		}
		c.plan.PersistentRefs = out
	}
	if c.plan.Streamed && c.plan.PersistentRefs == nil {
		c.plan.PersistentRefs = []int64{}
	}
}

// rootOf names root r of entity i for hints, saying whose root it is when
// i is not a top-level entity itself.
func (c *checker) rootOf(r, i int32) string {
	if r == i {
		return c.who(i)
	}
	return c.who(r) + " (the root of " + c.who(i) + ")"
}

func (c *checker) cellLabel(ci int32) string {
	if ci < 0 {
		return "persistent"
	}
	return c.plan.Cells[ci].Name
}

func (c *checker) arrow(from, to int32) *Arrow {
	p, ok1 := c.pos[from]
	q, ok2 := c.pos[to]
	if !ok1 || !ok2 {
		return nil
	}
	a := &Arrow{}
	a.FromX, a.FromZ = c.uv(p)
	a.ToX, a.ToZ = c.uv(q)
	if !finite(a.FromX) || !finite(a.FromZ) || !finite(a.ToX) || !finite(a.ToZ) {
		return nil
	}
	return a
}

// mark locates a dangling reference at the entity that holds it.
func (c *checker) mark(from int32) *Arrow {
	p, ok := c.pos[from]
	if !ok {
		return nil
	}
	a := &Arrow{Dangling: true}
	a.FromX, a.FromZ = c.uv(p)
	a.ToX, a.ToZ = a.FromX, a.FromZ
	if !finite(a.FromX) || !finite(a.FromZ) {
		return nil
	}
	return a
}

// collectSources reads every WorldStreamingSource of a streamed world.
func (c *checker) collectSources() {
	d := c.d
	c.plan.Sources = make([]manifest.Source, 0, len(c.sources))
	for _, i := range c.sources {
		var in *instance
		var data []byte
		if c.flags[i]&fPrefab != 0 && c.instAt != nil {
			in = &c.inst[c.instAt[i]-1]
		} else {
			data, _ = d.Component(int(i), "WorldStreamingSource")
		}
		get := func(key string) ([]byte, bool) {
			if in != nil {
				return in.field("WorldStreamingSource", key)
			}
			return scene.Field(data, key)
		}
		s := manifest.Source{Entity: d.Entities[i].ID, Name: d.Entities[i].Name, Enabled: true}
		if p, ok := c.pos[i]; ok && p.Finite() {
			s.Position = manifest.Vec3{X: p.X, Y: p.Y, Z: p.Z}
		}
		// first is the radius the finding points at: the first one named
		// in its message.
		var bad []string
		first := ""
		wrong := func(key, msg string) {
			bad = append(bad, msg)
			if first == "" {
				first = key
			}
		}
		radius := func(key string, def float64) float64 {
			v, ok := get(key)
			if !ok || scene.KindOf(v) == scene.Null {
				return def
			}
			f, err := scene.Float(v)
			if err != nil || f < 0 {
				wrong(key, fmt.Sprintf("%s %s is not a non-negative number", key, clip(v)))
				return def
			}
			return f
		}
		s.PrefetchRadius = radius("prefetchRadius", DefaultPrefetchRadius)
		s.LoadRadius = radius("loadRadius", DefaultLoadRadius)
		s.UnloadRadius = radius("unloadRadius", DefaultUnloadRadius)
		if v, ok := get("enabled"); ok && scene.KindOf(v) == scene.Bool {
			s.Enabled = v[0] == 't'
		}
		// The rule is the one the scheduler applies too (manifest).
		for _, p := range manifest.CheckRadii(s.PrefetchRadius, s.LoadRadius, s.UnloadRadius) {
			wrong(p.Field, p.Message)
		}
		if len(bad) > 0 {
			c.add(i, Finding{
				Code:    CodeBadSourceRadii,
				Message: fmt.Sprintf("%s WorldStreamingSource: %s", c.who(i), strings.Join(bad, "; ")),
				Field:   "WorldStreamingSource." + first,
				Hint:    fmt.Sprintf("set prefetchRadius ≥ loadRadius and unloadRadius > loadRadius, e.g. loadRadius %s, prefetchRadius %s, unloadRadius %s", fmtNum(s.LoadRadius), fmtNum(s.LoadRadius*1.5), fmtNum(s.LoadRadius*1.5)),
			})
		}
		c.plan.Sources = append(c.plan.Sources, s)
	}
}

// add records a finding about entity i.
func (c *checker) add(i int32, f Finding) {
	c.plan.Findings = append(c.plan.Findings, c.finding(i, f))
	c.fents = append(c.fents, i)
}

// finding completes f with the file and entity i's id and name.
func (c *checker) finding(i int32, f Finding) Finding {
	e := &c.d.Entities[i]
	id := e.ID
	f.File = c.d.Path
	f.Entity = &id
	f.EntityName = e.Name
	if f.Severity == "" {
		f.Severity = SeverityError
	}
	return f
}

// finish orders the findings by entity (authored order), then code, keeping
// the order they were found in (authored field order) otherwise, and gives
// each the line of its entity's record.
func (c *checker) finish() {
	fs := c.plan.Findings
	if len(fs) == 0 {
		c.plan.Findings = []Finding{}
		return
	}
	perm := make([]int, len(fs))
	for k := range perm {
		perm[k] = k
	}
	sort.SliceStable(perm, func(a, b int) bool {
		ea, eb := c.fents[perm[a]], c.fents[perm[b]]
		if ea != eb {
			return ea < eb
		}
		return fs[perm[a]].Code < fs[perm[b]].Code
	})
	out := make([]Finding, len(fs))
	for k, p := range perm {
		out[k] = fs[p]
		locate(c.d, int(c.fents[p]), &out[k])
	}
	c.plan.Findings = out
}

// locate gives a finding about entity i the position of its field's key,
// or of the record when the field is not in it. The parser counted each
// record's line, so only the records of findings are read again.
func locate(d *scene.Document, i int, f *Finding) {
	f.Line = d.Line(i)
	line, col, ok := d.FieldPosition(i, f.Field)
	if !ok {
		line, col = d.RecordPosition(i)
	}
	if line > 0 {
		f.Line, f.Column = line, col
		f.Source = string(d.SourceLine(i, line))
	}
}

// who names an entity in messages: "Door" (12).
func (c *checker) who(i int32) string {
	e := &c.d.Entities[i]
	return quoteName(e.Name) + " (" + strconv.FormatInt(e.ID, 10) + ")"
}

func quoteName(name string) string {
	if name == "" {
		return "unnamed entity"
	}
	return strconv.Quote(name)
}

// fmtNum formats a coordinate compactly and exactly enough for messages.
func fmtNum(f float64) string {
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func clip(v []byte) string {
	if len(v) > 24 {
		return string(v[:24]) + "…"
	}
	return string(v)
}
