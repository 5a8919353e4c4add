package validate

import (
	"fmt"
	"io"
	"strconv"

	"github.com/worldcook/worldcook/internal/english"

	"github.com/worldcook/worldcook/internal/drawing"
	"github.com/worldcook/worldcook/manifest"
)

// Mark colours: red for cross-cell-ref, purple for persistent-to-cell-ref,
// orange for dangling-ref.
const (
	crossColor      = "#d62728"
	persistentColor = "#8e44ad"
	danglingColor   = "#e07b00"
)

// WriteMap draws a plan as an SVG map (the drawing simulate --map makes
// too): each cell shaded by its entity count with its grown bounds where
// they exceed the grid square, the streaming sources' load radii, and every
// rejected reference as an arrow from the referencing entity to its target.
// The drawing depends only on the plan.
func WriteMap(w io.Writer, p *Plan) error {
	return planMap(p).WriteSVG(w)
}

// MapRoute is a route drawn on a plan's map: points on the partition
// plane ([x, z], or [x, y] on an xy world), Jumps the indices of points
// reached by a jump.
type MapRoute struct {
	Name   string
	Points [][2]float64
	Jumps  []int
}

// WriteMapRoutes is WriteMap with routes drawn over the plan: the route
// set simulate and tune replay, on the world they stream.
func WriteMapRoutes(w io.Writer, p *Plan, routes []MapRoute) error {
	m := planMap(p)
	for _, r := range routes {
		dr := drawing.Route{Name: r.Name, Jumps: r.Jumps}
		for _, pt := range r.Points {
			dr.Points = append(dr.Points, drawing.Point{X: pt[0], Z: pt[1]})
		}
		m.Routes = append(m.Routes, dr)
	}
	if len(routes) > 0 {
		m.Subtitle += "; " + english.Count(len(routes), "route")
	}
	return m.WriteSVG(w)
}

// planMap returns the drawing (the map) of a plan, for callers that add to it.
func planMap(p *Plan) *drawing.Map {
	m := &drawing.Map{
		Title:    p.SceneName + " — worldcook validate",
		CellSize: p.CellSize,
		Neutral:  true,
		MaxGrown: outlinedGrowths,
	}
	if p.Plane == manifest.PlaneXY {
		m.AxisZ = "y"
	}
	errs, warns := p.Counts()
	if !p.Streamed {
		m.CellSize = 1
		m.Subtitle = fmt.Sprintf("not a streamed world (no StreamedWorld); %s, %s", english.Count(errs, "error"), english.Count(warns, "warning"))
		return m
	}
	m.ValueName = "entities"
	for _, c := range p.Cells {
		note := fmt.Sprintf("%s, %s", english.Count(len(c.Entities), "entity"), english.Count(c.Roots, "root"))
		if c.Overhang.By > 0 {
			note += fmt.Sprintf("; bounds grew %s, farthest out %s (%d)", short(c.Overhang.By), quoteName(c.Overhang.Name), c.Overhang.Entity)
		}
		m.Cells = append(m.Cells, drawing.Cell{
			Name: c.Name, Level: c.Level, X: c.X, Z: c.Z,
			Bounds: c.Bounds,
			Value:  float64(len(c.Entities)),
			Note:   note,
		})
	}
	for _, s := range p.Sources {
		u, v := s.Position.X, s.Position.Z
		if p.Plane == manifest.PlaneXY {
			v = s.Position.Y
		}
		if !finite(u) || !finite(v) {
			continue
		}
		m.Rings = append(m.Rings, drawing.Ring{
			Center: drawing.Point{X: u, Z: v},
			Radius: s.LoadRadius,
			Label:  "source load radius",
			Color:  "#2a9d8f",
		})
	}
	rejected, dangling := 0, 0
	for _, f := range p.Findings {
		a := f.Arrow
		if a == nil {
			continue
		}
		tip := f.Code + ": " + f.Message
		if a.Dangling {
			dangling++
			m.Markers = append(m.Markers, drawing.Marker{
				At:    drawing.Point{X: a.FromX, Z: a.FromZ},
				Label: tip,
				Text:  "dangling " + f.Field,
				Color: danglingColor,
				Kind:  CodeDanglingRef,
			})
			continue
		}
		rejected++
		color := crossColor
		if f.Code == CodePersistentToCellRef {
			color = persistentColor
		}
		m.Arrows = append(m.Arrows, drawing.Arrow{
			From:  drawing.Point{X: a.FromX, Z: a.FromZ},
			To:    drawing.Point{X: a.ToX, Z: a.ToZ},
			Label: tip,
			Text:  mapName(f.EntityName, f.Entity) + " → " + mapName(f.TargetName, f.Target),
			Color: color,
			Kind:  f.Code,
		})
	}
	m.Subtitle = fmt.Sprintf("cellSize %s on %s: %s, %s, %s; %s and %s drawn",
		fmtNum(p.CellSize), p.Plane, english.Count(len(p.Cells), "cell"), english.Count(errs, "error"), english.Count(warns, "warning"),
		english.Count(rejected, "rejected reference"), english.Count(dangling, "dangling reference"))
	return m
}

// outlinedGrowths is the most grown bounds a map outlines (drawing's
// MaxGrown): the 40 cells that grew most.
const outlinedGrowths = 40

// mapName names an entity along a map's arrow: its name, cut to
// mapNameRunes, or its id when it has none. The arrow's tooltip has the
// reference in full, field and all.
func mapName(name string, id *int64) string {
	if name == "" {
		if id == nil {
			return "?"
		}
		return "entity " + strconv.FormatInt(*id, 10)
	}
	if r := []rune(name); len(r) > mapNameRunes {
		return string(r[:mapNameRunes-1]) + "…"
	}
	return name
}

// mapNameRunes is the most characters of a name set along an arrow: two
// of them make a label of about 150 px.
const mapNameRunes = 14
