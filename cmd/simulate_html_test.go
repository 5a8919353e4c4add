package cmd

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/worldcook/worldcook/internal/browser"
	"github.com/worldcook/worldcook/manifest"
)

// demoArgs run the demo world along its camera route under a budget that
// makes holes, as `make demo` does.
// Estella's runtime has no budget: it runs without.
var demoArgs = []string{"--config", "../testdata/demo/worldcook.yaml", "simulate", "--path", "../testdata/demo/route.csv",
	"../testdata/demo/main.esscene"}

// demoPolicyArgs are the demo's settings under a policy, or --compare.
func demoPolicyArgs(policy string) []string {
	args := cloneArgs(demoArgs)
	switch policy {
	case "budgeted":
		return append(args, "--policy", policy, "--budget", "16KiB")
	case "compare":
		return append(args, "--compare", "--budget", "16KiB")
	}
	return append(args, "--policy", policy)
}

// reportedStates reads a --format jsonl --cell-states report: for each
// frame, every cell not absent with the state the page must show, the
// first of hole, resident, unloading, prepared, loading.
func reportedStates(t *testing.T, jsonl string) []map[string]string {
	t.Helper()
	var frames []map[string]string
	sc := bufio.NewScanner(strings.NewReader(jsonl))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var f struct {
			MessageType    string    `json:"message_type"`
			Frame          int       `json:"frame"`
			Holes          []string  `json:"holes"`
			ResidentCells  *[]string `json:"residentCells"`
			UnloadingCells []string  `json:"unloadingCells"`
			PreparedCells  []string  `json:"preparedCells"`
			LoadingCells   []string  `json:"loadingCells"`
		}
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		if f.MessageType != "frame" {
			continue
		}
		if f.ResidentCells == nil {
			t.Fatalf("frame %d has no residentCells: run without --cell-states?", f.Frame)
		}
		if f.Frame != len(frames)+1 {
			t.Fatalf("frame %d after %d frames", f.Frame, len(frames))
		}
		st := map[string]string{}
		for _, l := range []struct {
			state string
			cells []string
		}{{"hole", f.Holes}, {"resident", *f.ResidentCells}, {"unloading", f.UnloadingCells}, {"prepared", f.PreparedCells}, {"loading", f.LoadingCells}} {
			for _, c := range l.cells {
				if _, ok := st[c]; !ok {
					st[c] = l.state
				}
			}
		}
		frames = append(frames, st)
	}
	return frames
}

// reportedPopIn reads a --format jsonl --cell-states report: each frame's
// cells popping in.
func reportedPopIn(t *testing.T, jsonl string) [][]string {
	t.Helper()
	var frames [][]string
	sc := bufio.NewScanner(strings.NewReader(jsonl))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var f struct {
			MessageType string    `json:"message_type"`
			PopInCells  *[]string `json:"popInCells"`
		}
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatal(err)
		}
		if f.MessageType != "frame" {
			continue
		}
		if f.PopInCells == nil {
			t.Fatal("a frame has no popInCells: run without --cell-states?")
		}
		cells := slices.Clone(*f.PopInCells)
		slices.Sort(cells)
		frames = append(frames, cells)
	}
	return frames
}

// checkPopIn shows every frame, forwards then backwards, and compares the
// cells the map marks popping in (data-popin, and worldcook.popIn) with
// the report's; the sources' views are drawn.
func checkPopIn(t *testing.T, p *browser.Page, want [][]string) {
	t.Helper()
	if n := browser.Eval[int](p, `document.querySelectorAll('.overlay .view').length`); n == 0 {
		t.Error("the map draws no view")
	}
	order := make([]int, 0, 2*len(want))
	for k := 1; k <= len(want); k++ {
		order = append(order, k)
	}
	for k := len(want); k >= 1; k-- {
		order = append(order, k)
	}
	some := false
	for _, k := range order {
		got := browser.Eval[[]string](p, fmt.Sprintf(`(function (k) {
  worldcook.frame(k);
  var out = [];
  document.querySelectorAll('[data-cell][data-popin]').forEach(function (e) {
    var c = e.getAttribute('data-cell');
    if (worldcook.popIn(c)) out.push(c);
  });
  return out.sort();
})(%d)`, k))
		if got == nil {
			got = []string{}
		}
		some = some || len(got) > 0
		if !slices.Equal(got, want[k-1]) {
			t.Fatalf("frame %d: the map marks %v popping in, the report says %v", k, got, want[k-1])
		}
	}
	if !some {
		t.Error("no frame pops in: the check saw nothing")
	}
}

// shownStates shows frame k and reads every drawn cell that is not absent
// from the map's elements (of one policy's map, or of the page's).
const shownStates = `(function (k, policy) {
  var shown = worldcook.frame(k), out = {}, bad = [];
  var sel = (policy ? '[data-policy="' + policy + '"] ' : '') + '[data-cell]';
  document.querySelectorAll(sel).forEach(function (e) {
    var c = e.getAttribute('data-cell'), s = e.getAttribute('data-state');
    if (worldcook.state(c, policy || undefined) !== s) bad.push(c);
    if (s !== 'absent') out[c] = s;
  });
  if (shown !== k || document.getElementById('frame').value !== String(k)) bad.push('frame ' + shown);
  return {states: out, bad: bad};
})(%d, %q)`

// checkEveryFrame shows every frame of the page, forwards, backwards and
// in a random order, and compares the map with the report.
func checkEveryFrame(t *testing.T, p *browser.Page, policy string, want []map[string]string) {
	t.Helper()
	if n := browser.Eval[int](p, "worldcook.frames"); n != len(want) {
		t.Fatalf("%s: the page has %d frames, the report %d", policy, n, len(want))
	}
	order := make([]int, 0, 3*len(want))
	for k := 1; k <= len(want); k++ {
		order = append(order, k)
	}
	for k := len(want); k >= 1; k-- {
		order = append(order, k)
	}
	rng := rand.New(rand.NewPCG(1, uint64(len(want))))
	for _, i := range rng.Perm(len(want)) {
		order = append(order, i+1)
	}
	failures := 0
	for _, k := range order {
		got := browser.Eval[struct {
			States map[string]string
			Bad    []string
		}](p, fmt.Sprintf(shownStates, k, policy))
		if got.States == nil {
			got.States = map[string]string{}
		}
		if len(got.Bad) > 0 {
			t.Errorf("%s frame %d: state() or the slider disagree with the map: %v", policy, k, got.Bad)
		}
		if !reflect.DeepEqual(got.States, want[k-1]) {
			t.Errorf("%s frame %d: the map shows\n%v\nthe report says\n%v", policy, k, got.States, want[k-1])
			failures++
		}
		if failures > 3 {
			t.FailNow()
		}
	}
}

// screenshots is where the browser tests leave their screenshots:
// $WORLDCOOK_SCREENSHOTS, or the test's temporary folder.
func screenshots(t *testing.T) string {
	if d := os.Getenv("WORLDCOOK_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// TestSimulateHTMLInBrowser opens the demo's page under each policy and
// under --compare in headless Chromium with the network off, and checks
// that its map shows, on every frame, the states the JSON Lines report
// gives; that no request leaves the page; that a hole episode's link
// shows its first frame; that a click on a cell says why it is in its
// state; and that the keys step and play.
func TestSimulateHTMLInBrowser(t *testing.T) {
	b := browser.New(t)
	dir := t.TempDir()
	shots := screenshots(t)
	reports := map[string][]map[string]string{}
	for _, policy := range []string{"budgeted", "estella"} {
		t.Run(policy, func(t *testing.T) {
			page := filepath.Join(dir, policy+".html")
			args := append(demoPolicyArgs(policy), "--format", "jsonl", "--cell-states", "--html", page)
			code, out, errs := run(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			want := reportedStates(t, out)
			reports[policy] = want
			p := b.Open(t, page, "worldcook")
			checkEveryFrame(t, p, "", want)
			checkEveryFrame(t, p, policy, want)
			checkPopIn(t, p, reportedPopIn(t, out))

			// The first hole episode's link shows its first frame, where
			// the map has holes.
			first := browser.Eval[int](p, `Number(document.querySelector('a.episode').getAttribute('data-frame'))`)
			browser.Eval[int](p, "worldcook.frame(1)")
			p.Click("a.episode")
			if k := browser.Eval[int](p, "worldcook.shown()"); k != first {
				t.Errorf("the first hole episode's link shows frame %d, not %d", k, first)
			}
			holes := 0
			for _, s := range want[first-1] {
				if s == "hole" {
					holes++
				}
			}
			if n := browser.Eval[int](p, `document.querySelectorAll('[data-state="hole"][data-cell]').length`); holes == 0 || n != holes {
				t.Errorf("frame %d: %d holes on the map, %d in the report", first, n, holes)
			}
			p.Screenshot(filepath.Join(shots, "demo-"+policy+"-first-hole.png"))

			// A click on a hole says which radius makes it one.
			cell := browser.Eval[string](p, `document.querySelector('[data-state="hole"][data-cell]').getAttribute('data-cell')`)
			p.Click(fmt.Sprintf(`[data-cell=%q]`, cell))
			details := browser.Eval[string](p, `document.querySelector('.details').textContent`)
			for _, w := range []string{cell, "hole at frame", "load radius", "nearest source", "document", "loads"} {
				if !strings.Contains(details, w) {
					t.Errorf("the details of %s lack %q: %s", cell, w, details)
				}
			}

			// Keys: → and ← step one frame, space plays and pauses.
			mid := len(want) / 2
			browser.Eval[int](p, fmt.Sprintf("worldcook.frame(%d)", mid))
			p.Key(browser.ArrowRight)
			p.Key(browser.ArrowRight)
			p.Key(browser.ArrowLeft)
			if k := browser.Eval[int](p, "worldcook.shown()"); k != mid+1 {
				t.Errorf("→ → ← from frame %d shows frame %d", mid, k)
			}
			p.Screenshot(filepath.Join(shots, "demo-"+policy+"-mid.png"))
			p.Key(" ")
			time.Sleep(200 * time.Millisecond)
			p.Key(" ")
			if k := browser.Eval[int](p, "worldcook.shown()"); k <= mid+1 {
				t.Errorf("space did not play: still at frame %d", k)
			}
			browser.Eval[int](p, fmt.Sprintf("worldcook.frame(%d)", len(want)))
			p.Screenshot(filepath.Join(shots, "demo-"+policy+"-end.png"))

			// The wheel zooms; following, the map keeps the first source in
			// its middle.
			width := `Number(document.querySelector('svg.map').getAttribute('viewBox').split(' ')[2])`
			before := browser.Eval[float64](p, width)
			browser.Eval[bool](p, `document.querySelector('svg.map').dispatchEvent(new WheelEvent('wheel', {deltaY: -200, clientX: 400, clientY: 400, cancelable: true})), true`)
			if after := browser.Eval[float64](p, width); !(after < before) {
				t.Errorf("the wheel did not zoom in: the view is %g wide, was %g", after, before)
			}
			p.Click("#follow")
			c := browser.Eval[[]float64](p, `(function () {
  worldcook.frame(100);
  var v = document.querySelector('svg.map').getAttribute('viewBox').split(' ').map(Number);
  var t = document.querySelector('svg.overlay g.sources g').getAttribute('transform').match(/translate\(([^ ]+) ([^)]+)\)/);
  return [v[0] + v[2] / 2, v[1] + v[3] / 2, Number(t[1]), Number(t[2])];
})()`)
			if math.Abs(c[0]-c[2]) > 1e-6 || math.Abs(c[1]-c[3]) > 1e-6 {
				t.Errorf("following, the map's middle is (%g, %g), the source at (%g, %g)", c[0], c[1], c[2], c[3])
			}
			p.Click("#follow")
			if r := p.Requests(); len(r) > 0 {
				t.Errorf("the page made requests: %v", r)
			}
		})
	}
	t.Run("compare", func(t *testing.T) {
		if len(reports) != 2 {
			t.Skip("the policies' runs failed")
		}
		page := filepath.Join(dir, "compare.html")
		code, _, errs := run(t, append(demoPolicyArgs("compare"), "--html", page)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		p := b.Open(t, page, "worldcook")
		for _, policy := range []string{"budgeted", "estella"} {
			if n := browser.Eval[int](p, fmt.Sprintf(`document.querySelectorAll('[data-policy=%q] svg.map [data-cell]').length`, policy)); n == 0 {
				t.Errorf("no %s map", policy)
			}
			checkEveryFrame(t, p, policy, reports[policy])
		}
		browser.Eval[int](p, "worldcook.frame(4)")
		p.Screenshot(filepath.Join(shots, "demo-compare.png"))
		if r := p.Requests(); len(r) > 0 {
			t.Errorf("the page made requests: %v", r)
		}
	})
	t.Logf("screenshots in %s", shots)
}

func cloneArgs(s []string) []string { return append([]string(nil), s...) }

// randomWorld writes a manifest of an n×n world of cells with randomly
// grown bounds and sizes, and a random walk of one or two sources through
// it, and returns the manifest and the route.
func randomWorld(t *testing.T, rng *rand.Rand, dir string, n, frames int) (string, string) {
	t.Helper()
	const size = 10.0
	m := &manifest.Manifest{Version: manifest.Version, Scene: "rand", CellSize: size, Plane: manifest.PlaneXZ}
	for x := range int32(n) {
		for z := range int32(n) {
			grow := func() float64 { return float64(rng.IntN(4)) * rng.Float64() }
			m.Cells = append(m.Cells, manifest.Cell{
				Name: fmt.Sprintf("rand.cell_%d_%d", x, z), Path: fmt.Sprintf("world/rand.cell_%d_%d.json", x, z), X: x, Z: z,
				MinX: float64(x)*size - grow(), MinZ: float64(z)*size - grow(),
				MaxX: float64(x+1)*size + grow(), MaxZ: float64(z+1)*size + grow(),
				Bytes: int64(500 + rng.IntN(4500)), EntityCount: 1, RootCount: 1,
			})
		}
	}
	slices.SortFunc(m.Cells, func(a, b manifest.Cell) int { return cmp.Or(cmp.Compare(a.X, b.X), cmp.Compare(a.Z, b.Z)) })
	b, err := manifest.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	world := filepath.Join(dir, "rand.world.json")
	if err := os.WriteFile(world, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	csv.WriteString("frame,x,z,source\n")
	sources := 1 + rng.IntN(2)
	pos := make([][2]float64, sources)
	for i := range pos {
		pos[i] = [2]float64{rng.Float64() * size * float64(n), rng.Float64() * size * float64(n)}
	}
	for f := 1; f <= frames; f++ {
		for i := range pos {
			for k := range 2 {
				pos[i][k] = min(max(pos[i][k]+(rng.Float64()-0.5)*size*0.8, 0), size*float64(n))
			}
			fmt.Fprintf(&csv, "%d,%.3f,%.3f,s%d\n", f, pos[i][0], pos[i][1], i)
		}
	}
	route := filepath.Join(dir, "rand.csv")
	if err := os.WriteFile(route, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return world, route
}

// TestSimulateHTMLRandomWorlds checks, in the browser, every frame of
// random worlds under random settings against the JSON Lines report.
func TestSimulateHTMLRandomWorlds(t *testing.T) {
	b := browser.New(t)
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 4 {
		dir := t.TempDir()
		world, route := randomWorld(t, rng, dir, 5+rng.IntN(10), 60+rng.IntN(120))
		load := 5 + rng.Float64()*15
		radii := []string{"--load-radius", fmt.Sprintf("%.2f", load), "--unload-radius", fmt.Sprintf("%.2f", load+1+rng.Float64()*10),
			"--prefetch-radius", fmt.Sprintf("%.2f", load+rng.Float64()*10), "--latency-frames", fmt.Sprint(rng.IntN(5))}
		for _, policy := range []string{"budgeted", "estella"} {
			args := append([]string{"simulate", "--path", route, "--policy", policy, "--format", "jsonl", "--cell-states"}, radii...)
			if policy == "budgeted" {
				args = append(args, "--budget", fmt.Sprint(1000+rng.IntN(8000)))
				if rng.IntN(2) == 0 {
					args = append(args, "--max-resident-bytes", fmt.Sprint(20000+rng.IntN(40000)))
				}
			} else {
				args = append(args, "--publish-frames", fmt.Sprint(rng.IntN(3)), "--unload-frames", fmt.Sprint(rng.IntN(3)))
			}
			page := filepath.Join(dir, policy+".html")
			args = append(args, "--html", page, world)
			t.Run(fmt.Sprintf("world%d/%s", i, policy), func(t *testing.T) {
				code, out, errs := run(t, args...)
				if code != 0 {
					t.Fatalf("%v: exit %d: %s", args, code, errs)
				}
				p := b.Open(t, page, "worldcook")
				checkEveryFrame(t, p, policy, reportedStates(t, out))
				if r := p.Requests(); len(r) > 0 {
					t.Errorf("the page made requests: %v", r)
				}
			})
		}
	}
}

// TestSimulateHTMLRefusesItsInputs checks that --html never writes over a
// file the run reads, nor onto a folder, and leaves no page behind.
func TestSimulateHTMLRefusesItsInputs(t *testing.T) {
	dir := t.TempDir()
	route := filepath.Join(dir, "route.csv")
	data, err := os.ReadFile("../testdata/demo/route.csv")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(route, data, 0o644)
	for _, tc := range []struct {
		name, page, want string
	}{
		{"the route", route, "is " + route + ", an input of this run"},
		{"the scene", "../testdata/demo/main.esscene", "an input of this run"},
		{"a folder", dir, "is not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"--config", "../testdata/demo/worldcook.yaml", "simulate", "--path", route, "--summary-only", "--html", tc.page, "../testdata/demo/main.esscene"}
			code, out, errs := run(t, args...)
			if out != "" {
				t.Errorf("the run went ahead: %.200s", out)
			}
			if code != ExitInput || !strings.Contains(errs, "--html") || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("exit %d, %q: want exit %d and one line saying %q", code, errs, ExitInput, tc.want)
			}
		})
	}
	if got, _ := os.ReadFile(route); string(got) != string(data) {
		t.Error("the route changed")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}
