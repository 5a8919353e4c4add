package route

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
)

// A marker of the markers route: a Marker entity or a point entity the
// project names (Options.Points).
type marker struct {
	at    int
	kind  string // Marker.type; "" for a point entity
	order float64
	has   bool // properties.order was given
	pos   Point
}

// markers walks from marker to marker in order at the walking speed:
// along the engine's grid path on a 2D scene whose tilemap blocks tiles,
// in straight lines elsewhere.
func (m *maker) markers() ([]*Route, string, error) {
	pts, err := m.points(nil)
	if err != nil {
		return nil, "", err
	}
	switch len(pts) {
	case 0:
		why := "the scene has no Marker entity"
		if len(m.o.Points) > 0 {
			why += " and no entity with " + strings.Join(m.o.Points, ", ")
		} else {
			why += "; name other point entities' components in worldcook.yaml (route: {points: [Spawner]})"
		}
		return nil, why, nil
	case 1:
		return nil, fmt.Sprintf("the scene has one marker, %s: a walk needs two", m.w.label(pts[0].at)), nil
	}
	speed, from, err := m.speed()
	if err != nil {
		return nil, "", err
	}
	tiles, note, err := m.tileGrid(pts)
	if err != nil {
		return nil, "", err
	}
	if note != "" {
		m.res.Notes = append(m.res.Notes, note)
	}
	line := []Point{pts[0].pos}
	for k := 1; k < len(pts); k++ {
		a, b := pts[k-1], pts[k]
		if tiles == nil {
			line = append(line, b.pos)
			continue
		}
		leg, err := tiles.path(a.pos, b.pos)
		if err != nil {
			return nil, "", fmt.Errorf("%s: marker %s cannot be reached from marker %s: %v", m.w.file(), m.w.label(b.at), m.w.label(a.at), err)
		}
		line = append(line, leg[1:]...)
	}
	src, err := m.driven()
	if err != nil {
		return nil, "", err
	}
	how := "straight lines"
	if tiles != nil {
		how = "the tilemap's grid path (" + tiles.name + ")"
	}
	r := m.newRoute(FromMarkers, "markers", fmt.Sprintf("%s, %s to %s, along %s at %s units/s (%s)", english.Count(len(pts), "marker"), m.w.label(pts[0].at), m.w.label(pts[len(pts)-1].at), how, num(speed), from), src)
	if r.Frames, err = walk(line, speed, m.o.FPS); err != nil {
		return nil, "", fmt.Errorf("%s: the markers route: %v", m.w.file(), err)
	}
	return []*Route{r}, "", nil
}

// points are the scene's markers, of type kind when kinds is set, in the
// order the markers route visits them: by properties.order, then name,
// then authored order; the project's point entities after the markers
// without an order.
func (m *maker) points(kinds []string) ([]marker, error) {
	w := m.w
	var out []marker
	for i := 0; i < w.len(); i++ {
		mk := marker{at: i}
		data, isMarker := w.component(i, "Marker")
		switch {
		case isMarker:
			if v, ok := scene.Field(data, "type"); ok {
				mk.kind, _ = scene.Str(v)
			}
			if props, ok := scene.Field(data, "properties"); ok {
				if v, ok := scene.Field(props, "order"); ok {
					// Marker properties are strings; a number is taken too.
					s, err := scene.Str(v)
					if err != nil {
						s = string(v)
					}
					f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
					if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
						return nil, w.entityError(i, "Marker.properties.order", fmt.Sprintf("%s is not a number", s), "give the marker's order as a number, e.g. \"2\"")
					}
					mk.order, mk.has = f, true
				}
			}
		case slices.ContainsFunc(m.o.Points, func(t string) bool { return w.has(i, t) }):
		default:
			continue
		}
		if kinds != nil && !slices.Contains(kinds, mk.kind) {
			continue
		}
		mat, err := w.where(i, nil)
		if err != nil {
			return nil, err
		}
		o := mat.Origin()
		if !finite3(o) {
			return nil, w.entityError(i, "Transform", "puts the marker at a position that is not a finite number", "check its Transform and its parents'")
		}
		mk.pos = m.onPlane(o.X, o.Y, o.Z)
		out = append(out, mk)
	}
	slices.SortStableFunc(out, func(a, b marker) int {
		switch {
		case a.has != b.has:
			if a.has {
				return -1
			}
			return 1
		case a.has && a.order != b.order:
			if a.order < b.order {
				return -1
			}
			return 1
		}
		return strings.Compare(w.name(a.at), w.name(b.at))
	})
	return out, nil
}

// speed is the walking speed: the option, else the first NavAgent's, else
// DefaultSpeed; from says which.
func (m *maker) speed() (float64, string, error) {
	if m.o.Speed > 0 {
		return m.o.Speed, "--speed", nil
	}
	for i := 0; i < m.w.len(); i++ {
		data, ok := m.w.component(i, "NavAgent")
		if !ok {
			continue
		}
		s := 120.0 // the engine's NavAgent default
		if v, ok := scene.Field(data, "speed"); ok {
			f, err := scene.Float(v)
			if err != nil || !(f > 0) {
				return 0, "", m.w.entityError(i, "NavAgent.speed", fmt.Sprintf("is %s, not a speed above 0", string(v)), "give the agent's speed in units a second, or pass --speed")
			}
			s = f
		}
		return s, "the NavAgent of " + m.w.label(i), nil
	}
	return DefaultSpeed, "the default; pass --speed or give an agent a NavAgent", nil
}

// tileGrid is the walkable grid of the scene's tilemap when the markers
// walk on one: a 2D (xy) scene with an orthogonal TilemapLayer of square
// tiles whose collidableTileIds block some. nil (with a note when a
// tilemap is there but cannot be walked as the engine would) otherwise.
func (m *maker) tileGrid(pts []marker) (*tileGrid, string, error) {
	if m.w.plan.Plane != manifest.PlaneXY {
		return nil, "", nil
	}
	var layers []int
	for i := 0; i < m.w.len(); i++ {
		if data, ok := m.w.component(i, "TilemapLayer"); ok {
			if v, ok := scene.Field(data, "collidableTileIds"); ok && scene.KindOf(v) == scene.Array && len(v) > 2 {
				layers = append(layers, i)
			}
		}
	}
	if len(layers) == 0 {
		return nil, "", nil
	}
	return m.buildTileGrid(layers, pts)
}
