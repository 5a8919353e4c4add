package streaming

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	json "github.com/goccy/go-json"
)

// causeOf returns the cause the report gives for the named hole, or
// CauseNone when the cell is not a hole.
func causeOf(r FrameReport, cell string) HoleCause {
	i := slices.Index(r.Holes, cell)
	if i < 0 {
		return CauseNone
	}
	return r.HoleCauses[i]
}

// TestHoleCauses builds one small situation per cause on a row of 10-unit
// cells and checks the cause the scheduler gives a hole it makes.
func TestHoleCauses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		source Source
		set    Settings
		io     ModelIO
		route  []float64 // the source's x, frame by frame
		cell   string
		want   HoleCause
	}{
		{"first frame", src("s", 5, 10, 10, 20), Settings{}, ModelIO{LatencyFrames: 2},
			[]float64{5, 5}, "c01", CauseStart},
		// A jump: the cells around x=45 were never within any prefetch
		// radius before they were within the load radius.
		{"no prefetch lead", src("s", 5, 10, 10, 20), Settings{}, ModelIO{LatencyFrames: 2},
			[]float64{5, 5, 5, 45}, "c04", CausePrefetchRadius},
		// Prefetched 20 units ahead at 5 units a frame: 4 frames of lead
		// against 6 frames of latency.
		{"latency", src("s", 5, 30, 10, 40), Settings{}, ModelIO{LatencyFrames: 6},
			[]float64{5, 5, 5, 5, 5, 5, 5, 5, 10, 15, 20, 25, 30, 35, 40}, "c05", CauseLatency},
		{"budget", src("s", 5, 20, 20, 30), Settings{Budget: Int64(100)}, ModelIO{LatencyFrames: 1},
			[]float64{5, 5}, "c02", CauseBudget},
		{"in flight", src("s", 5, 20, 20, 30), Settings{MaxInFlight: Int(1)}, ModelIO{LatencyFrames: 1},
			[]float64{5, 5}, "c02", CauseInFlight},
		// A cap of two cells while three are wanted: the farthest is
		// evicted, then waits out its cooldown.
		{"eviction", src("s", 5, 20, 20, 30), Settings{MaxResidentBytes: Int64(200), EvictCooldown: 5}, ModelIO{LatencyFrames: 1},
			[]float64{5, 5, 5, 5}, "c02", CauseEviction},
		{"failure", src("s", 5, 10, 10, 20), Settings{Retry: DefaultRetry()}, ModelIO{LatencyFrames: 1, Fail: FailureModel{Rate: 1}},
			[]float64{5, 5, 5}, "c01", CauseFailure},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, rowWorld(10), []Source{tc.source}, tc.set, tc.io)
			var last FrameReport
			for _, x := range tc.route {
				last = s.at(x)
			}
			if got := causeOf(last, tc.cell); got != tc.want {
				t.Errorf("frame %d: %s cause %v, want %v (holes %v, causes %v)", last.Frame, tc.cell, got, tc.want, last.Holes, last.HoleCauses)
			}
		})
	}
}

// TestHoleCausesRestart: what held a cell back is forgotten once it is
// resident, so a later hole gets its own cause.
func TestHoleCausesRestart(t *testing.T) {
	s := newSim(t, rowWorld(10), []Source{src("s", 5, 20, 20, 30)}, Settings{Budget: Int64(100)}, ModelIO{LatencyFrames: 1})
	if c := causeOf(s.at(5), "c02"); c != CauseBudget {
		t.Fatalf("c02 first: %v, want budget", c)
	}
	for range 5 {
		s.at(5)
	}
	s.state("c02", Resident)
	// Jump away and back: c02 was unloaded, then wanted afresh with no
	// lead, with the budget free for it (it is the nearest).
	s.at(95)
	r := s.at(25)
	if c := causeOf(r, "c02"); c != CausePrefetchRadius {
		t.Errorf("c02 after the jump back: %v, want prefetch-radius (holes %v %v)", c, r.Holes, r.HoleCauses)
	}
}

func TestHoleEpisodes(t *testing.T) {
	pos := func(x float64) []SourcePosition { return []SourcePosition{{Source: "cam", X: x, Z: 5}} }
	frames := []FrameReport{
		{Frame: 1, Holes: []string{"a", "b"}, HoleCauses: []HoleCause{CauseStart, CauseBudget}, Positions: pos(0)},
		{Frame: 2, Holes: []string{"b"}, HoleCauses: []HoleCause{CauseBudget}, Positions: pos(1)},
		{Frame: 3, Positions: pos(2)},
		{Frame: 4, Holes: []string{"c"}, Positions: pos(3)}, // no cause given
		{Frame: 5, Holes: []string{"c", "d"}, HoleCauses: []HoleCause{CauseLatency, CauseLatency}, Positions: pos(-1)},
	}
	got := holeEpisodes(frames)
	if len(got) != 2 {
		t.Fatalf("%d episodes, want 2: %+v", len(got), got)
	}
	e := got[0]
	if e.First != 1 || e.Last != 2 || e.MaxHoles != 2 || e.Cause != CauseBudget {
		t.Errorf("first episode %+v", e)
	}
	if c := e.Cells; len(c) != 2 || c[0] != (EpisodeCell{"a", 1, 1, CauseStart}) || c[1] != (EpisodeCell{"b", 1, 2, CauseBudget}) {
		t.Errorf("first episode's cells %+v", c)
	}
	e = got[1]
	span := SourceSpan{Source: "cam", From: XZ{X: 3, Z: 5}, To: XZ{X: -1, Z: 5}, Min: XZ{X: -1, Z: 5}, Max: XZ{X: 3, Z: 5}}
	if e.First != 4 || e.Last != 5 || len(e.Sources) != 1 || e.Sources[0] != span {
		t.Errorf("second episode %+v", e)
	}
	// c: one unknown frame, one latency frame; the tie goes to the later.
	if e.Cells[0].Cause != CauseLatency || e.Cause != CauseLatency {
		t.Errorf("second episode's causes %+v", e)
	}
	if want := []CauseCount{{CauseLatency, 2}, {CauseUnknown, 1}}; !slices.Equal(e.Causes, want) {
		t.Errorf("causes %v, want %v", e.Causes, want)
	}
	// Conclude puts them in the summary.
	reps, sum := runSeed(t)
	if a, b := fmt.Sprint(holeEpisodes(reps)), fmt.Sprint(sum.HoleEpisodes); a != b || len(sum.HoleEpisodes) == 0 {
		t.Errorf("summary's episodes differ from holeEpisodes:\n%s\n%s", b, a)
	}
}

// busyRun is the busy scenario of TestDeterministic: two sources,
// prefetch, a cap, LOD, a bandwidth model and seeded failures.
func busyRun(t *testing.T) ([]FrameReport, Summary) {
	t.Helper()
	w := gridWorld(24)
	sources := []Source{
		{Name: "player", Prefetch: 500, Load: 300, Unload: 450, Enabled: true},
		{Name: "drone", X: 2000, Z: 2000, Prefetch: 250, Load: 250, Unload: 400, Enabled: true},
	}
	set := Settings{Budget: Int64(5000), MaxInFlight: Int(12), LODRadius: Float(150), MaxResidentBytes: Int64(40000),
		PinnedRadius: Float(50), EvictCooldown: 2, Retry: DefaultRetry()}
	s, err := NewScheduler(w, sources, set, NewModelLoader(ModelIO{LatencyFrames: 2, BytesPerFrame: Int64(6000), Fail: FailureModel{Rate: 0.1, Seed: 7}}))
	if err != nil {
		t.Fatal(err)
	}
	var reps []FrameReport
	for f := 0; f < 300; f++ {
		reps = append(reps, s.Step([]Point{{X: float64(f) * 7, Z: 1200}, {X: 2000 - float64(f)*5, Z: 2000 - float64(f)*3}}))
	}
	return reps, s.Summary()
}

// TestHoleEpisodesGolden keeps the busy scenario's episodes and gate as
// a person reads them and as JSON.
func TestHoleEpisodesGolden(t *testing.T) {
	reps, sum := busyRun(t)
	Conclude(&sum, reps, Gate{FailOn: FailConditions})
	// As JSON: the gate, then one episode a line.
	var js bytes.Buffer
	for _, v := range append([]any{sum.Gate}, anySlice(sum.HoleEpisodes)...) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		js.Write(append(b, '\n'))
	}
	golden(t, "episodes.jsonl", js.Bytes())
	// The scenario exercises several causes, never an unknown one.
	seen := map[HoleCause]bool{}
	for _, e := range sum.HoleEpisodes {
		for _, c := range e.Causes {
			seen[c.Cause] = true
		}
	}
	if seen[CauseUnknown] || len(seen) < 3 {
		t.Errorf("causes seen: %v", seen)
	}
}

func TestHoleCauseText(t *testing.T) {
	for c := CauseUnknown; c < NumCauses; c++ {
		b, _ := c.MarshalText()
		var back HoleCause
		if err := back.UnmarshalText(b); err != nil || back != c {
			t.Errorf("%v: round trip gave %v, %v", c, back, err)
		}
		if c.Advice() == "" {
			t.Errorf("%v has no advice", c)
		}
	}
	var h HoleCause
	if err := h.UnmarshalText([]byte("gremlins")); err == nil {
		t.Error("unknown cause accepted")
	}
}

func anySlice[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i := range xs {
		out[i] = xs[i]
	}
	return out
}
