package tune

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
	"github.com/worldcook/worldcook/validate"
)

const (
	demoScene = "../testdata/demo/main.esscene"
	demoRoute = "../testdata/demo/route.csv"
)

func demoSetup(t testing.TB, spec Spec) Setup {
	t.Helper()
	sp, err := ParseSpace(spec)
	if err != nil {
		t.Fatal(err)
	}
	return Setup{World: demoScene, Base: simulate.Options{Model: streaming.ModelIO{LatencyFrames: 1}}, Routes: []string{demoRoute}, Space: sp}
}

var holes = streaming.Gate{FailOn: []string{streaming.FailHoles}}

// TestRunMatchesSimulate: every candidate run to the end has the figures
// a simulate.Run of its settings gives, on a world cooked once per cell
// size, and the authored baseline those of the scene as it is.
func TestRunMatchesSimulate(t *testing.T) {
	outs := told{}
	o := Options{Require: holes, Exhaustive: true}
	outs.watch(&o)
	res, err := Run(context.Background(), demoSetup(t, Spec{CellSize: "700,1000"}), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Evaluated != 90 || len(outs) != 90 || res.Partial || res.Authored == nil {
		t.Fatalf("evaluated %d of 90, partial %v, authored %v", res.Evaluated, res.Partial, res.Authored != nil)
	}
	worlds := map[float64]*streaming.World{}
	for _, cs := range []float64{700, 1000} {
		w, err := simulate.Open(context.Background(), demoScene, cook.OpenOptions{Validate: validateCellSize(cs)})
		if err != nil {
			t.Fatal(err)
		}
		worlds[cs] = w
	}
	for i, out := range outs {
		if i%7 != 0 {
			continue // a sample: every candidate runs the same code
		}
		c := out.Candidate
		o := simulate.Options{Route: demoRoute, Gate: holes, Model: streaming.ModelIO{LatencyFrames: 1},
			Radii:    simulate.Radii{Load: &c.Load, Unload: &c.Unload, Prefetch: &c.Prefetch},
			Settings: streaming.Settings{Budget: c.Budget, MaxResidentBytes: c.MaxResidentBytes}}
		sim, err := simulate.Run(context.Background(), worlds[c.CellSize], o)
		if err != nil {
			t.Fatal(err)
		}
		want := figuresOf(&sim.Runs[0].Summary, sim.Runs[0].Frames)
		if !reflect.DeepEqual(out.Routes[0], want) {
			t.Errorf("%s: tune %+v, simulate %+v", c.Describe(), out.Routes[0], want)
		}
		if out.Feasible != (sim.Verdict == nil || !sim.Verdict.Failed) {
			t.Errorf("%s: feasible %v, simulate's verdict %+v", c.Describe(), out.Feasible, sim.Verdict)
		}
	}
	if got := res.Authored.Candidate; got.CellSize != 1000 || got.Load != 1200 || got.Unload != 1800 || got.Prefetch != 1800 {
		t.Errorf("authored %+v, want the demo's source (1000: 1200, 1800, 1800)", got)
	}
}

func validateCellSize(cs float64) validate.Options { return validate.Options{CellSize: cs} }

// TestRunCancelled: a search cancelled part way reports the candidates
// run, marked partial, and never more than were asked.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := Options{Require: holes, Workers: 1, Events: func(e Event) {
		if e.Done == 12 {
			cancel()
		}
	}}
	var js bytes.Buffer
	o.JSON = &js
	res, err := Run(ctx, demoSetup(t, Spec{CellSize: "700,1000"}), o)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || res.Evaluated == 0 || res.Evaluated >= res.Candidates {
		t.Fatalf("partial %v, evaluated %d of %d", res.Partial, res.Evaluated, res.Candidates)
	}
	var text bytes.Buffer
	if err := WriteText(&text, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "cancelled: the best of the") {
		t.Errorf("the report does not say it is partial:\n%s", text.String())
	}
	lines := strings.Split(strings.TrimSpace(js.String()), "\n")
	if len(lines) != res.Evaluated+1 || !strings.Contains(lines[len(lines)-1], `"partial":true`) {
		t.Errorf("%d JSON lines for %d candidates, last %s", len(lines), res.Evaluated, lines[len(lines)-1])
	}
}

// TestRunRefuses: what no search can run is refused before any
// candidate runs, in one line naming the flag or the file.
func TestRunRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Setup)
		want string
	}{
		{"no route", func(s *Setup) { s.Routes = nil }, "no route to tune against"},
		{"over the limit", func(s *Setup) { s.Space.Load = make([]float64, 50); s.MaxCandidates = 100 }, "more than --max-candidates 100"},
		// The ceiling holds before the world is even opened (it is not
		// there), whatever the limit asked for.
		{"over the ceiling", func(s *Setup) { s.World = "nowhere.esscene"; s.MaxCandidates = math.MaxInt }, "--max-candidates 9223372036854775807 is more than the 1000000 a search may hold"},
		{"a space over the ceiling", func(s *Setup) {
			s.Space.Load, s.Space.Unload = make([]float64, 1001), make([]float64, 1001)
			s.MaxCandidates = MaxCandidatesCeiling
		}, "narrow a dimension (1000000 is the most --max-candidates allows)"},
		{"estella budget", func(s *Setup) {
			s.Base.Policy = simulate.Estella
			b := int64(1)
			s.Space.Budget = []*int64{&b}
		}, "--budget: --policy estella has no budget"},
		{"route outside", func(s *Setup) { s.Routes = []string{"testdata/outside.csv"} }, "the route lies outside the world"},
		{"cooked cell size", func(s *Setup) { s.World = "../testdata/demo"; s.Space.CellSizes = []float64{4} }, "--cell-size: ../testdata/demo is a cooked world"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := demoSetup(t, Spec{})
			tc.edit(&s)
			_, err := Run(context.Background(), s, Options{Require: holes})
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v, want one line with %q", err, tc.want)
			}
		})
	}
}

// TestSharedRunsMatchSimulate: under both policies, every candidate of a
// search whose runs are stepped together, fed from the route's shared
// window, has, on every route, exactly the figures a simulate.Run of its
// settings measuring on its own gives, and its runs read every frame
// from the window (so that a wrong window fails this test rather than
// being passed over).
func TestSharedRunsMatchSimulate(t *testing.T) {
	for _, policy := range []simulate.Policy{simulate.Budgeted, simulate.Estella} {
		t.Run(string(policy), func(t *testing.T) {
			s := demoSetup(t, Spec{CellSize: "700,1000", Load: "900,1500", Unload: "2400,3000", Prefetch: "1500,2000"})
			s.Base.Policy = policy
			plan, err := s.Space.Lay(world{CellSize: 1000, Estella: policy == simulate.Estella}, defaultMaxCandidates)
			if err != nil {
				t.Fatal(err)
			}
			rt, err := streaming.ReadRoute(demoRoute)
			if err != nil {
				t.Fatal(err)
			}
			e := &evaluator{base: s.Base, routes: s.Routes, parsed: []*streaming.Route{rt}, gate: holes, worlds: map[float64]*streaming.World{},
				fed: &atomic.Int64{}}
			for _, cs := range plan.CellSizes() {
				if e.worlds[cs], err = simulate.Open(context.Background(), demoScene, cook.OpenOptions{Validate: validateCellSize(cs)}); err != nil {
					t.Fatal(err)
				}
			}
			if err := freeze(e.worlds); err != nil {
				t.Fatal(err)
			}
			outs := told{}
			o := Options{Routes: s.Routes, Require: holes, Exhaustive: true}
			outs.watch(&o)
			if _, err := search(context.Background(), plan, e.lockstep, o); err != nil {
				t.Fatal(err)
			}
			frames := 0
			if len(outs) != plan.Count {
				t.Fatalf("%d outcomes told of %d candidates", len(outs), plan.Count)
			}
			for _, out := range outs {
				c := out.Candidate
				o := e.options(&c, 0)
				alone, err := simulate.Run(context.Background(), e.worlds[c.CellSize], o)
				if err != nil {
					t.Fatal(err)
				}
				frames += len(alone.Runs[0].Frames)
				want := figuresOf(&alone.Runs[0].Summary, alone.Runs[0].Frames)
				if !reflect.DeepEqual(out.Routes[0], want) {
					t.Errorf("%s: tune %+v, simulate %+v", c.Describe(), out.Routes[0], want)
				}
			}
			if got := e.fed.Load(); got != int64(frames) {
				t.Fatalf("%d of %d frames read from the shared window", got, frames)
			}
		})
	}
}

// TestCellOverBudget: tune says once, as simulate does, which cells no
// budget it tries can load in one frame, and says nothing when one of its
// candidates runs without a budget or every budget holds every cell.
func TestCellOverBudget(t *testing.T) {
	for _, tc := range []struct {
		budget string
		want   int // cells named over the budget
	}{
		{"1KiB,2KiB", 12},
		{"12KiB", 4}, // 25442, 24565, 16294 and 15375 B: the demo's four largest with their assets
		{"1KiB,none", 0},
		{"1MiB", 0},
	} {
		res, err := Run(context.Background(), demoSetup(t, Spec{Budget: tc.budget, Load: "1200", Unload: "1800", Prefetch: "1800"}), Options{Require: holes})
		if err != nil {
			t.Fatal(err)
		}
		var got []streaming.Warning
		for _, w := range res.Warnings {
			if w.Code == "cell-over-budget" {
				got = append(got, w)
			}
		}
		switch {
		case tc.want == 0 && len(got) != 0:
			t.Errorf("--budget %s: %+v, want no cell-over-budget", tc.budget, got)
		case tc.want > 0 && (len(got) != 1 || len(got[0].Cells) != tc.want || !strings.Contains(got[0].Hint, "the largest --budget tried")):
			t.Errorf("--budget %s: %+v, want one cell-over-budget naming %d cells", tc.budget, got, tc.want)
		}
	}
}

// TestStopAtBreachEqualsExhaustive: the search that stops a candidate as
// soon as a --require condition held gives the exhaustive search's best,
// top, front and counts, and the same figures for every candidate it ran
// to the end; a stopped one is infeasible there too. With no candidate
// feasible, the stopped ones run again to the end and the explanation is
// the exhaustive search's, word for word.
func TestStopAtBreachEqualsExhaustive(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec Spec
		none bool
	}{
		{"some feasible", Spec{CellSize: "700,1000"}, false},
		// Loads 30 frames long leave holes whatever the radii.
		{"none feasible", Spec{Load: "900,1200", Unload: "1800", Prefetch: "1200,1500"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := demoSetup(t, tc.spec)
			if tc.none {
				s.Base.Model.LatencyFrames = 30
			}
			wantOuts, gotOuts := told{}, told{}
			ow, og := Options{Require: holes, Exhaustive: true}, Options{Require: holes}
			wantOuts.watch(&ow)
			gotOuts.watch(&og)
			want, err := Run(context.Background(), s, ow)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Run(context.Background(), s, og)
			if err != nil {
				t.Fatal(err)
			}
			if bestIndex(got) != bestIndex(want) || !reflect.DeepEqual(indexes(got.Top), indexes(want.Top)) || !reflect.DeepEqual(indexes(got.Pareto), indexes(want.Pareto)) ||
				got.Evaluated != want.Evaluated || got.Feasible+countFeasiblePruned(gotOuts, wantOuts) != want.Feasible {
				t.Fatalf("best %d top %v front %v %d/%d, exhaustive best %d top %v front %v %d/%d",
					bestIndex(got), indexes(got.Top), indexes(got.Pareto), got.Feasible, got.Evaluated, bestIndex(want), indexes(want.Top), indexes(want.Pareto), want.Feasible, want.Evaluated)
			}
			if g, w := got.Infeasible(), want.Infeasible(); g != w || (w != "") != tc.none {
				t.Fatalf("infeasible %q, exhaustive %q", g, w)
			}
			failed := 0
			for i := range gotOuts {
				g, w := gotOuts[i], wantOuts[i]
				if g.failed {
					failed++
					if w.Feasible || g.Feasible || !g.Pruned || !g.Routes[len(g.Routes)-1].Failed || len(g.Routes[len(g.Routes)-1].Held) == 0 {
						t.Fatalf("%s stopped at a breach: %+v, exhaustive %+v", g.Candidate.Describe(), g, w)
					}
					continue
				}
				if !g.Pruned && !reflect.DeepEqual(g.Routes, w.Routes) {
					t.Fatalf("%s: %+v, exhaustive %+v", g.Candidate.Describe(), g.Routes, w.Routes)
				}
			}
			if tc.none != (failed == 0) {
				t.Fatalf("%d candidates left stopped at a breach", failed)
			}
		})
	}
}
