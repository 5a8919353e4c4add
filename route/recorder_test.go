package route

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/enginejs"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
)

// The recorder writes every number as route does (Go's shortest 'g'
// form), and, in a real World of the engine, records the streaming
// source's world position frame by frame into the CSV route writes for
// the same positions. The World needs a whole engine checkout
// (WORLDCOOK_ESTELLA); the numbers need only node and esbuild.
func TestRecorder(t *testing.T) {
	sdk := enginejs.Engine(t)
	full := false
	if e := os.Getenv("WORLDCOOK_ESTELLA"); e != "" {
		if _, err := os.Stat(filepath.Join(e, "sdk", "tests", "mocks", "wasm.ts")); err == nil {
			sdk, full = filepath.Join(e, "sdk", "src"), true
		}
	}
	bundle := enginejs.Bundle(t, sdk, filepath.Join("testdata", "recorder.ts"))
	r := rand.New(rand.NewPCG(33, 3))
	nums := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-4, 1e-5, 123456, 999999, 1e6, 1234567.5, 1e20, 1e21, 1e22, 5e-324, math.MaxFloat64, -1.5e-7, 100, 0.30000000000000004}
	for i := 0; i < 20000; i++ {
		var v float64
		switch i % 3 {
		case 0:
			v = math.Float64frombits(r.Uint64())
		case 1:
			v = (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(40)-20))
		default:
			v = math.Round(r.NormFloat64()*1e4) / 8
		}
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			nums = append(nums, v)
		}
	}
	var frames [][3]float64
	for i := 0; i < 50; i++ {
		frames = append(frames, [3]float64{r.NormFloat64() * 1e3, r.NormFloat64(), r.NormFloat64() * 1e5})
	}
	in, _ := json.Marshal(map[string]any{"numbers": nums, "frames": frames})
	var ans struct {
		Numbers   []string
		Recorders map[string]string
		Driven    string
		System    bool
	}
	if err := json.Unmarshal(enginejs.Run(t, bundle, in), &ans); err != nil {
		t.Fatal(err)
	}
	for i, v := range nums {
		if want := strconv.FormatFloat(v, 'g', -1, 64); ans.Numbers[i] != want {
			t.Fatalf("%v: the recorder writes %s, route %s", v, ans.Numbers[i], want)
		}
	}
	if !full {
		t.Logf("%d numbers written alike; set WORLDCOOK_ESTELLA to an engine checkout to record in the engine's World", len(nums))
		return
	}
	if !ans.System || ans.Driven != "Player, one" {
		t.Fatalf("the recorder's system: %v, driven %q", ans.System, ans.Driven)
	}
	csv := func(plane string, column bool, pts []Point) string {
		rt := &Route{Plane: plane, Frames: pts, Column: column, Source: "Player, one"}
		var b bytes.Buffer
		rt.WriteCSV(&b)
		return b.String()
	}
	var xz, xy []Point
	for _, f := range frames {
		xz = append(xz, Point{f[0], f[2]})
		xy = append(xy, Point{f[0], f[1]})
	}
	for name, want := range map[string]string{
		"source":    csv(manifest.PlaneXZ, false, xz),
		"named":     csv(manifest.PlaneXY, true, xy),
		"camera-xz": csv(manifest.PlaneXZ, false, []Point{{5, 7}}),
		"camera-xy": csv(manifest.PlaneXY, false, []Point{{5, 6}}),
	} {
		if got := ans.Recorders[name]; got != want {
			t.Errorf("%s: the recorder wrote\n%s\nroute writes\n%s", name, got, want)
		}
	}
	f := filepath.Join(t.TempDir(), "rec.csv")
	os.WriteFile(f, []byte(ans.Recorders["named"]), 0o644)
	rt, err := streaming.ReadRoute(f)
	if err != nil || !rt.HasSource || len(rt.Rows) != len(frames) || !strings.HasPrefix(ans.Recorders["named"], "frame,x,y,source\n") {
		t.Fatalf("simulate reads the recorded route as %+v, %v", rt, err)
	}
}
