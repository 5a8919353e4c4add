package validate

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
)

// Map drawing constants: the drawing's longer side and its margin, in
// pixels, and the grid-line budget above which only occupied cells are
// outlined (a world a million cells wide would draw a solid block).
const (
	mapSide      = 1000.0
	mapMargin    = 40.0
	mapMaxLines  = 200
	mapLegendGap = 18.0
)

// WriteMap draws a plan as an SVG map: the cell grid, each cell's grid
// square and grown bounds (dashed, orange where they grew), the streaming
// sources, and every rejected reference as an arrow from the referencing
// entity to its target. The drawing depends only on the plan, so equal
// plans give equal files.
func WriteMap(w io.Writer, p *Plan) error {
	bw := bufio.NewWriter(w)
	m := newMapFrame(p)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="11">`+"\n",
		f1(m.width), f1(m.height+mapLegendGap*5), f1(m.width), f1(m.height+mapLegendGap*5))
	fmt.Fprintf(bw, "<title>%s</title>\n", esc(p.SceneName+" — worldcook validate map"))
	bw.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>` + "\n")
	bw.WriteString(`<rect width="100%" height="100%" fill="#ffffff"/>` + "\n")
	// Content is clipped to the map area: a source's load radius may reach
	// far beyond the cells, and the legend sits below.
	fmt.Fprintf(bw, `<clipPath id="area"><rect width="%s" height="%s"/></clipPath>`+"\n<g clip-path=\"url(#area)\">\n", f1(m.width), f1(m.height))
	if !p.Streamed || len(p.Cells) == 0 {
		fmt.Fprintf(bw, `<text x="%s" y="%s">%s</text>`+"\n", f1(mapMargin), f1(mapMargin), esc(mapEmptyText(p)))
	} else {
		m.grid(bw)
		m.cells(bw)
	}
	m.sources(bw)
	m.arrows(bw)
	bw.WriteString("</g>\n")
	m.legend(bw)
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

func mapEmptyText(p *Plan) string {
	if !p.Streamed {
		return p.SceneName + " is not a streamed world (no StreamedWorld): nothing to draw"
	}
	return p.SceneName + " has no cells: every entity is in the persistent world"
}

// mapFrame maps world coordinates on the partition plane to pixels. The
// second axis points up, as on a map seen from above.
type mapFrame struct {
	p                      *Plan
	minU, minV, maxU, maxV float64
	scale                  float64
	width, height          float64
}

func newMapFrame(p *Plan) *mapFrame {
	m := &mapFrame{p: p, minU: math.Inf(1), minV: math.Inf(1), maxU: math.Inf(-1), maxV: math.Inf(-1)}
	grow := func(u, v float64) {
		if finite(u) && finite(v) {
			m.minU, m.maxU = math.Min(m.minU, u), math.Max(m.maxU, u)
			m.minV, m.maxV = math.Min(m.minV, v), math.Max(m.maxV, v)
		}
	}
	for _, c := range p.Cells {
		grow(c.Bounds.MinX, c.Bounds.MinZ)
		grow(c.Bounds.MaxX, c.Bounds.MaxZ)
	}
	for _, s := range p.Sources {
		u, v := m.plane(s.Position.X, s.Position.Y, s.Position.Z)
		grow(u, v)
	}
	for _, f := range p.Findings {
		if a := f.Arrow; a != nil {
			grow(a.FromX, a.FromZ)
			grow(a.ToX, a.ToZ)
		}
	}
	if m.minU > m.maxU {
		m.minU, m.minV, m.maxU, m.maxV = 0, 0, 1, 1
	}
	span := math.Max(m.maxU-m.minU, m.maxV-m.minV)
	if !(span > 0) {
		span = 1
	}
	m.scale = (mapSide - 2*mapMargin) / span
	m.width = (m.maxU-m.minU)*m.scale + 2*mapMargin
	m.height = (m.maxV-m.minV)*m.scale + 2*mapMargin
	return m
}

func (m *mapFrame) plane(x, y, z float64) (float64, float64) {
	if m.p.Plane == "xy" {
		return x, y
	}
	return x, z
}

func (m *mapFrame) x(u float64) float64 { return mapMargin + (u-m.minU)*m.scale }
func (m *mapFrame) y(v float64) float64 { return mapMargin + (m.maxV-v)*m.scale }

func (m *mapFrame) rect(w *bufio.Writer, r Rect, style string) {
	fmt.Fprintf(w, `<rect x="%s" y="%s" width="%s" height="%s" %s/>`+"\n",
		f1(m.x(r.MinX)), f1(m.y(r.MaxZ)), f1((r.MaxX-r.MinX)*m.scale), f1((r.MaxZ-r.MinZ)*m.scale), style)
}

// grid draws the cell lines over the drawn area when there are few enough.
func (m *mapFrame) grid(w *bufio.Writer) {
	cs := m.p.CellSize
	u0, u1 := math.Floor(m.minU/cs), math.Ceil(m.maxU/cs)
	v0, v1 := math.Floor(m.minV/cs), math.Ceil(m.maxV/cs)
	if u1-u0+v1-v0 > mapMaxLines {
		return
	}
	w.WriteString(`<g stroke="#e3e3e3" stroke-width="1">` + "\n")
	for k := u0; k <= u1; k++ {
		u := k * cs
		if u < m.minU || u > m.maxU {
			continue
		}
		fmt.Fprintf(w, `<line x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", f1(m.x(u)), f1(m.y(m.maxV)), f1(m.x(u)), f1(m.y(m.minV)))
	}
	for k := v0; k <= v1; k++ {
		v := k * cs
		if v < m.minV || v > m.maxV {
			continue
		}
		fmt.Fprintf(w, `<line x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", f1(m.x(m.minU)), f1(m.y(v)), f1(m.x(m.maxU)), f1(m.y(v)))
	}
	w.WriteString("</g>\n")
}

func (m *mapFrame) cells(w *bufio.Writer) {
	w.WriteString(`<g>` + "\n")
	for _, c := range m.p.Cells {
		fmt.Fprintf(w, "<g><title>%s</title>\n", esc(fmt.Sprintf("%s: %d entities, %d roots; bounds [%s, %s]x[%s, %s]",
			c.Name, len(c.Entities), c.Roots, fmtNum(c.Bounds.MinX), fmtNum(c.Bounds.MaxX), fmtNum(c.Bounds.MinZ), fmtNum(c.Bounds.MaxZ))))
		m.rect(w, c.Grid, `fill="#dbeafe" stroke="#60a5fa" stroke-width="1"`)
		if c.Overhang.By > 0 {
			m.rect(w, c.Bounds, `fill="none" stroke="#f97316" stroke-width="1.5" stroke-dasharray="5 3"`)
		}
		if px := m.p.CellSize * m.scale; px >= 60 {
			fmt.Fprintf(w, `<text x="%s" y="%s" fill="#1e3a8a">%s</text>`+"\n", f1(m.x(c.Grid.MinX)+4), f1(m.y(c.Grid.MaxZ)+13), esc(fmt.Sprintf("%d,%d", c.X, c.Z)))
		}
		w.WriteString("</g>\n")
	}
	w.WriteString("</g>\n")
}

func (m *mapFrame) sources(w *bufio.Writer) {
	for _, s := range m.p.Sources {
		u, v := m.plane(s.Position.X, s.Position.Y, s.Position.Z)
		if !finite(u) || !finite(v) {
			continue
		}
		fmt.Fprintf(w, `<g><title>%s</title><circle cx="%s" cy="%s" r="%s" fill="none" stroke="#16a34a" stroke-dasharray="2 3"/><circle cx="%s" cy="%s" r="4" fill="#16a34a"/></g>`+"\n",
			esc(fmt.Sprintf("source %s (%d): load radius %s", s.Name, s.Entity, fmtNum(s.LoadRadius))),
			f1(m.x(u)), f1(m.y(v)), f1(s.LoadRadius*m.scale), f1(m.x(u)), f1(m.y(v)))
	}
}

func (m *mapFrame) arrows(w *bufio.Writer) {
	for _, f := range m.p.Findings {
		a := f.Arrow
		if a == nil {
			continue
		}
		color := "#dc2626"
		if f.Code == CodePersistentToCellRef {
			color = "#9333ea"
		}
		fmt.Fprintf(w, `<g><title>%s</title><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" marker-end="url(#arrow)"/></g>`+"\n",
			esc(f.Code+": "+f.Message), f1(m.x(a.FromX)), f1(m.y(a.FromZ)), f1(m.x(a.ToX)), f1(m.y(a.ToZ)), color)
	}
}

// axes says how the plane is drawn.
func (m *mapFrame) axes() string {
	if m.p.Plane == "xy" {
		return "seen along z: x to the right, y up"
	}
	return "seen from above: x to the right, z up"
}

func (m *mapFrame) legend(w *bufio.Writer) {
	y := m.height + mapLegendGap
	items := []struct{ swatch, text string }{
		{`<rect width="14" height="10" fill="#dbeafe" stroke="#60a5fa"/>`, "grid square of a cell (cellSize " + fmtNum(m.p.CellSize) + ")"},
		{`<rect width="14" height="10" fill="none" stroke="#f97316" stroke-dasharray="5 3"/>`, "bounds grown over content that overhangs the square"},
		{`<line x1="0" y1="5" x2="14" y2="5" stroke="#dc2626" stroke-width="1.5"/>`, "cross-cell-ref (red) / persistent-to-cell-ref (purple), entity → target"},
		{`<circle cx="7" cy="5" r="4" fill="#16a34a"/>`, "streaming source and its load radius; " + m.axes()},
	}
	for k, it := range items {
		fmt.Fprintf(w, `<g transform="translate(%s,%s)">%s<text x="20" y="10">%s</text></g>`+"\n", f1(mapMargin), f1(y+float64(k)*mapLegendGap), it.swatch, esc(it.text))
	}
}

// f1 formats a pixel coordinate with one decimal, enough for a drawing and
// short enough to keep big maps small.
func f1(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

func esc(s string) string { return html.EscapeString(s) }
