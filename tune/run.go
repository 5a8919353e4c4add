package tune

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// Setup is a search over a world through simulate: the world and how to
// open it, the simulate settings fixed for the search, the routes and the
// space (worldcook tune).
type Setup struct {
	// World is what simulate takes: a cooked directory, a manifest or a
	// scene. Open says how a scene is cooked; its Validate.CellSize is
	// set per cell size searched.
	World string
	Open  cook.OpenOptions
	// Base are the fixed settings of every run: the policy, the
	// scheduler's settings and IO model, the runtime's timings. Its radii,
	// budget and cap are the authored ones (nil: the sources' own, none),
	// the baseline's; each candidate replaces them. Route, Parsed, Gate
	// and Watch are set per run.
	Base simulate.Options
	// Routes are the route CSV files, each read once.
	Routes []string
	Space  Space
	// MaxCandidates bounds the space (0: DefaultMaxCandidates).
	MaxCandidates int
	// Opened, if set, is called once the authored world is open (Open.Read
	// told of every file it was read from), before any candidate runs: an
	// error it returns ends the run, as a plot named like a texture of the
	// world must before the search, not after it.
	Opened func() error
}

// Run opens the world once per cell size the space holds (the scene cooked
// in memory with each), reads every route once, and searches the space
// (Search) with a simulation of each candidate on each route, the
// authored settings first as the baseline. o.Routes and o.Authored are
// set from s. A cancelled ctx returns the result so far, Partial set.
func Run(ctx context.Context, s Setup, o Options) (*Result, error) {
	if len(s.Routes) == 0 {
		return nil, errors.New("no route to tune against: give --path ROUTE (a CSV file with a header and x,z columns)")
	}
	if s.Base.Compare || s.Base.Disk != nil {
		return nil, errors.New("tune runs one policy over modelled IO: drop simulate's compare and io: disk settings")
	}
	if err := s.Base.Check(); err != nil {
		return nil, err
	}
	if s.MaxCandidates > MaxCandidatesCeiling {
		return nil, fmt.Errorf("--max-candidates %d is more than the %d a search may hold (a search runs a simulation per candidate and route); narrow the space, or search it in parts", s.MaxCandidates, MaxCandidatesCeiling)
	}
	scene := isScene(s.World)
	if s.Space.CellSizes != nil && !scene {
		return nil, fmt.Errorf("--cell-size: %s is a cooked world with its own cell size; tune the scene to search cell sizes", s.World)
	}
	authoredWorld, err := simulate.Open(ctx, s.World, s.Open)
	if err != nil {
		return nil, err
	}
	if s.Opened != nil {
		if err := s.Opened(); err != nil {
			return nil, err
		}
	}
	max := s.MaxCandidates
	if max <= 0 {
		max = defaultMaxCandidates
	}
	reach := viewReach(authoredWorld, s.Base.View)
	var warnings []streaming.Warning
	if len(o.Require.FailOn) == 0 {
		o.Require.FailOn, warnings = defaultRequirement(reach)
	}
	// Said once of the world tuned, not of every candidate's.
	setup := streaming.PlaneXY(authoredWorld, s.Base.PlaneFrom, s.Base.Policy == simulate.Estella)
	setup = append(setup, streaming.PlaneMismatch(authoredWorld)...)
	warnings = append(append(setup, streaming.NothingStreams(authoredWorld)...), warnings...)
	if slices.Contains(o.Require.FailOn, streaming.FailPopIn) && !(reach > 0) {
		return nil, fmt.Errorf("--require pop-in: %w", streaming.ErrNoView)
	}
	plan, err := s.Space.Lay(world{CellSize: authoredWorld.CellSize, Cooked: !scene, Estella: s.Base.Policy == simulate.Estella,
		Cover: coverOf(reach, s.Base, s.Open.Validate.Levels)}, max)
	if err != nil {
		return nil, err
	}
	if err := plan.CheckRequire(o.Require); err != nil {
		return nil, err
	}
	warnings = append(warnings, overBudget(authoredWorld, plan.All(), s.Base.Settings)...)
	routes := make([]*streaming.Route, len(s.Routes))
	for i, file := range s.Routes {
		if routes[i], err = streaming.ReadRoute(file); err != nil {
			return nil, err
		}
		if err := inside(routes[i], authoredWorld); err != nil {
			return nil, err
		}
	}
	worlds, err := s.open(ctx, authoredWorld, plan.CellSizes())
	if err != nil {
		return nil, err
	}
	if err := freeze(worlds); err != nil {
		return nil, err
	}
	e := &evaluator{base: s.Base, routes: s.Routes, parsed: routes, gate: o.Require, worlds: worlds}
	o.Routes = s.Routes
	authored := s.authored(authoredWorld)
	o.Authored = &authored
	o.head = Result{Warnings: warnings, Uncovered: plan.Uncovered, EstellaXY: estellaXY(s.Base, authoredWorld), ViewReach: reach,
		World: s.World, Scene: scene, Driven: driven(routes, authoredWorld.Sources)}
	if c := coverOf(reach, s.Base, s.Open.Validate.Levels); c != nil {
		o.head.Cover = c(authoredWorld.CellSize)
	}
	return search(ctx, plan, e.lockstep, o)
}

// freeze freezes the worlds every candidate runs on, so that the runs
// share each world's check, geometry and index (streaming.World.Freeze)
// rather than each building them: for a large world that setup costs
// more than the run.
func freeze(worlds map[float64]*streaming.World) error {
	for _, w := range worlds {
		if err := w.Freeze(); err != nil {
			return err
		}
	}
	return nil
}

// isScene says whether path is a scene, as cook.Open tells one from a
// cooked world.
func isScene(path string) bool { return strings.HasSuffix(path, ".esscene") }

// open returns the world for each cell size: the authored one as opened,
// the others cooked from the scene with that cell size, in parallel.
func (s Setup) open(ctx context.Context, authored *streaming.World, sizes []float64) (map[float64]*streaming.World, error) {
	worlds := map[float64]*streaming.World{authored.CellSize: authored}
	var todo []float64
	for _, cs := range sizes {
		if cs != authored.CellSize {
			todo = append(todo, cs)
		}
	}
	opened := make([]*streaming.World, len(todo))
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	for i, cs := range todo {
		wg.Go(func() {
			o := s.Open
			o.Validate.CellSize = cs
			opened[i], errs[i] = simulate.Open(ctx, s.World, o)
		})
	}
	wg.Wait()
	for i, cs := range todo {
		if errs[i] != nil {
			return nil, fmt.Errorf("--cell-size %s: %v (at that cell size); drop %s from --cell-size", num(cs), errs[i], num(cs))
		}
		worlds[cs] = opened[i]
	}
	return worlds, nil
}

// authored is the baseline candidate: the world's cell size, the first
// enabled source's radii with the configured overrides (the defaults of
// a WorldStreamingSource for a world without one), the configured budget
// and cap.
func (s Setup) authored(w *streaming.World) Candidate {
	src := streaming.Source{Load: manifest.DefaultLoadRadius, Unload: manifest.DefaultUnloadRadius, Prefetch: manifest.DefaultPrefetchRadius}
	for _, ws := range w.Sources {
		if ws.Enabled {
			src = ws
			break
		}
	}
	r := s.Base.Radii
	if r.Load != nil {
		src.Load = *r.Load
	}
	if r.Unload != nil {
		src.Unload = *r.Unload
	}
	if r.Prefetch != nil {
		src.Prefetch = *r.Prefetch
	}
	return Candidate{Index: -1, CellSize: w.CellSize, Load: src.Load, Unload: src.Unload, Prefetch: src.Prefetch,
		Budget: s.Base.Settings.Budget, MaxResidentBytes: s.Base.Settings.MaxResidentBytes, Authored: true}
}

// inside refuses a route none of whose positions lies within the world's
// cells: a route drawn in other units or for another world.
func inside(rt *streaming.Route, w *streaming.World) error {
	if warn := rt.Outside(w); warn != nil {
		return fmt.Errorf("%s; %s", warn.Message, warn.Hint)
	}
	return nil
}

// evaluator runs a candidate on a route through simulate.Run, exactly as
// `worldcook simulate` runs it with the candidate's settings.
type evaluator struct {
	base   simulate.Options
	routes []string
	parsed []*streaming.Route
	gate   streaming.Gate
	worlds map[float64]*streaming.World
	// frames are frame-report arrays for the runs to write into, each
	// used by one run at a time: a run's frames are read into its figures
	// and dropped, and on a small world allocating them anew for every
	// run is most of what a run allocates (and so of the collector's
	// work).
	frames sync.Pool
	// fed, when set, counts the frames the runs stepped together read
	// from their shared window (tests).
	fed *atomic.Int64
}

// Options are the simulate options of candidate c on route r: the fixed
// ones, with c's radii, budget and cap unless c is the authored baseline.
func (e *evaluator) options(c *Candidate, r int) simulate.Options {
	o := e.base
	o.Route, o.Parsed, o.Gate = e.routes[r], e.parsed[r], e.gate
	if !c.Authored {
		o.Radii = simulate.Radii{Load: &c.Load, Unload: &c.Unload, Prefetch: &c.Prefetch}
		o.Settings.Budget, o.Settings.MaxResidentBytes = c.Budget, c.MaxResidentBytes
	}
	return o
}

func (e *evaluator) eval(ctx context.Context, c Candidate, r int, stop stopFunc) (Figures, error) {
	w := e.worlds[c.CellSize]
	if w == nil {
		return Figures{}, fmt.Errorf("no world of cell size %s was opened", num(c.CellSize))
	}
	o := e.options(&c, r)
	if buf, ok := e.frames.Get().(*[]streaming.FrameReport); ok {
		o.Frames = *buf
	}
	m := newMeter(stop)
	o.Watch = simulate.Watch{Frame: func(_ *simulate.PolicyRun, f *streaming.FrameReport, _ *streaming.RuntimeFrame) error {
		return m.Frame(f)
	}}
	res, err := simulate.Run(ctx, w, o)
	if errors.Is(err, errStopped) {
		return m.Partial(), nil
	}
	if err != nil {
		return Figures{}, err
	}
	run := res.Runs[0]
	f := figuresOf(&run.Summary, run.Frames)
	frames := run.Frames[:0]
	e.frames.Put(&frames)
	return f, nil
}

// driven are the entity ids of the authored sources some route moves, in
// the world's order: the sources whose radii the recommendation is for.
func driven(routes []*streaming.Route, sources []streaming.Source) []int64 {
	moved := make([]bool, len(sources))
	for _, rt := range routes {
		for i, d := range rt.Drives(sources) {
			moved[i] = moved[i] || d
		}
	}
	var out []int64
	for i, s := range sources {
		if moved[i] {
			out = append(out, s.Entity)
		}
	}
	return out
}

// overBudget is simulate's cell-over-budget said once of the world tuned:
// the authored world's cells larger than the largest budget any candidate
// of its cell size runs with, which overrun every one of them whenever
// they load. A candidate with no budget has none to overrun.
func overBudget(w *streaming.World, cands iter.Seq[Candidate], base streaming.Settings) []streaming.Warning {
	var largest *int64
	for c := range cands {
		if c.CellSize != 0 && c.CellSize != w.CellSize {
			continue
		}
		if c.Budget == nil {
			return nil
		}
		if largest == nil || *c.Budget > *largest {
			largest = c.Budget
		}
	}
	if largest == nil {
		return nil
	}
	set := base
	set.Budget = largest
	ws := streaming.OversizeCells(w, set)
	for i := range ws {
		ws[i].Hint = fmt.Sprintf("every candidate at cell size %s overruns %s, the largest --budget tried, whenever these cells load: try larger budgets, or split the cells", strconv.FormatFloat(w.CellSize, 'f', -1, 64), streaming.ByteSize(*largest))
	}
	return ws
}
