package initworld

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/testworld"
	"github.com/worldcook/worldcook/validate"
)

// authored is a generated world of n entities as it is authored before
// init: no StreamedWorld, no WorldPersistent, no WorldStreamingSource, a
// few references crossing the 1000-unit cells.
func authored(b *testing.B, n int) []byte {
	b.Helper()
	var buf bytes.Buffer
	o := testworld.DefaultOptions(n, 1)
	o.Authored, o.InvalidRefFraction = true, 0.01
	if err := testworld.Write(&buf, o); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkMake measures init's edit of a generated authored world, with
// the cell size it chooses (the camera's view: one row of big cells) and
// with 1000-unit cells (many cells, references to mark). Validating the
// result is measured beside it as the floor: init must cost about what
// validate does (docs/benchmarks.md, "init").
func BenchmarkMake(b *testing.B) {
	for _, n := range []int{20_000, 100_000} {
		if testing.Short() && n > 20_000 {
			continue
		}
		src := authored(b, n)
		for _, size := range []float64{0, 1000} {
			opts := Options{CellSize: size}
			b.Run(fmt.Sprintf("entities=%d/cellSize=%v", n, size), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Make("world.esscene", src, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
			r, err := Make("world.esscene", src, opts)
			if err != nil {
				b.Fatal(err)
			}
			after := r.After()
			b.Run(fmt.Sprintf("validate-floor/entities=%d/cellSize=%v", n, size), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					d, err := scene.Parse("world.esscene", after)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := validate.Check(d, validate.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
