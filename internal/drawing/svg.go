// Package drawing draws streamed worlds and their timelines as standalone
// SVG: a map of the cell grid (grown bounds, routes, per-cell values,
// arrows between cells) and a chart of stacked time series. Output depends
// only on the input, so drawings can be kept as golden files.
package drawing

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// Style is how a shape is painted. Empty fields are left to SVG defaults
// (Fill "" is "none" here, so outlines are the default).
type Style struct {
	Fill        string
	Stroke      string
	Width       float64
	Dash        string
	Opacity     float64 // 0 means opaque
	FillOpacity float64 // 0 means opaque
	// Title becomes a tooltip in browsers.
	Title string
}

// Font is how text is set.
type Font struct {
	Size   float64
	Fill   string
	Anchor string // start (default), middle, end
	Weight string // normal (default), bold
	// Rotate turns the text by this many degrees around its anchor.
	Rotate float64
	// Halo draws a white outline under the glyphs, so that a label stays
	// readable over lines and fills.
	Halo bool
}

// Canvas collects SVG elements in pixel coordinates, y pointing down.
type Canvas struct {
	w, h  float64
	b     strings.Builder
	defs  strings.Builder
	clips int
}

// NewCanvas returns an empty canvas of the given size in pixels.
func NewCanvas(w, h float64) *Canvas { return &Canvas{w: w, h: h} }

// num formats a coordinate compactly and deterministically.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	return Short(v)
}

func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (s Style) attrs() string {
	var b strings.Builder
	fill := s.Fill
	if fill == "" {
		fill = "none"
	}
	fmt.Fprintf(&b, ` fill="%s"`, esc(fill))
	if s.Stroke != "" {
		fmt.Fprintf(&b, ` stroke="%s"`, esc(s.Stroke))
		w := s.Width
		if w == 0 {
			w = 1
		}
		fmt.Fprintf(&b, ` stroke-width="%s"`, num(w))
	}
	if s.Dash != "" {
		fmt.Fprintf(&b, ` stroke-dasharray="%s"`, esc(s.Dash))
	}
	if s.Opacity > 0 && s.Opacity < 1 {
		fmt.Fprintf(&b, ` opacity="%s"`, num(s.Opacity))
	}
	if s.FillOpacity > 0 && s.FillOpacity < 1 {
		fmt.Fprintf(&b, ` fill-opacity="%s"`, num(s.FillOpacity))
	}
	return b.String()
}

// close ends an element, with a tooltip when the style has a title.
func (c *Canvas) close(tag string, s Style) {
	if s.Title == "" {
		c.b.WriteString("/>\n")
		return
	}
	fmt.Fprintf(&c.b, "><title>%s</title></%s>\n", esc(s.Title), tag)
}

// Rect draws a rectangle.
func (c *Canvas) Rect(x, y, w, h float64, s Style) {
	fmt.Fprintf(&c.b, `<rect x="%s" y="%s" width="%s" height="%s"%s`, num(x), num(y), num(math.Max(w, 0)), num(math.Max(h, 0)), s.attrs())
	c.close("rect", s)
}

// Line draws a segment.
func (c *Canvas) Line(x1, y1, x2, y2 float64, s Style) {
	fmt.Fprintf(&c.b, `<line x1="%s" y1="%s" x2="%s" y2="%s"%s`, num(x1), num(y1), num(x2), num(y2), s.attrs())
	c.close("line", s)
}

// Circle draws a circle.
func (c *Canvas) Circle(cx, cy, r float64, s Style) {
	fmt.Fprintf(&c.b, `<circle cx="%s" cy="%s" r="%s"%s`, num(cx), num(cy), num(r), s.attrs())
	c.close("circle", s)
}

// Path draws SVG path data built with a PathBuilder.
func (c *Canvas) Path(d *PathBuilder, s Style) {
	if d.Empty() {
		return
	}
	fmt.Fprintf(&c.b, `<path d="%s"%s`, d.b.String(), s.attrs())
	c.close("path", s)
}

// Arrow draws a line from (x1, y1) to (x2, y2) with a head at the end.
func (c *Canvas) Arrow(x1, y1, x2, y2 float64, s Style) {
	id := c.marker(s.Stroke)
	fmt.Fprintf(&c.b, `<line x1="%s" y1="%s" x2="%s" y2="%s"%s marker-end="url(#%s)"`, num(x1), num(y1), num(x2), num(y2), s.attrs(), id)
	c.close("line", s)
}

// marker defines an arrowhead in the given colour once and returns its id.
func (c *Canvas) marker(color string) string {
	id := "head-" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, color)
	if !strings.Contains(c.defs.String(), `id="`+id+`"`) {
		fmt.Fprintf(&c.defs, `<marker id="%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="%s"/></marker>`+"\n", id, esc(color))
	}
	return id
}

// Clip starts a group whose drawing is cut to the rectangle, until
// EndClip. Shapes that reach past a plot's frame (a radius ring, a route
// leaving the view) stay inside it.
func (c *Canvas) Clip(x, y, w, h float64) {
	c.clips++
	id := fmt.Sprintf("clip%d", c.clips)
	fmt.Fprintf(&c.defs, `<clipPath id="%s"><rect x="%s" y="%s" width="%s" height="%s"/></clipPath>`+"\n", id, num(x), num(y), num(w), num(h))
	fmt.Fprintf(&c.b, `<g clip-path="url(#%s)">`+"\n", id)
}

// EndClip ends the group Clip started.
func (c *Canvas) EndClip() { c.b.WriteString("</g>\n") }

// Text sets a line of text with its baseline at y.
func (c *Canvas) Text(x, y float64, text string, f Font) {
	size := f.Size
	if size == 0 {
		size = 12
	}
	fill := f.Fill
	if fill == "" {
		fill = "#222"
	}
	fmt.Fprintf(&c.b, `<text x="%s" y="%s" font-size="%s" fill="%s"`, num(x), num(y), num(size), esc(fill))
	if f.Anchor != "" && f.Anchor != "start" {
		fmt.Fprintf(&c.b, ` text-anchor="%s"`, f.Anchor)
	}
	if f.Weight != "" && f.Weight != "normal" {
		fmt.Fprintf(&c.b, ` font-weight="%s"`, f.Weight)
	}
	if f.Rotate != 0 {
		fmt.Fprintf(&c.b, ` transform="rotate(%s %s %s)"`, num(f.Rotate), num(x), num(y))
	}
	if f.Halo {
		c.b.WriteString(` stroke="#fff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"`)
	}
	fmt.Fprintf(&c.b, ">%s</text>\n", esc(text))
}

// WriteTo writes the finished SVG document.
func (c *Canvas) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="Helvetica, Arial, sans-serif">`+"\n",
		num(c.w), num(c.h), num(c.w), num(c.h))
	if c.defs.Len() > 0 {
		b.WriteString("<defs>\n" + c.defs.String() + "</defs>\n")
	}
	fmt.Fprintf(&b, `<rect width="%s" height="%s" fill="#fff"/>`+"\n", num(c.w), num(c.h))
	b.WriteString(c.b.String())
	b.WriteString("</svg>\n")
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// PathBuilder accumulates path data.
type PathBuilder struct{ b strings.Builder }

// M moves to (x, y).
func (p *PathBuilder) M(x, y float64) *PathBuilder {
	fmt.Fprintf(&p.b, "M%s %s", num(x), num(y))
	return p
}

// L draws a line to (x, y).
func (p *PathBuilder) L(x, y float64) *PathBuilder {
	fmt.Fprintf(&p.b, "L%s %s", num(x), num(y))
	return p
}

// H draws a horizontal line to x.
func (p *PathBuilder) H(x float64) *PathBuilder {
	fmt.Fprintf(&p.b, "H%s", num(x))
	return p
}

// V draws a vertical line to y.
func (p *PathBuilder) V(y float64) *PathBuilder {
	fmt.Fprintf(&p.b, "V%s", num(y))
	return p
}

// Z closes the current subpath.
func (p *PathBuilder) Z() *PathBuilder {
	p.b.WriteString("Z")
	return p
}

// Empty reports whether nothing was drawn.
func (p *PathBuilder) Empty() bool { return p.b.Len() == 0 }
