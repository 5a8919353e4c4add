package streaming

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/worldcook/worldcook/manifest"
)

func TestViewShows(t *testing.T) {
	g := geom{minX: 10, minZ: 0, maxX: 20, maxZ: 10}
	for _, tc := range []struct {
		name string
		v    View
		x, z float64
		want bool
	}{
		{"a rectangle overlapping the cell", View{HalfWidth: 6, HalfHeight: 1}, 5, 5, true},
		{"a rectangle that only touches its edge", View{HalfWidth: 5, HalfHeight: 1}, 5, 5, false},
		{"a rectangle above it", View{HalfWidth: 50, HalfHeight: 2}, 15, 11.5, true},
		{"a rectangle short of it above", View{HalfWidth: 50, HalfHeight: 2}, 15, 12, false},
		{"a disc reaching it", View{Disc: true, Radius: 5.5}, 5, 5, true},
		{"a disc short of it", View{Disc: true, Radius: 5}, 5, 5, false},
		{"a disc from a corner diagonal", View{Disc: true, Radius: 1.5}, 9, -1, true},
		{"a square view misses what a disc of its half-side would not", View{HalfWidth: 1, HalfHeight: 1}, 9, -1, false},
		// Turned by 45°, a 2 × 2 square reaches √2 along x and z: the
		// corner (9, -1) is √2 from the cell's corner (10, 0) along the
		// diagonal, which its point does not pass.
		{"a square turned by 45° reaches a corner its box would", View{HalfWidth: 1, HalfHeight: 1, Angle: math.Pi / 4}, 8.7, -1.3, false},
		{"a square turned by 45° reaches along its diagonal", View{HalfWidth: 1, HalfHeight: 1, Angle: math.Pi / 4}, 9.5, 5, true},
		{"a long view turned a quarter reaches up, not across", View{HalfWidth: 50, HalfHeight: 1, Angle: math.Pi / 2}, 5, 5, false},
		{"a long view turned a quarter reaches up", View{HalfWidth: 50, HalfHeight: 1, Angle: math.Pi / 2}, 10.5, 40, true},
		{"a long view turned by 30° reaches the cell along its length", View{HalfWidth: 50, HalfHeight: 1, Angle: math.Pi / 6}, 15 - 20*math.Cos(math.Pi/6), 5 - 20*math.Sin(math.Pi/6), true},
		{"and by -30° passes below it", View{HalfWidth: 50, HalfHeight: 1, Angle: -math.Pi / 6}, 15 - 20*math.Cos(math.Pi/6), 5 - 20*math.Sin(math.Pi/6), false},
	} {
		if got := tc.v.shows(&g, tc.x, tc.z); got != tc.want {
			t.Errorf("%s: shows = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestViewOfAndReach(t *testing.T) {
	for _, tc := range []struct {
		m     *manifest.View
		want  *View
		reach float64
	}{
		{nil, nil, 0},
		{&manifest.View{Projection: manifest.Orthographic, Width: 60, Height: 80}, &View{HalfWidth: 30, HalfHeight: 40}, 50},
		{&manifest.View{Projection: manifest.Orthographic, Width: 60, Height: 80, Rotation: 90}, &View{HalfWidth: 30, HalfHeight: 40, Angle: math.Pi / 2}, 50},
		{&manifest.View{Projection: manifest.Perspective, Distance: 7}, &View{Disc: true, Radius: 7}, 7},
		{&manifest.View{Projection: manifest.Orthographic, Width: 0, Height: 80}, nil, 0},
		{&manifest.View{Projection: manifest.Perspective}, nil, 0},
	} {
		got := ViewOf(tc.m)
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("ViewOf(%+v) = %+v, want %+v", tc.m, got, tc.want)
			continue
		}
		if got != nil && got.Reach() != tc.reach {
			t.Errorf("Reach of %+v = %v, want %v", got, got.Reach(), tc.reach)
		}
	}
}

// viewed is a source with a view.
func viewed(s Source, v View) Source {
	s.View = &v
	return s
}

// TestPopInBudgeted: a view wider than the load radius pops cells in
// that never load; one within it pops in only while the start streams
// in, and the holes keep their meaning.
func TestPopInBudgeted(t *testing.T) {
	// A 2 × 1 view, half-width 16: from x = 25 it shows c00..c04 (x from
	// 9 to 41). A load radius of 6 wants c01..c03 only.
	wide := View{HalfWidth: 16, HalfHeight: 5}
	s := newSim(t, rowWorld(8), []Source{viewed(src("cam", 25, 6, 6, 12), wide)}, Settings{}, ModelIO{LatencyFrames: 1})
	r := s.at(25)
	eq(t, "frame 1 pop-in", r.PopInCells, []string{"c02", "c01", "c03", "c00", "c04"})
	eq(t, "frame 1 holes", r.Holes, []string{"c02", "c01", "c03"})
	if want := []HoleCause{CauseStart, CauseStart, CauseStart, CauseLoadRadius, CauseLoadRadius}; !slices.Equal(r.PopInCauses, want) {
		t.Errorf("frame 1 causes %v, want %v", r.PopInCauses, want)
	}
	r = s.at(25)
	if len(r.Holes) != 0 || r.PopIn != 2 {
		t.Errorf("frame 2: %d holes, %d pop-in (%v); want 0 and the 2 cells beyond the load radius", len(r.Holes), r.PopIn, r.PopInCells)
	}

	// The same view under a load radius that covers it: pop-in ends
	// with the start.
	s = newSim(t, rowWorld(8), []Source{viewed(src("cam", 25, 20, 17, 30), wide)}, Settings{}, ModelIO{LatencyFrames: 1})
	if r := s.at(25); r.PopIn != 5 {
		t.Errorf("covered, frame 1: pop-in %v, want all 5 shown cells", r.PopInCells)
	}
	if r := s.at(25); r.PopIn != 0 {
		t.Errorf("covered, frame 2: pop-in %v, want none", r.PopInCells)
	}

	// Without a view nothing pops in, whatever is missing.
	s = newSim(t, rowWorld(8), []Source{src("cam", 25, 6, 6, 12)}, Settings{}, ModelIO{LatencyFrames: 1})
	if r := s.at(25); r.PopIn != 0 || r.PopInCells != nil || len(r.Holes) != 3 {
		t.Errorf("no view: pop-in %d %v, holes %v", r.PopIn, r.PopInCells, r.Holes)
	}
}

// TestPopInEstella: Estella's runtime pops in the cells its load radius
// leaves out; on a world cut on x and y, where it samples the sources on
// x and z, what the camera shows pops in for the plane.
func TestPopInEstella(t *testing.T) {
	wide := View{HalfWidth: 16, HalfHeight: 5}
	e, err := NewEstella(rowWorld(8), []Source{viewed(src("cam", 25, 6, 6, 12), wide)}, EstellaHost{})
	if err != nil {
		t.Fatal(err)
	}
	frames, err := RunEstella(context.Background(), e, [][]Point{{{X: 25, Z: 5}}, {{X: 25, Z: 5}}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The runtime's operations take no frames here: the wanted cells are
	// resident at the end of the first frame, the two beyond the load
	// radius never.
	for _, f := range frames {
		eq(t, "pop-in", f.PopInCells, []string{"c00", "c04"})
		if !slices.Equal(f.PopInCauses, []HoleCause{CauseLoadRadius, CauseLoadRadius}) || len(f.Holes) != 0 {
			t.Errorf("frame %d: causes %v, holes %v", f.Frame, f.PopInCauses, f.Holes)
		}
	}

	// The runtime samples (25, z = 500) while the source stands at
	// (25, 5): it wants nothing near where the camera looks.
	e, err = NewEstella(rowWorld(8), []Source{viewed(src("cam", 25, 6, 6, 12), wide)}, EstellaHost{})
	if err != nil {
		t.Fatal(err)
	}
	frames, err = RunEstella(context.Background(), e, [][]Point{{{X: 25, Z: 500}}}, [][]Point{{{X: 25, Z: 5}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := frames[0]
	if f.PopIn != 5 {
		t.Fatalf("apart: pop-in %v, want the 5 cells shown", f.PopInCells)
	}
	for k, c := range f.PopInCauses {
		if c != CausePlane {
			t.Errorf("apart: %s's cause is %v, want plane", f.PopInCells[k], c)
		}
	}
}

// TestPopInSummaryAndGate: the summary counts pop-in frames and
// episodes, and the gate excuses pop-in until the first frame without.
func TestPopInSummaryAndGate(t *testing.T) {
	frame := func(n int, cells ...string) FrameReport {
		r := FrameReport{Frame: n, PopIn: len(cells), PopInCells: cells}
		for range cells {
			r.PopInCauses = append(r.PopInCauses, CauseLoadRadius)
		}
		return r
	}
	frames := []FrameReport{frame(1, "a", "b"), frame(2), frame(3, "b"), frame(4, "b"), frame(5)}
	var sum Summary
	Conclude(&sum, frames, Gate{FailOn: []string{FailPopIn}})
	if sum.PopInFrames != 3 || sum.MaxPopIn != 2 || sum.FirstPopInFrame != 1 || len(sum.PopInEpisodes) != 2 {
		t.Fatalf("summary: %d frames, max %d, first %d, %d episodes", sum.PopInFrames, sum.MaxPopIn, sum.FirstPopInFrame, len(sum.PopInEpisodes))
	}
	if ep := sum.PopInEpisodes[1]; ep.First != 3 || ep.Last != 4 || ep.Cause != CauseLoadRadius || ep.Cells[0].Frames != 2 {
		t.Errorf("second episode %+v", ep)
	}
	g := sum.Gate
	if !g.Failed || g.PopInWarmup != 2 || !g.PopInWarmupEnded || len(g.Breaches) != 1 || g.Breaches[0].FrameCount != 2 {
		t.Errorf("gate %+v", g)
	}
	// The holes' warm-up is their own: none here, so it ends at frame 1.
	if g.Warmup != 1 {
		t.Errorf("holes' warm-up %d, want 1", g.Warmup)
	}
	warm := 3
	Conclude(&sum, frames, Gate{FailOn: []string{FailPopIn}, Warmup: &warm})
	if b := sum.Gate.Breaches; len(b) != 1 || b[0].FrameCount != 1 || b[0].Frames[0] != (FrameRange{4, 4}) {
		t.Errorf("with --warmup 3: %+v", b)
	}
}

// BenchmarkStepView is BenchmarkStep's 1024² world with and without a
// view on the source (a 400 × 300 rectangle, inside its load radius): what
// counting pop-in costs a frame.
func BenchmarkStepView(b *testing.B) {
	route := benchRoute(720)
	for _, view := range []*View{nil, {HalfWidth: 200, HalfHeight: 150}} {
		name := "no view"
		if view != nil {
			name = "view"
		}
		b.Run(name, func(b *testing.B) {
			src := benchSources()
			src[0].View = view
			s, err := NewScheduler(gridWorld(1024), src, benchSettings(), NewModelLoader(ModelIO{LatencyFrames: 2}))
			if err != nil {
				b.Fatal(err)
			}
			for _, pos := range route {
				s.Step(pos)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				s.Step(route[i%len(route)])
			}
		})
	}
}
