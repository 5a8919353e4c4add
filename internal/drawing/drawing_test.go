package drawing

import (
	"bytes"
	"encoding/xml"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// wellFormed checks that out parses as XML from start to end.
func wellFormed(t *testing.T, out []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(out))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed SVG: %v", err)
		}
	}
}

func TestMapDrawsGridBoundsRoutesAndArrows(t *testing.T) {
	m := &Map{
		Title: "main <test> & co", CellSize: 100, ValueName: "loads",
		Cells: []Cell{
			{Name: "main.cell_0_0", Bounds: Rect{MinX: 0, MinZ: 0, MaxX: 100, MaxZ: 100}, Value: 2},
			{Name: "main.cell_1_0", X: 1, Bounds: Rect{MinX: 100, MinZ: -30, MaxX: 260, MaxZ: 100}, Value: 0},
		},
		Routes: []Route{{Name: "player", Points: []Point{{X: 10, Z: 10}, {X: 150, Z: 50}, {X: 10, Z: 90}, {X: 20, Z: 90}}, Jumps: []int{2}}},
		Rings:  []Ring{{Center: Point{X: 10, Z: 10}, Radius: 50, Label: "load radius"}},
		Arrows: []Arrow{{From: Point{X: 50, Z: 50}, To: Point{X: 150, Z: 50}, Label: "Door -> Frame"}},
	}
	var buf bytes.Buffer
	if err := m.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	wellFormed(t, buf.Bytes())
	for _, want := range []string{
		"main &lt;test&gt; &amp; co",                // escaped title
		"main.cell_1_0 grown bounds",                // overhang outlined
		`paint-order="stroke">main.cell_1_0</text>`, // and labelled with its cell
		"Door -&gt; Frame",                          // arrow tooltip
		"main.cell_0_0 (0, 0): 2 loads",             // cell tooltip
		"M", "marker-end",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("map lacks %q", want)
		}
	}
	// The jump breaks the route: two subpaths.
	if !regexp.MustCompile(`<path d="M[^"]*L[^"]*M[^"]*"[^>]*><title>player</title>`).MatchString(out) {
		t.Errorf("route not broken at the jump")
	}
}

func TestEmptyDrawingsDoNotFail(t *testing.T) {
	var buf bytes.Buffer
	if err := (&Map{CellSize: 1}).WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, buf.Bytes())
	buf.Reset()
	if err := (&Chart{Panels: []Panel{{Title: "nothing"}}}).WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, buf.Bytes())
}

func TestChartStacksBarsAndDrawsLevels(t *testing.T) {
	ch := &Chart{Title: "run", Panels: []Panel{{
		Title: "churn", Bytes: true,
		Series: []Series{{Name: "a", Kind: Bars, Values: []float64{1024, 0, 2048}}, {Name: "b", Kind: Bars, Values: []float64{1024, 1024, 0}}},
		Levels: []Level{{Name: "budget 4 KiB", Value: 4096}},
	}, {
		Title:  "depth",
		Series: []Series{{Name: "d", Kind: Steps, Values: []float64{1, 2, 3}}, {Name: "r", Kind: Area, Values: []float64{3, 2, 1}}, {Name: "l", Values: []float64{0, 1, 0}}},
	}}}
	var buf bytes.Buffer
	if err := ch.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, buf.Bytes())
	for _, want := range []string{"budget 4 KiB", "4 KiB", "stroke-dasharray"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("chart lacks %q", want)
		}
	}
}

func TestTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		n      int
		bytes  bool
		want   []float64
	}{
		{0, 10, 5, false, []float64{0, 2, 4, 6, 8, 10}},
		{0, 11680, 4, true, []float64{0, 5120, 10240}},
		{1, 60, 10, false, []float64{10, 20, 30, 40, 50, 60}},
		{5, 5, 4, false, []float64{5}},
	} {
		if got := ticks(tc.lo, tc.hi, tc.n, tc.bytes); !slices.Equal(got, tc.want) {
			t.Errorf("ticks(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
	for v, want := range map[float64]string{0: "0", 1.5: "1.5", 25000: "25k", 3e6: "3M"} {
		if got := label(v, false); got != want {
			t.Errorf("label(%v) = %q, want %q", v, got, want)
		}
	}
	if got := label(5120, true); got != "5 KiB" {
		t.Errorf("label(5120, bytes) = %q", got)
	}
}

// TestMapMarksBadgesAndTicks: a marked stretch gets a band and a badge,
// the legend lists the badge with its label, alert cells are outlined,
// and of two tick labels on one spot only the first is set.
func TestMapMarksBadgesAndTicks(t *testing.T) {
	m := &Map{
		CellSize: 100,
		Cells:    []Cell{{Name: "a", Bounds: Rect{MinX: 0, MinZ: 0, MaxX: 100, MaxZ: 100}, Alert: true}},
		Routes: []Route{{Name: "cam", Points: []Point{{X: 10, Z: 10}, {X: 90, Z: 90}},
			Ticks: []Tick{{At: Point{X: 50, Z: 50}, Label: "10"}, {At: Point{X: 50, Z: 50}, Label: "20"}}, TickName: "frame every 10"}},
		Marks:    []Mark{{Points: []Point{{X: 10, Z: 10}, {X: 50, Z: 50}}, Badge: "1", Label: "3-7: budget", Title: "episode one"}, {Points: []Point{{X: 90, Z: 90}}}},
		MarkName: "hole episode", MarkNote: "2 more, unnumbered",
	}
	var buf bytes.Buffer
	if err := m.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, buf.Bytes())
	out := buf.String()
	for _, want := range []string{"episode one", ">1</text>", ">3-7: budget</text>", ">hole episode</text>", ">2 more, unnumbered</text>",
		">frame every 10</text>", "a missing while wanted", ">10</text>", "paint-order"} {
		if !strings.Contains(out, want) {
			t.Errorf("map lacks %q", want)
		}
	}
	if strings.Contains(out, ">20</text>") {
		t.Error("a tick label set over another")
	}
}

// The cell at the int32 limit has its square where validate puts it, up
// to 2^31 cell sizes: with bounds equal to that square it did not grow, so
// no grown outline is drawn, and it is drawn as one cell-sized square.
func TestMapCellAtInt32Limit(t *testing.T) {
	const last = 1<<31 - 1
	m := &Map{Title: "edge", CellSize: 1, Cells: []Cell{{
		Name: "main.cell_2147483647_2147483647", X: last, Z: last,
		Bounds: Rect{MinX: last, MinZ: last, MaxX: 1 << 31, MaxZ: 1 << 31}, Value: 1,
	}}}
	if got := m.grid(m.Cells[0]); got != m.Cells[0].Bounds {
		t.Fatalf("grid square %+v, want %+v", got, m.Cells[0].Bounds)
	}
	var out bytes.Buffer
	if err := m.WriteSVG(&out); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, out.Bytes())
	if strings.Contains(out.String(), "grown bounds") {
		t.Error("the cell at the int32 limit is outlined as grown")
	}
}

// TestLevelOutlines checks that a coarser level's cell is drawn as an
// outline of its own square, in its level's stroke, not as a level-0 cell.
func TestLevelOutlines(t *testing.T) {
	m := &Map{Title: "levels", CellSize: 100, Cells: []Cell{
		{Name: "w.cell_0_0", Bounds: Rect{MaxX: 100, MaxZ: 100}, Value: 1},
		{Name: "w.cell_L2_0_0", Level: 2, Bounds: Rect{MaxX: 400, MaxZ: 400}, Value: 1},
	}}
	var b strings.Builder
	if err := m.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	if !strings.Contains(svg, levelStrokes[1]) || !strings.Contains(svg, "w.cell_L2_0_0 (level 2: 0, 0)") {
		t.Fatalf("no level-2 outline:\n%s", svg)
	}
	if got := m.grid(m.Cells[1]); got != (Rect{MaxX: 400, MaxZ: 400}) {
		t.Fatalf("level-2 square %+v", got)
	}
}

// A bound far past the content is clipped and named under the map rather
// than shrinking the grid to a dot; one a cell past the grid is drawn whole.
func TestMapClipsOutlierBounds(t *testing.T) {
	cells := func(outlier float64) []Cell {
		var cs []Cell
		for x := int32(0); x < 4; x++ {
			for z := int32(0); z < 3; z++ {
				sq := Rect{MinX: float64(x) * 100, MinZ: float64(z) * 100, MaxX: float64(x+1) * 100, MaxZ: float64(z+1) * 100}
				cs = append(cs, Cell{Name: "c", X: x, Z: z, Bounds: sq, Value: 1})
			}
		}
		cs[0].Name, cs[0].Bounds.MaxX = "main.cell_0_0", outlier
		return cs
	}
	for _, tc := range []struct {
		name    string
		reach   float64
		caption string // "" for none
		width   string // the plot frame: the outlier leaves it the 4×3 grid plus a margin
	}{
		{"outlier clipped", 9800, "main.cell_0_0's bounds reach to x = 9800, off the map", `width="720" height="576"`},
		{"near overhang kept whole", 450, "", `width="720" height="523.64"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := (&Map{CellSize: 100, ValueName: "loads", Cells: cells(tc.reach)}).WriteSVG(&buf); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			wellFormed(t, buf.Bytes())
			if got := strings.Contains(out, "off the map"); got != (tc.caption != "") || tc.caption != "" && !strings.Contains(out, tc.caption) {
				t.Errorf("caption: want %q in\n%s", tc.caption, out)
			}
			if got := strings.Contains(out, "reaching off the map"); got != (tc.caption != "") {
				t.Errorf("edge arrow drawn: %v, want %v", got, tc.caption != "")
			}
			if !strings.Contains(out, `<rect x="64" y="64" `+tc.width) {
				t.Errorf("plot frame: want %s in\n%s", tc.width, out)
			}
		})
	}
}

// A colour scale whose ends are equal reads as one value, not "1 … 1".
func TestMapScaleOfOneValue(t *testing.T) {
	cell := func(x int32, v float64) Cell {
		return Cell{Name: "c", X: x, Bounds: Rect{MinX: float64(x) * 10, MaxX: float64(x+1) * 10, MaxZ: 10}, Value: v}
	}
	for _, tc := range []struct {
		name   string
		values []float64
		want   string // a legend line
		ramp   bool   // whether the 40-step ramp is drawn
	}{
		{"all one", []float64{1, 1}, ">every cell: 1<", false},
		{"one and zeros", []float64{1, 0, 1}, ">every shaded cell: 1<", false},
		{"a range", []float64{1, 3}, ">3<", true},
		{"all zero", []float64{0, 0}, ">0 (never loaded)<", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &Map{CellSize: 10, ValueName: "loads", ZeroLabel: "never loaded"}
			for i, v := range tc.values {
				m.Cells = append(m.Cells, cell(int32(i), v))
			}
			var buf bytes.Buffer
			if err := m.WriteSVG(&buf); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if !strings.Contains(out, tc.want) {
				t.Errorf("legend lacks %q:\n%s", tc.want, out)
			}
			if got := strings.Contains(out, `width="16" height="3.3"`); got != tc.ramp {
				t.Errorf("ramp drawn: %v, want %v", got, tc.ramp)
			}
		})
	}
}
