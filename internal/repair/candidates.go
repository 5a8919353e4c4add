package repair

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/internal/initworld"
	"github.com/worldcook/worldcook/internal/reparent"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/validate"
)

// fix lists, measures and chooses the repairs of group g.
func (s *state) fix(g *group) *Fix {
	w := s.plan.World()
	fx := &Fix{Findings: g.findings, Chosen: -1}
	for _, r := range g.roots {
		fx.Roots = append(fx.Roots, Root{ID: w.Doc().Entities[r].ID, Name: w.Name(world.Ent{I: int32(r)}), Cell: cellOf(s.plan, r)})
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
	w := s.plan.World()
	d := w.Doc()
	c := &Candidate{Kind: "persistent"}
	marked := map[int]bool{}
	add := func(p *validate.Plan, fs []validate.Finding, from func(int) bool) bool {
		grew := false
		for _, f := range fs {
			a, b, ok := ends(p, f)
			if !ok || !from(a) || marked[b] {
				continue
			}
			marked[b] = true
			grew = true
		}
		return grew
	}
	inGroup := func(r int) bool { return slices.Contains(g.roots, r) }
	add(s.plan, g.findings, inGroup)
	edit := s.edit
	for range len(d.Entities) + 1 {
		ids := []int64{}
		for r := range marked {
			if why := unexpanded(w, r); why != "" && c.Excluded == "" {
				c.Excluded = why
			}
			ids = append(ids, d.Entities[r].ID)
		}
		if c.Excluded != "" {
			break
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
		if !add(p, broken(p), func(r int) bool { return marked[r] || inGroup(r) }) {
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
		names = append(names, who(w, r))
	}
	c.Repair = "mark " + strings.Join(names, ", ") + " WorldPersistent"
	return c
}

// unexpanded says why the repair cannot write prefab instance entry i's
// overrides ("" when i is no instance, or one expanded): without its
// prefab, the root they would name is unknown.
func unexpanded(w *world.World, i int) string {
	in := w.Instance(int32(i))
	if in == nil || in.Expanded() {
		return ""
	}
	why := in.Unresolved
	if why == "" {
		why = in.Why
	}
	return who(w, i) + " is a prefab instance that cannot be expanded (" + why + "), so the root its overrides would name is unknown"
}

// gather is the candidate that moves every other root of the group under
// root y.
func (s *state) gather(g *group, y int) *Candidate {
	w := s.plan.World()
	d := w.Doc()
	c := &Candidate{Kind: "move"}
	var moved []string
	edit := s.edit
	edit.Moves = slices.Clone(s.edit.Moves)
	// Both are top-level: their local transforms are their world ones.
	yt, yHas, yErr := w.Local(int32(y))
	yPersistent := cellOf(s.plan, y) == "persistent"
	for _, x := range g.roots {
		if x == y {
			continue
		}
		moved = append(moved, who(w, x))
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
			c.Excluded = who(w, y) + " has no " + place(w, y) + ", so what moves under it would lose its place"
			continue
		}
		xt, xHas, err := w.Local(int32(x))
		switch {
		case err != nil:
			c.Excluded = err.Error()
			continue
		case !xHas:
			c.Excluded = who(w, x) + " has no " + place(w, x) + " to recompute"
			continue
		}
		local, err := reparent.Under(yt, xt)
		if err != nil {
			c.Excluded = "under " + who(w, y) + ": " + err.Error()
			continue
		}
		local = tidy(yt, local, xt)
		m := initworld.Move{Entity: d.Entities[x].ID, Under: d.Entities[y].ID, Transform: local,
			Unpersist: w.Flags(int32(x))&world.Persistent != 0, From: xt}
		edit.Moves = append(edit.Moves, m)
		c.Moves = append(c.Moves, Move{Entity: m.Entity, Under: m.Under, Transform: transformOf(local), Unpersist: m.Unpersist})
	}
	c.edit = edit
	c.Repair = "move " + strings.Join(moved, ", ") + " under " + who(w, y)
	return c
}

// place names what gives entity i its place when it has none: a
// Transform, or for a prefab instance whose Transform overrides cannot be
// read, those overrides (why).
func place(w *world.World, i int) string {
	if in := w.Instance(int32(i)); in != nil && in.Why != "" {
		return "place (" + in.Why + ")"
	}
	return "Transform"
}

// refuseMove says why root x may not move under root y ("" when it may).
func (s *state) refuseMove(x, y int, yPersistent bool) string {
	w := s.plan.World()
	switch {
	case w.Flags(int32(x))&world.StreamedWorld != 0:
		return who(w, x) + " is the world's StreamedWorld entity, which stays top-level"
	}
	for _, i := range []int{x, y} {
		if why := unexpanded(w, i); why != "" {
			return why
		}
	}
	// What the game or physics moves carries its children along: the
	// move keeps every entity where it is when the world loads, not once
	// the camera, the player or the body moves.
	ye := world.Ent{I: int32(y)}
	switch {
	case has(w, ye, "WorldStreamingSource"):
		return "it puts " + who(w, x) + " under the streaming source " + who(w, y) + ", which the game moves: it would be carried along"
	case has(w, ye, "Camera"):
		return "it puts " + who(w, x) + " under the camera " + who(w, y) + ", which the game moves: it would be carried along"
	case moving(w, ye):
		return "it puts " + who(w, x) + " under the moving body " + who(w, y) + ": physics would carry it along"
	}
	var why string
	spawnedUnder(w, int32(x), func(e world.Ent) bool {
		if !yPersistent {
			switch {
			case has(w, e, "WorldStreamingSource"):
				why = "it moves the streaming source " + whoEnt(w, e) + " into a cell, which would unload what asks for cells"
			case has(w, e, "Camera"):
				why = "it moves the camera " + whoEnt(w, e) + " into a cell"
			}
		}
		return why == ""
	})
	return why
}

// whoEnt names entity e for people: a scene entity as who does, one
// inside an instance by its path ("House#12/Wing/Door").
func whoEnt(w *world.World, e world.Ent) string {
	if e.Sub == 0 {
		return who(w, int(e.I))
	}
	return w.Path(e)
}

func has(w *world.World, e world.Ent, typ string) bool {
	_, ok := w.Component(e, typ)
	return ok
}

// moving reports whether entity e carries a body physics moves: a
// RigidBody or RigidBody3D whose bodyType is not static (0); the engine's
// default is dynamic (2).
func moving(w *world.World, e world.Ent) bool {
	for _, typ := range []string{"RigidBody", "RigidBody3D"} {
		data, ok := w.Component(e, typ)
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

// spawnedUnder calls fn with every entity the engine spawns in root r's
// subtree (prefab instances expanded), until it returns false.
func spawnedUnder(w *world.World, r int32, fn func(world.Ent) bool) {
	roots := w.Roots()
	w.Spawned(func(e world.Ent) bool {
		if roots[e.I] != r {
			return true
		}
		return fn(e)
	})
}

// tidy rounds each number of local to 15 significant digits when that
// moves it by no more than two units of its last place and gives a
// number of at most shortDigits digits, and a
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
		if digits(v) > shortDigits {
			// Rounded, it is no shorter to read (0.9238795325112867, an
			// authored cosine, is not 0.923879532511287 to a reviewer).
			return f
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

// shortDigits is how many significant digits a number rounded by tidy
// may have: a rounding error's neighbourhood holds a short number (2,
// 0.25, 12.5), and a long one is as the arithmetic gives it.
const shortDigits = 12

// digits is how many significant digits the shortest text of f has.
func digits(f float64) int {
	m := strconv.FormatFloat(math.Abs(f), 'e', -1, 64)
	m, _, _ = strings.Cut(m, "e")
	return len(strings.Replace(m, ".", "", 1))
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
	if why := kept(s.plan.World(), p.World(), c.Moves); why != "" {
		c.Excluded = why
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

// kept says which entity a move's edit would displace in the world (""
// when none): every entity the engine spawns under a moved root, prefab
// instances expanded, must keep its world transform in the edited scene's
// model. The edit was computed to keep them; this reads it back as the
// engine will, so that a mistake is never offered as a repair.
func kept(before, after *world.World, moves []Move) string {
	why := ""
	for _, m := range moves {
		x, ok1 := before.Doc().Lookup(m.Entity)
		x2, ok2 := after.Doc().Lookup(m.Entity)
		if !ok1 || !ok2 {
			return fmt.Sprintf("entity %d is not in the repaired scene", m.Entity)
		}
		spawnedUnder(before, int32(x), func(e world.Ent) bool {
			a, hasA, err := before.WorldOf(e, nil)
			if err != nil || !hasA {
				return true
			}
			e2 := e
			if e.I != int32(x) {
				j, _ := after.Doc().Lookup(before.Doc().Entities[e.I].ID)
				e2.I = int32(j)
			} else {
				e2.I = int32(x2)
			}
			if e2.Sub > 0 {
				if in := after.Instance(e2.I); in == nil || !in.Expanded() || int(e2.Sub) > in.Tpl.Len() {
					why = "the edit would change the expansion of " + whoEnt(before, e)
					return false
				}
			}
			b, hasB, err := after.WorldOf(e2, nil)
			if err != nil || !hasB {
				why = "the edit would leave " + whoEnt(before, e) + " without a place"
				return false
			}
			if dev := reparent.Deviation(a, b); dev > reparent.Tolerance {
				why = fmt.Sprintf("the edit would move %s in the world (off by %.3g)", whoEnt(before, e), dev)
				return false
			}
			return true
		})
		if why != "" {
			return why
		}
	}
	return ""
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
