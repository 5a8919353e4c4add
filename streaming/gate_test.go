package streaming

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseFailOn(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []string
		err  string
	}{
		{nil, nil, ""},
		{[]string{"holes"}, []string{"holes"}, ""},
		{[]string{"over-cap,holes", " failures "}, []string{"holes", "over-cap", "failures"}, ""},
		{[]string{"holes,holes,"}, []string{"holes"}, ""},
		{[]string{"hole"}, nil, `"hole" is not a condition: use holes, pop-in, over-budget, over-cap, failures`},
	} {
		got, err := ParseFailOn(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestGateCheck(t *testing.T) {
	for _, tc := range []struct {
		gate Gate
		set  Settings
		want string
	}{
		{Gate{FailOn: []string{FailOverBudget}}, Settings{}, "over-budget needs a budget"},
		{Gate{FailOn: []string{FailOverBudget}}, Settings{Budget: Int64(0)}, ""},
		{Gate{FailOn: []string{FailOverCap}}, Settings{}, "over-cap needs a cap"},
		{Gate{FailOn: []string{FailOverCap}}, Settings{MaxResidentBytes: Int64(10)}, ""},
		{Gate{FailOn: []string{FailHoles}, Warmup: Int(-1)}, Settings{}, "warm-up -1 must be 0 or more"},
		{Gate{FailOn: []string{FailHoles, FailFailures}}, Settings{}, ""},
	} {
		err := tc.gate.Check(tc.set)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.gate, err, tc.want)
		}
	}
}

// gateFrames is a run of six frames: holes in 1-2 (the warm-up), none in
// 3, holes again in 5-6; frame 4 requests 300 B against a 250 B budget
// in one request; frame 6 ends 50 B over a 1000 B cap.
func gateFrames() ([]FrameReport, *Summary) {
	frames := []FrameReport{
		{Frame: 1, Requested: []string{"a"}, RequestedBytes: 200, Holes: []string{"a"}},
		{Frame: 2, Holes: []string{"a"}},
		{Frame: 3, Published: []string{"a"}, ResidentBytes: 200},
		{Frame: 4, Requested: []string{"big"}, RequestedBytes: 300, ResidentBytes: 200},
		{Frame: 5, Holes: []string{"b", "c"}, ResidentBytes: 200},
		{Frame: 6, Holes: []string{"c"}, Published: []string{"big"}, ResidentBytes: 1050},
	}
	sum := &Summary{Frames: 6, Budget: Int64(250), MaxResidentBytes: Int64(1000),
		GaveUp: []GaveUp{{Cell: "e", Frame: 2, Attempts: 4}, {Cell: "d", Frame: 5, Attempts: 4}}}
	return frames, sum
}

func TestEvaluateGate(t *testing.T) {
	type breach struct {
		cond   string
		frames string
		cells  string
	}
	for _, tc := range []struct {
		name   string
		gate   Gate
		warmup int
		want   []breach
	}{
		{"nothing asked", Gate{}, 3, nil},
		{"holes after the found warm-up", Gate{FailOn: []string{FailHoles}}, 3,
			[]breach{{FailHoles, "5-6", "b, c"}}},
		{"holes after a given warm-up", Gate{FailOn: []string{FailHoles}, Warmup: Int(1)}, 1,
			[]breach{{FailHoles, "2, 5-6", "a, b, c"}}},
		{"a warm-up past the end", Gate{FailOn: []string{FailHoles}, Warmup: Int(100)}, 6, nil},
		{"a single request over the budget", Gate{FailOn: []string{FailOverBudget}}, 3,
			[]breach{{FailOverBudget, "4", "big"}}},
		{"over the cap", Gate{FailOn: []string{FailOverCap}}, 3,
			[]breach{{FailOverCap, "6", "big"}}},
		{"given up", Gate{FailOn: []string{FailFailures}}, 3,
			[]breach{{FailFailures, "2, 5", "e, d"}}},
		{"all", Gate{FailOn: FailConditions}, 3, []breach{
			{FailHoles, "5-6", "b, c"}, {FailOverBudget, "4", "big"}, {FailOverCap, "6", "big"}, {FailFailures, "2, 5", "e, d"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frames, sum := gateFrames()
			res := evaluateGate(frames, sum, tc.gate)
			var got []breach
			for _, b := range res.Breaches {
				got = append(got, breach{b.Condition, FrameList(b.Frames, 10), strings.Join(b.Cells, ", ")})
				if b.Detail == "" {
					t.Errorf("%s has no detail", b.Condition)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("breaches %v, want %v", got, tc.want)
			}
			if res.Failed != (len(tc.want) > 0) || res.Warmup != tc.warmup || !res.WarmupEnded {
				t.Errorf("failed %v, warm-up %d (ended %v); want failed %v, warm-up %d", res.Failed, res.Warmup, res.WarmupEnded, len(tc.want) > 0, tc.warmup)
			}
		})
	}
}

// TestGateNeverResident: a run that never has a frame without holes has
// no end to its warm-up, and every hole counts.
func TestGateNeverResident(t *testing.T) {
	frames := []FrameReport{{Frame: 1, Holes: []string{"a"}}, {Frame: 2, Holes: []string{"a"}}}
	res := evaluateGate(frames, &Summary{}, Gate{FailOn: []string{FailHoles}})
	if !res.Failed || res.WarmupEnded || len(res.Breaches) != 1 || res.Breaches[0].FrameCount != 2 ||
		!strings.Contains(res.Breaches[0].Detail, "never ended") {
		t.Errorf("%+v", res)
	}
	if msg := res.Message(); msg != "holes in frames 1-2 (a)" {
		t.Errorf("message %q", msg)
	}
}

// TestGatePopInShortRoute: a route of one frame is its cold start alone:
// the breach says the route is too short, which a longer one is not.
func TestGatePopInShortRoute(t *testing.T) {
	for _, tc := range []struct {
		frames []FrameReport
		short  bool
	}{
		{[]FrameReport{{Frame: 0, PopIn: 1, PopInCells: []string{"a"}}}, true},
		{[]FrameReport{{Frame: 0, PopIn: 1}, {Frame: 1, PopIn: 1}, {Frame: 2, PopIn: 1}}, false},
	} {
		res := evaluateGate(tc.frames, &Summary{}, Gate{FailOn: []string{FailPopIn}})
		if len(res.Breaches) != 1 {
			t.Fatalf("%d frames: %+v", len(tc.frames), res)
		}
		if d := res.Breaches[0].Detail; strings.Contains(d, "give a longer route") != tc.short || !strings.Contains(d, "never showed") {
			t.Errorf("%d frames: detail %q", len(tc.frames), d)
		}
	}
}

// TestGateOnTheSeedRun: the reference demo keeps within its budget and
// cap and gives nothing up, but has holes after its warm-up.
func TestGateOnTheSeedRun(t *testing.T) {
	reps, sum := runSeed(t)
	res := evaluateGate(reps, &sum, Gate{FailOn: FailConditions})
	if len(res.Breaches) != 1 || res.Breaches[0].Condition != FailHoles {
		t.Fatalf("breaches %+v", res.Breaches)
	}
	if res.Warmup != 6 || res.Breaches[0].Frames[0].First != 9 {
		t.Errorf("warm-up %d, first breach %v", res.Warmup, res.Breaches[0].Frames)
	}
}

func TestFrameAndNameLists(t *testing.T) {
	rs := []FrameRange{{1, 1}, {3, 5}, {9, 9}}
	if got := FrameList(rs, 2); got != "1, 3-5 and 1 more ranges" {
		t.Errorf("FrameList = %q", got)
	}
	if got := NameList([]string{"a", "b", "c"}, 2); got != "a, b and 1 more" {
		t.Errorf("NameList = %q", got)
	}
}

func TestWarnings(t *testing.T) {
	w := rowWorld(3)
	w.Cells[1].Bytes, w.Cells[2].Bytes = 500, 300
	ws := OversizeCells(w, Settings{Budget: Int64(200)})
	if len(ws) != 1 || !slices.Equal(ws[0].Cells, []string{"c01 (500 B: 2.5 frames of budget in one)", "c02 (300 B: 1.5 frames of budget in one)"}) || !strings.Contains(ws[0].Message, "2 of 3 cells") {
		t.Errorf("oversize: %+v", ws)
	}
	if ws := OversizeCells(w, Settings{}); ws != nil {
		t.Errorf("no budget: %+v", ws)
	}
	if ws := OversizeCells(w, Settings{Budget: Int64(500)}); ws != nil {
		t.Errorf("a cell the size of the budget fits: %+v", ws)
	}
	big := rowWorld(maxWarningCells + 5)
	if ws := OversizeCells(big, Settings{Budget: Int64(0)}); len(ws[0].Cells) != maxWarningCells || ws[0].More != 5 {
		t.Errorf("bounded: %d cells, %d more", len(ws[0].Cells), ws[0].More)
	}
	row := rowWorld(10)
	s := []Source{{Name: "camera", X: 5, Z: 5, Load: 20, Unload: 3000, Prefetch: 3000, Enabled: true}}
	ws = AssumedRadii(row, s, [3]bool{true, false, false})
	if len(ws) != 1 || !strings.Contains(ws[0].Message, "assumed unload 3000 and prefetch 3000 (the WorldStreamingSource defaults), whose load radius reaches 3 of 10 cells") {
		t.Errorf("assumed radii: %+v", ws)
	}
	authored := rowWorld(10)
	authored.Sources = s
	if AssumedRadii(authored, s, [3]bool{}) != nil || AssumedRadii(row, s, [3]bool{true, true, true}) != nil {
		t.Error("warned with authored sources or every radius given")
	}
}

// FuzzParseFailOn: any text either is refused or gives known conditions,
// in reporting order, without repeats.
func FuzzParseFailOn(f *testing.F) {
	for _, s := range []string{"holes", "over-cap,holes", " failures ,, over-budget", "hole", ",", "holes,holes"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseFailOn([]string{s})
		if err != nil {
			return
		}
		last := -1
		for _, c := range got {
			i := slices.Index(FailConditions, c)
			if i <= last {
				t.Fatalf("%q gave %q: unknown, repeated or out of order", s, got)
			}
			last = i
		}
	})
}

// TestBreachedIsSure: on random runs, a Concluder says Breached only of
// runs the gate fails (with every condition Held names among the
// breaches, its frames so far a prefix of the breach's), and, once the
// run is over, of every run that fails past its warm-up.
func TestBreachedIsSure(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 29))
	failed, early := 0, 0
	for trial := range 2000 {
		n := 1 + rng.IntN(12)
		frames := make([]FrameReport, n)
		for i := range frames {
			r := &frames[i]
			r.Frame = i + 1
			if rng.IntN(3) == 0 {
				r.Holes = []string{fmt.Sprintf("c%d", rng.IntN(4))}
			}
			if rng.IntN(3) == 0 {
				r.PopIn, r.PopInCells = 1, []string{"v"}
			}
			r.RequestedBytes, r.ResidentBytes = int64(rng.IntN(100)), int64(rng.IntN(100))
		}
		g := Gate{FailOn: []string{FailConditions[rng.IntN(4)]}}
		if rng.IntN(2) == 0 {
			w := rng.IntN(4)
			g.Warmup = &w
		}
		limit := int64(90)
		sum := Summary{FirstFrame: 1, Budget: &limit, MaxResidentBytes: &limit}
		c := NewConcluder(g, sum.Budget, sum.MaxResidentBytes)
		var held []Breach
		at := -1
		for i := range frames {
			c.Add(&frames[i])
			if c.Breached() && at < 0 {
				at, held = i, c.Held()
			}
		}
		c.Conclude(&sum)
		want := evaluateGate(frames, &sum, g)
		if !reflect.DeepEqual(*sum.Gate, want) {
			t.Fatalf("trial %d: concluded %+v, evaluated %+v", trial, *sum.Gate, want)
		}
		if want.Failed {
			failed++
		}
		if at < 0 {
			if want.Failed && want.WarmupEnded && want.PopInWarmupEnded == slices.Contains(g.FailOn, FailPopIn) {
				t.Fatalf("trial %d: failed past the warm-up (%+v) but never breached", trial, want)
			}
			continue
		}
		early++
		if !want.Failed || len(held) == 0 {
			t.Fatalf("trial %d: breached at frame %d of a run the gate passes (%+v)", trial, at+1, want)
		}
		for _, h := range held {
			k := slices.IndexFunc(want.Breaches, func(b Breach) bool { return b.Condition == h.Condition })
			if k < 0 || h.FrameCount > want.Breaches[k].FrameCount || h.Frames[0].First != want.Breaches[k].Frames[0].First {
				t.Fatalf("trial %d: held %+v, breaches %+v", trial, h, want.Breaches)
			}
		}
	}
	if failed == 0 || early == 0 {
		t.Fatalf("%d runs failed, %d breached early: the test proves nothing", failed, early)
	}
}
