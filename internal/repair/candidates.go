package repair

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/initworld"
	"github.com/worldcook/worldcook/internal/reparent"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/validate"
)

// fix lists, measures and chooses the repairs of group g.
func (s *state) fix(g *group) *Fix {
	d := s.plan.Doc
	fx := &Fix{Findings: g.findings, Chosen: -1}
	for _, r := range g.roots {
		fx.Roots = append(fx.Roots, Root{ID: d.Entities[r].ID, Name: d.Entities[r].Name, Cell: cellOf(s.plan, r)})
	}
	var all []*Candidate
	all = append(all, s.persist(g))
	for _, y := range g.roots {
		all = append(all, s.gather(g, y))
	}
	for _, c := range all {
		if c.Excluded == "" {
			s.measure(g, c)
		}
		if c.Excluded != "" {
			fx.Excluded = append(fx.Excluded, c)
		} else {
			fx.Candidates = append(fx.Candidates, c)
		}
	}
	fx.Chosen, fx.Why = choose(fx.Candidates, len(s.o.Routes) > 0)
	return fx
}

// persist is the candidate that marks WorldPersistent every root a broken
// reference of the group targets, and then every root a reference from a
// newly persistent one reaches in a cell, until none is left.
func (s *state) persist(g *group) *Candidate {
	d := s.plan.Doc
	c := &Candidate{Kind: "persistent"}
	marked := map[int]bool{}
	add := func(fs []validate.Finding, from func(int) bool) bool {
		grew := false
		for _, f := range fs {
			a, b, ok := ends(d, f)
			if !ok || !from(a) || marked[b] {
				continue
			}
			marked[b] = true
			grew = true
		}
		return grew
	}
	inGroup := func(r int) bool { return slices.Contains(g.roots, r) }
	add(g.findings, inGroup)
	edit := s.edit
	for range len(d.Entities) + 1 {
		ids := []int64{}
		for r := range marked {
			ids = append(ids, d.Entities[r].ID)
		}
		slices.Sort(ids)
		edit = s.edit
		edit.Persist = append(slices.Clone(s.edit.Persist), ids...)
		p, _, _, _, err := s.evaluate(edit, false)
		if err != nil {
			c.Excluded = err.Error()
			break
		}
		// A newly persistent root that references into a cell takes
		// what it references along.
		if !add(broken(p), func(r int) bool { return marked[r] || inGroup(r) }) {
			break
		}
	}
	c.edit = edit
	var names []string
	var roots []int
	for r := range marked {
		roots = append(roots, r)
	}
	slices.Sort(roots)
	for _, r := range roots {
		c.Persist = append(c.Persist, d.Entities[r].ID)
		names = append(names, who(d, r))
		if d.Entities[r].IsPrefab() && c.Excluded == "" {
			c.Excluded = who(d, r) + " is a prefab instance: marking it WorldPersistent means a component_added override, which --fix does not write yet"
		}
	}
	c.Repair = "mark " + strings.Join(names, ", ") + " WorldPersistent"
	return c
}

// gather is the candidate that moves every other root of the group under
// root y.
func (s *state) gather(g *group, y int) *Candidate {
	d := s.plan.Doc
	c := &Candidate{Kind: "move"}
	var moved []string
	edit := s.edit
	edit.Moves = slices.Clone(s.edit.Moves)
	yt, yHas, yErr := d.Transform(y)
	yPersistent := cellOf(s.plan, y) == "persistent"
	for _, x := range g.roots {
		if x == y {
			continue
		}
		moved = append(moved, who(d, x))
		if c.Excluded != "" {
			continue
		}
		c.Excluded = s.refuseMove(x, y, yPersistent)
		if c.Excluded != "" {
			continue
		}
		switch {
		case yErr != nil:
			c.Excluded = yErr.Error()
			continue
		case !yHas:
			c.Excluded = who(d, y) + " has no Transform, so what moves under it would lose its place"
			continue
		}
		xt, xHas, err := d.Transform(x)
		switch {
		case err != nil:
			c.Excluded = err.Error()
			continue
		case !xHas:
			c.Excluded = who(d, x) + " has no Transform to recompute"
			continue
		}
		local, err := reparent.Under(yt, xt)
		if err != nil {
			c.Excluded = "under " + who(d, y) + ": " + err.Error()
			continue
		}
		local = tidy(yt, local, xt)
		m := initworld.Move{Entity: d.Entities[x].ID, Under: d.Entities[y].ID, Transform: local,
			Unpersist: d.Has(x, "WorldPersistent")}
		edit.Moves = append(edit.Moves, m)
		c.Moves = append(c.Moves, Move{Entity: m.Entity, Under: m.Under, Transform: transformOf(local), Unpersist: m.Unpersist})
	}
	c.edit = edit
	c.Repair = "move " + strings.Join(moved, ", ") + " under " + who(d, y)
	return c
}

// refuseMove says why root x may not move under root y ("" when it may).
func (s *state) refuseMove(x, y int, yPersistent bool) string {
	d := s.plan.Doc
	switch {
	case d.Entities[x].IsPrefab():
		return who(d, x) + " is a prefab instance, whose transform lives in its overrides: --fix does not move instances yet"
	case d.Entities[y].IsPrefab():
		return who(d, y) + " is a prefab instance: --fix does not move entities under instances yet"
	case d.Has(x, "StreamedWorld"):
		return who(d, x) + " is the world's StreamedWorld entity, which stays top-level"
	}
	sub := subtree(d, x)
	if !yPersistent {
		for _, i := range sub {
			switch {
			case d.Has(i, "WorldStreamingSource"):
				return "it moves the streaming source " + who(d, i) + " into a cell, which would unload what asks for cells"
			case d.Has(i, "Camera"):
				return "it moves the camera " + who(d, i) + " into a cell"
			}
		}
	}
	if moving(d, y) {
		for _, i := range sub {
			if d.Has(i, "RigidBody") || d.Has(i, "RigidBody3D") {
				return "it re-parents the rigid body " + who(d, i) + " under the moving body " + who(d, y)
			}
		}
	}
	return ""
}

// moving reports whether entity i carries a body physics moves: a
// RigidBody or RigidBody3D whose bodyType is not static (0); the engine's
// default is dynamic (2).
func moving(d *scene.Document, i int) bool {
	for _, typ := range []string{"RigidBody", "RigidBody3D"} {
		data, ok := d.Component(i, typ)
		if !ok {
			continue
		}
		v, ok := scene.Field(data, "bodyType")
		if !ok || string(v) != "0" {
			return true
		}
	}
	return false
}

// subtree is entity r and every entity below it, by the document's
// parent links.
func subtree(d *scene.Document, r int) []int {
	out := []int{}
	for i := range d.Entities {
		if rootOf(d, i) == r {
			out = append(out, i)
		}
	}
	return out
}

// tidy rounds each number of local to 15 significant digits when that
// moves it by no more than two units of its last place, and a
// number a trillionth of the transform's size or less to 0, when the
// rounded transform still keeps the entity where it is (reparent.Check):
// a reviewer reads 2 and 0 rather than 2.0000000000000004 and 3.6e-15.
func tidy(parent, local, want scene.TRS) scene.TRS {
	size := 1.0
	for _, v := range []float64{local.Position.X, local.Position.Y, local.Position.Z} {
		size = math.Max(size, math.Abs(v))
	}
	r := func(f, size float64) float64 {
		if math.Abs(f) <= 1e-12*size {
			return 0
		}
		v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
		if ulp := math.Nextafter(math.Abs(f), math.Inf(1)) - math.Abs(f); math.Abs(v-f) > 2*ulp {
			return f // not a rounding error of a short number
		}
		return v
	}
	p, q, s := local.Position, local.Rotation, local.Scale
	t := scene.TRS{
		Position: scene.Vec3{X: r(p.X, size), Y: r(p.Y, size), Z: r(p.Z, size)},
		Rotation: scene.Quat{X: r(q.X, 1), Y: r(q.Y, 1), Z: r(q.Z, 1), W: r(q.W, 1)},
		Scale:    scene.Vec3{X: r(s.X, 1), Y: r(s.Y, 1), Z: r(s.Z, 1)},
	}
	if reparent.Check(parent, t, want) != nil {
		return local
	}
	return t
}

// key identifies a finding across edits of the scene.
func key(f validate.Finding) string {
	var e, t int64
	if f.Entity != nil {
		e = *f.Entity
	}
	if f.Target != nil {
		t = *f.Target
	}
	return fmt.Sprintf("%s %d %s %d", f.Code, e, f.Field, t)
}

// measure applies c, refuses it when the group stays broken or a finding
// the scene did not have appears, and measures its costs.
func (s *state) measure(g *group, c *Candidate) {
	p, m, w, runs, err := s.evaluate(c.edit, true)
	if err != nil {
		c.Excluded = "the repaired scene does not cook: " + err.Error()
		return
	}
	before := map[string]bool{}
	for _, f := range s.plan.Findings {
		before[key(f)] = true
	}
	for _, f := range g.findings {
		delete(before, key(f))
	}
	for _, f := range p.Findings {
		if before[key(f)] {
			continue
		}
		if f.Severity == validate.SeverityError || breaks[f.Code] || slices.ContainsFunc(g.findings, func(b validate.Finding) bool { return key(b) == key(f) }) {
			c.Excluded = "it leaves or brings " + describe(f)
			return
		}
		// A warning about the world's shape (nothing-streams, ...)
		// is a consequence to read, not a break.
		c.Warnings = append(c.Warnings, describe(f))
	}
	c.ResidentBytes = residentBytes(m, w) - residentBytes(s.man, s.world)
	c.Simulated = runs
	if c.Kind == "move" && len(c.Moves) > 0 {
		under, _ := p.Doc.Lookup(c.Moves[0].Under)
		c.Growth = growth(s.plan, p, under)
	}
}

// breaks are the warnings a repair may not bring: what the engine would
// unload that must stay (a camera, a UI root, a scene-wide light, a
// streaming source in a cell).
var breaks = map[string]bool{
	validate.CodeCameraInCell: true, validate.CodeUIRootInCell: true,
	validate.CodeGlobalLightInCell: true, validate.CodeSourceInCell: true,
	validate.CodeDanglingRef: true,
}

// describe names a finding in one line.
func describe(f validate.Finding) string {
	return f.Code + ": " + f.Message
}

// growth is how the bounds of the cell that holds entity i in after grew
// from before (the same cell, else its grid square); nil when i is
// persistent.
func growth(before, after *validate.Plan, i int) *Growth {
	for _, c := range after.Cells {
		if _, ok := slices.BinarySearch(c.Entities, int32(i)); !ok {
			continue
		}
		old := c.Grid
		for _, b := range before.Cells {
			if b.Name == c.Name {
				old = b.Bounds
			}
		}
		nb := c.Bounds
		area := (nb.MaxX-nb.MinX)*(nb.MaxZ-nb.MinZ) - (old.MaxX-old.MinX)*(old.MaxZ-old.MinZ)
		reach := math.Max(math.Max(old.MinX-nb.MinX, nb.MaxX-old.MaxX), math.Max(old.MinZ-nb.MinZ, nb.MaxZ-old.MaxZ))
		return &Growth{Cell: c.Name, Area: math.Max(0, area), Reach: math.Max(0, reach)}
	}
	return nil
}

// choose picks the cheapest candidate: the lowest simulated peak when
// routes were given, else the fewest always-resident bytes, then the
// least bounds growth (area, then reach), then the first in file order.
func choose(cs []*Candidate, routes bool) (int, string) {
	if len(cs) == 0 {
		return -1, "no repair keeps the rest of the scene as it is"
	}
	best := 0
	for k := 1; k < len(cs); k++ {
		if less(cs[k], cs[best], routes) {
			best = k
		}
	}
	if len(cs) == 1 {
		return best, "the only repair that keeps the rest of the scene as it is"
	}
	b := cs[best]
	var next *Candidate
	for k, c := range cs {
		if k != best && (next == nil || less(c, next, routes)) {
			next = c
		}
	}
	switch {
	case routes && b.Peak() != next.Peak():
		return best, "lowest simulated peak resident bytes"
	case b.ResidentBytes != next.ResidentBytes:
		return best, "fewest bytes made always-resident"
	case area(b) != area(next) || reach(b) != reach(next):
		return best, "least growth of the receiving cell's bounds"
	}
	return best, "ties on every cost; the first in the file"
}

func less(a, b *Candidate, routes bool) bool {
	if routes && a.Peak() != b.Peak() {
		return a.Peak() < b.Peak()
	}
	if a.ResidentBytes != b.ResidentBytes {
		return a.ResidentBytes < b.ResidentBytes
	}
	if area(a) != area(b) {
		return area(a) < area(b)
	}
	return reach(a) < reach(b)
}

func area(c *Candidate) float64 {
	if c.Growth == nil {
		return 0
	}
	return c.Growth.Area
}

func reach(c *Candidate) float64 {
	if c.Growth == nil {
		return 0
	}
	return c.Growth.Reach
}

var _ = diag.SeverityError
