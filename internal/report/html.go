package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// The page of --html: one file, its style, script and data inline, so it
// opens from disk or a CI artefact with no request leaving it.
var (
	//go:embed html/timeline.html
	timelinePage string
	//go:embed html/timeline.css
	timelineCSS string
	//go:embed html/timeline.js
	timelineJS string

	timelineTemplate = template.Must(template.New("timeline").Parse(timelinePage))
)

// Cell states as the page codes them, in the order a cell's state is
// chosen: the first that applies (docs/simulate.md "The timeline").
const (
	stateAbsent uint8 = iota
	stateLoading
	statePrepared
	stateResident
	stateUnloading
	stateHole
)

// Events of a cell the page lists in its details, coded with the cell.
const (
	eventRequested = iota
	eventPublished
	eventUnloaded
	eventEvicted
	eventCancelled
	eventDropped
	eventFailed
	numEvents
)

// maxTimelineCells is the most cells a timeline draws: beyond it a
// browser takes seconds to open the page. A world whose route touches
// more keeps the cells reached first and says what it left out.
var maxTimelineCells = 50000

// fullGridCells is the world size up to which every cell is drawn, the
// ones the route never touches included; a larger world draws only the
// cells the route touches, over one background for the grid.
var fullGridCells = 4096

// Timeline is a run laid out for the --html page.
type Timeline struct {
	data timelineData
	// Routes, when the run is one of a set (simulate --path DIR), list
	// every route of the set, this one marked Current, linked to its page.
	Routes []TimelineRoute
	// LeftOut says, per policy, what the page does not draw (empty when
	// it draws every cell the route touched).
	LeftOut []string
}

type timelineData struct {
	Title  string `json:"title"`
	Route  string `json:"route"`
	Frames int    `json:"frames"`
	// FirstFrame is the route's number of the page's frame 1.
	FirstFrame int  `json:"firstFrame"`
	Compare    bool `json:"compare"`
	// Open is the page's frame the page opens at (without a #frame-N in
	// its address), OpenWhy why: where the run says something.
	Open    int           `json:"open"`
	OpenWhy string        `json:"openWhy"`
	Runs    []timelineRun `json:"runs"`
}

// timelineRun is one policy's run as the page reads it. Lists are flat
// arrays of numbers: a 60,000-frame route must stay a file a browser
// opens at once.
type timelineRun struct {
	Policy   string  `json:"policy"`
	Title    string  `json:"title"`
	Subtitle string  `json:"subtitle"`
	CellSize float64 `json:"cellSize"`
	// AxisZ names the map's second axis: z, or y on a world cut on x and
	// y.
	AxisZ string `json:"axisZ"`
	// Sampling, under Estella's runtime on a world cut on x and y, says
	// where the runtime samples the sources (on X and Z), whose circles
	// the map draws there; "" otherwise.
	Sampling string `json:"sampling"`
	// Figures are the summary's, as the text summary names them.
	Figures []timelineFigure `json:"figures"`
	// Center says distances are to a cell's grid centre, not its bounds.
	Center bool `json:"center"`
	// World is the box the grid covers, View the box the map frames: both
	// minX, minZ, maxX, maxZ.
	World [4]float64 `json:"world"`
	View  [4]float64 `json:"view"`
	// WorldCells counts the world's cells, drawn or not.
	WorldCells int `json:"worldCells"`
	// The drawn cells, in manifest order: names ("" for the usual
	// NamePrefix + "x_z"), grid indices (2 each), bytes, asset count and
	// asset bytes. Grown holds, for each cell whose bounds are not its
	// grid square, its index and bounds (5 numbers).
	NamePrefix string    `json:"namePrefix"`
	Names      []string  `json:"names"`
	Grid       []int32   `json:"grid"`
	Grown      []float64 `json:"grown"`
	Bytes      []int64   `json:"bytes"`
	Assets     []int     `json:"assets"`
	AssetBytes []int64   `json:"assetBytes"`
	// Changes are the cells' state changes: for each frame with any, the
	// frames since the last such frame, the count, then cell·8+state for
	// each. Events are the cells' loads, unloads and the like in the same
	// shape (cell·8+event).
	Changes []int `json:"changes"`
	Events  []int `json:"events"`
	// Series are per-frame values as (frames since the last change, new
	// value) pairs, from 0 before the first frame.
	Resident       []int64 `json:"resident"`
	ResidentAssets []int64 `json:"residentAssets"`
	Prepared       []int64 `json:"prepared"`
	Requested      []int64 `json:"requested"`
	Holes          []int64 `json:"holes"`
	// ResidentCells and PreparedCells count the cells resident and
	// prepared (held, not in the world) at the end of each frame.
	ResidentCells []int64           `json:"residentCells"`
	PreparedCells []int64           `json:"preparedCells"`
	Budget        *int64            `json:"budget"`
	Cap           *int64            `json:"cap"`
	Sources       []timelineSource  `json:"sources"`
	Episodes      []timelineEpisode `json:"episodes"`
	LeftOut       string            `json:"leftOut"`
	// HasView says some source has a view; PopIn are, in the shape of
	// Changes, each frame's cells a view shows that are not resident (a
	// drawn cell's index each), PopInCount their count a frame as a
	// series, and PopInEpisodes the runs of frames with pop-in.
	HasView       bool              `json:"hasView"`
	PopIn         []int             `json:"popIn"`
	PopInCount    []int64           `json:"popInCount"`
	PopInEpisodes []timelineEpisode `json:"popInEpisodes"`
}

// timelineSource is an enabled source: its radii and where it went, as
// key frames (frame, x, z) between which it moved in a straight line at
// constant speed.
type timelineSource struct {
	Name     string    `json:"name"`
	Load     float64   `json:"load"`
	Unload   float64   `json:"unload"`
	Prefetch float64   `json:"prefetch"`
	Keys     []float64 `json:"keys"`
	// View is what the source's camera shows around it: [half-width,
	// half-height] of a rectangle (and its turn in degrees, counter-
	// clockwise, when it is turned), [radius] of a disc, [] for none.
	View []float64 `json:"view"`
	// Sampled, as Keys, are where the runtime samples the source when
	// that is not where it stands (Estella's runtime on a world cut on x
	// and y); [] otherwise.
	Sampled []float64 `json:"sampled"`
}

// timelineFigure is one figure of the summary the page shows: its label
// and text, and the page's frame it points at (0: none).
type timelineFigure struct {
	Label string `json:"label"`
	Value string `json:"value"`
	Frame int    `json:"frame"`
}

type timelineEpisode struct {
	First    int      `json:"first"`
	Last     int      `json:"last"`
	MaxHoles int      `json:"maxHoles"`
	Cells    int      `json:"cells"`
	Cause    string   `json:"cause"`
	Names    []string `json:"names"`
}

// cellSets are the cells of one frame in each state the page shows.
type cellSets struct {
	Holes, Resident, Unloading, Prepared, Loading []string
}

// TimelineRoute is one route of a set in a page's route list: its name,
// the page of its run (relative to this one), and its figures.
type TimelineRoute struct {
	Name, Href string
	Current    bool
	Frames     int
	HoleFrames int
	PeakBytes  int64
	Loads      int
}

// Holes says the route's hole frames, for the list.
func (r TimelineRoute) Holes() string { return english.Count(r.HoleFrames, "hole frame") }

// NewTimeline lays out a run for the --html page; o are the options it
// ran with.
func NewTimeline(res *simulate.Result, o simulate.Options) (*Timeline, error) {
	t := &Timeline{}
	t.data.Compare = res.Compare
	// The route by its file name only: a page is shared, and the folders
	// above the route are the author's machine, not the run.
	t.data.Route = filepath.Base(o.Route)
	var index map[string]int32
	for _, p := range res.Runs {
		if len(p.Frames) > 0 && !p.Frames[0].HasCellStates() {
			return nil, errors.New("the timeline needs each frame's cell states: run with simulate.Options.CellStates")
		}
		if index == nil {
			index = make(map[string]int32, len(p.World.Cells))
			for i, c := range p.World.Cells {
				index[c.Name] = int32(i)
			}
		}
		r, err := timelineOf(p, o, index, func(i int) cellSets { return frameCellSets(p, i) })
		if err != nil {
			return nil, err
		}
		if r.LeftOut != "" {
			t.LeftOut = append(t.LeftOut, r.LeftOut)
		}
		t.data.Runs = append(t.data.Runs, r)
		t.data.Frames = max(t.data.Frames, len(p.Frames))
		t.data.FirstFrame = p.Summary.FirstFrame
		if t.data.Title == "" {
			t.data.Title = title(p, o)
		}
	}
	if res.Compare {
		t.data.Title += ": budgeted and Estella's runtime"
	}
	t.data.Open, t.data.OpenWhy = opening(res, o.Gate.Warmup)
	return t, nil
}

// pageFigures are the figures of p's summary the page shows, named and
// written as the text summary writes them.
func pageFigures(p *simulate.PolicyRun) []timelineFigure {
	s := &p.Summary
	fs := append(holeFigures(s), popInFigure(s))
	if p.Policy == simulate.Estella {
		es := p.EstellaSummary()
		fs = append(fs, estellaFigures(&es)...)
	} else {
		fs = append(fs, budgetedFigures(s)...)
	}
	if s.Assets != nil {
		fs = append(fs, assetFigures(s.Assets)...)
	}
	// The details a person reads after the headline stay in the text
	// summary.
	skip := []string{"peak in flight", "cancellations", "dropped", "asset loads", "demand to resident", "dwell before a hit"}
	out := []timelineFigure{}
	for _, f := range fs {
		if slices.Contains(skip, f.Label) {
			continue
		}
		tf := timelineFigure{Label: f.Label, Value: f.Value}
		if f.HasFrame {
			tf.Frame = f.Frame - s.FirstFrame + 1
		}
		out = append(out, tf)
	}
	return out
}

// opening is the page's frame the page opens at, and why: the first hole
// or pop-in after the warm-up (of either run, side by side), else the
// frame of the peak of resident bytes, else the first. The warm-ups are
// the gate's: warmup frames when given, else the frames until the first
// without holes (for holes) or without pop-in (for pop-in).
func opening(res *simulate.Result, warmup *int) (int, string) {
	best, why := 0, ""
	for _, p := range res.Runs {
		who := ""
		if res.Compare {
			who = " under " + map[simulate.Policy]string{simulate.Budgeted: "the budgeted policy", simulate.Estella: "Estella's runtime"}[p.Policy]
		}
		for _, kind := range []string{"hole", "pop-in"} {
			count := func(f *streaming.FrameReport) int { return len(f.Holes) }
			if kind == "pop-in" {
				count = func(f *streaming.FrameReport) int { return f.PopIn }
			}
			k, warm := firstAfterWarmup(p.Frames, count, warmup)
			if k == 0 || (best != 0 && k >= best) {
				continue
			}
			best = k
			why = fmt.Sprintf("the first %s after the warm-up%s (%s)", kind, who, warm)
		}
	}
	if best != 0 {
		return best, why
	}
	// The highest peak; of equal ones, the later, when both runs hold it.
	peak, most := 0, int64(0)
	for _, p := range res.Runs {
		s := &p.Summary
		if k := s.PeakResidentFrame - s.FirstFrame + 1; s.PeakResidentBytes > most || (s.PeakResidentBytes == most && most > 0 && k > peak) {
			peak, most = k, s.PeakResidentBytes
		}
	}
	if peak > 0 {
		return peak, "the peak of resident bytes: no hole or pop-in after the warm-up"
	}
	return 1, "the first frame: nothing was ever resident"
}

// firstAfterWarmup is the page's first frame after the warm-up whose count
// is above 0 (0: none), and the warm-up as a person reads it: warmup
// frames when given, else the frames up to the first whose count is 0.
func firstAfterWarmup(frames []streaming.FrameReport, count func(*streaming.FrameReport) int, warmup *int) (int, string) {
	end := 0 // the warm-up's frames
	switch {
	case warmup != nil:
		end = min(*warmup, len(frames))
	default:
		for end < len(frames) && count(&frames[end]) > 0 {
			end++
		}
	}
	name := func(i int) int { return frames[i].Frame }
	warm := "none"
	switch {
	case end == len(frames):
		warm = "the whole run"
	case end == 1:
		warm = fmt.Sprintf("frame %d", name(0))
	case end > 1:
		warm = fmt.Sprintf("frames %d-%d", name(0), name(end-1))
	}
	for i := end; i < len(frames); i++ {
		if count(&frames[i]) > 0 {
			return i + 1, "warm-up " + warm
		}
	}
	return 0, ""
}

// timelineOf lays out one policy's run; sets gives frame i's cells by
// state.
func timelineOf(p *simulate.PolicyRun, o simulate.Options, index map[string]int32, sets func(i int) cellSets) (timelineRun, error) {
	w := p.World
	r := timelineRun{Policy: string(p.Policy), Title: title(p, o), Subtitle: subtitle(p, o),
		CellSize: w.CellSize, AxisZ: "z", WorldCells: len(w.Cells),
		Center:  p.Policy == simulate.Budgeted && p.Settings.Distance == streaming.DistanceCenter,
		Figures: pageFigures(p)}
	// The map is drawn on the world's plane, whatever the policy: on an
	// xy world its second axis is y.
	if w.Plane == manifest.PlaneXY {
		r.AxisZ = "y"
	}
	if p.Policy == simulate.Budgeted {
		r.Budget, r.Cap = p.Settings.Budget, p.Settings.MaxResidentBytes
	}
	// Every list is an array to the page, never null.
	r.Names, r.Grid, r.Grown, r.Bytes, r.Assets, r.AssetBytes = []string{}, []int32{}, []float64{}, []int64{}, []int{}, []int64{}
	r.Sources, r.Episodes, r.PopInEpisodes = []timelineSource{}, []timelineEpisode{}, []timelineEpisode{}

	// One pass over the frames: each frame's state for every cell it
	// names, against the last, as changes by world index.
	n := len(p.Frames)
	state := make([]uint8, len(w.Cells))
	stamp := make([]int32, len(w.Cells))
	firstTouch := make([]int32, len(w.Cells))
	type change struct {
		cell  int32
		state uint8
	}
	frameChanges := make([][]change, n)
	var live, next []int32
	for i := range n {
		s := sets(i)
		next = next[:0]
		for k, list := range [...][]string{s.Holes, s.Resident, s.Unloading, s.Prepared, s.Loading} {
			st := [...]uint8{stateHole, stateResident, stateUnloading, statePrepared, stateLoading}[k]
			for _, name := range list {
				c, ok := index[name]
				if !ok {
					return r, fmt.Errorf("frame %d names cell %q, which is not in the world", i+1, name)
				}
				if stamp[c] == int32(i+1) {
					continue // an earlier state applies
				}
				stamp[c] = int32(i + 1)
				next = append(next, c)
				if state[c] != st {
					frameChanges[i] = append(frameChanges[i], change{c, st})
					if firstTouch[c] == 0 {
						firstTouch[c] = int32(i + 1)
					}
				}
			}
		}
		for _, c := range live {
			if stamp[c] != int32(i+1) {
				frameChanges[i] = append(frameChanges[i], change{c, stateAbsent})
			}
		}
		for _, ch := range frameChanges[i] {
			state[ch.cell] = ch.state
		}
		slices.SortFunc(frameChanges[i], func(a, b change) int { return int(a.cell - b.cell) })
		live, next = next, live
	}

	// The cells drawn: every cell of a small world, else those touched,
	// at most maxTimelineCells of them (the first reached).
	var drawn []int32
	touched := 0
	for i := range w.Cells {
		if firstTouch[i] > 0 {
			touched++
		}
		if firstTouch[i] > 0 || len(w.Cells) <= fullGridCells {
			drawn = append(drawn, int32(i))
		}
	}
	if len(drawn) > maxTimelineCells {
		byTouch := slices.Clone(drawn)
		slices.SortStableFunc(byTouch, func(a, b int32) int { return int(firstTouch[a] - firstTouch[b]) })
		last := firstTouch[byTouch[maxTimelineCells-1]]
		r.LeftOut = fmt.Sprintf("%s: the route touches %d cells; the map draws the %d it reaches first (to frame %d) and leaves out %d: their states are in the per-frame report (--cell-states)",
			p.Policy, touched, maxTimelineCells, int(last)+p.Summary.FirstFrame-1, touched-maxTimelineCells)
		drawn = byTouch[:maxTimelineCells]
		slices.Sort(drawn)
	}
	r.NamePrefix = w.Scene + ".cell_"
	at := make(map[int32]int, len(drawn))
	for k, c := range drawn {
		at[c] = k
		cell := &w.Cells[c]
		b := cell.Bounds
		name := cell.Name
		if name == r.NamePrefix+strconv.Itoa(int(cell.X))+"_"+strconv.Itoa(int(cell.Z)) {
			name = ""
		}
		r.Names = append(r.Names, name)
		r.Grid = append(r.Grid, cell.X, cell.Z)
		sx, sz := float64(cell.X)*w.CellSize, float64(cell.Z)*w.CellSize
		if b != (streaming.Bounds{MinX: sx, MinZ: sz, MaxX: sx + w.CellSize, MaxZ: sz + w.CellSize}) {
			r.Grown = append(r.Grown, float64(k), b.MinX, b.MinZ, b.MaxX, b.MaxZ)
		}
		r.Bytes = append(r.Bytes, cell.Bytes)
		var ab int64
		for _, a := range cell.Assets {
			ab += w.Assets[a].Bytes
		}
		r.Assets = append(r.Assets, len(cell.Assets))
		r.AssetBytes = append(r.AssetBytes, ab)
	}
	r.Changes = groups(n, func(i int, emit func(int)) {
		for _, ch := range frameChanges[i] {
			if k, ok := at[ch.cell]; ok {
				emit(k*8 + int(ch.state))
			}
		}
	})
	r.Events = groups(n, func(i int, emit func(int)) {
		f := &p.Frames[i]
		for ev, list := range [numEvents][]string{f.Requested, f.Published, f.Unloaded, f.Evicted, f.Cancelled, f.Dropped, f.Failed} {
			for _, name := range list {
				if k, ok := at[index[name]]; ok {
					emit(k*8 + ev)
				}
			}
		}
	})
	r.HasView = p.Summary.View
	r.PopIn = groups(n, func(i int, emit func(int)) {
		for _, name := range p.Frames[i].PopInCells {
			if k, ok := at[index[name]]; ok {
				emit(k)
			}
		}
	})
	col := func(v func(f *streaming.FrameReport) int64) []int64 {
		out := []int64{}
		last, lastFrame := int64(0), 0
		for i := range p.Frames {
			if x := v(&p.Frames[i]); x != last {
				out = append(out, int64(i+1-lastFrame), x)
				last, lastFrame = x, i+1
			}
		}
		return out
	}
	r.Resident = col(func(f *streaming.FrameReport) int64 { return f.ResidentBytes })
	r.ResidentAssets = col(func(f *streaming.FrameReport) int64 { return f.ResidentAssetBytes })
	r.Prepared = col(func(f *streaming.FrameReport) int64 { return f.PreparedBytes })
	r.Requested = col(func(f *streaming.FrameReport) int64 { return f.RequestedBytes })
	r.Holes = col(func(f *streaming.FrameReport) int64 { return int64(len(f.Holes)) })
	r.ResidentCells = col(func(f *streaming.FrameReport) int64 { return int64(f.Resident) })
	r.PreparedCells = col(func(f *streaming.FrameReport) int64 { return int64(len(f.PreparedCells)) })
	r.PopInCount = col(func(f *streaming.FrameReport) int64 { return int64(f.PopIn) })

	// The map frames the drawn cells and where the sources reached.
	world := boxOf(w.Cells, nil)
	r.World = world
	view := boxOf(w.Cells, drawn)
	for i, s := range p.Sources {
		if !s.Enabled {
			continue
		}
		src := timelineSource{Name: s.Name, Load: s.Load, Unload: s.Unload, Prefetch: s.Prefetch,
			View: []float64{}, Sampled: []float64{}}
		reach := max(s.Load, s.Unload, s.Prefetch)
		if p.Sampled == nil {
			src.Keys = keyFrames(p.Route, i, s, w.CellSize/100)
		} else {
			keys := keyFramesOf(i, s, w.CellSize/100, p.Route, p.Sampled)
			src.Keys = keys[0]
			// Drawn apart only where the two differ: a source authored
			// at z = 0 whose route stays at y = 0 is sampled where it
			// stands.
			if !slices.Equal(keys[0], keys[1]) {
				src.Sampled = keys[1]
				r.Sampling = "Estella's runtime samples a source on X and Z whatever the plane: on this xy world it streams around (x, z), the hollow dot and its circles, not where the source stands (the filled dot, with its view)"
			}
			for k := 0; k < len(src.Sampled); k += 3 {
				x, z := src.Sampled[k+1], src.Sampled[k+2]
				view = [4]float64{min(view[0], x-reach), min(view[1], z-reach), max(view[2], x+reach), max(view[3], z+reach)}
			}
		}
		switch v := s.View; {
		case v == nil:
		case v.Disc:
			src.View = []float64{v.Radius}
			reach = max(reach, v.Radius)
		default:
			src.View = []float64{v.HalfWidth, v.HalfHeight}
			reach = max(reach, v.HalfWidth, v.HalfHeight)
			if v.Angle != 0 {
				src.View = append(src.View, v.Angle*180/math.Pi) // degrees, counter-clockwise
				reach = max(reach, math.Hypot(v.HalfWidth, v.HalfHeight))
			}
		}
		for k := 0; k < len(src.Keys); k += 3 {
			x, z := src.Keys[k+1], src.Keys[k+2]
			view = [4]float64{min(view[0], x-reach), min(view[1], z-reach), max(view[2], x+reach), max(view[3], z+reach)}
		}
		r.Sources = append(r.Sources, src)
	}
	r.View = view
	// The page counts frames from 1.
	base := p.Summary.FirstFrame - 1
	episodes := func(eps []streaming.HoleEpisode) []timelineEpisode {
		out := []timelineEpisode{}
		for _, e := range eps {
			ep := timelineEpisode{First: e.First - base, Last: e.Last - base, MaxHoles: e.MaxHoles, Cells: len(e.Cells), Cause: e.Cause.String(), Names: []string{}}
			for _, c := range e.Cells[:min(len(e.Cells), 8)] {
				ep.Names = append(ep.Names, c.Cell)
			}
			out = append(out, ep)
		}
		return out
	}
	r.Episodes, r.PopInEpisodes = episodes(p.Summary.HoleEpisodes), episodes(p.Summary.PopInEpisodes)
	return r, nil
}

// groups lays out per-frame lists of codes as (frames since the last
// frame with any, count, codes...).
func groups(frames int, each func(i int, emit func(int))) []int {
	out := []int{}
	lastFrame := 0
	var codes []int
	for i := range frames {
		codes = codes[:0]
		each(i, func(c int) { codes = append(codes, c) })
		if len(codes) == 0 {
			continue
		}
		out = append(out, i+1-lastFrame, len(codes))
		out = append(out, codes...)
		lastFrame = i + 1
	}
	return out
}

// boxOf is the box the cells' grown bounds and grid squares cover: all of
// them, or those of subset.
func boxOf(cells []streaming.Cell, subset []int32) [4]float64 {
	box := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	add := func(c *streaming.Cell) {
		b := c.Bounds
		box = [4]float64{min(box[0], b.MinX), min(box[1], b.MinZ), max(box[2], b.MaxX), max(box[3], b.MaxZ)}
	}
	if subset == nil {
		for i := range cells {
			add(&cells[i])
		}
	}
	for _, i := range subset {
		add(&cells[i])
	}
	if math.IsInf(box[0], 1) {
		return [4]float64{}
	}
	return box
}

// keyFrames are the frames at which source i changes course: between two
// key frames it moves in a straight line at constant speed, to within a
// hundredth of a cell (less than a pixel on any map of a route), so that
// a long smooth route costs a few numbers rather than three a frame. A
// source the route does not move stands where it was authored.
func keyFrames(route [][]streaming.Point, i int, s streaming.Source, tol float64) []float64 {
	return keyFramesOf(i, s, tol, route)[0]
}

// keyFramesOf are the key frames of source i along each of routes, cut at
// the same frames (where any of them changes course), so that the page
// draws the same frame at the same point of each: where a source stands
// and where Estella's runtime samples it share their x.
func keyFramesOf(i int, s streaming.Source, tol float64, routes ...[][]streaming.Point) [][]float64 {
	pos := make([][]streaming.Point, len(routes))
	for r, route := range routes {
		for _, f := range route {
			if i < len(f) {
				pos[r] = append(pos[r], f[i])
			}
		}
	}
	out := make([][]float64, len(routes))
	// The routes are bound from one route file, frame for frame.
	n := len(pos[0])
	for r := range pos {
		n = min(n, len(pos[r]))
	}
	if n == 0 {
		for r := range out {
			out[r] = []float64{1, s.X, s.Z}
		}
		return out
	}
	// A straight stretch is checked point by point, so stretches are cut
	// at maxStretch frames to keep the cost linear in the route.
	const maxStretch = 256
	all := func(a, b int) bool {
		for r := range pos {
			if !straight(pos[r], a, b, tol) {
				return false
			}
		}
		return true
	}
	for r := range out {
		out[r] = []float64{1, pos[r][0].X, pos[r][0].Z}
	}
	a := 0
	for a < n-1 {
		b := a + 1
		for b+1 < n && b+1-a <= maxStretch && all(a, b+1) {
			b++
		}
		for r := range out {
			out[r] = append(out[r], float64(b+1), pos[r][b].X, pos[r][b].Z)
		}
		a = b
	}
	return out
}

// straight says every position between a and b lies where moving from a
// to b at constant speed puts it, as the page interpolates.
func straight(pos []streaming.Point, a, b int, tol float64) bool {
	pa, pb := pos[a], pos[b]
	for m := a + 1; m < b; m++ {
		t := float64(m-a) / float64(b-a)
		x := pa.X + (pb.X-pa.X)*t
		z := pa.Z + (pb.Z-pa.Z)*t
		if math.Abs(x-pos[m].X) > tol || math.Abs(z-pos[m].Z) > tol {
			return false
		}
	}
	return true
}

// WriteHTML writes the page.
func (t *Timeline) WriteHTML(w io.Writer) error {
	var data bytes.Buffer
	enc := json.NewEncoder(&data) // escapes <, > and &: safe in a script
	if err := enc.Encode(&t.data); err != nil {
		return err
	}
	policies := make([]string, len(t.data.Runs))
	for i, r := range t.data.Runs {
		policies[i] = r.Policy
	}
	return timelineTemplate.Execute(w, struct {
		Title    string
		Policies []string
		Routes   []TimelineRoute
		CSS      template.CSS
		JS       template.JS
		Data     template.JS
	}{t.data.Title, policies, t.Routes, template.CSS(timelineCSS), template.JS(timelineJS), template.JS(bytes.TrimSpace(data.Bytes()))})
}

// frameCellSets are frame i's cells by state: its holes and the sets the
// run reports with --cell-states (the run must make them).
func frameCellSets(p *simulate.PolicyRun, i int) cellSets {
	f := &p.Frames[i]
	return cellSets{Holes: f.Holes, Resident: f.ResidentCells, Unloading: f.UnloadingCells, Prepared: f.PreparedCells, Loading: f.LoadingCells}
}
