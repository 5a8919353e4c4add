package streaming

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"strings"
	"testing"
	"time"
)

// The reference case for scheduler speed: the reference scheduler of
// seeds/000 on a 256×256-cell world of 8-unit cells, with its demo's
// settings (3360 / 992 bytes, radii 12 / 18, budget 4096, latency 3,
// lodRadius 7, cap 12000, pinned 4, centre distance), following one source
// on a deterministic 10,000-frame random walk. The reference scans every
// cell each frame and takes about 165 µs per frame under Node; worldcook
// looks only at the cells near the source.
const (
	refWalkSide     = 256
	refWalkCell     = 8
	refWalkFrames   = 10_000
	refNsPerFrame   = 165_000 // the reference scheduler under Node, per frame
	refWalkStep     = 1.2     // units per frame, the demo camera's speed
	refWalkDiagonal = 0.85    // a diagonal step, written as a literal so both sides add the same numbers
)

// The reference scheduler's trace of the walk, each frame as a line in the
// format of TestReferenceEveryFrame, hashed with SHA-256, and its totals.
const (
	refWalkTraceSHA256 = "229d6ae53285c3a8fad69158d3555f5c0110a578e1d14dccd5cb56e9d87d500a"
	refWalkLoads       = 4066
	refWalkUnloads     = 4033
	refWalkEvictions   = 22
	refWalkPeakBytes   = 11904
	refWalkPeakFlight  = 7
)

// refWalkWorld is the 256×256-cell world, in the reference's cell order
// (row by row along x) and with its cell names.
func refWalkWorld() *World {
	w := &World{Scene: "walk", CellSize: refWalkCell, Plane: "xz", Cells: make([]Cell, 0, refWalkSide*refWalkSide)}
	for j := int32(0); j < refWalkSide; j++ {
		for i := int32(0); i < refWalkSide; i++ {
			x, z := float64(i)*refWalkCell, float64(j)*refWalkCell
			w.Cells = append(w.Cells, Cell{
				Name:   fmt.Sprintf("chunk_%d_%d", i, j),
				X:      i,
				Z:      j,
				Bounds: Bounds{MinX: x, MinZ: z, MaxX: x + refWalkCell, MaxZ: z + refWalkCell},
				Bytes:  3360, ProxyBytes: 992, HasProxy: true,
			})
		}
	}
	return w
}

// refWalk is the camera: it starts at the centre heading +x and each frame
// turns by an eighth of a circle left or right (each with probability 1/8,
// drawn from a 32-bit LCG seeded with 1), then steps 1.2 units; at the edge
// it turns back. Only additions of literal constants, so any language that
// follows the same rule reaches the same positions bit for bit.
func refWalk(frames int) [][]Point {
	dx := [8]float64{refWalkStep, refWalkDiagonal, 0, -refWalkDiagonal, -refWalkStep, -refWalkDiagonal, 0, refWalkDiagonal}
	dz := [8]float64{0, refWalkDiagonal, refWalkStep, refWalkDiagonal, 0, -refWalkDiagonal, -refWalkStep, -refWalkDiagonal}
	const extent = refWalkSide * refWalkCell
	seed := uint32(1)
	x, z, h := extent/2.0, extent/2.0, 0
	out := make([][]Point, frames)
	for f := range out {
		seed = seed*1664525 + 1013904223
		switch r := seed >> 24; {
		case r < 32:
			h = (h + 1) % 8
		case r < 64:
			h = (h + 7) % 8
		}
		nx, nz := x+dx[h], z+dz[h]
		if nx < 0 || nx > extent || nz < 0 || nz > extent {
			h = (h + 4) % 8
			nx, nz = x+dx[h], z+dz[h]
		}
		x, z = nx, nz
		out[f] = []Point{{X: x, Z: z}}
	}
	return out
}

func newRefWalkScheduler(tb testing.TB, w *World) *Scheduler {
	tb.Helper()
	s, err := NewScheduler(w, []Source{seedSource()}, seedSettings(), NewModelLoader(ModelIO{LatencyFrames: 3}))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func traceLine(h hash.Hash, r *FrameReport) {
	list := func(xs []string) string { return "[" + strings.Join(xs, ",") + "]" }
	fmt.Fprintf(h, "%d requested=%s completed=%s cancelled=%s unloaded=%s evicted=%s resident=%d inFlight=%d residentBytes=%d requestedBytes=%d\n",
		r.Frame, list(r.Requested), list(r.Completed), list(r.Cancelled), list(r.Unloaded), list(r.Evicted),
		r.Resident, r.InFlight, r.ResidentBytes, r.RequestedBytes)
}

// TestReferenceRandomWalk checks that the benchmark below runs the same
// case as the reference: every frame of the walk reports what the
// reference scheduler reported (compared through the hash of its trace),
// and the totals agree.
func TestReferenceRandomWalk(t *testing.T) {
	s := newRefWalkScheduler(t, refWalkWorld())
	h := sha256.New()
	for _, pos := range refWalk(refWalkFrames) {
		r := s.Step(pos)
		traceLine(h, &r)
	}
	sum := s.Summary()
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"loads", int64(sum.Loads), refWalkLoads},
		{"unloads", int64(sum.Unloads), refWalkUnloads},
		{"evictions", int64(sum.Evictions), refWalkEvictions},
		{"peak resident bytes", sum.PeakResidentBytes, refWalkPeakBytes},
		{"peak in flight", int64(sum.PeakInFlight), refWalkPeakFlight},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, the reference has %d", c.name, c.got, c.want)
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != refWalkTraceSHA256 {
		t.Errorf("trace of the walk hashes to %s, the reference's to %s", got, refWalkTraceSHA256)
	}
}

// BenchmarkReferenceRandomWalk runs the reference case, 10,000 frames per
// iteration on a fresh scheduler (built outside the timer), and reports
// the cost of a frame and how many times faster than the reference's
// 165 µs it is (the target is at least 50).
func BenchmarkReferenceRandomWalk(b *testing.B) {
	w := refWalkWorld()
	route := refWalk(refWalkFrames)
	var spent time.Duration
	frames := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s := newRefWalkScheduler(b, w)
		b.StartTimer()
		t0 := time.Now()
		for _, pos := range route {
			s.Step(pos)
		}
		spent += time.Since(t0)
		frames += len(route)
	}
	perFrame := float64(spent.Nanoseconds()) / float64(frames)
	b.ReportMetric(perFrame, "ns/frame")
	b.ReportMetric(refNsPerFrame/perFrame, "x-faster-than-reference")
}
