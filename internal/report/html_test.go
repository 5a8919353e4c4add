package report

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// gridRun is a run on an n×n world with no frames yet: what timelineOf
// reads besides the sets.
func gridRun(n, frames int) (*simulate.PolicyRun, map[string]int32) {
	w := &streaming.World{Scene: "g", CellSize: 1, Plane: "xz"}
	// Cells named as cook names them, and one that is not, some grown.
	index := map[string]int32{}
	for x := range int32(n) {
		for z := range int32(n) {
			name := fmt.Sprintf("g.cell_%d_%d", x, z)
			if x == 1 && z == 2 {
				name = "special"
			}
			index[name] = int32(len(w.Cells))
			w.Cells = append(w.Cells, streaming.Cell{Name: name, X: x, Z: z, Bytes: 10,
				Bounds: streaming.Bounds{MinX: float64(x), MinZ: float64(z), MaxX: float64(x + 1), MaxZ: float64(z+1) + float64(x%2)/4}})
		}
	}
	p := &simulate.PolicyRun{Policy: simulate.Budgeted, World: w, Frames: make([]streaming.FrameReport, frames), Summary: streaming.Summary{Frames: frames, FirstFrame: 1}}
	for i := range p.Frames {
		p.Frames[i].Frame = i + 1
		p.Route = append(p.Route, []streaming.Point{{X: float64(i % n), Z: 0.5}})
	}
	p.Sources = []streaming.Source{{Name: "camera", Load: 1, Unload: 2, Prefetch: 1.5, Enabled: true}}
	return p, index
}

// replay decodes a run's changes into each frame's state of every drawn
// cell, as the page does.
func replay(t *testing.T, r timelineRun, frames int) [][]uint8 {
	t.Helper()
	state := make([]uint8, len(r.Names))
	out := make([][]uint8, frames)
	f := 0
	for i := 0; i < len(r.Changes); {
		next, n := f+r.Changes[i], r.Changes[i+1]
		for ; f < next-1; f++ {
			out[f] = slices.Clone(state)
		}
		for _, c := range r.Changes[i+2 : i+2+n] {
			if c&7 == int(state[c>>3]) {
				t.Fatalf("frame %d: a change of cell %d to the state it had", next, c>>3)
			}
			state[c>>3] = uint8(c & 7)
		}
		out[f] = slices.Clone(state)
		f, i = next, i+2+n
	}
	for ; f < frames; f++ {
		out[f] = slices.Clone(state)
	}
	return out
}

// TestTimelineChanges checks that the changes the page is given rebuild,
// frame by frame, the first state that applies to each cell, from sets
// that overlap (a hole may be loading; a cell may be in several sets).
func TestTimelineChanges(t *testing.T) {
	const n, frames = 6, 80
	p, index := gridRun(n, frames)
	rng := rand.New(rand.NewPCG(3, 5))
	names := make([]string, 0, n*n)
	for _, c := range p.World.Cells {
		names = append(names, c.Name)
	}
	sets := make([]cellSets, frames)
	for i := range sets {
		pick := func() []string {
			var out []string
			for _, c := range names {
				if rng.IntN(6) == 0 {
					out = append(out, c)
				}
			}
			return out
		}
		sets[i] = cellSets{Holes: pick(), Resident: pick(), Unloading: pick(), Prepared: pick(), Loading: pick()}
		if i%10 == 9 {
			sets[i] = cellSets{} // a frame with every cell absent
		}
	}
	r, err := timelineOf(p, simulate.Options{Route: "r.csv"}, index, func(i int) cellSets { return sets[i] })
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Names) != n*n {
		t.Fatalf("a %d-cell world draws %d cells", n*n, len(r.Names))
	}
	// Names and bounds as the page rebuilds them: cook's usual name and
	// the grid square unless the data says otherwise.
	bounds := map[int][4]float64{}
	for i := 0; i < len(r.Grown); i += 5 {
		bounds[int(r.Grown[i])] = [4]float64(r.Grown[i+1 : i+5])
	}
	for i, c := range p.World.Cells {
		x, z := r.Grid[2*i], r.Grid[2*i+1]
		name := r.Names[i]
		if name == "" {
			name = fmt.Sprintf("%s%d_%d", r.NamePrefix, x, z)
		}
		b, ok := bounds[i]
		if !ok {
			b = [4]float64{float64(x) * r.CellSize, float64(z) * r.CellSize, float64(x+1) * r.CellSize, float64(z+1) * r.CellSize}
		}
		if name != c.Name || b != [4]float64{c.Bounds.MinX, c.Bounds.MinZ, c.Bounds.MaxX, c.Bounds.MaxZ} {
			t.Errorf("cell %d: %s %v, want %s %v", i, name, b, c.Name, c.Bounds)
		}
	}
	if len(r.Grown) == 0 || !slices.Contains(r.Names, "special") || slices.Contains(r.Names, "g.cell_0_0") {
		t.Errorf("names %v, grown %v: want cook's names implied, others and grown bounds given", r.Names, r.Grown)
	}
	got := replay(t, r, frames)
	for i, s := range sets {
		want := make([]uint8, n*n)
		for k, l := range [][]string{s.Loading, s.Prepared, s.Unloading, s.Resident, s.Holes} {
			for _, c := range l {
				want[index[c]] = []uint8{stateLoading, statePrepared, stateUnloading, stateResident, stateHole}[k]
			}
		}
		if !slices.Equal(got[i], want) {
			t.Fatalf("frame %d: states %v, want %v", i+1, got[i], want)
		}
	}
	bad := func(int) cellSets { return cellSets{Resident: []string{"nowhere"}} }
	if _, err := timelineOf(p, simulate.Options{}, index, bad); err == nil || !strings.Contains(err.Error(), `"nowhere"`) {
		t.Errorf("a set naming a cell the world lacks: %v", err)
	}
}

// TestTimelineDrawsWhatTheRouteTouches checks that a large world draws
// only the cells the route touches, and a world too large to draw says
// what it leaves out and keeps the cells reached first.
func TestTimelineDrawsWhatTheRouteTouches(t *testing.T) {
	const n, frames = 10, 40
	p, index := gridRun(n, frames)
	// Frame i touches cell c_(i/4)_0.
	sets := func(i int) cellSets { return cellSets{Resident: []string{fmt.Sprintf("g.cell_%d_0", i/4)}} }
	defer func(full, most int) { fullGridCells, maxTimelineCells = full, most }(fullGridCells, maxTimelineCells)
	fullGridCells = 50
	r, err := timelineOf(p, simulate.Options{}, index, sets)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Names) != 10 || r.LeftOut != "" {
		t.Errorf("drawn %v, left out %q: want the 10 cells touched", r.Names, r.LeftOut)
	}
	maxTimelineCells = 4
	r, err = timelineOf(p, simulate.Options{}, index, sets)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"", "", "", ""}; !slices.Equal(r.Names, want) || !slices.Equal(r.Grid, []int32{0, 0, 1, 0, 2, 0, 3, 0}) {
		t.Errorf("drawn %v, want the first reached %v", r.Names, want)
	}
	if want := "budgeted: the route touches 10 cells; the map draws the 4 it reaches first (to frame 13) and leaves out 6"; !strings.HasPrefix(r.LeftOut, want) {
		t.Errorf("left out: %q, want %q…", r.LeftOut, want)
	}
	// The changes name only drawn cells.
	for i := 0; i < len(r.Changes); i += 2 + r.Changes[i+1] {
		for _, c := range r.Changes[i+2 : i+2+r.Changes[i+1]] {
			if c>>3 >= len(r.Names) {
				t.Fatalf("a change of cell %d of %d drawn", c>>3, len(r.Names))
			}
		}
	}
}

// TestKeyFrames checks that a route is kept as the frames where it turns
// and that moving between them at constant speed puts each source where
// the route says, to within the tolerance.
func TestKeyFrames(t *testing.T) {
	const tol = 0.01
	line := func(pts ...[2]float64) [][]streaming.Point {
		var out [][]streaming.Point
		for _, p := range pts {
			out = append(out, []streaming.Point{{X: p[0], Z: p[1]}})
		}
		return out
	}
	var straight, corner, circle, walk [][2]float64
	rng := rand.New(rand.NewPCG(1, 2))
	for f := range 1000 {
		straight = append(straight, [2]float64{math.Mod(float64(f)*1.2, 1e9), 16})
		if f < 500 {
			corner = append(corner, [2]float64{float64(f) * 0.1, 0})
		} else {
			corner = append(corner, [2]float64{50, float64(f-500) * 0.1})
		}
		a := float64(f) / 1000 * 2 * math.Pi
		circle = append(circle, [2]float64{50 + 30*math.Cos(a), 50 + 30*math.Sin(a)})
		walk = append(walk, [2]float64{rng.Float64() * 100, rng.Float64() * 100})
	}
	for _, tc := range []struct {
		name     string
		route    [][]streaming.Point
		min, max int // key frames
	}{
		{"straight", line(straight...), 2, 1000/256 + 2},
		{"a corner", line(corner...), 3, 1000/256 + 3},
		{"a circle", line(circle...), 100, 150}, // a chord every 0.05 rad
		{"a random walk", line(walk...), 1000, 1000},
		{"standing still", line(), 1, 1},
	} {
		keys := keyFrames(tc.route, 0, streaming.Source{X: 3, Z: 4}, tol)
		if k := len(keys) / 3; k < tc.min || k > tc.max {
			t.Errorf("%s: %d key frames, want %d to %d", tc.name, k, tc.min, tc.max)
		}
		if len(tc.route) == 0 {
			if !slices.Equal(keys, []float64{1, 3, 4}) {
				t.Errorf("a source the route does not move: %v", keys)
			}
			continue
		}
		for f := 1; f <= len(tc.route); f++ {
			k := 0
			for k+3 < len(keys) && keys[k+3] <= float64(f) {
				k += 3
			}
			x, z := keys[k+1], keys[k+2]
			if k+3 < len(keys) {
				tt := (float64(f) - keys[k]) / (keys[k+3] - keys[k])
				x, z = x+(keys[k+4]-x)*tt, z+(keys[k+5]-z)*tt
			}
			if p := tc.route[f-1][0]; math.Abs(p.X-x) > tol || math.Abs(p.Z-z) > tol {
				t.Fatalf("%s frame %d: at (%g, %g), the route says (%g, %g)", tc.name, f, x, z, p.X, p.Z)
			}
		}
	}
}

// TestKeyFramesOfShareFrames checks that where a source stands and where
// Estella's runtime samples it (its x, and a z the route never moves) are
// keyed at the same frames, so that the page draws them at one x: keyed
// apart, the straight sampled path would be cut less often and its x
// interpolated off the source's.
func TestKeyFramesOfShareFrames(t *testing.T) {
	var stand, sampled [][]streaming.Point
	for f := range 400 {
		x, y := float64(f)*3, 40*math.Sin(float64(f)/25)
		stand = append(stand, []streaming.Point{{X: x, Z: y}})
		sampled = append(sampled, []streaming.Point{{X: x, Z: 7}})
	}
	keys := keyFramesOf(0, streaming.Source{}, 0.05, stand, sampled)
	if len(keys[0]) != len(keys[1]) || len(keys[0]) < 30 {
		t.Fatalf("%d and %d keys", len(keys[0])/3, len(keys[1])/3)
	}
	for k := 0; k < len(keys[0]); k += 3 {
		if keys[0][k] != keys[1][k] || keys[0][k+1] != keys[1][k+1] || keys[1][k+2] != 7 {
			t.Fatalf("key %d: standing %v, sampled %v", k/3, keys[0][k:k+3], keys[1][k:k+3])
		}
	}
	if alone := keyFrames(sampled, 0, streaming.Source{}, 0.05); len(alone) >= len(keys[1]) {
		t.Errorf("the sampled path alone is keyed at %d frames, no fewer than together (%d): the test shows nothing", len(alone)/3, len(keys[1])/3)
	}
}

// TestTimelineHTML checks that the page is one file that names no other,
// carries the contract's elements and is the same on every run.
func TestTimelineHTML(t *testing.T) {
	p, _ := gridRun(4, 30)
	for i := range p.Frames {
		p.Frames[i].ResidentCells = []string{fmt.Sprintf("g.cell_%d_0", i%4)}
		p.Frames[i].PreparedCells, p.Frames[i].LoadingCells = []string{}, []string{}
		p.Frames[i].Holes = []string{"special"}
	}
	res := &simulate.Result{Runs: []*simulate.PolicyRun{p}}
	render := func() []byte {
		tl, err := NewTimeline(res, simulate.Options{Route: "/home/ann/levels/</script><!--<script>route.csv"})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := tl.WriteHTML(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	page := render()
	if !bytes.Equal(page, render()) {
		t.Error("two renderings of one run differ")
	}
	s := string(page)
	for _, want := range []string{`<input type="range" id="frame"`, `data-policy="budgeted"`, `id="worldcook-data"`, "window.worldcook", "default-src 'none'"} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	for _, bad := range []string{"src=", "<link", "@import", "fetch(", "XMLHttpRequest", "route</script>", "<!--<script>", "/home/ann", "levels/", "https:"} {
		if strings.Contains(s, bad) {
			t.Errorf("the page has %q", bad)
		}
	}
	for _, m := range regexp.MustCompile(`"(\w+)":null`).FindAllStringSubmatch(s, -1) {
		if m[1] != "budget" && m[1] != "cap" {
			t.Errorf("the data has %s: null", m[1])
		}
	}
	if n := strings.Count(s, "</script>"); n != 2 {
		t.Errorf("%d </script>: a name closed a script", n)
	}
	// Without the cell states there is no page.
	p.Frames[0].ResidentCells = nil
	if _, err := NewTimeline(res, simulate.Options{}); err == nil {
		t.Error("a run without cell states makes a page")
	}
}
