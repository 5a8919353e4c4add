package validate

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/world/expand"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/assets"
)

// AssetSet is what one cell, or the persistent world, loads besides its
// entity document: the project paths of the asset files its entities
// reference, directly and transitively, sorted, and their total size.
type AssetSet struct {
	Paths []string
	Bytes int64
}

// AssetPlan is the asset side of a streamed world.
type AssetPlan struct {
	Persistent AssetSet
	// Cells are in the order of Plan.Cells.
	Cells []AssetSet
	// All is every distinct asset of the world, sorted by path.
	All []assets.Asset
	// Refs is true when some entity references an asset, found or not: the
	// cooked world then depends on files besides the scene.
	Refs bool
	// Root is the project folder the paths are relative to.
	Root string
	// Files are the assets' paths in the file system, in the order of
	// All: inputs of the run, which a cook must never write over.
	Files []string
	// Sidecars are the .meta files read to resolve uuids (none when no
	// uuid was looked up): an edit of any of them can change what a uuid
	// names, so each is an input of the whole world.
	Sidecars []string
}

// AssetResolver returns the resolver of the asset references of the
// scene at file, as Check makes it from opts: over the Estella project
// holding the scene (else the first asset folder, else the scene's
// folder), looking uuids up in the .meta files under the asset folders
// (default: that project), taken from opts.AssetCache when one is set so
// that the scenes of a run share it. opts.Prefabs and opts.AssetGraph are
// not consulted.
func AssetResolver(file string, opts Options) *assets.Resolver {
	root, inProject := assets.FindProject(file)
	dirs := opts.Assets
	if len(dirs) == 0 {
		dirs = defaultAssetDirs(file)
	}
	if !inProject {
		root = dirs[0]
	}
	if opts.AssetCache != nil {
		return opts.AssetCache.Resolver(root, dirs, nil, opts.AssetRules)
	}
	return assets.NewResolver(root, assets.NewIndex(dirs), opts.AssetRules)
}

// resolver returns the one resolver of this check, which the prefab
// expansion, the extents and the asset graph share: the given graph's or
// prefabs', else the scene's (AssetResolver).
func (c *checker) resolver() *assets.Resolver {
	if c.res == nil {
		switch {
		case c.model != nil:
			c.res = c.modelResolver()
		case c.opts.AssetGraph != nil:
			c.res = c.opts.AssetGraph.Resolver()
		case c.opts.Prefabs != nil:
			c.res = c.opts.Prefabs.Resolver()
		default:
			c.res = AssetResolver(c.d.Path, c.opts)
		}
	}
	return c.res
}

// assetGraph returns the graph that lists this scene's assets: the one
// given, or the one over the check's resolver. A scene outside any
// project and without asset folders has no asset database to resolve
// against: it gets no graph, and its world no asset lists.
func (c *checker) assetGraph() *assets.Graph {
	if c.opts.AssetGraph != nil {
		return c.opts.AssetGraph
	}
	if _, ok := assets.FindProject(c.d.Path); !ok && len(c.opts.Assets) == 0 {
		return nil
	}
	if c.opts.AssetCache != nil {
		return c.opts.AssetCache.GraphOf(c.resolver())
	}
	return assets.NewGraph(c.resolver())
}

// collectAssets lists each cell's and the persistent world's assets and
// reports the asset references that lead nowhere: this is the one place
// missing-asset findings come from. The extents and the asset graph meet
// the same references through the check's one resolver, so they agree on
// what is missing; a reference whose box the extents could not read is
// reported as the extents met it (naming the instance entity that holds
// it and the bounds it leaves short), every other one as the graph meets
// it: on the entity and field that hold it, or, for a reference inside an
// asset, once per scene on the first entity that pulls that asset in.
func (c *checker) collectAssets() {
	bounded := c.extentFindings()
	g := c.assetGraph()
	if g == nil {
		return
	}
	ap := &AssetPlan{Cells: make([]AssetSet, len(c.plan.Cells)), Root: g.Root()}
	l := &assetLister{c: c, g: g, ap: ap, bounded: bounded, reported: map[assets.Miss]bool{}, rel: map[string]string{}}
	all := map[string]bool{}
	set := func(ents []int32) AssetSet {
		l.paths = map[string]bool{}
		for _, i := range ents {
			l.entity(i)
		}
		s := AssetSet{Paths: sortedKeys(l.paths)}
		for _, p := range s.Paths {
			s.Bytes += g.Asset(p).Bytes
			all[p] = true
		}
		return s
	}
	ap.Persistent = set(c.plan.Persistent)
	for k := range c.plan.Cells {
		ap.Cells[k] = set(c.plan.Cells[k].Entities)
	}
	for _, p := range sortedKeys(all) {
		ap.All = append(ap.All, g.Asset(p))
		ap.Files = append(ap.Files, g.File(p))
	}
	ap.Sidecars = g.Resolver().Index().Read()
	c.plan.Assets = ap
}

// assetLister lists the assets of one cell (paths) at a time, and reports
// each reference that leads nowhere once.
type assetLister struct {
	c        *checker
	g        *assets.Graph
	ap       *AssetPlan
	bounded  map[entRef]bool
	reported map[assets.Miss]bool
	rel      map[string]string // prefab file → project path
	paths    map[string]bool
	rs       []resolvedRef
	found    []assets.Found
}

// resolvedRef is a reference found on an entity and where it leads.
type resolvedRef struct {
	f         assets.Found
	p, reason string
}

// entity lists what the engine loads for entity i: an instance entry's
// expansion, else the components of an entity it spawns.
func (l *assetLister) entity(i int32) {
	c, g := l.c, l.g
	e := &c.d.Entities[i]
	if e.IsPrefab() {
		l.instance(i)
		return
	}
	// The engine neither spawns an entity with "visible": false nor
	// preloads its components' assets.
	if e.Hidden || !g.MayRefer(e.Raw) {
		return
	}
	l.found = l.found[:0]
	for _, comp := range c.d.Components(int(i)) {
		l.found = append(l.found, g.ComponentRefs(comp.Type, comp.Data)...)
	}
	for _, r := range l.resolve(l.found, "") {
		if r.reason != "" {
			l.direct(i, r)
			continue
		}
		l.add(i, r.f.Field, r.p)
	}
}

// instance lists an instance entry's assets as the engine's scene load
// has them: the prefab documents its expansion reads, then the assets of
// the expanded entities it spawns (the visible ones; removed entities are
// gone). An instance the engine cannot expand is skipped by it, its
// prefab read. References the entry itself writes (overrides, added
// entities) that lead nowhere are reported as written; the prefab's own
// are reported once per scene, naming the prefab entity.
func (l *assetLister) instance(i int32) {
	c, g := l.c, l.g
	e := &c.d.Entities[i]
	var written map[string]bool
	if g.MayRefer(e.Raw) {
		found, _ := g.Refs(e.Raw)
		written = make(map[string]bool, len(found))
		for _, r := range l.resolve(found, "") {
			written[r.f.Value] = true
			// A prefab that cannot be found is the placement's to
			// report (unplaceable-prefab): it is not reported twice.
			if r.reason != "" && r.f.Field != "prefab" {
				l.direct(i, r)
			}
		}
	}
	var t *expand.Template
	if in := c.w.Instance(i); in != nil {
		t = in.Tpl
	}
	if t == nil {
		return
	}
	for _, file := range t.Files {
		if p := l.relOf(file); p != "" && g.Asset(p).Missing == "" {
			l.paths[p] = true
		}
	}
	if t.Err != "" {
		return
	}
	for k := int32(0); k < int32(t.Len()); k++ {
		comps := t.Comps(k)
		if t.Hidden(k) || len(comps) == 0 {
			continue
		}
		l.found = l.found[:0]
		for _, comp := range comps {
			l.found = append(l.found, g.ComponentRefs(comp.Type, comp.Data)...)
		}
		src := t.Src(k)
		from := ""
		if src != "" {
			from = l.relOf(src)
		}
		where := c.w.InstancePath(i)
		if k != t.Root {
			where += "/" + t.Paths[k]
		}
		for _, r := range l.resolve(l.found, from) {
			if r.reason == "" {
				l.add(i, r.f.Field, r.p)
				continue
			}
			if written[r.f.Value] || l.bounded[entRef{i, r.f.Value}] {
				continue
			}
			m := assets.Miss{Ref: r.f.Value, Path: r.p, Via: from, Reason: r.reason}
			if src == "" || l.reported[m] {
				continue
			}
			l.reported[m] = true
			c.add(i, Finding{Diagnostic: diag.Diagnostic{Code: missCode(r.reason),
				Message: c.who(i) + " (prefab entity " + where + ") " + r.f.Field + ": " + m.Message(),
				Subject: diag.Subject{Field: r.f.Field},
				Hint:    "fix the reference in " + from + " or add the file it names"}})
		}
	}
}

// relOf is the project path of prefab file, "" outside the project.
func (l *assetLister) relOf(file string) string {
	r, ok := l.rel[file]
	if !ok {
		r, _ = l.g.Resolver().Rel(file)
		l.rel[file] = r
	}
	return r
}

// resolve resolves the references found on one entity, written in the
// document at from ("" for the scene), and drops a skeleton or atlas
// whose partner leads nowhere: the engine loads the pair or neither.
func (l *assetLister) resolve(found []assets.Found, from string) []resolvedRef {
	rs := l.rs[:0]
	var broken []string
	for _, f := range found {
		p, reason, ok := l.g.Resolve(f.Value, from)
		if !ok {
			continue
		}
		l.ap.Refs = true
		if reason == "" {
			if a := l.g.Asset(p); a.Missing != "" {
				reason = a.Missing
			}
		}
		if comp, ok := skeletal(f.Field); ok && reason != "" {
			broken = append(broken, comp)
		}
		rs = append(rs, resolvedRef{f, p, reason})
	}
	if len(broken) > 0 {
		out := rs[:0]
		for _, r := range rs {
			if comp, ok := skeletal(r.f.Field); !ok || r.reason != "" || !slices.Contains(broken, comp) {
				out = append(out, r)
			}
		}
		rs = out
	}
	l.rs = rs
	return rs
}

// skeletal returns the component part of a skeleton or atlas field
// ("SpineAnimation" of "SpineAnimation.atlasPath").
func skeletal(field string) (string, bool) {
	if comp, ok := strings.CutSuffix(field, "."+assets.SkeletonField); ok {
		return comp, true
	}
	return strings.CutSuffix(field, "."+assets.AtlasField)
}

// direct reports a reference entity i holds itself that leads nowhere,
// unless the extents reported it already.
func (l *assetLister) direct(i int32, r resolvedRef) {
	if l.bounded[entRef{i, r.f.Value}] {
		return
	}
	l.c.add(i, Finding{Diagnostic: diag.Diagnostic{Code: missCode(r.reason),
		Message: l.c.who(i) + " " + r.f.Field + ": " + assets.Miss{Ref: r.f.Value, Path: r.p, Reason: r.reason}.Message(),
		Subject: diag.Subject{Field: r.f.Field},
		Hint:    "fix the reference or add the file (with its .meta for an @uuid: reference) under " + filepath.ToSlash(l.g.Root())}})
}

// add lists the closure of project path p and reports the references
// inside it that lead nowhere, once per scene, on entity i (field names
// the reference that pulled p in).
func (l *assetLister) add(i int32, field, p string) {
	closure, misses := l.g.ClosureOf(p)
	for _, q := range closure {
		l.paths[q] = true
	}
	for _, m := range misses {
		if l.reported[m] || l.bounded[entRef{i, m.Ref}] {
			continue
		}
		l.reported[m] = true
		hint := "fix the reference in " + m.Via + " or add the file it names"
		if m.Via == "" {
			// The document itself is what the engine cannot use.
			hint = "fix " + m.Path
		}
		l.c.add(i, Finding{Diagnostic: diag.Diagnostic{Code: missCode(m.Reason),
			Message: l.c.who(i) + " " + field + ": " + m.Message(),
			Subject: diag.Subject{Field: field},
			Hint:    hint}})
	}
}

// entRef is an asset reference held by an entity (or by its expansion).
type entRef struct {
	ent int32
	ref string
}

// extentFindings reports the references whose box the extents could not
// read, entities outside instances first, then each expanded instance's,
// and returns them.
func (c *checker) extentFindings() map[entRef]bool {
	bounded := map[entRef]bool{}
	for _, m := range c.pl.Misses {
		bounded[entRef{m.Ent, m.Ref}] = true
		c.add(m.Ent, c.missingAsset(m.Ent, "", m.Comp, m.Field, m.Ref, m.Why))
	}
	for k, i := range c.w.Instances() {
		in := c.w.Inst(k)
		t := in.Tpl
		if t == nil || in.Failed || in.Unresolved != "" {
			continue
		}
		for _, ms := range t.Shape.Misses {
			path := c.w.InstancePath(i)
			if ms.Ent != t.Root {
				path += "/" + t.Paths[ms.Ent]
			}
			bounded[entRef{i, ms.Ref}] = true
			c.add(i, c.missingAsset(i, path, ms.Comp, ms.Field, ms.Ref, ms.Why))
		}
	}
	return bounded
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// How many cells and assets the reports name at most.
const (
	heaviestCells = 5
	sharedAssets  = 10
)

// CellAssetCost is one cell's asset count and bytes, for reports.
type CellAssetCost struct {
	Cell   string `json:"cell"`
	Assets int    `json:"assets"`
	Bytes  int64  `json:"bytes"`
}

// SharedAsset is an asset listed by more than one cell.
type SharedAsset struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
	Cells int    `json:"cells"`
}

// AssetReport summarises a world's assets for validate's reports.
type AssetReport struct {
	Distinct   int           `json:"distinct"`
	Bytes      int64         `json:"bytes"`
	Persistent CellAssetCost `json:"persistent"`
	// Heaviest are the cells with the most asset bytes, heaviest first
	// (then by name), at most five.
	Heaviest []CellAssetCost `json:"heaviest"`
	// Shared are the assets the most cells share, most first (then by
	// path), at most ten, each listed by two cells or more.
	Shared []SharedAsset `json:"shared"`
}

// AssetSummary returns the world's asset report, or nil for a world
// without assets.
func (p *Plan) AssetSummary() *AssetReport {
	ap := p.Assets
	if ap == nil || len(ap.All) == 0 {
		return nil
	}
	r := &AssetReport{Distinct: len(ap.All), Heaviest: []CellAssetCost{}, Shared: []SharedAsset{},
		Persistent: CellAssetCost{Cell: "persistent", Assets: len(ap.Persistent.Paths), Bytes: ap.Persistent.Bytes}}
	users := map[string]int{}
	for k, c := range p.Cells {
		s := ap.Cells[k]
		for _, path := range s.Paths {
			users[path]++
		}
		if len(s.Paths) > 0 {
			r.Heaviest = append(r.Heaviest, CellAssetCost{Cell: c.Name, Assets: len(s.Paths), Bytes: s.Bytes})
		}
	}
	sort.SliceStable(r.Heaviest, func(a, b int) bool {
		x, y := r.Heaviest[a], r.Heaviest[b]
		if x.Bytes != y.Bytes {
			return x.Bytes > y.Bytes
		}
		return x.Cell < y.Cell
	})
	r.Heaviest = r.Heaviest[:min(len(r.Heaviest), heaviestCells)]
	for _, a := range ap.All {
		r.Bytes += a.Bytes
		if n := users[a.Path]; n > 1 {
			r.Shared = append(r.Shared, SharedAsset{Path: a.Path, Bytes: a.Bytes, Cells: n})
		}
	}
	sort.SliceStable(r.Shared, func(a, b int) bool {
		if r.Shared[a].Cells != r.Shared[b].Cells {
			return r.Shared[a].Cells > r.Shared[b].Cells
		}
		return r.Shared[a].Path < r.Shared[b].Path
	})
	r.Shared = r.Shared[:min(len(r.Shared), sharedAssets)]
	return r
}

// cellAssetCost returns cell k's asset count and bytes for the JSON
// report; nil for a world without assets.
func (p *Plan) cellAssetCost(k int) (*int, *int64) {
	if p.Assets == nil || len(p.Assets.All) == 0 {
		return nil, nil
	}
	s := p.Assets.Cells[k]
	n, b := len(s.Paths), s.Bytes
	return &n, &b
}

// writeAssetText writes the asset lines of a world's text summary.
func writeAssetText(w io.Writer, p *Plan) {
	r := p.AssetSummary()
	if r == nil {
		return
	}
	fmt.Fprintf(w, "  assets: %s, %d B; the persistent world holds %s (%d B)\n",
		english.Count(r.Distinct, "distinct asset"), r.Bytes, english.Count(r.Persistent.Assets, "asset"), r.Persistent.Bytes)
	if len(r.Heaviest) > 0 {
		parts := make([]string, len(r.Heaviest))
		for i, c := range r.Heaviest {
			parts[i] = fmt.Sprintf("%s (%s, %d B)", c.Cell, english.Count(c.Assets, "asset"), c.Bytes)
		}
		fmt.Fprintf(w, "  heaviest cells by assets: %s\n", strings.Join(parts, ", "))
	}
	if len(r.Shared) > 0 {
		parts := make([]string, len(r.Shared))
		for i, a := range r.Shared {
			parts[i] = fmt.Sprintf("%s (%d B, %s)", a.Path, a.Bytes, english.Count(a.Cells, "cell"))
		}
		fmt.Fprintf(w, "  most shared assets: %s\n", strings.Join(parts, ", "))
	}
}

// missCode is the code of a reference that leads nowhere for reason.
func missCode(reason string) string {
	if assets.IsDuplicateUUID(reason) {
		return CodeDuplicateUUID
	}
	return CodeMissingAsset
}
