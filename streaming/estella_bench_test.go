package streaming

import (
	"fmt"
	"testing"
)

// BenchmarkEstellaStep measures one frame of the runtime scheduler on a
// 32² and a 1024² cell world with the same route and radii: an update
// looks only at the cells near the sources and the live ones, so the two
// should cost about the same.
//
// The assets variant gives every cell of the 1024² world three of 1024
// shared assets (neighbours share them), so that the asset scopes' cost
// shows beside the plain run's.
func BenchmarkEstellaStep(b *testing.B) {
	route := benchRoute(720)
	for _, tc := range []struct {
		n      int
		assets bool
	}{{32, false}, {1024, false}, {1024, true}} {
		name := fmt.Sprintf("cells=%d²", tc.n)
		w := gridWorld(tc.n)
		if tc.assets {
			name += ",assets"
			withGridAssets(w, tc.n)
		}
		b.Run(name, func(b *testing.B) {
			e, err := NewEstella(w, benchSources(), EstellaHost{Prepare: ModelIO{LatencyFrames: 2}, PublishFrames: 1})
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

// withGridAssets gives the cells of an n×n gridWorld three assets each
// out of 1024: one shared by each 2×2 block, one by each 4×4 block and
// one by each column, so that neighbouring cells hold some in common.
func withGridAssets(w *World, n int) {
	const pool = 1024
	w.Assets = make([]Asset, pool)
	for k := range w.Assets {
		w.Assets[k] = Asset{Path: fmt.Sprintf("assets/a%04d.png", k), Bytes: int64(500 + k)}
	}
	for i := range w.Cells {
		x, z := int(w.Cells[i].X), int(w.Cells[i].Z)
		w.Cells[i].Assets = []int32{int32((x/2*n + z/2) % pool), int32((x/4*n + z/4 + 7) % pool), int32((x + 13) % pool)}
	}
}
