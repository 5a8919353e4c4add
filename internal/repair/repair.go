// Package repair is `worldcook validate --fix`: for every hard reference
// the cut breaks (cross-cell-ref, persistent-to-cell-ref), and every group
// of top-level entities such references tie together, the repairs that
// make the scene cook, what each costs, the cheapest, and the edit that
// makes it, as a diff a designer reviews.
//
// A repair is either marking roots WorldPersistent, or moving the group's
// other roots under one of them with their transforms recomputed
// (internal/reparent) so that nothing moves in the world; on a prefab
// instance, either is written as the instance's overrides on its
// prefab's root, as the engine applies them (internal/initworld). What
// it reads of the world (roots, subtrees, transforms, components,
// instances expanded) is the model validate.Check built
// (validate.Plan.World), never recomputed here. Each candidate
// is applied to the scene and the result checked and cooked in memory as
// cook would: a candidate that leaves a reference of the group broken, or
// brings a finding the scene did not have (a source or a camera moved
// into a cell, a reference of another pair broken, ...), is not offered.
// Its costs are measured on that cooked world: the bytes the persistent
// world gains (documents and assets), how far the receiving cell's bounds
// grow, and, given routes, the peak resident bytes and pop-in frames a
// simulation of each route gives.
package repair

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/initworld"
	"github.com/worldcook/worldcook/internal/regular"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
	"github.com/worldcook/worldcook/validate"
)

// Options configure Run.
type Options struct {
	// Open says how the scene is checked and cooked (validate options,
	// scenes root), as simulate opens a scene.
	Open cook.OpenOptions
	// Routes are the route files (--path) each candidate is simulated on;
	// none: candidates are chosen by their always-resident bytes.
	Routes []string
	// Simulate is the simulation each route runs (policy, settings, and
	// Compare for both policies); its Route is set per route.
	Simulate simulate.Options
	// Name is the scene's path in the diff ("": as init names it).
	Name string
}

// Result is the repair of one scene.
type Result struct {
	File string
	// Fixes are one per group of broken references, in the order of
	// their first root in the file.
	Fixes []*Fix
	// Edit is the edit of every chosen repair: its Before, After and
	// Diff (empty when nothing is repaired).
	Edit *initworld.Result
	// Left are the broken references the repair leaves (no candidate
	// was offered for them), and Errors the errors the repaired scene
	// still has.
	Left   []validate.Finding
	Errors int
}

// Fix is one group of broken references and its repairs.
type Fix struct {
	// Findings are the group's broken references, as validate reports
	// them.
	Findings []validate.Finding `json:"findings"`
	// Roots are the top-level entities the group ties, in file order.
	Roots []Root `json:"roots"`
	// Candidates are the repairs offered, in the order ties go by;
	// Excluded those that were not, each with why.
	Candidates []*Candidate `json:"candidates"`
	Excluded   []*Candidate `json:"excluded,omitempty"`
	// Chosen indexes Candidates (-1: none offered), Why says why.
	Chosen int    `json:"chosen"`
	Why    string `json:"why"`
}

// Root is a top-level entity and where the cut puts it.
type Root struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Cell string `json:"cell"` // "persistent" or a cell's name
}

// Candidate is one repair and its costs.
type Candidate struct {
	// Repair says what it does, for people.
	Repair string `json:"repair"`
	// Kind is "persistent" (roots marked WorldPersistent) or "move".
	Kind    string  `json:"kind"`
	Persist []int64 `json:"persist,omitempty"`
	Moves   []Move  `json:"moves,omitempty"`
	// ResidentBytes are the bytes the persistent world gains: its
	// document and the assets it holds.
	ResidentBytes int64 `json:"residentBytes"`
	// Growth is how the receiving cell's bounds grow (a move).
	Growth *Growth `json:"boundsGrowth,omitempty"`
	// Simulated are the simulations of the routes with the repair made.
	Simulated []Run `json:"simulated,omitempty"`
	// Warnings are the warnings the repaired scene has that the scene
	// had not, which do not stop the repair (nothing-streams, ...).
	Warnings []string `json:"warnings,omitempty"`
	// Excluded says why it is not offered.
	Excluded string `json:"excluded,omitempty"`

	edit initworld.Repair
}

// Move is one root moved under another, with its new local transform.
type Move struct {
	Entity    int64     `json:"entity"`
	Under     int64     `json:"under"`
	Transform Transform `json:"transform"`
	// Unpersist says its WorldPersistent is removed: it takes the
	// residency of the root it moves under.
	Unpersist bool `json:"unpersist,omitempty"`
}

// Transform is a local transform as the scene writes it.
type Transform struct {
	Position [3]float64 `json:"position"`
	Rotation [4]float64 `json:"rotation"`
	Scale    [3]float64 `json:"scale"`
}

// Growth is how far a cell's bounds grow.
type Growth struct {
	Cell string `json:"cell"`
	// Area is the growth of the bounds' area; Reach the farthest any
	// side moves out.
	Area  float64 `json:"area"`
	Reach float64 `json:"reach"`
}

// Run is one route simulated under one policy with the repair made.
// PeakResidentBytes is simulate's peak (the cells and the assets
// resident) plus the persistent world's document, which is resident
// throughout: a mark moves bytes out of the cells into it.
type Run struct {
	Route             string `json:"route"`
	Policy            string `json:"policy"`
	PeakResidentBytes int64  `json:"peakResidentBytes"`
	PopInFrames       int    `json:"popInFrames"`
}

// Peak is the highest simulated peak of the candidate (0 without routes).
func (c *Candidate) Peak() int64 {
	var p int64
	for _, r := range c.Simulated {
		p = max(p, r.PeakResidentBytes)
	}
	return p
}

// RunFile reads the scene at file and repairs it (Make); with write it
// replaces the file by the result, atomically, as init writes (a link,
// a special or a read-only file is refused before anything is read).
func RunFile(ctx context.Context, file string, o Options, write bool) (*Result, error) {
	if write {
		if err := initworld.Writable(file); err != nil {
			return nil, err
		}
	}
	src, err := regular.ReadFile(file, "scene")
	if err != nil {
		return nil, err
	}
	r, err := Make(ctx, file, src, o)
	if err != nil {
		return nil, err
	}
	if write && len(r.Edit.Diff) > 0 {
		if err := initworld.Write(r.Edit); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// state is the scene with the repairs chosen so far.
type state struct {
	ctx  context.Context
	file string
	src  []byte
	o    Options
	// edit is every repair chosen so far.
	edit initworld.Repair
	// plan, man, world are the scene with them.
	plan  *validate.Plan
	man   *manifest.Manifest
	world *streaming.World
	runs  []Run
}

// Make repairs the scene in src (read from file).
func Make(ctx context.Context, file string, src []byte, o Options) (*Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	s := &state{ctx: ctx, file: file, src: src, o: o, edit: initworld.Repair{Name: o.Name}}
	if err := s.load(s.edit); err != nil {
		return nil, err
	}
	if !s.plan.Streamed {
		return nil, fmt.Errorf("%s is not a streamed world (it has no StreamedWorld entity): no reference crosses a cell; make it one with worldcook init", file)
	}
	s.edit.Roots = rootAddresses(s.plan.World())
	res := &Result{File: file}
	tried := map[int64]bool{}
	for range len(s.plan.Doc.Entities) + 1 {
		g := s.nextGroup(tried)
		if g == nil {
			break
		}
		fx := s.fix(g)
		res.Fixes = append(res.Fixes, fx)
		for _, r := range fx.Roots {
			tried[r.ID] = true
		}
		if fx.Chosen < 0 {
			continue
		}
		c := fx.Candidates[fx.Chosen]
		s.edit = c.edit
		if err := s.load(s.edit); err != nil {
			return nil, err
		}
	}
	edit, err := initworld.MakeRepair(file, src, s.edit)
	if err != nil {
		return nil, err
	}
	res.Edit = edit
	res.Left = broken(s.plan)
	res.Errors = s.plan.Errors(false)
	return res, nil
}

// load makes the scene with edit its state.
func (s *state) load(edit initworld.Repair) error {
	p, m, w, runs, err := s.evaluate(edit, true)
	if err != nil {
		return err
	}
	s.plan, s.man, s.world, s.runs = p, m, w, runs
	return nil
}

// evaluate applies edit to the scene, checks and cooks it, and simulates
// the routes on it (with routes).
func (s *state) evaluate(edit initworld.Repair, routes bool) (*validate.Plan, *manifest.Manifest, *streaming.World, []Run, error) {
	src := s.src
	if len(edit.Persist)+len(edit.Moves) > 0 {
		r, err := initworld.MakeRepair(s.file, s.src, edit)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		src = r.After()
	}
	p, m, w, err := cook.OpenSource(s.ctx, s.file, src, s.o.Open)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	var runs []Run
	if routes && w != nil {
		for _, route := range s.o.Routes {
			so := s.o.Simulate
			so.Route = route
			res, err := simulate.Run(s.ctx, w, so)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			for _, pr := range res.Runs {
				// simulate counts the cells and every asset resident; the
				// persistent world's document never unloads either, and a
				// mark moves bytes from cells into it.
				runs = append(runs, Run{Route: route, Policy: string(pr.Policy), PeakResidentBytes: pr.Summary.PeakResidentBytes + m.Persistent.Bytes, PopInFrames: pr.Summary.PopInFrames})
			}
		}
	}
	return p, m, w, runs, nil
}

// broken are a plan's references the cut breaks.
func broken(p *validate.Plan) []validate.Finding {
	var out []validate.Finding
	for _, f := range p.Findings {
		if f.Code == validate.CodeCrossCellRef || f.Code == validate.CodePersistentToCellRef {
			out = append(out, f)
		}
	}
	return out
}

// group is roots tied by broken references, in file order, and the
// references.
type group struct {
	roots    []int // entity indices
	findings []validate.Finding
}

// ends are the roots either side of a broken reference, as the model of
// the plan's world has them (a reference inside a prefab instance is
// its entry's).
func ends(p *validate.Plan, f validate.Finding) (from, to int, ok bool) {
	if f.Entity == nil || f.Target == nil {
		return 0, 0, false
	}
	d, w := p.Doc, p.World()
	i, ok1 := d.Lookup(*f.Entity)
	j, ok2 := d.Lookup(*f.Target)
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	return int(w.Root(int32(i))), int(w.Root(int32(j))), true
}

// nextGroup is the first group (by its first root in the file) of the
// current plan's broken references none of whose roots was tried.
func (s *state) nextGroup(tried map[int64]bool) *group {
	d := s.plan.Doc
	fs := broken(s.plan)
	up := map[int]int{}
	var find func(int) int
	find = func(x int) int {
		if p, ok := up[x]; ok && p != x {
			r := find(p)
			up[x] = r
			return r
		}
		up[x] = x
		return x
	}
	for _, f := range fs {
		a, b, ok := ends(s.plan, f)
		if !ok {
			continue
		}
		ra, rb := find(a), find(b)
		if ra != rb {
			up[max(ra, rb)] = min(ra, rb)
		}
	}
	byRoot := map[int]*group{}
	var first *group
	for _, f := range fs {
		a, _, ok := ends(s.plan, f)
		if !ok {
			continue
		}
		r := find(a)
		g := byRoot[r]
		if g == nil {
			g = &group{}
			byRoot[r] = g
			for x := range up {
				if find(x) == r {
					g.roots = append(g.roots, x)
				}
			}
			slices.Sort(g.roots)
		}
		g.findings = append(g.findings, f)
	}
	for _, g := range byRoot {
		skip := false
		for _, r := range g.roots {
			skip = skip || tried[d.Entities[r].ID]
		}
		if !skip && (first == nil || g.roots[0] < first.roots[0]) {
			first = g
		}
	}
	return first
}

// who names entity i for people: its name (a prefab instance's, else
// its root's in the prefab) and id.
func who(w *world.World, i int) string {
	id := strconv.FormatInt(w.Doc().Entities[i].ID, 10)
	name := w.Name(world.Ent{I: int32(i)})
	if name == "" {
		return "entity " + id
	}
	return strconv.Quote(name) + " (" + id + ")"
}

// rootAddresses are the addresses by which the overrides of each
// expanded prefab instance entry name its root, by the entry's id: what
// a repair of an instance writes its overrides on.
func rootAddresses(w *world.World) map[int64]string {
	out := map[int64]string{}
	for _, i := range w.Instances() {
		if in := w.Instance(i); in != nil && in.Expanded() {
			out[w.Doc().Entities[i].ID] = in.Tpl.Addr(in.Tpl.Root)
		}
	}
	return out
}

// cellOf names where the plan puts entity i.
func cellOf(p *validate.Plan, i int) string {
	for _, c := range p.Cells {
		if _, ok := slices.BinarySearch(c.Entities, int32(i)); ok {
			return c.Name
		}
	}
	return "persistent"
}

func transformOf(t scene.TRS) Transform {
	return Transform{
		Position: [3]float64{t.Position.X, t.Position.Y, t.Position.Z},
		Rotation: [4]float64{t.Rotation.X, t.Rotation.Y, t.Rotation.Z, t.Rotation.W},
		Scale:    [3]float64{t.Scale.X, t.Scale.Y, t.Scale.Z},
	}
}

// residentBytes are the bytes the persistent world of a cooked scene
// keeps resident: its document and its assets.
func residentBytes(m *manifest.Manifest, w *streaming.World) int64 {
	if m == nil {
		return 0
	}
	n := m.Persistent.Bytes
	if m.Persistent.AssetBytes != nil {
		n += *m.Persistent.AssetBytes
	}
	return n
}
