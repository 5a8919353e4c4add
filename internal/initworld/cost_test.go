package initworld

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/testworld"
	"github.com/worldcook/worldcook/validate"
)

// TestMakeCostsAboutValidate: init allocates about what validating its
// result does (docs/benchmarks.md, "init"): its rounds check one model
// of the scene, and the edited scene is made only when written. A round
// that copied, parsed or placed the whole scene again would allocate the
// scene's size once more each time (the init before the model allocated
// 5.1× validate's bytes on this kind of world).
func TestMakeCostsAboutValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 22 MB world")
	}
	var buf bytes.Buffer
	o := testworld.DefaultOptions(20_000, 1)
	o.Authored, o.InvalidRefFraction = true, 0.01
	if err := testworld.Write(&buf, o); err != nil {
		t.Fatal(err)
	}
	src := buf.Bytes()
	allocated := func(f func()) uint64 {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, size := range []float64{0, 1000} {
		t.Run(fmt.Sprintf("cellSize=%v", size), func(t *testing.T) {
			var r *Result
			initBytes := allocated(func() {
				var err error
				if r, err = Make("world.esscene", src, Options{CellSize: size}); err != nil {
					t.Fatal(err)
				}
			})
			if len(r.Persistent) == 0 || len(r.Diff) == 0 {
				t.Fatalf("weak test: init marked %d roots", len(r.Persistent))
			}
			after := r.After()
			validateBytes := allocated(func() {
				d, err := scene.Parse("world.esscene", after)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := validate.Check(d, validate.Options{}); err != nil {
					t.Fatal(err)
				}
			})
			ratio := float64(initBytes) / float64(validateBytes)
			t.Logf("init allocates %.1f MB, validating its result %.1f MB: %.2f×, %d roots marked", float64(initBytes)/1e6, float64(validateBytes)/1e6, ratio, len(r.Persistent))
			if ratio > 1.5 {
				t.Errorf("init allocates %.2f× what validating its result does; at most 1.5×", ratio)
			}
		})
	}
}
