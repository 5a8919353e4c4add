package drawing

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/worldcook/worldcook/grid"
)

// Rect is a rectangle in world units on the partition plane.
type Rect = grid.Rect

// Point is a position in world units.
type Point = grid.Point

// Cell is one grid cell.
type Cell struct {
	Name string
	// Level is the cell's grid level (0, the default, for the ordinary
	// grid); X and Z index that level's grid. A coarser level's cell is
	// drawn as an outline of its square, one style per level.
	Level int32
	X, Z  int32
	// Bounds are the grown bounds; drawn when they exceed the grid square.
	Bounds Rect
	// Value shades the cell (0 leaves it pale grey); Note adds to its
	// tooltip.
	Value float64
	Note  string
	// Alert outlines the cell in the alert colour (a cell that was
	// missing when it was wanted).
	Alert bool
}

// Route is a path through the world, drawn as a line from a dot (start) to
// an arrowhead (end).
type Route struct {
	Name   string
	Points []Point
	// Jumps are the indices of points reached by a jump (a teleport, a
	// camera cut): the line is broken there rather than drawn across.
	Jumps []int
	// Ticks mark points along the route, such as every tenth frame.
	Ticks []Tick
	// TickName says what the ticks count ("frame ticks every 20
	// frames"), for the legend.
	TickName string
}

// Tick is a labelled mark on a route.
type Tick struct {
	At    Point
	Label string
}

// Mark highlights a stretch of a route, such as the frames during which
// cells were missing: a broad band under the route. A mark with a Badge
// (a short tag, such as a number) gets it in a disc at the stretch's
// start, and the legend lists the badge with the Label: a label set on
// the map itself would cover the route and its neighbours wherever
// stretches crowd.
type Mark struct {
	Points []Point
	Badge  string
	Label  string
	// Title is the band's tooltip.
	Title string
}

// Ring is a circle around a point, such as a source's radius.
type Ring struct {
	Center Point
	Radius float64
	Label  string
	Color  string
}

// Arrow joins two points, such as a reference that crosses cells.
type Arrow struct {
	From, To Point
	// Label is the tooltip; Text, if set, is written along the arrow
	// (drawn for as many arrows as fit without overlapping, see
	// maxArrowTexts).
	Label, Text string
	Color       string // default red
	// Kind names the arrow's colour in the legend ("cross-cell-ref");
	// arrows without a kind share one "reference" entry.
	Kind string
}

// Marker marks a point, such as a reference whose target does not exist.
type Marker struct {
	At          Point
	Label, Text string // tooltip; text next to the mark
	Color       string
	Kind        string // legend entry
}

// Map is a top-down drawing of a streamed world: +X to the right, the
// plane's second axis up.
type Map struct {
	Title, Subtitle string
	CellSize        float64
	Cells           []Cell
	// ValueName says what Cell.Value counts ("loads"); empty hides the
	// colour scale.
	ValueName string
	// ZeroLabel, if set, explains the grey of cells whose value is 0
	// ("never loaded"); empty leaves it out of the legend, for values
	// that are never 0.
	ZeroLabel string
	Routes    []Route
	Rings     []Ring
	Arrows    []Arrow
	Markers   []Marker
	// Neutral shades cells in greys instead of the heat ramp: for maps
	// whose message is drawn on top (rejected references), where a red
	// fill would drown it.
	Neutral bool
	// MaxGrown is the most grown bounds outlined: beyond it only the cells
	// whose bounds grew most are, and the legend says from which growth
	// on. At hundreds of cells an outline on every cell a door overhangs
	// hides the grid. 0 outlines all.
	MaxGrown int
	// Marks are highlighted stretches of routes; MarkName says what they
	// are, for the legend ("hole episode").
	Marks    []Mark
	MarkName string
	// MarkNote follows the list of badged marks in the legend.
	MarkNote string
	// View limits the drawing to a region; nil shows everything.
	View *Rect
	// AxisX and AxisZ name the axes (default "x" and "z").
	AxisX, AxisZ string
	// Width is the width of the plotting area in pixels (default 720).
	Width float64
}

// Layout constants, in pixels.
const (
	mapTop    = 64
	mapLeft   = 64
	mapRight  = 210
	mapBottom = 48
	// denseCells is the number of cells beyond which outlines and labels
	// are left out: they would only paint the map grey.
	denseCells = 20000
	// labelledCells is the number of cells drawn beyond which cells carry
	// no value label (their tooltips still do): a number in each of
	// hundreds of cells is a texture, not information.
	labelledCells = 150
	// labelledBoundsPx is the least width of a cell in pixels at which
	// grown bounds carry their cell's name: below it (thousands of cells)
	// the names would be all there is to see.
	labelledBoundsPx = 24
	// maxArrowTexts is the most arrow texts written; the rest keep their
	// tooltips. Texts that would overlap one already written are left
	// out too.
	maxArrowTexts = 40
)

// grid is cell c's grid square.
func (m *Map) grid(c Cell) Rect {
	return grid.Square(grid.Key{Level: c.Level, X: c.X, Z: c.Z}, m.CellSize)
}

// levelStrokes tell the levels' outlines apart, level 1 first.
var levelStrokes = [...]string{"#7b3294", "#c2a5cf", "#008837", "#a6611a", "#404040"}

// extent is the region drawn: the cells' grid squares, the routes, the
// arrows and the markers, widened to take in grown bounds that reach a
// little past them (see overreach). A bound reaching farther, one huge
// collider say, would shrink the world to a dot: it is drawn clipped, and
// offMap says so under the map.
func (m *Map) extent() (Rect, bool) {
	if m.View != nil {
		return *m.View, true
	}
	var r Rect
	ok := false
	add := func(o Rect) {
		if !ok {
			r, ok = o, true
			return
		}
		r = r.Union(o)
	}
	for _, c := range m.Cells {
		add(m.grid(c))
	}
	for _, rt := range m.Routes {
		for _, p := range rt.Points {
			add(Rect{MinX: p.X, MinZ: p.Z, MaxX: p.X, MaxZ: p.Z})
		}
	}
	for _, a := range m.Arrows {
		add(Rect{MinX: a.From.X, MinZ: a.From.Z, MaxX: a.From.X, MaxZ: a.From.Z})
		add(Rect{MinX: a.To.X, MinZ: a.To.Z, MaxX: a.To.X, MaxZ: a.To.Z})
	}
	for _, k := range m.Markers {
		add(Rect{MinX: k.At.X, MinZ: k.At.Z, MaxX: k.At.X, MaxZ: k.At.Z})
	}
	if !ok {
		return r, false
	}
	// Each side of a bound within reach widens the view; a side beyond
	// it is left off the map.
	allow := m.overreach(r)
	out := r
	for _, c := range m.Cells {
		b := c.Bounds
		if b.MinX >= r.MinX-allow {
			out.MinX = math.Min(out.MinX, b.MinX)
		}
		if b.MinZ >= r.MinZ-allow {
			out.MinZ = math.Min(out.MinZ, b.MinZ)
		}
		if b.MaxX <= r.MaxX+allow {
			out.MaxX = math.Max(out.MaxX, b.MaxX)
		}
		if b.MaxZ <= r.MaxZ+allow {
			out.MaxZ = math.Max(out.MaxZ, b.MaxZ)
		}
	}
	return out, true
}

// overreach is how far past the content (the cells' squares and the
// routes) grown bounds may reach and still be drawn whole: a cell, or a
// tenth of the content's larger side, whichever is more. Large props
// overhanging the grid's edge stay on the map; an outlier does not
// stretch it.
func (m *Map) overreach(content Rect) float64 {
	return math.Max(m.CellSize, 0.1*math.Max(content.MaxX-content.MinX, content.MaxZ-content.MinZ))
}

// offMap lists, farthest first, the outlined grown bounds that reach past
// the view: one caption line each, at most maxOffMap (then a line counting
// the rest), and the names of the cells captioned, whose boxes get arrows
// where they leave the map (on every box that does, they would fringe the
// frame of a world of large props).
func (m *Map) offMap(view Rect, outlined []Cell) ([]string, map[string]bool) {
	type off struct {
		name  string
		by    float64
		where []string
	}
	ax, az := m.axisNames()
	var offs []off
	for _, c := range outlined {
		b := c.Bounds
		var o off
		side := func(past float64, axis string, at float64) {
			if past > 0 {
				o.by = math.Max(o.by, past)
				o.where = append(o.where, axis+" = "+Short(at))
			}
		}
		side(view.MinX-b.MinX, ax, b.MinX)
		side(b.MaxX-view.MaxX, ax, b.MaxX)
		side(view.MinZ-b.MinZ, az, b.MinZ)
		side(b.MaxZ-view.MaxZ, az, b.MaxZ)
		if o.by > 0 {
			o.name = c.Name
			offs = append(offs, o)
		}
	}
	slices.SortStableFunc(offs, func(a, b off) int { return cmp.Compare(b.by, a.by) })
	var lines []string
	named := map[string]bool{}
	for i, o := range offs {
		if i == maxOffMap && len(offs) > maxOffMap+1 {
			lines = append(lines, fmt.Sprintf("and %d more cells' bounds reach past the map", len(offs)-i))
			break
		}
		named[o.name] = true
		lines = append(lines, fmt.Sprintf("%s's bounds reach to %s, off the map", o.name, strings.Join(o.where, " and ")))
	}
	return lines, named
}

// maxOffMap is the most off-map bounds named under a map.
const maxOffMap = 3

func (m *Map) axisNames() (string, string) {
	ax, az := m.AxisX, m.AxisZ
	if ax == "" {
		ax = "x"
	}
	if az == "" {
		az = "z"
	}
	return ax, az
}

// WriteSVG draws the map.
func (m *Map) WriteSVG(w io.Writer) error {
	view, ok := m.extent()
	if !ok {
		view = Rect{MinX: 0, MinZ: 0, MaxX: 1, MaxZ: 1}
	}
	// A margin of half a cell keeps edge cells and routes off the frame.
	pad := math.Max(m.CellSize/2, 1e-9)
	view = Rect{MinX: view.MinX - pad, MinZ: view.MinZ - pad, MaxX: view.MaxX + pad, MaxZ: view.MaxZ + pad}
	width := m.Width
	if width <= 0 {
		width = 720
	}
	spanX, spanZ := view.MaxX-view.MinX, view.MaxZ-view.MinZ
	scale := width / spanX
	if spanZ*scale > 900 { // tall worlds: fit the height instead
		scale = 900 / spanZ
	}
	plotW, plotH := spanX*scale, spanZ*scale
	var minV, maxV float64
	drawn, zeros := 0, false
	for _, cell := range m.Cells {
		if view.Intersects(m.grid(cell)) || view.Intersects(cell.Bounds) {
			maxV = math.Max(maxV, cell.Value)
			if cell.Value > 0 && (minV == 0 || cell.Value < minV) {
				minV = cell.Value
			}
			zeros = zeros || cell.Value == 0 && cell.Level == 0
			drawn++
		}
	}
	dense := drawn > denseCells
	var outlined []Cell // the grown bounds drawn
	if shown := m.growthShown(); !dense {
		for _, cell := range m.Cells {
			if growth(m.grid(cell), cell.Bounds) > shown && view.Intersects(cell.Bounds) {
				outlined = append(outlined, cell)
			}
		}
	}
	captions, offNamed := m.offMap(view, outlined)
	c := NewCanvas(mapLeft+math.Max(plotW, 320)+mapRight, mapTop+math.Max(plotH, 240)+mapBottom+14*float64(len(captions)))
	px := func(x float64) float64 { return mapLeft + (x-view.MinX)*scale }
	pz := func(z float64) float64 { return mapTop + (view.MaxZ-z)*scale }

	c.Text(mapLeft, 24, m.Title, Font{Size: 16, Weight: "bold"})
	c.Text(mapLeft, 44, m.Subtitle, Font{Size: 12, Fill: "#555"})
	c.Rect(mapLeft, mapTop, plotW, plotH, Style{Fill: "#fbfbfb", Stroke: "#999", Width: 0.8})
	c.Clip(mapLeft, mapTop, plotW, plotH)

	color := rampColor
	if m.Neutral {
		color = greyColor
	}
	cellPx := m.CellSize * scale
	var names []Rect // where cell names are set, for the labels to avoid
	for _, cell := range m.Cells {
		g := m.grid(cell)
		if !view.Intersects(g) && !view.Intersects(cell.Bounds) {
			continue
		}
		if dense && cell.Value == 0 || cell.Level > 0 {
			continue // a coarser level's cell is outlined below
		}
		fill, t := "#eeeeee", 0.0
		if cell.Value > 0 && maxV > 0 {
			t = cell.Value / maxV
			fill = color(t)
		}
		ink := t
		if m.Neutral {
			ink = 0 // greys stay light: dark text reads on all of them
		}
		tip := fmt.Sprintf("%s (%d, %d)", cell.Name, cell.X, cell.Z)
		if m.ValueName != "" {
			tip += fmt.Sprintf(": %s %s", label(cell.Value, false), m.ValueName)
		}
		if cell.Note != "" {
			tip += "; " + cell.Note
		}
		st := Style{Fill: fill, Title: tip}
		if !dense && cellPx >= 3 {
			st.Stroke, st.Width = "#ffffff", 1
		}
		c.Rect(px(g.MinX), pz(g.MaxZ), cellPx, cellPx, st)
		labelled := !dense && drawn <= labelledCells
		if labelled && cellPx >= 64 {
			c.Text(px(g.MinX)+4, pz(g.MaxZ)+12, cell.Name, Font{Size: 9, Fill: mutedOn(ink)})
			names = append(names, Rect{MinX: px(g.MinX) + 4, MinZ: pz(g.MaxZ) + 3, MaxX: px(g.MinX) + 4 + 5*float64(len(cell.Name)), MaxZ: pz(g.MaxZ) + 14})
		}
		if labelled && cell.Value > 0 && cellPx >= 18 {
			c.Text(px(g.MinX)+cellPx/2, pz(g.MinZ)-cellPx/2+4, label(cell.Value, false),
				Font{Size: math.Min(12, cellPx/2.5), Anchor: "middle", Fill: textOn(ink)})
		}
	}
	for _, cell := range m.Cells {
		if cell.Level <= 0 {
			continue
		}
		g := m.grid(cell)
		if !view.Intersects(g) {
			continue
		}
		w := (g.MaxX - g.MinX) * scale
		st := Style{Stroke: levelStrokes[int(cell.Level-1)%len(levelStrokes)], Width: 1 + float64(cell.Level)/2,
			Title: fmt.Sprintf("%s (level %d: %d, %d)", cell.Name, cell.Level, cell.X, cell.Z)}
		if cell.Note != "" {
			st.Title += "; " + cell.Note
		}
		c.Rect(px(g.MinX), pz(g.MaxZ), w, w, st)
	}
	plot := Rect{MinX: mapLeft, MinZ: mapTop, MaxX: mapLeft + plotW, MaxZ: mapTop + plotH}
	for _, cell := range outlined {
		b := cell.Bounds
		st := Style{Stroke: grownColor, Width: 1.2, Dash: "5 3", Title: cell.Name + " grown bounds"}
		c.Rect(px(b.MinX), pz(b.MaxZ), (b.MaxX-b.MinX)*scale, (b.MaxZ-b.MinZ)*scale, st)
		if cellPx >= labelledBoundsPx {
			names = boundsLabel(c, cell.Name, Rect{MinX: px(b.MinX), MinZ: pz(b.MaxZ), MaxX: px(b.MaxX), MaxZ: pz(b.MinZ)}, plot, names)
		}
		if offNamed[cell.Name] {
			offEdges(c, Rect{MinX: px(b.MinX), MinZ: pz(b.MaxZ), MaxX: px(b.MaxX), MaxZ: pz(b.MinZ)}, plot, cell.Name+" grown bounds, reaching off the map")
		}
	}
	alerts := 0
	for _, cell := range m.Cells {
		if !cell.Alert || dense {
			continue
		}
		g := m.grid(cell)
		if !view.Intersects(g) {
			continue
		}
		alerts++
		c.Rect(px(g.MinX)+1, pz(g.MaxZ)+1, cellPx-2, cellPx-2, Style{Stroke: alertColor, Width: 2, Title: cell.Name + " missing while wanted"})
	}
	for _, mk := range m.Marks {
		if len(mk.Points) == 0 {
			continue
		}
		st := Style{Stroke: alertColor, Width: 10, Opacity: 0.55, Title: mk.Title}
		if len(mk.Points) == 1 || allSame(mk.Points) {
			p := mk.Points[0]
			c.Circle(px(p.X), pz(p.Z), 6, Style{Fill: alertColor, Opacity: 0.55, Title: mk.Title})
		} else {
			var p PathBuilder
			for k, pt := range mk.Points {
				if k == 0 {
					p.M(px(pt.X), pz(pt.Z))
				} else {
					p.L(px(pt.X), pz(pt.Z))
				}
			}
			c.Path(&p, st)
		}
	}
	for _, r := range m.Rings {
		col := r.Color
		if col == "" {
			col = "#666"
		}
		c.Circle(px(r.Center.X), pz(r.Center.Z), r.Radius*scale, Style{Stroke: col, Width: 1, Dash: "2 3", Title: r.Label})
	}
	// placed are the boxes of the labels set on the routes so far: a
	// label that would overlap one is left out (its mark keeps a tooltip).
	placed := names
	for i, rt := range m.Routes {
		col := Palette[i%len(Palette)]
		if len(rt.Points) == 0 {
			continue
		}
		var p PathBuilder
		jump := map[int]bool{}
		for _, k := range rt.Jumps {
			jump[k] = true
		}
		for k, pt := range rt.Points {
			if k == 0 || jump[k] {
				p.M(px(pt.X), pz(pt.Z))
			} else {
				p.L(px(pt.X), pz(pt.Z))
			}
		}
		c.Path(&p, Style{Stroke: col, Width: 2.2, Title: rt.Name})
		for _, t := range rt.Ticks {
			x, y := px(t.At.X), pz(t.At.Z)
			c.Circle(x, y, 2.2, Style{Fill: "#fff", Stroke: col, Width: 1.2, Title: rt.Name + " frame " + t.Label})
			box := Rect{MinX: x + 2, MinZ: y - 12, MaxX: x + 6 + 5.5*float64(len(t.Label)), MaxZ: y - 1}
			if !slices.ContainsFunc(placed, box.Intersects) {
				placed = append(placed, box)
				c.Text(x+4, y-4, t.Label, Font{Size: 9, Fill: "#333", Halo: true})
			}
		}
		first, last := rt.Points[0], rt.Points[len(rt.Points)-1]
		c.Circle(px(first.X), pz(first.Z), 4.5, Style{Fill: col, Stroke: "#fff", Width: 1.2, Title: rt.Name + " start"})
		if n := len(rt.Points); n > 1 {
			prev := rt.Points[n-2]
			for k := n - 2; k > 0 && prev == last; k-- {
				prev = rt.Points[k-1]
			}
			if prev != last {
				c.Arrow(px(prev.X), pz(prev.Z), px(last.X), pz(last.Z), Style{Stroke: col, Width: 2.2, Title: rt.Name + " end"})
			}
		}
	}
	for _, a := range m.Arrows {
		c.Arrow(px(a.From.X), pz(a.From.Z), px(a.To.X), pz(a.To.Z), Style{Stroke: arrowColor(a.Color), Width: 1.6, Title: a.Label})
	}
	for _, k := range m.Markers {
		x, y := px(k.At.X), pz(k.At.Z)
		st := Style{Stroke: arrowColor(k.Color), Width: 2, Title: k.Label}
		c.Line(x-5, y-5, x+5, y+5, st)
		c.Line(x-5, y+5, x+5, y-5, st)
	}
	m.texts(c, px, pz, plot)
	// Badges that would cover one already set move along to its right.
	var discs []Rect
	for _, mk := range m.Marks {
		if len(mk.Points) == 0 || mk.Badge == "" {
			continue
		}
		x, y := px(mk.Points[0].X), pz(mk.Points[0].Z)
		r := 5 + 3*float64(len(mk.Badge))
		box := Rect{MinX: x - r, MinZ: y - r, MaxX: x + r, MaxZ: y + r}
		for try := 0; try < 6 && slices.ContainsFunc(discs, box.Intersects); try++ {
			x += 2*r + 1
			box = Rect{MinX: x - r, MinZ: y - r, MaxX: x + r, MaxZ: y + r}
		}
		discs = append(discs, box)
		badge(c, x, y, r, mk.Badge, mk.Title)
	}
	c.EndClip()
	m.axes(c, view, scale, plotW, plotH)
	for i, line := range captions {
		c.Text(mapLeft, mapTop+math.Max(plotH, 240)+mapBottom+14*float64(i)+4, line, Font{Size: 11, Fill: grownColor})
	}
	m.legend(c, mapLeft+math.Max(plotW, 320)+24, c.h-12, valueRange{minV, maxV, zeros}, len(outlined) > 0, alerts > 0)
	_, err := c.WriteTo(w)
	return err
}

func (m *Map) axes(c *Canvas, view Rect, scale, plotW, plotH float64) {
	ax, az := m.axisNames()
	axis := Font{Size: 10, Fill: "#555"}
	for _, v := range ticks(view.MinX, view.MaxX, 6, false) {
		x := mapLeft + (v-view.MinX)*scale
		c.Line(x, mapTop+plotH, x, mapTop+plotH+4, Style{Stroke: "#999"})
		f := axis
		f.Anchor = "middle"
		c.Text(x, mapTop+plotH+16, label(v, false), f)
	}
	for _, v := range ticks(view.MinZ, view.MaxZ, 6, false) {
		y := mapTop + (view.MaxZ-v)*scale
		c.Line(mapLeft-4, y, mapLeft, y, Style{Stroke: "#999"})
		f := axis
		f.Anchor = "end"
		c.Text(mapLeft-7, y+3, label(v, false), f)
	}
	c.Text(mapLeft+plotW/2, mapTop+plotH+36, ax+" →", Font{Size: 11, Anchor: "middle", Fill: "#333"})
	c.Text(18, mapTop+plotH/2, az+" →", Font{Size: 11, Anchor: "middle", Fill: "#333", Rotate: -90})
}

// growthShown is the growth beyond which a cell's bounds are outlined: 0
// (any growth) unless more than MaxGrown cells grew, else the growth of
// the largest one left out.
func (m *Map) growthShown() float64 {
	if m.MaxGrown <= 0 {
		return 0
	}
	var by []float64
	for _, cell := range m.Cells {
		if g := growth(m.grid(cell), cell.Bounds); g > 0 {
			by = append(by, g)
		}
	}
	if len(by) <= m.MaxGrown {
		return 0
	}
	slices.Sort(by)
	return by[len(by)-1-m.MaxGrown]
}

// growth is how far bounds b reach beyond grid square g, at most.
func growth(g, b Rect) float64 {
	return math.Max(math.Max(g.MinX-b.MinX, g.MinZ-b.MinZ), math.Max(b.MaxX-g.MaxX, b.MaxZ-g.MaxZ))
}

// boundsLabel names the cell of grown bounds box (in pixels) inside its
// bottom-left corner, or else its top-left one (where the cell's own name
// usually is), within what the plot shows of it, if the name fits the box
// and covers no label in taken. It returns taken with the label's box.
func boundsLabel(c *Canvas, name string, box, plot Rect, taken []Rect) []Rect {
	const h = 11.0
	w := 5*float64(len([]rune(name))) + 6 // Helvetica at 9 px, and a margin
	vis := Rect{MinX: math.Max(box.MinX, plot.MinX), MinZ: math.Max(box.MinZ, plot.MinZ),
		MaxX: math.Min(box.MaxX, plot.MaxX), MaxZ: math.Min(box.MaxZ, plot.MaxZ)}
	if vis.MaxX-vis.MinX < w || vis.MaxZ-vis.MinZ < 2*h {
		return taken
	}
	for _, top := range []float64{vis.MaxZ - h - 1, vis.MinZ + 2} {
		r := Rect{MinX: vis.MinX + 2, MinZ: top, MaxX: vis.MinX + w, MaxZ: top + h}
		if slices.ContainsFunc(taken, r.Intersects) {
			continue
		}
		c.Text(vis.MinX+3, top+h-2, name, Font{Size: 9, Fill: grownColor, Halo: true})
		return append(taken, r)
	}
	return taken
}

// grownColor draws grown bounds.
const grownColor = "#1f5fa8"

// offEdges marks with an outward arrowhead each side of plot that box (in
// pixels) reaches past, at the middle of the stretch of the side the box
// spans: the box goes on off the map there.
func offEdges(c *Canvas, box, plot Rect, title string) {
	st := Style{Stroke: grownColor, Width: 1.6, Title: title}
	midZ := (math.Max(box.MinZ, plot.MinZ) + math.Min(box.MaxZ, plot.MaxZ)) / 2
	midX := (math.Max(box.MinX, plot.MinX) + math.Min(box.MaxX, plot.MaxX)) / 2
	const l = 14
	if box.MinX < plot.MinX {
		c.Arrow(plot.MinX+l, midZ, plot.MinX+1, midZ, st)
	}
	if box.MaxX > plot.MaxX {
		c.Arrow(plot.MaxX-l, midZ, plot.MaxX-1, midZ, st)
	}
	if box.MinZ < plot.MinZ {
		c.Arrow(midX, plot.MinZ+l, midX, plot.MinZ+1, st)
	}
	if box.MaxZ > plot.MaxZ {
		c.Arrow(midX, plot.MaxZ-l, midX, plot.MaxZ-1, st)
	}
}

func arrowColor(c string) string {
	if c == "" {
		return "#d62728"
	}
	return c
}

// texts writes the arrows' and markers' texts, markers first, each at most
// once where it does not overlap one already written: a few readable
// labels rather than a smear of all of them.
func (m *Map) texts(c *Canvas, px, pz func(float64) float64, plot Rect) {
	var taken []Rect
	free := func(r Rect) bool {
		for _, o := range taken {
			if r.MinX < o.MaxX && o.MinX < r.MaxX && r.MinZ < o.MaxZ && o.MinZ < r.MaxZ {
				return false
			}
		}
		return true
	}
	put := func(x, y float64, text, color string) {
		// Helvetica at 9 px is about 5 px a character.
		w := 5.0 * float64(len([]rune(text)))
		// Kept inside the plot, which clips what runs over its edges.
		x = math.Max(plot.MinX+w/2+2, math.Min(plot.MaxX-w/2-2, x))
		y = math.Max(plot.MinZ+11, math.Min(plot.MaxZ-3, y))
		r := Rect{MinX: x - w/2, MinZ: y - 9, MaxX: x + w/2, MaxZ: y + 2}
		if len(taken) >= maxArrowTexts || !free(r) {
			return
		}
		taken = append(taken, r)
		c.Text(x, y, text, Font{Size: 9, Anchor: "middle", Fill: color, Halo: true})
	}
	for _, k := range m.Markers {
		if k.Text != "" {
			put(px(k.At.X), pz(k.At.Z)-8, k.Text, arrowColor(k.Color))
		}
	}
	for _, a := range m.Arrows {
		if a.Text != "" {
			put((px(a.From.X)+px(a.To.X))/2, (pz(a.From.Z)+pz(a.To.Z))/2-3, a.Text, arrowColor(a.Color))
		}
	}
}

// alertColor marks what went wrong: missing cells, hole episodes.
const alertColor = "#c2185b"

func allSame(pts []Point) bool {
	for _, p := range pts[1:] {
		if p != pts[0] {
			return false
		}
	}
	return true
}

// badge draws a tag in a disc of radius r.
func badge(c *Canvas, x, y, r float64, tag, title string) {
	c.Circle(x, y, r, Style{Fill: alertColor, Stroke: "#fff", Width: 1.2, Title: title})
	c.Text(x, y+3.5, tag, Font{Size: 10, Weight: "bold", Fill: "#fff", Anchor: "middle"})
}

// valueRange is the range of the values of the cells drawn: the least above 0
// (0 when none is), the greatest, and whether a cell drawn is at 0.
type valueRange struct {
	min, max float64
	zeros    bool
}

func (m *Map) legend(c *Canvas, x, bottom float64, v valueRange, grown, alerts bool) {
	y := float64(mapTop)
	key := Font{Size: 11, Fill: "#333"}
	color := rampColor
	if m.Neutral {
		color = greyColor
	}
	if m.ValueName != "" {
		c.Text(x, y+4, "cells by "+m.ValueName, Font{Size: 11, Weight: "bold"})
		y += 14
		switch {
		case v.max > 0 && v.min == v.max:
			// One value (every loaded cell of a run loaded once): a
			// ramp from 1 to 1 would only puzzle.
			who := "every cell"
			if v.zeros {
				who = "every shaded cell"
			}
			c.Rect(x, y, 16, 12, Style{Fill: color(1)})
			c.Text(x+22, y+10, who+": "+label(v.max, false), key)
			y += 18
		case v.max > 0:
			const steps, h = 40, 3.0
			for i := 0; i < steps; i++ {
				t := 1 - float64(i)/(steps-1)
				c.Rect(x, y+float64(i)*h, 16, h+0.3, Style{Fill: color(t)})
			}
			// The scale's ends are the values drawn: the fill of a cell
			// with value v is at v/max, so the bottom is the smallest
			// value there is.
			c.Text(x+22, y+8, label(v.max, false), key)
			c.Text(x+22, y+steps*h, label(v.min, false), key)
			y += steps*h + 10
		case m.ZeroLabel == "":
			c.Rect(x, y, 16, 12, Style{Fill: "#eeeeee"})
			c.Text(x+22, y+10, "every cell: 0", key)
			y += 18
		}
		if m.ZeroLabel != "" {
			c.Rect(x, y, 16, 12, Style{Fill: "#eeeeee"})
			c.Text(x+22, y+10, "0 ("+m.ZeroLabel+")", key)
			y += 18
		}
		y += 10
	}
	if grown {
		c.Rect(x, y, 16, 12, Style{Stroke: grownColor, Width: 1.2, Dash: "5 3"})
		// Two short lines: the legend is about 160 px wide.
		c.Text(x+22, y+10, "cells whose bounds grew", key)
		c.Text(x+22, y+23, "past their grid square", key)
		y += 34
		// Which of them are outlined, when not all.
		if t := m.growthShown(); t > 0 {
			note := Font{Size: 10, Fill: "#555"}
			c.Text(x+22, y, fmt.Sprintf("only the %d grown most,", m.MaxGrown), note)
			c.Text(x+22, y+12, "each by over "+label(math.Floor(t), false)+" units", note)
			y += 24
		}
	}
	for i, rt := range m.Routes {
		col := Palette[i%len(Palette)]
		c.Line(x, y+6, x+16, y+6, Style{Stroke: col, Width: 2.2})
		c.Circle(x, y+6, 3, Style{Fill: col})
		c.Text(x+22, y+10, rt.Name, key)
		y += 18
		if rt.TickName != "" && len(rt.Ticks) > 0 {
			c.Circle(x+8, y+6, 2.2, Style{Fill: "#fff", Stroke: col, Width: 1.2})
			c.Text(x+22, y+10, rt.TickName, key)
			y += 18
		}
	}
	if alerts {
		c.Rect(x+1, y+1, 14, 10, Style{Stroke: alertColor, Width: 2})
		c.Text(x+22, y+10, "missing while wanted", key)
		y += 20
	}
	if len(m.Marks) > 0 && m.MarkName != "" {
		c.Line(x, y+6, x+16, y+6, Style{Stroke: alertColor, Width: 10, Opacity: 0.55})
		c.Text(x+22, y+10, m.MarkName, key)
		y += 20
		var badged []Mark
		for _, mk := range m.Marks {
			if mk.Badge != "" {
				badged = append(badged, mk)
			}
		}
		// As many as fit above the rings' entry and the bottom.
		room := int((bottom - y - 38) / 16)
		for i, mk := range badged {
			if i == room-1 && len(badged) > room {
				c.Text(x+22, y+10, fmt.Sprintf("and %d more", len(badged)-i), key)
				y += 16
				break
			}
			r := 5 + 3*float64(len(mk.Badge))
			badge(c, x+8, y+6, math.Min(r, 8), mk.Badge, mk.Title)
			c.Text(x+22, y+10, mk.Label, key)
			y += 16
		}
		if m.MarkNote != "" {
			c.Text(x+22, y+10, m.MarkNote, key)
			y += 16
		}
		y += 4
	}
	if len(m.Rings) > 0 {
		c.Circle(x+8, y+7, 7, Style{Stroke: "#666", Dash: "2 3"})
		c.Text(x+22, y+10, m.Rings[0].Label, key)
		y += 22
	}
	seen := map[string]bool{}
	for _, a := range m.Arrows {
		kind := a.Kind
		if kind == "" {
			kind = "reference"
		}
		if seen["a"+kind] {
			continue
		}
		seen["a"+kind] = true
		c.Arrow(x, y+6, x+16, y+6, Style{Stroke: arrowColor(a.Color), Width: 1.6})
		c.Text(x+22, y+10, kind, key)
		y += 18
	}
	for _, k := range m.Markers {
		if seen["m"+k.Kind] {
			continue
		}
		seen["m"+k.Kind] = true
		st := Style{Stroke: arrowColor(k.Color), Width: 2}
		c.Line(x+3, y+1, x+13, y+11, st)
		c.Line(x+3, y+11, x+13, y+1, st)
		c.Text(x+22, y+10, k.Kind, key)
		y += 18
	}
}
