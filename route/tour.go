package route

import (
	"fmt"
	"slices"

	"github.com/worldcook/worldcook/internal/english"

	"github.com/worldcook/worldcook/validate"
)

// tour walks through the centre of every cell with content, row by row
// and each row the other way from the last (serpentine), at the walking
// speed: the whole world streams in turn, the worst case for memory.
// Cells of coarser levels are visited by the level-0 cells they cover;
// a world whose content is all at coarser levels is toured over theirs.
func (m *maker) tour() ([]*Route, string, error) {
	p := m.w.plan
	if !p.Streamed {
		return nil, "the scene is not a streamed world (no StreamedWorld); run worldcook init to make it one", nil
	}
	cells := slices.DeleteFunc(slices.Clone(p.Cells), func(c validate.Cell) bool { return c.Level != 0 })
	if len(cells) == 0 {
		cells = slices.Clone(p.Cells)
	}
	if len(cells) == 0 {
		return nil, "the world has no cell with content", nil
	}
	slices.SortStableFunc(cells, func(a, b validate.Cell) int {
		if a.Level != b.Level {
			return int(a.Level - b.Level)
		}
		if a.Z != b.Z {
			return int(a.Z) - int(b.Z)
		}
		return int(a.X) - int(b.X)
	})
	var line []Point
	row, back := 0, false
	for i := 0; i < len(cells); i = row {
		for row = i; row < len(cells) && cells[row].Z == cells[i].Z && cells[row].Level == cells[i].Level; row++ {
		}
		run := cells[i:row]
		for k := range run {
			c := run[k]
			if back {
				c = run[len(run)-1-k]
			}
			line = append(line, Point{(c.Grid.MinX + c.Grid.MaxX) / 2, (c.Grid.MinZ + c.Grid.MaxZ) / 2})
		}
		back = !back
	}
	speed, from, err := m.speed()
	if err != nil {
		return nil, "", err
	}
	src, err := m.driven()
	if err != nil {
		return nil, "", err
	}
	if len(line) == 1 {
		// One cell: a walk would be one frame, which every gate reads as
		// the start alone; stand in it for --hold seconds instead, as a
		// teleport holds a spawn point.
		hold := max(int(m.o.Hold*m.o.FPS+0.5), 1)
		if hold > MaxFrames {
			return nil, "", fmt.Errorf("%s: holding the world's one cell %s s at %s frames a second spans more than %d frames (MaxRouteFrames); lower --hold or --fps", m.w.file(), num(m.o.Hold), num(m.o.FPS), MaxFrames)
		}
		r := m.newRoute(FromTour, "tour", fmt.Sprintf("the centre of the world's one cell with content, held %s s", num(m.o.Hold)), src)
		for range hold {
			r.Frames = append(r.Frames, line[0])
		}
		return []*Route{r}, "", nil
	}
	r := m.newRoute(FromTour, "tour", fmt.Sprintf("the centres of %s with content, row by row, at %s units/s (%s)", english.Count(len(line), "cell"), num(speed), from), src)
	if r.Frames, err = walk(line, speed, m.o.FPS); err != nil {
		return nil, "", fmt.Errorf("%s: the tour: %v", m.w.file(), err)
	}
	return []*Route{r}, "", nil
}

// teleport jumps between the spawn points (markers of type spawn, else
// the sources' authored positions), holding each for Hold seconds: every
// arrival a cold start.
func (m *maker) teleport() ([]*Route, string, error) {
	spawns, err := m.points([]string{"spawn"})
	if err != nil {
		return nil, "", err
	}
	var at []Point
	var names []string
	what := func(n int) string { return english.Count(n, "spawn marker") }
	for _, s := range spawns {
		if s.kind == "spawn" {
			at = append(at, s.pos)
			names = append(names, m.w.label(s.at))
		}
	}
	if len(at) == 0 {
		what = func(n int) string { return "the authored position of " + english.Count(n, "source") }
		for _, s := range m.w.plan.Sources {
			if s.Enabled {
				at = append(at, m.onPlane(s.Position.X, s.Position.Y, s.Position.Z))
				names = append(names, fmt.Sprintf("%q", s.Name))
			}
		}
	}
	if len(at) == 0 {
		return nil, "the scene has no Marker of type spawn and no enabled streaming source", nil
	}
	hold := int(m.o.Hold*m.o.FPS + 0.5)
	if hold < 1 {
		hold = 1
	}
	if len(at)*hold > MaxFrames {
		return nil, "", fmt.Errorf("%s: holding %d spawn points %s s each at %s frames a second spans more than %d frames (MaxRouteFrames); lower --hold or --fps", m.w.file(), len(at), num(m.o.Hold), num(m.o.FPS), MaxFrames)
	}
	src, err := m.driven()
	if err != nil {
		return nil, "", err
	}
	r := m.newRoute(FromTeleport, "teleport", fmt.Sprintf("%s (%s), %s s each", what(len(at)), join(names), num(m.o.Hold)), src)
	for k, p := range at {
		if k > 0 {
			r.Jumps = append(r.Jumps, len(r.Frames))
		}
		for f := 0; f < hold; f++ {
			r.Frames = append(r.Frames, p)
		}
	}
	return []*Route{r}, "", nil
}

// join lists names, the first few of a long list.
func join(names []string) string {
	const most = 4
	if len(names) <= most {
		return stringsJoin(names)
	}
	return stringsJoin(names[:most]) + fmt.Sprintf(" and %d more", len(names)-most)
}
