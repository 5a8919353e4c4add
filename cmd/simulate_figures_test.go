package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/streaming"
)

// figureWorld is a world and a route simulate runs on: the arguments
// before and after the run's own, and the world's plane.
type figureWorld struct {
	name         string
	pre, args    []string // before "simulate"; the route, the world and settings
	plane        string
	budgetedOnly []string // settings of the budgeted policy only
}

// figureWorlds are the demo and, with WORLDCOOK_ESTELLA, engine example
// projects copied and made streamed as a new user makes them (init
// --write), along the routes route makes (tour) and a straight walk
// across the world from far outside it, where cells are prefetched,
// held and published.
func figureWorlds(t *testing.T) []figureWorld {
	worlds := []figureWorld{{name: "demo", pre: []string{"--config", "../testdata/demo/worldcook.yaml"},
		args: []string{"--path", "../testdata/demo/route.csv", "../testdata/demo/main.esscene"}, plane: "xz",
		budgetedOnly: []string{"--budget", "16KiB"}}}
	if os.Getenv("WORLDCOOK_ESTELLA") == "" {
		t.Log("set WORLDCOOK_ESTELLA to a checkout of esengine/estella to check the figures on its example projects too")
		return worlds
	}
	examples := filepath.Join(corpus.Estella(t), "examples")
	for _, name := range []string{"particle-demo", "lighting-2d", "space-shooter", "platformer", "celestial-heights"} {
		proj := filepath.Join(t.TempDir(), name)
		corpus.CopyTree(t, filepath.Join(examples, name), proj)
		scene := filepath.Join(proj, "assets", "scenes", "main.esscene")
		if code, _, errs := run(t, "init", "--plane", "xy", "--write", scene); code != 0 {
			t.Fatalf("%s: init: exit %d: %s", name, code, errs)
		}
		routes := filepath.Join(proj, "routes")
		if code, _, errs := run(t, "route", "--plane", "xy", "--from", "tour", "--out", routes, scene); code != 0 {
			t.Fatalf("%s: route: exit %d: %s", name, code, errs)
		}
		tour := filepath.Join(routes, "tour.csv")
		across := filepath.Join(routes, "across.csv")
		if err := os.WriteFile(across, acrossRoute(t, tour), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, r := range []string{tour, across} {
			worlds = append(worlds, figureWorld{name: name + "/" + filepath.Base(r), args: []string{"--plane", "xy", "--path", r, scene},
				plane: "xy", budgetedOnly: []string{"--budget", "4KiB"}})
		}
	}
	return worlds
}

// acrossRoute is a walk along the middle of the tour's extent in x, from
// 4000 units before it to 4000 after, 40 units a frame: from beyond every
// radius into the world and out again.
func acrossRoute(t *testing.T, tour string) []byte {
	b, err := os.ReadFile(tour)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	lo, hi, ys := 1e18, -1e18, 0.0
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		x, _ := strconv.ParseFloat(f[1], 64)
		y, _ := strconv.ParseFloat(f[2], 64)
		lo, hi, ys = min(lo, x), max(hi, x), ys+y
	}
	y := ys / float64(len(lines)-1)
	var out strings.Builder
	out.WriteString("frame,x,y\n")
	for f, x := 1, lo-4000; x <= hi+4000; f, x = f+1, x+40 {
		fmt.Fprintf(&out, "%d,%g,%g\n", f, x, y)
	}
	return []byte(out.String())
}

// jsonlFrame is a frame object of simulate --format jsonl --cell-states,
// under either policy.
type jsonlFrame struct {
	Frame                                                                   int
	Requested, Completed, Prepared, Published, Cancelled, Unloaded, Evicted []string
	Dropped, Failed, Holes                                                  []string
	Resident, InFlight, PopIn                                               int
	ResidentBytes, PreparedBytes, RequestedBytes, ResidentAssetBytes        int64
	AssetLoads, AssetUnloads                                                int
	ResidentCells, PreparedCells, LoadingCells, UnloadingCells, PopInCells  []string
	Publishing, PrefetchHits, PrefetchMisses                                []string
	CancelledRefs                                                           int
	Positions                                                               []map[string]any
}

// simulatedRun is one policy's JSON Lines report: its frames and summary.
type simulatedRun struct {
	frames  []jsonlFrame
	summary streaming.EstellaSummary
}

func readJSONL(t *testing.T, out string) simulatedRun {
	t.Helper()
	var r simulatedRun
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var head struct {
			MessageType string `json:"message_type"`
		}
		if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		switch head.MessageType {
		case "frame":
			var f jsonlFrame
			if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
				t.Fatal(err)
			}
			r.frames = append(r.frames, f)
		case "summary":
			if err := json.Unmarshal(sc.Bytes(), &r.summary); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(r.frames) == 0 {
		t.Fatalf("no frames in\n%.400s", out)
	}
	return r
}

// recomputed are a summary's figures found again from its frames alone.
type recomputed struct {
	frames, firstFrame                          int
	peakResident, peakPrepared, maxRequested    int64
	peakResidentFrame, maxRequestedFrame        int
	peakInFlight, overBudget, overCap           int
	requests, retries, published, unloads       int
	evictions, cancellations, drops, failures   int
	holeFrames, maxHoles, firstHole             int
	firstResident                               *int
	popInFrames, maxPopIn, firstPopIn           int
	holeEpisodes, popInEpisodes                 [][2]int
	holeEpisodeCells, popInEpisodeCells         [][]string
	residentAtEnd                               []string
	peakAssets                                  int64
	peakAssetsFrame, assetLoads, assetUnloads   int
	publishes, hits, misses, cancelledRefs      int
	preparedAtEnd, loadingAtEnd, unloadingAtEnd []string
}

// recompute finds a run's figures from its frames, as docs/simulate.md
// defines them.
func recompute(frames []jsonlFrame, budget, cap *int64) recomputed {
	var c recomputed
	c.frames, c.firstFrame = len(frames), frames[0].Frame
	failedLast := map[string]bool{}
	wanted := slices.Concat(frames[0].Holes, frames[0].ResidentCells)
	episodes := func(count func(*jsonlFrame) []string, eps *[][2]int, cells *[][]string) {
		for i := range frames {
			f := &frames[i]
			if len(count(f)) == 0 {
				continue
			}
			if n := len(*eps); n > 0 && (*eps)[n-1][1] == frames[i-1].Frame && i > 0 && len(count(&frames[i-1])) > 0 {
				(*eps)[n-1][1] = f.Frame
			} else {
				*eps = append(*eps, [2]int{f.Frame, f.Frame})
				*cells = append(*cells, nil)
			}
			k := len(*cells) - 1
			for _, name := range count(f) {
				if !slices.Contains((*cells)[k], name) {
					(*cells)[k] = append((*cells)[k], name)
				}
			}
		}
	}
	episodes(func(f *jsonlFrame) []string { return f.Holes }, &c.holeEpisodes, &c.holeEpisodeCells)
	episodes(func(f *jsonlFrame) []string { return f.PopInCells }, &c.popInEpisodes, &c.popInEpisodeCells)
	for i := range frames {
		f := &frames[i]
		if f.ResidentBytes > c.peakResident {
			c.peakResident, c.peakResidentFrame = f.ResidentBytes, f.Frame
		}
		if f.RequestedBytes > c.maxRequested {
			c.maxRequested, c.maxRequestedFrame = f.RequestedBytes, f.Frame
		}
		if f.ResidentAssetBytes > c.peakAssets {
			c.peakAssets, c.peakAssetsFrame = f.ResidentAssetBytes, f.Frame
		}
		c.peakPrepared = max(c.peakPrepared, f.PreparedBytes)
		c.peakInFlight = max(c.peakInFlight, f.InFlight)
		if budget != nil && f.RequestedBytes > *budget {
			c.overBudget++
		}
		if cap != nil && f.ResidentBytes > *cap {
			c.overCap++
		}
		// A retry is a request for a cell whose last attempt failed.
		for _, name := range f.Requested {
			if failedLast[name] {
				c.retries++
			}
			failedLast[name] = false
		}
		for _, name := range f.Failed {
			failedLast[name] = true
		}
		c.requests += len(f.Requested)
		c.published += len(f.Published)
		c.unloads += len(f.Unloaded)
		c.evictions += len(f.Evicted)
		c.cancellations += len(f.Cancelled)
		c.drops += len(f.Dropped)
		c.failures += len(f.Failed)
		c.assetLoads += f.AssetLoads
		c.assetUnloads += f.AssetUnloads
		c.publishes += len(f.Publishing)
		c.hits += len(f.PrefetchHits)
		c.misses += len(f.PrefetchMisses)
		c.cancelledRefs += f.CancelledRefs
		if n := len(f.Holes); n > 0 {
			if c.holeFrames == 0 {
				c.firstHole = f.Frame
			}
			c.holeFrames++
			c.maxHoles = max(c.maxHoles, n)
		}
		if n := f.PopIn; n > 0 {
			if c.popInFrames == 0 {
				c.firstPopIn = f.Frame
			}
			c.popInFrames++
			c.maxPopIn = max(c.maxPopIn, n)
		}
		if c.firstResident == nil {
			all := true
			for _, w := range wanted {
				all = all && slices.Contains(f.ResidentCells, w)
			}
			if all {
				c.firstResident = &f.Frame
			}
		}
	}
	last := &frames[len(frames)-1]
	c.residentAtEnd, c.preparedAtEnd, c.loadingAtEnd, c.unloadingAtEnd = last.ResidentCells, last.PreparedCells, last.LoadingCells, last.UnloadingCells
	return c
}

// sorted is a copy of names in byte order, never nil.
func sorted(names []string) []string {
	out := append([]string{}, names...)
	slices.Sort(out)
	return out
}

// checkSummary compares a run's summary with its figures found again from
// its frames. Which requests were prefetches or proxies, and the cells the
// runtime desired or speculated at the end, are not in a frame's row: the
// schedulers' own tests check those.
func checkSummary(t *testing.T, policy string, s *streaming.EstellaSummary, c recomputed) {
	t.Helper()
	eq := func(what string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: the summary's %s is %v, the frames make it %v", policy, what, got, want)
		}
	}
	ptr := func(p *int) string {
		if p == nil {
			return "never"
		}
		return strconv.Itoa(*p)
	}
	eq("frames", s.Frames, c.frames)
	eq("firstFrame", s.FirstFrame, c.firstFrame)
	eq("peakResidentBytes", s.PeakResidentBytes, c.peakResident)
	if c.peakResident > 0 {
		eq("peakResidentFrame", s.PeakResidentFrame, c.peakResidentFrame)
	}
	eq("peakPreparedBytes", s.PeakPreparedBytes, c.peakPrepared)
	eq("peakInFlight", s.PeakInFlight, c.peakInFlight)
	eq("maxRequestedBytes", s.MaxRequestedBytes, c.maxRequested)
	if c.maxRequested > 0 {
		eq("maxRequestedFrame", s.MaxRequestedFrame, c.maxRequestedFrame)
	}
	eq("framesOverBudget", s.FramesOverBudget, c.overBudget)
	eq("framesOverResidentCap", s.FramesOverResidentCap, c.overCap)
	eq("loads (requests)", s.Loads, c.requests)
	eq("retries", s.Retries, c.retries)
	eq("published", s.Published, c.published)
	eq("unloads", s.Unloads, c.unloads)
	eq("evictions", s.Evictions, c.evictions)
	eq("cancellations", s.Cancellations, c.cancellations)
	eq("drops", s.Drops, c.drops)
	eq("failures", s.Failures, c.failures)
	eq("holeFrames", s.HoleFrames, c.holeFrames)
	eq("maxHoles", s.MaxHoles, c.maxHoles)
	if c.holeFrames > 0 {
		eq("firstHoleFrame", s.FirstHoleFrame, c.firstHole)
	}
	eq("firstResidentFrame", ptr(s.FirstResidentFrame), ptr(c.firstResident))
	eq("popInFrames", s.PopInFrames, c.popInFrames)
	eq("maxPopIn", s.MaxPopIn, c.maxPopIn)
	eq("firstPopInFrame", s.FirstPopInFrame, c.firstPopIn)
	episodes := func(what string, eps []streaming.HoleEpisode, want [][2]int, cells [][]string) {
		var got [][2]int
		for k, e := range eps {
			got = append(got, [2]int{e.First, e.Last})
			var names []string
			for _, cell := range e.Cells {
				names = append(names, cell.Cell)
			}
			if k < len(cells) {
				eq(fmt.Sprintf("%s %d-%d cells", what, e.First, e.Last), sorted(names), sorted(cells[k]))
			}
		}
		eq(what, got, want)
	}
	episodes("holeEpisodes", s.HoleEpisodes, c.holeEpisodes, c.holeEpisodeCells)
	episodes("popInEpisodes", s.PopInEpisodes, c.popInEpisodes, c.popInEpisodeCells)
	eq("residency.residentCells", sorted(s.Residency.ResidentCells), sorted(c.residentAtEnd))
	eq("residency.loadCount", s.Residency.LoadCount, c.published)
	if a := s.Assets; a != nil {
		eq("assets.peakResidentAssetBytes", a.PeakResidentAssetBytes, c.peakAssets)
		if c.peakAssets > 0 {
			eq("assets.peakFrame", a.PeakFrame, c.peakAssetsFrame)
		}
		eq("assets.loads", a.Loads, c.assetLoads)
		eq("assets.unloads", a.Unloads, c.assetUnloads)
	}
	if policy == "estella" {
		rt := &s.Runtime
		eq("prepareCount", rt.PrepareCount, c.requests)
		eq("loadCount", rt.LoadCount, c.publishes)
		eq("unloadCount", rt.UnloadCount, c.unloads)
		eq("cancelCount", rt.CancelCount, c.cancellations)
		eq("cancelledRefs", rt.CancelledRefs, c.cancelledRefs)
		eq("prefetchHits", rt.PrefetchHits, c.hits)
		eq("prefetchMisses", rt.PrefetchMisses, c.misses)
		eq("runtime residentCells", sorted(rt.ResidentCells), sorted(c.residentAtEnd))
		eq("runtime preparedCells", sorted(rt.PreparedCells), sorted(c.preparedAtEnd))
		eq("runtime loadingCells", sorted(rt.LoadingCells), sorted(c.loadingAtEnd))
		eq("runtime unloadingCells", sorted(rt.UnloadingCells), sorted(c.unloadingAtEnd))
	}
}

// textFigures reads a text summary's "  label   value" lines: the first
// line of each label.
func textFigures(text string) map[string]string {
	out := map[string]string{}
	re := regexp.MustCompile(`^  (\S[^ ]*(?: [^ ]+)*?)  +(\S.*)$`)
	for _, l := range strings.Split(text, "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			if _, ok := out[m[1]]; !ok {
				out[m[1]] = m[2]
			}
		}
	}
	return out
}

// checkText checks that the text summary prints each figure under its
// name with the value the frames give.
func checkText(t *testing.T, policy, text string, c recomputed, view, assets bool) {
	t.Helper()
	figs := textFigures(text)
	peak := func(b int64, prep string, f int) string {
		if b == 0 {
			return "0 B"
		}
		return fmt.Sprintf("%d B %s frame %d", b, prep, f)
	}
	want := map[string]string{
		"peak resident":  peak(c.peakResident, "at", c.peakResidentFrame),
		"max requested":  peak(c.maxRequested, "in", c.maxRequestedFrame),
		"peak in flight": strconv.Itoa(c.peakInFlight),
		"unloads":        strconv.Itoa(c.unloads),
		"hole frames":    fmt.Sprintf("%d of %d", c.holeFrames, c.frames),
	}
	if view {
		want["pop-in frames"] = fmt.Sprintf("%d of %d", c.popInFrames, c.frames)
	}
	if assets {
		want["peak resident assets"] = peak(c.peakAssets, "at", c.peakAssetsFrame)
		want["asset loads"] = fmt.Sprintf("%d (%d unloads", c.assetLoads, c.assetUnloads)
	}
	if policy == "estella" {
		want["requests"] = fmt.Sprintf("%d preparation", c.requests)
		want["publishes"] = fmt.Sprintf("%d started, %d resident", c.publishes, c.published)
		want["discarded prepared"] = fmt.Sprintf("%d (%d references released)", c.cancellations, c.cancelledRefs)
		want["prefetch"] = fmt.Sprintf("%d hit", c.hits)
		want["residentCells"] = fmt.Sprintf("%d cell", len(c.residentAtEnd))
		want["loadCount"] = fmt.Sprintf("%d (the publishes started)", c.publishes)
		want["failures"] = fmt.Sprintf("%d preparation", c.failures)
	} else {
		want["requests"] = fmt.Sprintf("%d started (", c.requests)
		want["published"] = fmt.Sprintf("%d (entries into the world: the residency report's loadCount)", c.published)
		want["evictions"] = strconv.Itoa(c.evictions)
		want["cancellations"] = strconv.Itoa(c.cancellations)
		want["dropped"] = strconv.Itoa(c.drops)
		want["failures"] = fmt.Sprintf("%d (", c.failures)
		want["resident at the end"] = fmt.Sprintf("%d cell", len(c.residentAtEnd))
		if c.peakPrepared > 0 {
			want["peak prepared"] = fmt.Sprintf("%d B", c.peakPrepared)
		}
	}
	for label, w := range want {
		got, ok := figs[label]
		if !ok {
			t.Errorf("%s: the text summary has no %q line:\n%s", policy, label, text)
			continue
		}
		// A figure is its whole number: "1 of" is not "14 of".
		if !strings.HasPrefix(got, w) || (len(got) > len(w) && w[len(w)-1] >= '0' && w[len(w)-1] <= '9' && got[len(w)] >= '0' && got[len(w)] <= '9') {
			t.Errorf("%s: the text summary's %s is %q, the frames make it %q…", policy, label, got, w)
		}
	}
	// One name, one figure: no label twice, and none of the names that
	// once meant two figures.
	for _, old := range []string{"loads", "load count", "preparations"} {
		if _, ok := figs[old]; ok {
			t.Errorf("%s: the text summary still has %q", policy, old)
		}
	}
}

// TestSimulateFiguresAgree runs each world under each policy and --compare,
// and checks every figure of the summaries against the per-frame rows
// they total: the JSON summary's, the text summary's under the names it
// prints, the comparison's, and the positions' axes in the table and the
// CSV.
func TestSimulateFiguresAgree(t *testing.T) {
	for _, w := range figureWorlds(t) {
		t.Run(w.name, func(t *testing.T) {
			runs := map[string]recomputed{}
			for _, policy := range []string{"budgeted", "estella"} {
				args := slices.Concat(w.pre, []string{"simulate", "--policy", policy}, w.args)
				if policy == "budgeted" {
					args = append(args, w.budgetedOnly...)
				}
				code, out, errs := run(t, append(slices.Clone(args), "--format", "jsonl", "--cell-states")...)
				if code != 0 {
					t.Fatalf("%v: exit %d: %s", args, code, errs)
				}
				r := readJSONL(t, out)
				c := recompute(r.frames, r.summary.Budget, r.summary.MaxResidentBytes)
				checkSummary(t, policy, &r.summary, c)
				runs[policy] = c
				code, text, errs := run(t, append(slices.Clone(args), "--summary-only")...)
				if code != 0 {
					t.Fatalf("%v: exit %d: %s", args, code, errs)
				}
				checkText(t, policy, text, c, r.summary.View, r.summary.Assets != nil)
				// The positions' axes: (x, z), or (x, y) on an xy world.
				axis := map[string]string{"xz": "z", "xy": "y"}[w.plane]
				code, csv, _ := run(t, append(slices.Clone(args), "--format", "csv")...)
				header := strings.Split(strings.SplitN(csv, "\n", 2)[0], ",")
				if code != 0 || (policy == "budgeted" && (!slices.Contains(header, axis) || slices.Contains(header, map[string]string{"z": "y", "y": "z"}[axis]))) {
					t.Errorf("%s: the CSV's header on an %s world: %v", policy, w.plane, header)
				}
				if policy == "budgeted" {
					_, table, _ := run(t, slices.Concat(args, []string{"--format", "table"})...)
					if !strings.Contains(table, "stood (x, "+axis+")") {
						t.Errorf("the table's legend does not name the axes x, %s:\n%.1200s", axis, table)
					}
				}
			}
			// The comparison prints the same figures under each policy's
			// name.
			args := slices.Concat(w.pre, []string{"simulate", "--compare"}, w.args, w.budgetedOnly)
			code, out, errs := run(t, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errs)
			}
			rows := map[string][2]string{}
			for _, l := range strings.Split(out, "\n") {
				f := regexp.MustCompile(`  +`).Split(strings.TrimSpace(l), -1)
				if len(f) == 3 {
					rows[f[0]] = [2]string{f[1], f[2]}
				}
			}
			if !strings.Contains(out, "budgeted") || strings.Contains(out, "seed") {
				t.Errorf("the comparison does not head its columns by policy:\n%s", out)
			}
			b, e := runs["budgeted"], runs["estella"]
			for label, want := range map[string][2]int{
				"hole frames":              {b.holeFrames, e.holeFrames},
				"peak resident bytes":      {int(b.peakResident), int(e.peakResident)},
				"peak prepared bytes":      {int(b.peakPrepared), int(e.peakPrepared)},
				"max requested in a frame": {int(b.maxRequested), int(e.maxRequested)},
				"published":                {b.published, e.published},
				"unloads":                  {b.unloads, e.unloads},
				"failures":                 {b.failures, e.failures},
				"resident at the end":      {len(b.residentAtEnd), len(e.residentAtEnd)},
			} {
				if got := rows[label]; got != [2]string{strconv.Itoa(want[0]), strconv.Itoa(want[1])} {
					t.Errorf("the comparison's %s is %v, the frames make it %v", label, got, want)
				}
			}
			if got := rows["requests (prefetches)"]; !strings.HasPrefix(got[0], strconv.Itoa(b.requests)+" (") || !strings.HasPrefix(got[1], strconv.Itoa(e.requests)+" (") {
				t.Errorf("the comparison's requests are %v, the frames make them %d and %d", got, b.requests, e.requests)
			}
		})
	}
}
