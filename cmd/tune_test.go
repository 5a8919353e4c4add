package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/golden"
)

// demoAt copies the demo project into a temporary folder with its
// StreamedWorld.cellSize set to cs: what `worldcook simulate` runs to
// check a candidate of that cell size.
func demoAt(t *testing.T, cs float64) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Dir(demoScene)
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "main.esscene" {
			re := regexp.MustCompile(`"cellSize": [0-9.]+`)
			if !re.Match(b) {
				t.Fatal("the demo scene has no cellSize to edit")
			}
			b = re.ReplaceAll(b, fmt.Appendf(nil, `"cellSize": %g`, cs))
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "main.esscene")
}

type tuneCandidate struct {
	MessageType string `json:"message_type"`
	Settings    struct {
		CellSize         float64 `json:"cellSize"`
		Load             float64 `json:"loadRadius"`
		Unload           float64 `json:"unloadRadius"`
		Prefetch         float64 `json:"prefetchRadius"`
		Budget           *int64  `json:"budget"`
		MaxResidentBytes *int64  `json:"maxResidentBytes"`
	} `json:"settings"`
	Feasible bool `json:"feasible"`
	Pruned   bool `json:"pruned"`
	Routes   []struct {
		Frames            int     `json:"frames"`
		PeakResidentBytes int64   `json:"peakResidentBytes"`
		MeanResidentBytes float64 `json:"meanResidentBytes"`
		Loads             int     `json:"loads"`
		MaxRequestedBytes int64   `json:"maxRequestedBytes"`
		HoleFrames        int     `json:"holeFrames"`
	} `json:"routes"`
}

// TestTuneFiguresAreSimulates: on sampled candidates of a search over
// three cell sizes and two budgets, each figure tune prints is the one
// `worldcook simulate --json` prints with the same settings (on the scene
// with that cell size authored), and a feasible candidate is one that
// simulate --fail-on holes passes.
func TestTuneFiguresAreSimulates(t *testing.T) {
	code, out, errs := run(t, "--json", "tune", "--path", demoRoute, "--cell-size", "700,1000,2000",
		"--budget", "48KiB,none", "--latency-frames", "2", "--require", "holes", demoScene)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var cands []tuneCandidate
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if !strings.HasPrefix(sc.Text(), `{"message_type":"candidate"`) {
			continue
		}
		var c tuneCandidate
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cands = append(cands, c)
	}
	if len(cands) < 100 {
		t.Fatalf("%d candidates, want 3×45×2 less the pruned", len(cands))
	}
	scenes := map[float64]string{1000: demoScene}
	checked := 0
	for i, c := range cands {
		if c.Pruned || i%9 != 0 {
			continue
		}
		s := c.Settings
		scene := scenes[s.CellSize]
		if scene == "" {
			scene = demoAt(t, s.CellSize)
			scenes[s.CellSize] = scene
		}
		args := []string{"--json", "simulate", "--path", demoRoute, "--latency-frames", "2", "--fail-on", "holes",
			"--load-radius", fmt.Sprint(s.Load), "--unload-radius", fmt.Sprint(s.Unload), "--prefetch-radius", fmt.Sprint(s.Prefetch)}
		if s.Budget != nil {
			args = append(args, "--budget", fmt.Sprint(*s.Budget))
		}
		code, out, errs := run(t, append(args, scene)...)
		if code != 0 && code != 1 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var sum struct {
			Frames            int   `json:"frames"`
			PeakResidentBytes int64 `json:"peakResidentBytes"`
			Loads             int   `json:"loads"`
			MaxRequestedBytes int64 `json:"maxRequestedBytes"`
			HoleFrames        int   `json:"holeFrames"`
		}
		var resident float64
		frames := 0
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var head struct {
				MessageType   string `json:"message_type"`
				ResidentBytes int64  `json:"residentBytes"`
			}
			json.Unmarshal([]byte(line), &head)
			switch head.MessageType {
			case "frame":
				resident += float64(head.ResidentBytes)
				frames++
			case "summary":
				json.Unmarshal([]byte(line), &sum)
			}
		}
		r := c.Routes[0]
		if r.Frames != sum.Frames || r.PeakResidentBytes != sum.PeakResidentBytes || r.Loads != sum.Loads ||
			r.MaxRequestedBytes != sum.MaxRequestedBytes || r.HoleFrames != sum.HoleFrames || r.MeanResidentBytes != resident/float64(frames) {
			t.Errorf("%+v: tune %+v, simulate %+v (mean %v)", s, r, sum, resident/float64(frames))
		}
		if c.Feasible != (code == 0) {
			t.Errorf("%+v: tune says feasible %v, simulate --fail-on holes exits %d", s, c.Feasible, code)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("only %d candidates checked", checked)
	}
}

// TestTuneDeterministic: the same output, text and JSON, on every run,
// with any number of workers and any GOMAXPROCS.
func TestTuneDeterministic(t *testing.T) {
	args := []string{"tune", "--path", demoRoute, "--path", "testdata/tune/back.csv", "--cell-size", "700,1000,2000",
		"--budget", "32KiB..128KiBx2,none", demoScene}
	var want [2]string
	for k, setup := range []struct{ procs, jobs int }{{2, 0}, {1, 0}, {4, 3}, {2, 1}} {
		prev := runtime.GOMAXPROCS(setup.procs)
		for i, format := range [][]string{nil, {"--json"}} {
			a := append(append(format, args...), "--jobs", fmt.Sprint(setup.jobs))
			code, out, errs := run(t, a...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", a, code, errs)
			}
			if k == 0 {
				want[i] = out
			} else if out != want[i] {
				t.Errorf("GOMAXPROCS %d, --jobs %d: %s", setup.procs, setup.jobs, golden.FirstDiff(out, want[i]))
			}
		}
		runtime.GOMAXPROCS(prev)
	}
	golden.Compare(t, "testdata/tune/demo.txt", []byte(want[0]))
}

// TestTuneRefuses: bad input gets one line naming the flag or the file,
// exit 2; a search with nothing feasible exits 1 saying which condition
// held least often and where.
func TestTuneRefuses(t *testing.T) {
	cooked := t.TempDir()
	if code, _, errs := run(t, "cook", "--quiet", "--out", cooked, demoScene); code != 0 {
		t.Fatalf("cook: exit %d: %s", code, errs)
	}
	var b strings.Builder
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no route", []string{demoScene}},
		{"empty dimension", []string{"--path", demoRoute, "--load-radius", ",", demoScene}},
		{"empty range", []string{"--path", demoRoute, "--load-radius", "8..4/1", demoScene}},
		{"malformed range", []string{"--path", demoRoute, "--budget", "1KiB..4KiB", demoScene}},
		{"a billion candidates", []string{"--path", demoRoute, "--cell-size", "1..1000/1", "--load-radius", "1..1000/1",
			"--unload-radius", "1..1000/1", "--prefetch-radius", "1..1000/1", demoScene}},
		{"over the limit", []string{"--path", demoRoute, "--max-candidates", "40", demoScene}},
		{"route outside", []string{"--path", "testdata/tune/outside.csv", demoScene}},
		{"missing route", []string{"--path", "testdata/tune/none.csv", demoScene}},
		{"cell size on a cooked world", []string{"--path", demoRoute, "--cell-size", "500", cooked}},
		{"cell size that breaks a reference", []string{"--path", demoRoute, "--cell-size", "500,1000", demoScene}},
		{"budget under estella", []string{"--path", demoRoute, "--policy", "estella", "--budget", "16KiB", demoScene}},
		{"over-budget without a budget", []string{"--path", demoRoute, "--require", "holes,over-budget", demoScene}},
		{"unknown objective", []string{"--path", demoRoute, "--minimize", "memory", demoScene}},
		{"load radii that leave the view uncovered", []string{"--path", demoRoute, "--load-radius", "100,200", demoScene}},
		{"nothing feasible", []string{"--path", demoRoute, "--load-radius", "900", "--unload-radius", "3000",
			"--prefetch-radius", "900", "--latency-frames", "30", demoScene}},
	} {
		code, out, errs := run(t, append([]string{"tune"}, tc.args...)...)
		errs = strings.ReplaceAll(errs, cooked, "COOKED")
		if code == 0 || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr not one line: %q", tc.name, code, errs)
		}
		if code == ExitInput && out != "" {
			t.Errorf("%s: exit 2 with output %q", tc.name, out)
		}
		fmt.Fprintf(&b, "# %s\nexit %d\n%s\n", tc.name, code, errs)
	}
	golden.Compare(t, "testdata/tune/errors.txt", []byte(b.String()))
}

// TestTuneDiffAndWrite: --diff prints, on stdout alone, the edit that puts
// the recommendation on the source the route drives (and the cell size it
// changes), which git apply applies from where tune ran; --write makes it,
// and the recommended scene then simulates without pop-in after the
// warm-up, as the run promised; a read-only scene is never written.
func TestTuneDiffAndWrite(t *testing.T) {
	scene := demoAt(t, 1000)
	dir := filepath.Dir(scene)
	args := []string{"tune", "--path", demoRoute, "--cell-size", "1000,2000", "--load-radius", "900,1200", "--unload-radius", "1500,2500", "--prefetch-radius", "1500,2500"}
	code, diff, errs := run(t, append(args, "--diff", scene)...)
	if code != 0 {
		t.Fatalf("tune --diff: exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(diff, "--- a/") || !strings.Contains(errs, "recommended (") || !strings.Contains(diff, `"loadRadius": `) {
		t.Fatalf("stdout is not the diff alone, or the report is not on stderr:\n%s\n--- stderr:\n%s", diff, errs)
	}
	if strings.Count(diff, "\n+") == 0 || strings.Contains(diff, `"Main Camera"`) {
		t.Errorf("the diff should edit the Player's source only, the one the route drives:\n%s", diff)
	}
	os.Chmod(scene, 0o444)
	if code, _, errs := run(t, append(args, "--write", scene)...); code != ExitInput || !strings.Contains(errs, "read-only") {
		t.Errorf("--write on a read-only scene: exit %d, %s", code, errs)
	}
	os.Chmod(scene, 0o644)
	if code, _, errs := run(t, append(args, "--write", scene)...); code != 0 || !strings.Contains(errs, "wrote ") {
		t.Fatalf("--write: exit %d, %s", code, errs)
	}
	after, _ := os.ReadFile(scene)
	if !strings.Contains(string(after), diffAdded(diff)) {
		t.Errorf("--write did not make the edit --diff printed:\n%s", diff)
	}
	code, _, errs = run(t, "simulate", "--path", demoRoute, "--fail-on", "pop-in", "--summary-only", scene)
	if code != 0 {
		t.Errorf("the recommended scene fails its gate: %s", errs)
	}
	if code, _, errs := run(t, append(args, "--diff", filepath.Join(dir, "missing.esscene"))...); code != ExitInput {
		t.Errorf("a scene that is not there: exit %d, %s", code, errs)
	}
}

// diffAdded is the first added line of a diff, without its '+'.
func diffAdded(diff string) string {
	for _, l := range strings.Split(diff, "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			return l[1:]
		}
	}
	return "\x00"
}

// TestTuneRecommendationShowsNoPopIn: on every real project (made a
// streamed world by init, cut on x and y for the 2D ones), a route across
// its content, the recommendation tune --write puts on the scene
// simulates with no pop-in after the warm-up, and its load radius covers
// the view init assumed.
func TestTuneRecommendationShowsNoPopIn(t *testing.T) {
	root := corpus.Projects()
	if root == "" {
		t.Skip("the real projects are not there (../shared/estella-projects): nothing to tune")
	}
	for _, tc := range []struct{ project, scene, plane string }{
		{"examples/lighting-3d", "main", "xz"},
		{"examples/platformer", "main", "xy"},
		{"examples/physics-playground", "showcase", "xy"},
		{"examples/sprite-rendering", "main", "xy"},
		{"examples/tilemap-demo", "tiled-map", "xy"},
	} {
		t.Run(tc.project+"/"+tc.scene, func(t *testing.T) {
			proj := filepath.Join(t.TempDir(), "p")
			corpus.CopyTree(t, filepath.Join(root, tc.project), proj)
			scene := filepath.Join(proj, "assets", "scenes", tc.scene+".esscene")
			if code, _, errs := run(t, "init", "--plane", tc.plane, "--write", scene); code != 0 {
				t.Fatalf("init: exit %d: %s", code, errs)
			}
			route := filepath.Join(proj, "route.csv")
			writeRouteAcross(t, scene, tc.plane, route)
			if code, _, errs := run(t, "tune", "--plane", tc.plane, "--path", route, "--write", scene); code != 0 {
				t.Fatalf("tune --write: exit %d: %s", code, errs)
			}
			code, out, errs := run(t, "simulate", "--plane", tc.plane, "--path", route, "--fail-on", "pop-in", "--summary-only", scene)
			if code != 0 || !strings.Contains(out, "pop-in frames") {
				t.Errorf("the recommendation shows pop-in after the warm-up: exit %d\n%s%s", code, out, errs)
			}
		})
	}
}

// writeRouteAcross writes a route of 60 frames across the top-level
// entities of scene, along the longer side of their extent on the plane.
func writeRouteAcross(t *testing.T, scene, plane, route string) {
	t.Helper()
	src, err := os.ReadFile(scene)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Entities []struct {
			Parent     *int64 `json:"parent"`
			Components []struct {
				Type string          `json:"type"`
				Data json.RawMessage `json:"data"`
			} `json:"components"`
		} `json:"entities"`
	}
	if err := json.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	lo, hi := [2]float64{1e300, 1e300}, [2]float64{-1e300, -1e300}
	for _, e := range doc.Entities {
		for _, c := range e.Components {
			var tr struct {
				Position struct{ X, Y, Z float64 } `json:"position"`
			}
			if e.Parent != nil || c.Type != "Transform" || json.Unmarshal(c.Data, &tr) != nil {
				continue
			}
			p := [2]float64{tr.Position.X, tr.Position.Z}
			if plane == "xy" {
				p[1] = tr.Position.Y
			}
			for k := range p {
				lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
			}
		}
	}
	axis := 0
	if hi[1]-lo[1] > hi[0]-lo[0] {
		axis = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "frame,x,%s\n", map[string]string{"xy": "y", "xz": "z"}[plane])
	for f := 0; f < 60; f++ {
		p := [2]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2}
		p[axis] = lo[axis] + (hi[axis]-lo[axis])*float64(f)/59
		fmt.Fprintf(&b, "%d,%g,%g\n", f+1, p[0], p[1])
	}
	if err := os.WriteFile(route, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
