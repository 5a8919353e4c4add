package report

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	goldenfile "github.com/worldcook/worldcook/internal/golden"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// The worlds and routes of these tests are those of the scheduler's tests
// in streaming, so that the goldens under testdata/simulate are the
// reports of the runs those tests check.

// golden compares got with the named file under testdata/simulate, or
// rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Compare(t, filepath.Join("..", "..", "testdata", "simulate", name), got)
}

// seedWorld is the reference demo's island: 4×4 cells of 8 units.
func seedWorld() *streaming.World {
	w := &streaming.World{Scene: "island", CellSize: 8, Plane: "xz"}
	for i := int32(0); i < 4; i++ {
		for j := int32(0); j < 4; j++ {
			x, z := float64(i)*8, float64(j)*8
			w.Cells = append(w.Cells, streaming.Cell{
				Name:   fmt.Sprintf("chunk_%d_%d", i, j),
				X:      i,
				Z:      j,
				Bounds: streaming.Bounds{MinX: x, MinZ: z, MaxX: x + 8, MaxZ: z + 8},
				Bytes:  3360, ProxyBytes: 992, HasProxy: true,
				EntityCount: int(i*4 + j),
			})
		}
	}
	return w
}

func seedSettings() streaming.Settings {
	return streaming.Settings{
		Distance:         streaming.DistanceCenter,
		Budget:           streaming.Int64(4096),
		LODRadius:        streaming.Float(7),
		MaxResidentBytes: streaming.Int64(12000),
		PinnedRadius:     streaming.Float(4),
	}
}

func seedSource() streaming.Source {
	return streaming.Source{Name: "Camera", Prefetch: 12, Load: 12, Unload: 18, Enabled: true}
}

// seedRoute is the demo's camera: x = (f*1.2) mod 32, z = 16, f = 0..59.
func seedRoute() [][]streaming.Point {
	var frames [][]streaming.Point
	for f := 0; f < 60; f++ {
		frames = append(frames, []streaming.Point{{X: math.Mod(float64(f)*1.2, 32), Z: 16}})
	}
	return frames
}

// runSeed runs the reference demo through the budgeted scheduler.
func runSeed(t testing.TB) *simulate.PolicyRun {
	t.Helper()
	s, err := streaming.NewScheduler(seedWorld(), []streaming.Source{seedSource()}, seedSettings(), streaming.NewModelLoader(streaming.ModelIO{LatencyFrames: 3}))
	if err != nil {
		t.Fatal(err)
	}
	p := &simulate.PolicyRun{Policy: simulate.Budgeted, World: seedWorld(), Settings: seedSettings(), Route: seedRoute()}
	for _, pos := range seedRoute() {
		p.Frames = append(p.Frames, s.Step(pos))
	}
	p.Summary = s.Summary()
	streaming.Conclude(&p.Summary, p.Frames, streaming.Gate{})
	p.Sources, p.Loads = s.Sources(), s.Loads()
	return p
}

// rowWorld is a row of n cells of 10 units, 100 bytes each.
func rowWorld(n int) *streaming.World {
	w := &streaming.World{Scene: "row", CellSize: 10, Plane: "xz"}
	for i := 0; i < n; i++ {
		x := float64(i) * 10
		w.Cells = append(w.Cells, streaming.Cell{
			Name:   fmt.Sprintf("c%02d", i),
			X:      int32(i),
			Bounds: streaming.Bounds{MinX: x, MaxX: x + 10, MaxZ: 10},
			Bytes:  100, EntityCount: 1,
		})
	}
	return w
}

// assetWorld is rowWorld(n) with assets: tex (1000 B) shared by c00 and
// c01, mesh (500 B) of c01 only, sky (300 B) held by the persistent world
// and listed by c02 too.
func assetWorld(n int) *streaming.World {
	w := rowWorld(n)
	w.Assets = []streaming.Asset{{Path: "assets/mesh.esmesh", Bytes: 500}, {Path: "assets/sky.png", Bytes: 300}, {Path: "assets/tex.png", Bytes: 1000}}
	w.PersistentAssets = []int32{1}
	w.Cells[0].Assets = []int32{2}
	w.Cells[1].Assets = []int32{0, 2}
	w.Cells[2].Assets = []int32{1}
	return w
}

func src(name string, x, prefetch, load, unload float64) streaming.Source {
	return streaming.Source{Name: name, X: x, Z: 5, Prefetch: prefetch, Load: load, Unload: unload, Enabled: true}
}

// at places the sources at the x positions, z = 5.
func at(xs ...float64) []streaming.Point {
	pos := make([]streaming.Point, len(xs))
	for i, x := range xs {
		pos[i] = streaming.Point{X: x, Z: 5}
	}
	return pos
}

// budgetedRow runs the budgeted scheduler over w with the source at each
// x in turn.
func budgetedRow(t *testing.T, w *streaming.World, source streaming.Source, set streaming.Settings, io streaming.ModelIO, xs []float64) *simulate.PolicyRun {
	t.Helper()
	s, err := streaming.NewScheduler(w, []streaming.Source{source}, set, streaming.NewModelLoader(io))
	if err != nil {
		t.Fatal(err)
	}
	p := &simulate.PolicyRun{Policy: simulate.Budgeted, World: w, Settings: set, Assets: s.HasAssets()}
	for _, x := range xs {
		p.Frames = append(p.Frames, s.Step(at(x)))
	}
	p.Summary = s.Summary()
	return p
}

// estellaRow runs Estella's runtime over w with the source at each x in
// turn.
func estellaRow(t *testing.T, w *streaming.World, source streaming.Source, host streaming.EstellaHost, xs []float64) *simulate.PolicyRun {
	t.Helper()
	e, err := streaming.NewEstella(w, []streaming.Source{source}, host)
	if err != nil {
		t.Fatal(err)
	}
	p := &simulate.PolicyRun{Policy: simulate.Estella, World: w, Assets: e.HasAssets()}
	for _, x := range xs {
		f := e.Step(at(x))
		p.Frames = append(p.Frames, f.FrameReport)
		p.Runtime = append(p.Runtime, f.RuntimeFrame)
	}
	s := e.Summary()
	p.Summary, p.RuntimeReport = s.Summary, &s.Runtime
	return p
}

// gridWorld is n×n cells of 100 units, 1000 bytes (proxy 200) each.
func gridWorld(n int) *streaming.World {
	w := &streaming.World{Scene: "grid", CellSize: 100, Plane: "xz", Cells: make([]streaming.Cell, 0, n*n)}
	for x := 0; x < n; x++ {
		for z := 0; z < n; z++ {
			fx, fz := float64(x)*100, float64(z)*100
			w.Cells = append(w.Cells, streaming.Cell{
				Name:   fmt.Sprintf("grid.cell_%d_%d", x, z),
				X:      int32(x),
				Z:      int32(z),
				Bounds: streaming.Bounds{MinX: fx, MinZ: fz, MaxX: fx + 100, MaxZ: fz + 100},
				Bytes:  1000, ProxyBytes: 200, HasProxy: true, EntityCount: 10,
			})
		}
	}
	return w
}

// busyRun is the busy scenario of streaming's TestDeterministic: two
// sources, prefetch, a cap, LOD, a bandwidth model and seeded failures.
func busyRun(t *testing.T) ([]streaming.FrameReport, streaming.Summary) {
	t.Helper()
	w := gridWorld(24)
	sources := []streaming.Source{
		{Name: "player", Prefetch: 500, Load: 300, Unload: 450, Enabled: true},
		{Name: "drone", X: 2000, Z: 2000, Prefetch: 250, Load: 250, Unload: 400, Enabled: true},
	}
	set := streaming.Settings{Budget: streaming.Int64(5000), MaxInFlight: streaming.Int(12), LODRadius: streaming.Float(150), MaxResidentBytes: streaming.Int64(40000),
		PinnedRadius: streaming.Float(50), EvictCooldown: 2, Retry: streaming.DefaultRetry()}
	s, err := streaming.NewScheduler(w, sources, set, streaming.NewModelLoader(streaming.ModelIO{LatencyFrames: 2, BytesPerFrame: streaming.Int64(6000), Fail: streaming.FailureModel{Rate: 0.1, Seed: 7}}))
	if err != nil {
		t.Fatal(err)
	}
	var reps []streaming.FrameReport
	for f := 0; f < 300; f++ {
		reps = append(reps, s.Step([]streaming.Point{{X: float64(f) * 7, Z: 1200}, {X: 2000 - float64(f)*5, Z: 2000 - float64(f)*3}}))
	}
	return reps, s.Summary()
}

// render writes a run's frames and summary in format.
func render(t *testing.T, format string, p *simulate.PolicyRun, o WriterOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(format, &buf, p.Policy, o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Frames {
		var rt *streaming.RuntimeFrame
		if p.Runtime != nil {
			rt = &p.Runtime[i]
		}
		if err := w.Frame(&p.Frames[i], rt); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Summary(p); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
