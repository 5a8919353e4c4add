package tune

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/worldcook/worldcook/streaming"
)

// Candidate is one setting of the space.
type Candidate struct {
	// Index is the candidate's place in the enumeration (Space.Lay).
	Index    int     `json:"-"`
	CellSize float64 `json:"cellSize"`
	Load     float64 `json:"loadRadius"`
	Unload   float64 `json:"unloadRadius"`
	Prefetch float64 `json:"prefetchRadius"`
	// A nil budget or cap is the setting left unset.
	Budget           *int64 `json:"budget"`
	MaxResidentBytes *int64 `json:"maxResidentBytes"`
	// Authored marks the settings as authored, the baseline a
	// recommendation is compared with: the evaluator applies no radius
	// override (each source keeps its own radii; the radii here are the
	// first source's, for the report) and the budget and cap as
	// configured.
	Authored bool `json:"authored,omitempty"`
}

// Figures are what one run of a candidate on one route gave: the numbers
// simulate's summary prints (FiguresOf), and the --require conditions
// that held.
type Figures struct {
	// Frames is the number of frames run: the route's, unless the run
	// was stopped.
	Frames            int     `json:"frames"`
	PeakResidentBytes int64   `json:"peakResidentBytes"`
	MeanResidentBytes float64 `json:"meanResidentBytes"`
	Loads             int     `json:"loads"`
	// MaxRequestedBytes is the most bytes a frame requested (max frame
	// bytes).
	MaxRequestedBytes int64 `json:"maxRequestedBytes"`
	HoleFrames        int   `json:"holeFrames"`
	// PopInFrames are the frames with pop-in (0 without a view).
	PopInFrames int `json:"popInFrames"`
	// Held are the --require conditions that held, in reporting order
	// (streaming.FailConditions).
	Held []Held `json:"held"`
	// Stopped says the run was stopped early because it could no longer
	// win (Stop), or, with Failed, because it could no longer be
	// feasible: the figures are of the frames run, lower bounds.
	Stopped bool `json:"stopped,omitempty"`
	// Failed says the run was stopped as soon as a --require condition
	// surely held (Held, with its frames so far): whatever its frames to
	// come, the candidate is not feasible.
	Failed bool `json:"failed,omitempty"`
}

// Held is a condition that held on a route: in how many frames, from
// which one.
type Held struct {
	Condition  string `json:"condition"`
	FrameCount int    `json:"frameCount"`
	FirstFrame int    `json:"firstFrame"`
}

// progress is a run's figures so far, each a lower bound of the run's
// final one: what Stop decides on.
type progress struct {
	PeakResidentBytes int64
	Loads             int
	MaxRequestedBytes int64
}

// stopFunc, called by an evaluator after each frame with the run's progress,
// says whether the candidate can no longer win: the evaluator may then
// stop the run and return the figures so far with Stopped set. An
// evaluator may also ignore it and run to the end.
type stopFunc func(progress) bool

// evaluate runs candidates cs, all of one cell size, on route (an index
// into Options.Routes) and returns each one's figures, or its error, in
// order. stops[k] (nil: never) is candidate k's stopFunc. It may run up
// to workers candidates at once, and is called from one goroutine at a
// time; the world for the cell size is opened (or cooked) by the caller
// beforehand, once per cell size, never per candidate. An error other
// than the context's ends the search.
type evaluate func(ctx context.Context, cs []Candidate, route int, stops []stopFunc, workers int) ([]Figures, []error)

// oneByOne is the evaluate of run, which runs one candidate at a time:
// up to workers of them at once, each on its own.
func oneByOne(run func(ctx context.Context, c Candidate, route int, stop stopFunc) (Figures, error)) evaluate {
	return func(ctx context.Context, cs []Candidate, route int, stops []stopFunc, workers int) ([]Figures, []error) {
		figs := make([]Figures, len(cs))
		errs := make([]error, len(cs))
		var next atomic.Int64
		var wg sync.WaitGroup
		for range max(1, min(workers, len(cs))) {
			wg.Go(func() {
				for {
					k := int(next.Add(1)) - 1
					if k >= len(cs) {
						return
					}
					if err := ctx.Err(); err != nil {
						errs[k] = err
						continue
					}
					figs[k], errs[k] = run(ctx, cs[k], route, stops[k])
				}
			})
		}
		wg.Wait()
		return figs, errs
	}
}

// figuresOf reads a complete run's figures from its summary and frame
// reports, the summary's gate concluded with the --require conditions
// (streaming.Conclude): the figures simulate prints. The mean resident
// bytes, which the summary does not keep, is the mean of the frames'
// ResidentBytes.
func figuresOf(sum *streaming.Summary, frames []streaming.FrameReport) Figures {
	var total float64
	for i := range frames {
		total += float64(frames[i].ResidentBytes)
	}
	mean := 0.0
	if len(frames) > 0 {
		mean = total / float64(len(frames))
	}
	return figuresFrom(sum, mean)
}

// figuresFrom are the figures of a complete run from its summary and its
// mean resident bytes (summed frame by frame in order, then divided by
// the frames: figuresOf, or a meter that saw every frame).
func figuresFrom(sum *streaming.Summary, mean float64) Figures {
	f := Figures{
		Frames:            sum.Frames,
		PeakResidentBytes: sum.PeakResidentBytes,
		Loads:             sum.Loads,
		MaxRequestedBytes: sum.MaxRequestedBytes,
		HoleFrames:        sum.HoleFrames,
		PopInFrames:       sum.PopInFrames,
		Held:              []Held{},
		MeanResidentBytes: mean,
	}
	if g := sum.Gate; g != nil {
		for _, b := range g.Breaches {
			h := Held{Condition: b.Condition, FrameCount: b.FrameCount}
			if len(b.Frames) > 0 {
				h.FirstFrame = b.Frames[0].First
			}
			f.Held = append(f.Held, h)
		}
	}
	return f
}

// errStopped is what Meter.Frame returns when Stop says the run can no
// longer win: a frame callback returning it ends the run.
var errStopped = errors.New("tune: the run can no longer win")

// meter follows a run frame by frame for Stop: give Frame as the run's
// frame callback, and after a run that it stopped, Partial for its
// figures.
type meter struct {
	stop     stopFunc
	progress progress
	frames   int
	resident float64
	holes    int
}

// newMeter returns a meter asking stop (which may be nil: never stop).
func newMeter(stop stopFunc) *meter { return &meter{stop: stop} }

// Frame takes one frame's report: it returns ErrStopped when the run
// should stop.
func (m *meter) Frame(r *streaming.FrameReport) error {
	p := &m.progress
	p.PeakResidentBytes = max(p.PeakResidentBytes, r.ResidentBytes)
	// Every request started is in Requested and counted in Summary.Loads.
	p.Loads += len(r.Requested)
	p.MaxRequestedBytes = max(p.MaxRequestedBytes, r.RequestedBytes)
	m.frames++
	m.resident += float64(r.ResidentBytes)
	if len(r.Holes) > 0 {
		m.holes++
	}
	if m.stop != nil && m.stop(*p) {
		return errStopped
	}
	return nil
}

// mean is the mean resident bytes of the frames seen.
func (m *meter) mean() float64 {
	if m.frames == 0 {
		return 0
	}
	return m.resident / float64(m.frames)
}

// Partial returns the figures of the frames seen, Stopped set: the
// figures of a run the meter stopped. The conditions are not known for a
// run cut short (Held is empty).
func (m *meter) Partial() Figures {
	f := Figures{Frames: m.frames, PeakResidentBytes: m.progress.PeakResidentBytes, Loads: m.progress.Loads,
		MaxRequestedBytes: m.progress.MaxRequestedBytes, HoleFrames: m.holes, Held: []Held{}, Stopped: true}
	f.MeanResidentBytes = m.mean()
	return f
}

// Objective is what a search minimizes.
type Objective int

// The objectives (--minimize).
const (
	PeakResident Objective = iota
	MeanResident
	Loads
	MaxFrameBytes
)

var objectiveNames = []string{"peak-resident", "mean-resident", "loads", "max-frame-bytes"}

func (o Objective) String() string { return objectiveNames[o] }

// ParseObjective reads a --minimize value ("" is peak-resident).
func ParseObjective(s string) (Objective, error) {
	if s == "" {
		return PeakResident, nil
	}
	for i, n := range objectiveNames {
		if s == n {
			return Objective(i), nil
		}
	}
	return 0, fmt.Errorf("--minimize %q: use %s", s, strings.Join(objectiveNames, ", "))
}
