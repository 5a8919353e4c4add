package drawing

import (
	"io"
	"math"
)

// Kind is how a series is drawn.
type Kind int

const (
	// Line joins the values.
	Line Kind = iota
	// Area fills under the values.
	Area
	// Steps holds each value for its whole frame, for counts.
	Steps
	// Bars draws one bar per value; bars of the same panel stack.
	Bars
)

// Series is one named row of values, one per frame.
type Series struct {
	Name   string
	Values []float64
	Kind   Kind
	Color  string
}

// Level is a horizontal reference line, such as a budget or a cap.
type Level struct {
	Name  string
	Value float64
	Color string
}

// Panel is one chart in a stack sharing the frame axis.
type Panel struct {
	Title string
	// Bytes formats the value axis in binary units; Counts keeps its
	// ticks on whole numbers.
	Bytes  bool
	Counts bool
	Series []Series
	Levels []Level
	// Note is shown right of the title in grey (a total, a peak).
	Note string
}

// Chart is a stack of panels over frames 1..N, labelled as the run
// numbers them: frame k is labelled k+FrameOffset.
type Chart struct {
	Title, Subtitle string
	Panels          []Panel
	FrameOffset     int
	// Width is the plotting width in pixels (default 900).
	Width float64
}

const (
	chartLeft   = 78
	chartRight  = 24
	chartTop    = 64
	panelHeight = 118
	panelGap    = 44
)

// frames is the number of frames the chart spans.
func (ch *Chart) frames() int {
	n := 0
	for _, p := range ch.Panels {
		for _, s := range p.Series {
			n = max(n, len(s.Values))
		}
	}
	return n
}

// WriteSVG draws the chart.
func (ch *Chart) WriteSVG(w io.Writer) error {
	width := ch.Width
	if width <= 0 {
		width = 900
	}
	n := ch.frames()
	height := chartTop + float64(len(ch.Panels))*(panelHeight+panelGap) + 20
	c := NewCanvas(chartLeft+width+chartRight, height)
	c.Text(chartLeft, 24, ch.Title, Font{Size: 16, Weight: "bold"})
	c.Text(chartLeft, 44, ch.Subtitle, Font{Size: 12, Fill: "#555"})
	slot := width / float64(max(n, 1))
	// Frame k (1-based) occupies [x(k-1), x(k)); lines pass through its
	// middle.
	x := func(k float64) float64 { return chartLeft + k*slot }
	// Ticks fall on round frame numbers as the run names them, and are
	// kept as frames of the chart (1 to n).
	offset := float64(ch.FrameOffset)
	frameTicks := ticks(1+offset, math.Max(float64(n), 2)+offset, 10, false)
	for i := range frameTicks {
		frameTicks[i] -= offset
	}
	if n <= 10 { // short runs: every frame, never a fraction of one
		frameTicks = frameTicks[:0]
		for f := 1; f <= max(n, 1); f++ {
			frameTicks = append(frameTicks, float64(f))
		}
	}
	for i, p := range ch.Panels {
		top := chartTop + float64(i)*(panelHeight+panelGap) + 18
		ch.panel(c, &p, top, width, slot, n, x, frameTicks, i == len(ch.Panels)-1)
	}
	_, err := c.WriteTo(w)
	return err
}

func (ch *Chart) panel(c *Canvas, p *Panel, top, width, slot float64, n int, x func(float64) float64, frameTicks []float64, last bool) {
	bottom := top + panelHeight
	// Value range: the series (stacked bars summed) and the levels.
	hi := 0.0
	stack := make([]float64, n)
	for _, s := range p.Series {
		for k, v := range s.Values {
			if s.Kind == Bars {
				stack[k] += v
				hi = math.Max(hi, stack[k])
			} else {
				hi = math.Max(hi, v)
			}
		}
	}
	for _, l := range p.Levels {
		hi = math.Max(hi, l.Value)
	}
	yt := ticks(0, math.Max(hi, 1), 4, p.Bytes)
	if p.Counts && len(yt) > 1 && yt[1]-yt[0] < 1 {
		yt = ticks(0, math.Max(hi, 1), int(math.Max(hi, 1)), false)
	}
	top2 := math.Max(yt[len(yt)-1], hi)
	if top2 <= 0 {
		top2 = 1
	}
	y := func(v float64) float64 { return bottom - v/top2*panelHeight }

	// Title and series keys on one line above the panel.
	c.Text(chartLeft, top-8, p.Title, Font{Size: 12, Weight: "bold"})
	kx := chartLeft + float64(len([]rune(p.Title)))*7.2 + 16
	for k, s := range p.Series {
		col := seriesColor(s.Color, k)
		c.Rect(kx, top-17, 10, 10, Style{Fill: col})
		c.Text(kx+14, top-8, s.Name, Font{Size: 11, Fill: "#333"})
		kx += 14 + float64(len([]rune(s.Name)))*6.2 + 14
	}
	if p.Note != "" {
		c.Text(chartLeft+width, top-8, p.Note, Font{Size: 11, Fill: "#555", Anchor: "end"})
	}

	c.Rect(chartLeft, top, width, panelHeight, Style{Fill: "#fcfcfc", Stroke: "#bbb", Width: 0.8})
	for _, v := range yt {
		c.Line(chartLeft, y(v), chartLeft+width, y(v), Style{Stroke: "#e6e6e6"})
		c.Text(chartLeft-6, y(v)+3, label(v, p.Bytes), Font{Size: 10, Fill: "#555", Anchor: "end"})
	}
	offset := float64(ch.FrameOffset)
	for _, f := range frameTicks {
		xx := x(f - 0.5)
		c.Line(xx, bottom, xx, bottom+4, Style{Stroke: "#999"})
		c.Text(xx, bottom+15, label(f+offset, false), Font{Size: 10, Fill: "#555", Anchor: "middle"})
	}
	if last {
		c.Text(chartLeft+width/2, bottom+30, "frame", Font{Size: 11, Fill: "#333", Anchor: "middle"})
	}

	base := make([]float64, n)
	for k, s := range p.Series {
		col := seriesColor(s.Color, k)
		var path PathBuilder
		switch s.Kind {
		case Bars:
			// Bars leave a hairline gap when there is room, so neighbours
			// stay distinct; all bars of a series are one path.
			gap := math.Min(slot*0.15, 1)
			for i, v := range s.Values {
				if v <= 0 {
					continue
				}
				x0 := x(float64(i)) + gap/2
				path.M(x0, y(base[i])).V(y(base[i] + v)).H(x0 + slot - gap).V(y(base[i])).Z()
				base[i] += v
			}
			c.Path(&path, Style{Fill: col, Title: s.Name})
		case Area:
			if len(s.Values) == 0 {
				continue
			}
			path.M(x(0), bottom)
			for i, v := range s.Values {
				path.L(x(float64(i)+0.5), y(v))
			}
			path.L(x(float64(len(s.Values))), y(s.Values[len(s.Values)-1])).V(bottom).Z()
			c.Path(&path, Style{Fill: col, FillOpacity: 0.3})
			c.Path(midLine(s.Values, x, y), Style{Stroke: col, Width: 1.6, Title: s.Name})
		case Steps:
			for i, v := range s.Values {
				if i == 0 {
					path.M(x(0), y(v))
				} else {
					path.V(y(v))
				}
				path.H(x(float64(i + 1)))
			}
			c.Path(&path, Style{Stroke: col, Width: 1.6, Title: s.Name})
		default:
			c.Path(midLine(s.Values, x, y), Style{Stroke: col, Width: 1.6, Title: s.Name})
		}
	}
	for _, l := range p.Levels {
		col := l.Color
		if col == "" {
			col = "#d62728"
		}
		c.Line(chartLeft, y(l.Value), chartLeft+width, y(l.Value), Style{Stroke: col, Width: 1.4, Dash: "6 4", Title: l.Name})
		// The label sits just under the line at the left, inside the
		// panel, where it cannot collide with the title row's note.
		c.Rect(chartLeft+3, y(l.Value)+2, float64(len([]rune(l.Name)))*5.8+6, 13, Style{Fill: "#fff", FillOpacity: 0.85})
		c.Text(chartLeft+6, y(l.Value)+12, l.Name, Font{Size: 10, Fill: col})
	}
}

func seriesColor(c string, k int) string {
	if c != "" {
		return c
	}
	return Palette[k%len(Palette)]
}

// midLine joins the values through the middle of their frames.
func midLine(values []float64, x, y func(float64) float64) *PathBuilder {
	var p PathBuilder
	for i, v := range values {
		if i == 0 {
			p.M(x(0.5), y(v))
		} else {
			p.L(x(float64(i)+0.5), y(v))
		}
	}
	return &p
}
