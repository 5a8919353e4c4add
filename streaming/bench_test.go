package streaming

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkStep measures one scheduler frame on a 32² and a 1024² cell
// world with the same route and radii. The 32² world is the floor: a frame
// on the 1024² world must cost at most 1.5× as much, since the spatial
// index only ever shows the scheduler the cells near the source.
func BenchmarkStep(b *testing.B) {
	route := benchRoute(720)
	for _, n := range []int{32, 1024} {
		b.Run(fmt.Sprintf("cells=%d²", n), func(b *testing.B) {
			s, err := NewScheduler(gridWorld(n), benchSources(), benchSettings(), NewModelLoader(ModelIO{LatencyFrames: 2}))
			if err != nil {
				b.Fatal(err)
			}
			// Warm up one lap so the resident set is in its steady state.
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

// BenchmarkStepScaling runs the 32² floor and the 1024² world in the same
// benchmark and reports both per-frame costs and their ratio (≤ 1.5).
func BenchmarkStepScaling(b *testing.B) {
	route := benchRoute(720)
	var scheds []*Scheduler
	for _, n := range []int{32, 1024} {
		s, err := NewScheduler(gridWorld(n), benchSources(), benchSettings(), NewModelLoader(ModelIO{LatencyFrames: 2}))
		if err != nil {
			b.Fatal(err)
		}
		for _, pos := range route {
			s.Step(pos)
		}
		scheds = append(scheds, s)
	}
	var spent [2]time.Duration
	frames := 0
	for b.Loop() {
		for k, s := range scheds {
			t0 := time.Now()
			for _, pos := range route[:72] {
				s.Step(pos)
			}
			spent[k] += time.Since(t0)
		}
		frames += 72
		route = append(route[72:], route[:72]...)
	}
	small := float64(spent[0].Nanoseconds()) / float64(frames)
	large := float64(spent[1].Nanoseconds()) / float64(frames)
	b.ReportMetric(small, "ns/frame-32²")
	b.ReportMetric(large, "ns/frame-1024²")
	b.ReportMetric(large/small, "ratio")
}
