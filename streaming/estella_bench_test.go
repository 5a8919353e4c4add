package streaming

import (
	"fmt"
	"testing"
)

// BenchmarkEstellaStep measures one frame of the runtime scheduler on a
// 32² and a 1024² cell world with the same route and radii: an update
// looks only at the cells near the sources and the live ones, so the two
// should cost about the same.
func BenchmarkEstellaStep(b *testing.B) {
	route := benchRoute(720)
	for _, n := range []int{32, 1024} {
		b.Run(fmt.Sprintf("cells=%d²", n), func(b *testing.B) {
			e, err := NewEstella(gridWorld(n), benchSources(), EstellaHost{Prepare: ModelIO{LatencyFrames: 2}, PublishFrames: 1})
			if err != nil {
				b.Fatal(err)
			}
			for _, pos := range route {
				e.Step(pos)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				e.Step(route[i%len(route)])
			}
		})
	}
}
