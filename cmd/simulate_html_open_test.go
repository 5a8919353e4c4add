package cmd

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/browser"
)

// openingFrame is the page's frame a timeline must open at, by the rule
// docs/simulate.md states: the first hole or pop-in after its warm-up
// (the frames up to the first without holes, or without pop-in), else
// the peak of resident bytes, else the first frame. Found here from the
// frames alone, apart from the page's own code.
func openingFrame(runs ...[]jsonlFrame) int {
	best := 0
	for _, frames := range runs {
		for _, count := range []func(*jsonlFrame) int{
			func(f *jsonlFrame) int { return len(f.Holes) },
			func(f *jsonlFrame) int { return f.PopIn },
		} {
			end := 0
			for end < len(frames) && count(&frames[end]) > 0 {
				end++
			}
			for i := end; i < len(frames); i++ {
				if count(&frames[i]) > 0 {
					if best == 0 || i+1 < best {
						best = i + 1
					}
					break
				}
			}
		}
	}
	if best > 0 {
		return best
	}
	// The highest peak of resident bytes; of equal ones, the later.
	var most int64
	for _, frames := range runs {
		var m int64
		for i := range frames {
			m = max(m, frames[i].ResidentBytes)
		}
		if k := firstPeak(frames, m); m > most || (m == most && m > 0 && k > best) {
			most, best = m, k
		}
	}
	return max(best, 1)
}

// firstPeak is the page's first frame whose resident bytes are most.
func firstPeak(frames []jsonlFrame, most int64) int {
	for i := range frames {
		if frames[i].ResidentBytes == most {
			return i + 1
		}
	}
	return 0
}

// pageBytes writes a byte count as the page does.
func pageBytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v, u := float64(n), 0
	for math.Abs(v) >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}

// nowLine is what the page's line over the map must say of a frame:
// every figure is the frame's row's, and says what it counts.
func nowLine(f *jsonlFrame, name int, assets bool, budget *int64, view bool) []string {
	plural := func(n int, w string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, w)
		}
		return fmt.Sprintf("%d %ss", n, w)
	}
	out := []string{fmt.Sprintf("frame %d: resident %s: %s (%s)", name, pageBytes(f.ResidentBytes), plural(f.Resident, "cell"), pageBytes(f.ResidentBytes-f.ResidentAssetBytes))}
	if assets {
		out = append(out, "and assets "+pageBytes(f.ResidentAssetBytes))
	}
	if n := len(f.PreparedCells); n > 0 || f.PreparedBytes > 0 {
		out = append(out, fmt.Sprintf("prepared %s %s (held, not in the world)", plural(n, "cell"), pageBytes(f.PreparedBytes)))
	}
	req := "requested " + pageBytes(f.RequestedBytes)
	if budget != nil {
		req += " of " + pageBytes(*budget)
	}
	out = append(out, req, plural(len(f.Holes), "hole"))
	if view {
		out = append(out, fmt.Sprintf("%d popping in", f.PopIn))
	}
	return out
}

// checkOpening opens page as a person does and checks that it shows the
// opening frame with the summary in view, says why, and that its line
// over the map gives that frame's row's figures; then that #frame-N in
// its address opens frame N as the labels name it, and that the address
// follows the frame shown.
func checkOpening(t *testing.T, b *browser.Browser, page string, runs map[string]simulatedRun, shot string) *browser.Page {
	t.Helper()
	var frames [][]jsonlFrame
	for _, policy := range []string{"budgeted", "estella"} {
		if r, ok := runs[policy]; ok {
			frames = append(frames, r.frames)
		}
	}
	want := openingFrame(frames...)
	first := frames[0][0].Frame
	p := b.Open(t, page, "worldcook")
	if got := browser.Eval[int](p, "worldcook.shown()"); got != want {
		t.Errorf("the page opens at frame %d, not %d (%s)", got, want, browser.Eval[string](p, "document.getElementById('opened').textContent"))
	}
	if opened := browser.Eval[string](p, "document.getElementById('opened').textContent"); !strings.Contains(opened, fmt.Sprintf("frame %d", want+first-1)) {
		t.Errorf("the page does not say where it opened: %q", opened)
	}
	// What a person sees first: the summary, the line over the map, the
	// map and the chart, all within the window.
	inView := browser.Eval[[]string](p, `(function () {
  var out = [];
  ['.summary', '.now', '.mapbox', '.chartbox'].forEach(function (s) {
    document.querySelectorAll(s).forEach(function (e) {
      var b = e.getBoundingClientRect();
      if (b.height === 0 || b.top < 0 || b.bottom > window.innerHeight) out.push(s + ' ' + b.top + '-' + b.bottom + ' of ' + window.innerHeight);
    });
  });
  return out;
})()`)
	if len(inView) > 0 {
		t.Errorf("not in view when the page opens: %v", inView)
	}
	p.Viewport(shot)
	for policy, r := range runs {
		sel := fmt.Sprintf("[data-policy=%q] .now", policy)
		line := browser.Eval[string](p, "document.querySelector('"+sel+"').textContent")
		f := &r.frames[want-1]
		for _, w := range nowLine(f, f.Frame, r.summary.Assets != nil, r.summary.Budget, r.summary.View) {
			if !strings.Contains(line, w) {
				t.Errorf("%s frame %d: the line over the map %q lacks %q", policy, f.Frame, line, w)
			}
		}
		// The summary shows the figures the text summary prints.
		figs := browser.Eval[string](p, "document.querySelector('"+fmt.Sprintf("[data-policy=%q] .summary", policy)+"').textContent")
		for _, w := range []string{
			fmt.Sprintf("hole frames %d of %d", r.summary.HoleFrames, r.summary.Frames),
			fmt.Sprintf("peak resident %d B", r.summary.PeakResidentBytes),
			fmt.Sprintf("requests %d ", r.summary.Loads),
		} {
			if !strings.Contains(figs, w) {
				t.Errorf("%s: the page's summary lacks %q: %s", policy, w, figs)
			}
		}
	}
	// #frame-N names frame N as the labels do, and the address follows
	// the frame shown once it rests.
	n := min(len(frames[0]), 7)
	q := b.OpenAt(t, page, fmt.Sprintf("frame-%d", n+first-1), "worldcook")
	if got := browser.Eval[int](q, "worldcook.shown()"); got != n {
		t.Errorf("#frame-%d opens the page's frame %d, not %d", n+first-1, got, n)
	}
	k := max(1, len(frames[0])/2)
	browser.Eval[int](q, fmt.Sprintf("worldcook.frame(%d)", k))
	q.WaitFor(fmt.Sprintf("location.hash === '#frame-%d'", k+first-1))
	if r := append(p.Requests(), q.Requests()...); len(r) > 0 {
		t.Errorf("the page made requests: %v", r)
	}
	return p
}

// TestSimulateHTMLOpensWhereTheRunSays opens the demo's pages in headless
// Chromium: where the run has holes only while the world streams in (the
// peak of resident bytes), a hole after the warm-up (a long latency), and
// side by side.
func TestSimulateHTMLOpensWhereTheRunSays(t *testing.T) {
	b := browser.New(t)
	dir, shots := t.TempDir(), screenshots(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"budgeted", []string{"--budget", "16KiB"}},
		{"latency", []string{"--latency-frames", "20"}},
		{"prefetch", []string{"--prefetch-radius", "1000", "--load-radius", "1000", "--latency-frames", "10"}},
		{"estella", []string{"--policy", "estella", "--latency-frames", "20"}},
		{"compare", []string{"--compare", "--latency-frames", "20"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := map[string]simulatedRun{}
			policies := []string{"budgeted"}
			switch tc.name {
			case "estella":
				policies = []string{"estella"}
			case "compare":
				policies = []string{"budgeted", "estella"}
			}
			for _, policy := range policies {
				args := append(cloneArgs(demoArgs), slices.DeleteFunc(slices.Clone(tc.args), func(s string) bool { return s == "--compare" })...)
				if !slices.Contains(args, "--policy") {
					args = append(args, "--policy", policy)
				}
				code, out, errs := run(t, append(args, "--format", "jsonl", "--cell-states")...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
				runs[policy] = readJSONL(t, out)
			}
			page := filepath.Join(dir, tc.name+".html")
			if code, _, errs := run(t, slices.Concat(demoArgs, tc.args, []string{"--summary-only", "--html", page})...); code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			checkOpening(t, b, page, runs, filepath.Join(shots, "open-demo-"+tc.name+".png"))
		})
	}
}

// TestSimulateHTMLOnExampleProjects makes the engine's example projects
// streamed as a new user does (WORLDCOOK_ESTELLA), and checks each page at
// its opening frame; on an xy world under Estella's runtime, that the
// circles are drawn where the runtime samples the source (on X and Z) and
// its view where it stands; that the map names its axes in world units,
// names the cells under the pointer and, zoomed in, on the cells, and that
// a click where grown bounds overlap lists every cell there. It leaves
// screenshots ($WORLDCOOK_SCREENSHOTS) at several frames.
func TestSimulateHTMLOnExampleProjects(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser on every example project is not short")
	}
	worlds := figureWorlds(t)[1:]
	if len(worlds) == 0 {
		t.Skip("set WORLDCOOK_ESTELLA to a checkout of esengine/estella to run this test on its example projects")
	}
	b := browser.New(t)
	shots := screenshots(t)
	sampledSeen := 0
	for _, w := range worlds {
		t.Run(w.name, func(t *testing.T) {
			base := strings.NewReplacer("/", "-", ".csv", "").Replace(w.name)
			runs := map[string]simulatedRun{}
			for _, policy := range []string{"budgeted", "estella"} {
				args := slices.Concat([]string{"simulate", "--policy", policy}, w.args, []string{"--format", "jsonl", "--cell-states"})
				if policy == "budgeted" {
					args = append(args, w.budgetedOnly...)
				}
				code, out, errs := run(t, args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
				runs[policy] = readJSONL(t, out)
			}
			dir := t.TempDir()
			for _, mode := range []string{"budgeted", "estella", "compare"} {
				page := filepath.Join(dir, mode+".html")
				args := slices.Concat([]string{"simulate"}, w.args, []string{"--summary-only", "--html", page})
				switch mode {
				case "compare":
					args = slices.Concat(args, []string{"--compare"}, w.budgetedOnly)
				case "budgeted":
					args = slices.Concat(args, w.budgetedOnly)
				default:
					args = append(args, "--policy", "estella")
				}
				if code, _, errs := run(t, args...); code != 0 {
					t.Fatalf("%v: exit %d: %s", args, code, errs)
				}
				these := map[string]simulatedRun{}
				for policy, r := range runs {
					if mode == "compare" || mode == policy {
						these[policy] = r
					}
				}
				p := checkOpening(t, b, page, these, filepath.Join(shots, base+"-"+mode+"-open.png"))
				if checkMapAids(t, p, w.plane, mode) {
					sampledSeen++
				}
				for _, at := range []float64{0.1, 0.5, 0.9} {
					k := max(1, int(at*float64(len(runs["budgeted"].frames))))
					browser.Eval[int](p, fmt.Sprintf("worldcook.frame(%d)", k))
					p.Viewport(filepath.Join(shots, fmt.Sprintf("%s-%s-%03d.png", base, mode, k)))
				}
			}
		})
	}
	if sampledSeen == 0 {
		t.Errorf("on no xy world was the source drawn where Estella's runtime samples it")
	}
	t.Logf("screenshots in %s", shots)
}

// checkMapAids checks the map's aids to reading it: axis ticks in world
// units named after the plane, a scale bar, the cells under the pointer
// in a tip, cell names when zoomed in, the list of cells where bounds
// overlap; and under Estella's runtime on an xy world, the circles where
// the runtime samples the source (sampled: they are drawn apart from it).
func checkMapAids(t *testing.T, p *browser.Page, plane, mode string) (sampled bool) {
	t.Helper()
	axis := map[string]string{"xz": "z", "xy": "y"}[plane]
	ax := browser.Eval[struct {
		Ticks []string
		Names []string
		Scale string
	}](p, `(function () {
  var a = document.querySelector('svg.axes');
  return {ticks: Array.from(a.querySelectorAll('text.tick')).map(function (e) { return e.textContent; }),
    names: Array.from(a.querySelectorAll('text.axis-name')).map(function (e) { return e.textContent; }),
    scale: a.querySelector('.scalebar text').textContent};
})()`)
	if len(ax.Ticks) < 4 || !slices.Contains(ax.Names, "↑ "+axis) || !regexp.MustCompile(`^\d+(\.\d+)? units`).MatchString(ax.Scale) {
		t.Errorf("the map's axes: ticks %v, names %v, scale %q", ax.Ticks, ax.Names, ax.Scale)
	}
	for _, tick := range ax.Ticks {
		if _, err := strconv.ParseFloat(tick, 64); err != nil {
			t.Errorf("a tick %q is not a number of world units", tick)
		}
	}
	// The pointer over a cell names it, and every cell whose bounds are
	// there.
	c := browser.Eval[[]float64](p, `(function () {
  var e = document.querySelector('svg.map [data-cell]'), b = e.getBoundingClientRect();
  return [b.left + Math.min(8, b.width / 2), b.top + Math.min(8, b.height / 2)];
})()`)
	p.Hover(c[0], c[1])
	p.WaitFor(`document.querySelector('.tip').style.display === 'block'`)
	if tip := browser.Eval[string](p, `document.querySelector('.tip').textContent`); !strings.Contains(tip, ".cell_") || !strings.Contains(tip, ", "+axis+" ") {
		t.Errorf("the tip over a cell: %q", tip)
	}
	// Where grown bounds overlap, a click lists every cell there.
	over := browser.Eval[[]float64](p, `(function () {
  var r = document.querySelector('svg.map'), cells = r.querySelectorAll('[data-cell]');
  for (var i = 0; i < cells.length; i++) for (var j = i + 1; j < cells.length; j++) {
    var a = cells[i].getBoundingClientRect(), b = cells[j].getBoundingClientRect();
    var x0 = Math.max(a.left, b.left), x1 = Math.min(a.right, b.right), y0 = Math.max(a.top, b.top), y1 = Math.min(a.bottom, b.bottom);
    if (x1 - x0 > 4 && y1 - y0 > 4) return [(x0 + x1) / 2, (y0 + y1) / 2];
  }
  return [];
})()`)
	if len(over) == 2 {
		p.ClickAt(over[0], over[1])
		if here := browser.Eval[string](p, `(document.querySelector('.details .here') || {}).textContent || ''`); !strings.Contains(here, "cells' bounds hold the point clicked") {
			t.Errorf("a click where bounds overlap lists no cells: %q", browser.Eval[string](p, `document.querySelector('.details').textContent`))
		}
	}
	// Zoomed in, the cells carry their names.
	browser.Eval[bool](p, `(function () {
  var m = document.querySelector('svg.map'), b = m.getBoundingClientRect();
  for (var i = 0; i < 8; i++) m.dispatchEvent(new WheelEvent('wheel', {deltaY: -400, clientX: b.left + b.width / 2, clientY: b.top + b.height / 2, cancelable: true}));
  return true;
})()`)
	if n := browser.Eval[int](p, `document.querySelectorAll('svg.map g.labels text').length`); n == 0 {
		t.Errorf("zoomed in, no cell carries its name")
	}
	browser.Eval[bool](p, `document.querySelectorAll('svg.map').forEach(function (m) { m.dispatchEvent(new MouseEvent('dblclick')); }), true`)
	// Estella's runtime on an xy world: the circles where it samples.
	if plane == "xy" && mode != "budgeted" {
		pos := browser.Eval[[]float64](p, `(function () {
  var run = document.querySelector('[data-policy="estella"]');
  var g = run.querySelector('g.sampled'), s = run.querySelector('g.sources > g:not(.sampled)');
  if (!g || !s) return [];
  var m = /translate\(([^ ]+) ([^)]+)\)/, a = m.exec(g.getAttribute('transform')), b = m.exec(s.getAttribute('transform'));
  return [Number(a[1]), Number(a[2]), Number(b[1]), Number(b[2]), g.querySelectorAll('circle.ring').length, s.querySelectorAll('circle.ring').length];
})()`)
		if len(pos) == 0 {
			// Sampled where it stands (a route at the authored z): one
			// dot, and no note.
			if note := browser.Eval[string](p, `document.querySelector('[data-policy="estella"] .sampling').textContent`); note != "" {
				t.Errorf("no sampled source drawn, yet the map says %q", note)
			}
			return false
		}
		if len(pos) != 6 || pos[0] != pos[2] || pos[4] != 3 || pos[5] != 0 {
			t.Errorf("under Estella's runtime the circles are not drawn apart at the sampled x: %v", pos)
		}
		return true
	}
	return false
}
