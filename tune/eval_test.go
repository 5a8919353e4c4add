package tune

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/worldcook/worldcook/streaming"
)

// schedulerEval runs candidates through the budgeted scheduler on small
// generated worlds, one per cell size (made once, as the command opens a
// world once per cell size), over routes given as frames of positions:
// how the command evaluates, without a scene on disk.
type schedulerEval struct {
	worlds map[float64]*streaming.World
	routes [][][]streaming.Point
	gate   streaming.Gate
	model  streaming.ModelIO
	// authored are the radii the world's source carries.
	authored streaming.Source
}

// gridWorld is a side×side world cut in cells of size cs, each cell's
// bytes a fixed function of its indices.
func gridWorld(side, cs float64) *streaming.World {
	w := &streaming.World{Scene: "grid", CellSize: cs, Plane: "xz"}
	n := int32(math.Ceil(side / cs))
	for x := int32(0); x < n; x++ {
		for z := int32(0); z < n; z++ {
			w.Cells = append(w.Cells, streaming.Cell{
				Name: fmt.Sprintf("grid.cell_%d_%d", x, z), X: x, Z: z,
				Bounds: streaming.Bounds{MinX: float64(x) * cs, MinZ: float64(z) * cs, MaxX: float64(x+1) * cs, MaxZ: float64(z+1) * cs},
				Bytes:  int64(cs*cs*8) + int64((x*7+z*13)%5)*256, EntityCount: 1,
			})
		}
	}
	return w
}

// lineRoute walks from (x0, z) to (x1, z) in n frames.
func lineRoute(x0, x1, z float64, n int) [][]streaming.Point {
	out := make([][]streaming.Point, n)
	for f := range out {
		out[f] = []streaming.Point{{X: x0 + (x1-x0)*float64(f)/float64(n-1), Z: z}}
	}
	return out
}

func newSchedulerEval(cellSizes ...float64) *schedulerEval {
	e := &schedulerEval{worlds: map[float64]*streaming.World{},
		routes:   [][][]streaming.Point{lineRoute(2, 62, 20, 90), lineRoute(60, 4, 44, 70)},
		gate:     streaming.Gate{FailOn: []string{streaming.FailHoles}},
		model:    streaming.ModelIO{LatencyFrames: 3},
		authored: streaming.Source{Name: "camera", Enabled: true, Load: 8, Unload: 12, Prefetch: 8}}
	for _, cs := range cellSizes {
		e.worlds[cs] = gridWorld(64, cs)
	}
	return e
}

func (e *schedulerEval) eval(ctx context.Context, c Candidate, route int, stop stopFunc) (Figures, error) {
	w := e.worlds[c.CellSize]
	if w == nil {
		return Figures{}, fmt.Errorf("no world of cell size %v", c.CellSize)
	}
	src := e.authored
	if !c.Authored {
		src.Load, src.Unload, src.Prefetch = c.Load, c.Unload, c.Prefetch
	}
	set := streaming.Settings{Budget: c.Budget, MaxResidentBytes: c.MaxResidentBytes}
	sched, err := streaming.NewScheduler(w, []streaming.Source{src}, set, streaming.NewModelLoader(e.model))
	if err != nil {
		return Figures{}, err
	}
	defer sched.Close()
	m := newMeter(stop)
	frames, err := streaming.Run(ctx, sched, e.routes[route], 0, m.Frame)
	if errors.Is(err, errStopped) {
		return m.Partial(), nil
	}
	if err != nil {
		return Figures{}, err
	}
	sum := sched.Summary()
	streaming.Conclude(&sum, frames, e.gate)
	return figuresOf(&sum, frames), nil
}

// synthEval is a synthetic evaluator: a route's frames are a fixed
// pseudo-random function of the candidate and the route, cheap enough to
// search thousands of spaces with. It honours Stop as a run would.
type synthEval struct {
	routes int
	frames []int
	gate   streaming.Gate
}

func hash(vs ...any) uint64 {
	h := fnv.New64a()
	fmt.Fprint(h, vs...)
	return h.Sum64()
}

func (e *synthEval) reports(c Candidate, route int) []streaming.FrameReport {
	seed := hash(c.CellSize, c.Load, c.Unload, c.Prefetch, sizeText(c.Budget), sizeText(c.MaxResidentBytes), route)
	out := make([]streaming.FrameReport, e.frames[route])
	var resident int64
	for f := range out {
		h := hash(seed, f)
		r := &out[f]
		r.Frame = f + 1
		n := int(h % 3)
		for i := range n {
			r.Requested = append(r.Requested, fmt.Sprintf("c%d", (h>>8+uint64(i))%50))
			r.RequestedBytes += int64(h>>16%512) + int64(c.Load*10)
		}
		resident += r.RequestedBytes - int64(h>>24%300)
		resident = max(resident, 0)
		// Coarse sizes make ties, which the tie order and the front must
		// settle as the exhaustive search does.
		r.ResidentBytes = (resident + int64(c.Unload*5)) / 700 * 700
		// Holes are rarer with a wider prefetch margin.
		margin := c.Prefetch - c.Load
		if float64(h>>32%100) < 30-10*margin && f > 2 {
			r.Holes = []string{"c1"}
		}
	}
	return out
}

func (e *synthEval) eval(ctx context.Context, c Candidate, route int, stop stopFunc) (Figures, error) {
	if err := ctx.Err(); err != nil {
		return Figures{}, err
	}
	frames := e.reports(c, route)
	m := newMeter(stop)
	for i := range frames {
		if m.Frame(&frames[i]) != nil {
			return m.Partial(), nil
		}
	}
	sum := streaming.Summary{Frames: len(frames), Budget: c.Budget, MaxResidentBytes: c.MaxResidentBytes}
	for i := range frames {
		r := &frames[i]
		sum.PeakResidentBytes = max(sum.PeakResidentBytes, r.ResidentBytes)
		sum.MaxRequestedBytes = max(sum.MaxRequestedBytes, r.RequestedBytes)
		sum.Loads += len(r.Requested)
		if len(r.Holes) > 0 {
			sum.HoleFrames++
		}
	}
	streaming.Conclude(&sum, frames, e.gate)
	return figuresOf(&sum, frames), nil
}
