package streaming

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// The reference demo of seeds/000: a 32-unit island cut into 4x4 cells of
// 8x8, each 3360 bytes at full detail and 992 as a proxy.
func seedWorld() *World {
	w := &World{Scene: "island", CellSize: 8, Plane: "xz"}
	for i := int32(0); i < 4; i++ {
		for j := int32(0); j < 4; j++ {
			x, z := float64(i)*8, float64(j)*8
			w.Cells = append(w.Cells, Cell{
				Name:   fmt.Sprintf("chunk_%d_%d", i, j),
				X:      i,
				Z:      j,
				Bounds: Bounds{MinX: x, MinZ: z, MaxX: x + 8, MaxZ: z + 8},
				Bytes:  3360, ProxyBytes: 992, HasProxy: true,
				EntityCount: int(i*4 + j),
			})
		}
	}
	return w
}

func seedSettings() Settings {
	return Settings{
		Distance:         DistanceCenter,
		Budget:           Int64(4096),
		LODRadius:        Float(7),
		MaxResidentBytes: Int64(12000),
		PinnedRadius:     Float(4),
	}
}

func seedSource() Source {
	return Source{Name: "Camera", Prefetch: 12, Load: 12, Unload: 18, Enabled: true}
}

// seedRoute is the demo's camera: x = (f*1.2) mod 32, z = 16, f = 0..59.
func seedRoute() [][]Point {
	var frames [][]Point
	for f := 0; f < 60; f++ {
		frames = append(frames, []Point{{X: math.Mod(float64(f)*1.2, 32), Z: 16}})
	}
	return frames
}

func runSeed(t testing.TB) ([]FrameReport, Summary) {
	t.Helper()
	s, err := NewScheduler(seedWorld(), []Source{seedSource()}, seedSettings(), NewModelLoader(ModelIO{LatencyFrames: 3}))
	if err != nil {
		t.Fatal(err)
	}
	var reps []FrameReport
	for _, pos := range seedRoute() {
		reps = append(reps, s.Step(pos))
	}
	sum := s.Summary()
	Conclude(&sum, reps, Gate{})
	return reps, sum
}

// TestReferencePrintedTable checks the rows and the totals the seed printed
// (its frame f is our frame f+1).
func TestReferencePrintedTable(t *testing.T) {
	reps, sum := runSeed(t)
	want := `f 0 req=1 done=0 unload=0 evict=0 resident=0 bytes=0
f 6 req=0 done=0 unload=0 evict=0 resident=4 bytes=8704
f12 req=0 done=0 unload=0 evict=0 resident=6 bytes=10688
f18 req=0 done=0 unload=1 evict=0 resident=7 bytes=6944
f24 req=0 done=0 unload=0 evict=0 resident=6 bytes=5952
f30 req=2 done=1 unload=0 evict=0 resident=1 bytes=3360
f36 req=0 done=0 unload=0 evict=0 resident=6 bytes=10688
f42 req=0 done=0 unload=1 evict=0 resident=6 bytes=10688
f48 req=0 done=0 unload=0 evict=0 resident=6 bytes=5952
f54 req=1 done=0 unload=6 evict=0 resident=0 bytes=0
f59 req=0 done=2 unload=0 evict=0 resident=4 bytes=8704
`
	var got strings.Builder
	for f, r := range reps {
		if f%6 == 0 || f == 59 {
			fmt.Fprintf(&got, "f%2d req=%d done=%d unload=%d evict=%d resident=%d bytes=%d\n",
				f, len(r.Requested), len(r.Completed), len(r.Unloaded), len(r.Evicted), r.Resident, r.ResidentBytes)
		}
	}
	if got.String() != want {
		t.Errorf("printed rows differ from the seed's:\n got:\n%s\nwant:\n%s", got.String(), want)
	}
	type total struct {
		name      string
		got, want int64
	}
	for _, c := range []total{
		{"peak resident bytes", sum.PeakResidentBytes, 11680},
		{"peak in flight", int64(sum.PeakInFlight), 5},
		{"max bytes dispatched in a frame", sum.MaxRequestedBytes, 3360},
		{"loads", int64(sum.Loads), 26},
		{"unloads", int64(sum.Unloads), 18},
		{"evictions", int64(sum.Evictions), 4},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestReferenceEveryFrame compares every list of every frame with a trace
// of the reference StreamingManager running the same demo.
func TestReferenceEveryFrame(t *testing.T) {
	reps, _ := runSeed(t)
	f, err := os.Open("../testdata/simulate/seed000_reference.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	list := func(xs []string) string { return "[" + strings.Join(xs, ",") + "]" }
	for k := 0; sc.Scan(); k++ {
		if k >= len(reps) {
			t.Fatalf("reference trace has more than %d frames", len(reps))
		}
		r := reps[k]
		got := fmt.Sprintf("%d requested=%s completed=%s cancelled=%s unloaded=%s evicted=%s resident=%d inFlight=%d residentBytes=%d requestedBytes=%d",
			r.Frame, list(r.Requested), list(r.Completed), list(r.Cancelled), list(r.Unloaded), list(r.Evicted),
			r.Resident, r.InFlight, r.ResidentBytes, r.RequestedBytes)
		if got != sc.Text() {
			t.Errorf("frame %d:\n got %s\nwant %s", k+1, got, sc.Text())
		}
	}
}
