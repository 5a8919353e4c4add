package tune

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/streaming"
)

func TestParseDistances(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []float64
		err  string
	}{
		{in: "8", want: []float64{8}},
		{in: "12, 4,8,4", want: []float64{4, 8, 12}},
		{in: "4..16/4", want: []float64{4, 8, 12, 16}},
		{in: "4..15/4", want: []float64{4, 8, 12}},
		{in: "0.5..2/0.1", want: []float64{0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2}},
		{in: "2..32x2", want: []float64{2, 4, 8, 16, 32}},
		{in: "1..10x1.5", want: []float64{1, 1.5, 2.25, 3.375, 5.0625, 7.59375}},
		{in: "3..3/1", want: []float64{3}},
		{in: "1,4..8/2", want: []float64{1, 4, 6, 8}},
		{in: "0.1..0.3×3", want: []float64{0.1, 0.3}},
		{in: "", err: "no value"},
		{in: "4,,8", err: "empty item"},
		{in: "8..4/1", err: "starts above its end"},
		{in: "4..8/0", err: "step 0 must be greater than 0"},
		{in: "4..8/-1", err: "must be greater than 0"},
		{in: "4..8x1", err: "factor 1 must be greater than 1"},
		{in: "4..8x0.5", err: "must be greater than 1"},
		{in: "0..8x2", err: "must start above 0"},
		{in: "4..8", err: "needs a step"},
		{in: "NaN", err: "not a finite number"},
		{in: "4..Inf/1", err: "not a finite number"},
		{in: "-1", err: "negative"},
		{in: "0..1e9/1", err: "1000000001 values, more than 10000"},
		{in: "1..1e300x1.0000001", err: "more than 10000"},
		{in: "4..8/", err: "each part given"},
		{in: "16KiB", err: "not a finite number"},
	} {
		got, err := parseDistances(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseDistances(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseDistances(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func sizes(vs ...int64) []*int64 {
	out := make([]*int64, len(vs))
	for i := range vs {
		if vs[i] >= 0 {
			out[i] = &vs[i]
		}
	}
	return out
}

func sizeStrings(vs []*int64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = sizeText(v)
	}
	return strings.Join(parts, ",")
}

func TestParseSizes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []*int64
		err  string
	}{
		{in: "4096", want: sizes(4096)},
		{in: "16KiB,none,4KiB", want: sizes(4096, 16384, -1)},
		{in: "16KiB..64KiB/16KiB", want: sizes(16384, 32768, 49152, 65536)},
		{in: "1KiB..8KiBx2", want: sizes(1024, 2048, 4096, 8192)},
		{in: "1..4x1.2", want: sizes(1, 2, 3, 4)},
		{in: "1.5KiB", want: sizes(1536)},
		{in: "0..0/1", want: sizes(0)},
		{in: "9223372036854775800..9223372036854775807/5", want: sizes(9223372036854775800, 9223372036854775805)},
		{in: "1.5B", err: "whole number of bytes"},
		{in: "-4KiB", err: "negative"},
		{in: "64KiB..16KiB/1KiB", err: "starts above its end"},
		{in: "1KiB..1GiB/1", err: "more than 10000"},
		{in: "1..1TiBx1.0000001", err: "more than 10000"},
		{in: "1KiB..2KiB/0", err: "greater than 0"},
		{in: "1KiB..2KiBx1", err: "greater than 1"},
		{in: "lots", err: "not a byte size"},
	} {
		got, err := parseSizes(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSizes(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || sizeStrings(got) != sizeStrings(tc.want) {
			t.Errorf("ParseSizes(%q) = %s, %v; want %s", tc.in, sizeStrings(got), err, sizeStrings(tc.want))
		}
	}
}

// FuzzParse: any text is parsed or refused, never a panic, and what is
// parsed is bounded, ascending, distinct, finite and not negative.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"8", "4..16/4", "2..32x2", "0.5..2/0.1", "16KiB..1MiBx2,none", "1..1e300x1.0000001", "1,2,,3", "1..2×1.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ds, err := parseDistances(s); err == nil {
			if len(ds) == 0 || len(ds) > maxValues*(strings.Count(s, ",")+1) {
				t.Fatalf("%q: %d values", s, len(ds))
			}
			for i, v := range ds {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || i > 0 && v <= ds[i-1] {
					t.Fatalf("%q: values %v", s, ds)
				}
			}
		}
		if bs, err := parseSizes(s); err == nil {
			if len(bs) == 0 || len(bs) > maxValues*(strings.Count(s, ",")+1)+1 {
				t.Fatalf("%q: %d values", s, len(bs))
			}
			for i, v := range bs {
				if v == nil {
					if i != len(bs)-1 {
						t.Fatalf("%q: unset is not last", s)
					}
					continue
				}
				if *v < 0 || i > 0 && *v <= *bs[i-1] {
					t.Fatalf("%q: values %s", s, sizeStrings(bs))
				}
			}
		}
	})
}

func TestLayDefaultsAndSkips(t *testing.T) {
	plan, err := Space{}.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	// 5 loads × 3 unloads × 3 prefetches, every one within the rule.
	cands := slices.Collect(plan.All())
	if plan.Total != 45 || plan.Skipped != 0 || plan.Count != 45 || len(cands) != 45 {
		t.Fatalf("total %d, skipped %d, candidates %d (%d)", plan.Total, plan.Skipped, plan.Count, len(cands))
	}
	first, last := cands[0], cands[44]
	if first.Load != 4 || first.Unload != 8 || first.Prefetch != 4 || last.Load != 24 || last.Unload != 40 || last.Prefetch != 32 {
		t.Errorf("first %+v, last %+v", first, last)
	}
	for i, c := range cands {
		if c.Index != i || c.CellSize != 8 || c.Budget != nil || c.MaxResidentBytes != nil {
			t.Errorf("candidate %d: %+v", i, c)
		}
	}

	// Given radii: unload ≤ load and prefetch < load are skipped, with
	// every budget they would have had.
	sp, err := ParseSpace(Spec{Load: "4,8", Unload: "8,12", Prefetch: "4,8", Budget: "1KiB,none"})
	if err != nil {
		t.Fatal(err)
	}
	plan, err = sp.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	// load 4: 2 unloads × 2 prefetches fit; load 8: unload 8 breaks, and
	// prefetch 4 breaks: 1 fits. (4+1)·2 budgets = 10; 16 - 10 = 6 skipped.
	cands = slices.Collect(plan.All())
	if plan.Total != 16 || plan.Skipped != 6 || plan.Count != 10 || len(cands) != 10 {
		t.Errorf("total %d, skipped %d, candidates %d (%d)", plan.Total, plan.Skipped, plan.Count, len(cands))
	}
	if c := cands[len(cands)-1]; c.Load != 8 || c.Unload != 12 || c.Prefetch != 8 || c.Budget != nil {
		t.Errorf("last candidate %+v", c)
	}
}

func TestLayRefuses(t *testing.T) {
	big, _ := parseDistances("1..1000/1")
	for _, tc := range []struct {
		sp   Space
		w    world
		max  int
		want string
	}{
		{Space{CellSizes: []float64{8}}, world{CellSize: 8, Cooked: true}, defaultMaxCandidates, "--cell-size: a cooked world has its own cell size (8)"},
		{Space{Budget: sizes(1)}, world{CellSize: 8, Estella: true}, defaultMaxCandidates, "--budget: --policy estella has no budget"},
		{Space{MaxResidentBytes: sizes(1)}, world{CellSize: 8, Estella: true}, defaultMaxCandidates, "--max-resident-bytes: --policy estella"},
		{Space{Load: []float64{}}, world{CellSize: 8}, defaultMaxCandidates, "the space is empty"},
		{Space{Load: big, Unload: big, Prefetch: big}, world{CellSize: 8}, defaultMaxCandidates,
			"the space holds 1 cell-size × 1000 load-radius × 1000 unload-radius × 1000 prefetch-radius × 1 budget × 1 max-resident-bytes = 1000000000 candidates, more than --max-candidates 100000"},
		{Space{}, world{CellSize: 8}, 44, "= 45 candidates, more than --max-candidates 44"},
		{Space{}, world{}, defaultMaxCandidates, "no cell size"},
	} {
		_, err := tc.sp.Lay(tc.w, tc.max)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Lay error %v, want one line with %q", err, tc.want)
		}
	}
	if _, err := ParseSpace(Spec{CellSize: "0,8"}); err == nil || !strings.HasPrefix(err.Error(), "--cell-size: ") {
		t.Errorf("cell size 0: %v", err)
	}
	if _, err := ParseSpace(Spec{Budget: "4..2/1"}); err == nil || !strings.HasPrefix(err.Error(), "--budget: ") {
		t.Errorf("bad budget: %v", err)
	}
}

// TestTies: equal objectives are settled by fewer loads, then smaller
// load, unload and prefetch radii, a smaller budget, a larger cell size.
func TestTies(t *testing.T) {
	b1, b2 := int64(1024), int64(2048)
	out := func(peak int64, loads int, c Candidate) Outcome {
		return Outcome{Candidate: c, Routes: []Figures{{PeakResidentBytes: peak, Loads: loads, MeanResidentBytes: float64(peak) / 2}}, Feasible: true}
	}
	base := Candidate{CellSize: 8, Load: 8, Unload: 12, Prefetch: 8, Budget: &b1}
	with := func(f func(*Candidate)) Candidate { c := base; f(&c); return c }
	for _, tc := range []struct {
		name          string
		better, worse Outcome
	}{
		{"smaller peak", out(100, 50, base), out(200, 10, base)},
		{"fewer loads", out(100, 10, with(func(c *Candidate) { c.Load = 16 })), out(100, 11, base)},
		{"smaller load", out(100, 10, base), out(100, 10, with(func(c *Candidate) { c.Load = 9 }))},
		{"smaller unload", out(100, 10, base), out(100, 10, with(func(c *Candidate) { c.Unload = 13 }))},
		{"smaller prefetch", out(100, 10, base), out(100, 10, with(func(c *Candidate) { c.Prefetch = 9 }))},
		{"smaller budget", out(100, 10, base), out(100, 10, with(func(c *Candidate) { c.Budget = &b2 }))},
		{"a budget before none", out(100, 10, base), out(100, 10, with(func(c *Candidate) { c.Budget = nil }))},
		{"larger cell size", out(100, 10, with(func(c *Candidate) { c.CellSize = 16 })), out(100, 10, base)},
		{"earlier", out(100, 10, base), out(100, 10, with(func(c *Candidate) { c.Index = 1 }))},
	} {
		if !PeakResident.Better(&tc.better, &tc.worse) || PeakResident.Better(&tc.worse, &tc.better) {
			t.Errorf("%s: the order does not hold", tc.name)
		}
	}
	// Over routes: the largest peak, the sum of loads.
	two := Outcome{Routes: []Figures{{PeakResidentBytes: 5, Loads: 2, MeanResidentBytes: 3}, {PeakResidentBytes: 7, Loads: 3, MeanResidentBytes: 1}}}
	for o, want := range map[Objective]float64{PeakResident: 7, MeanResident: 3, Loads: 5, MaxFrameBytes: 0} {
		if got := o.Value(&two); got != want {
			t.Errorf("%s over two routes = %v, want %v", o, got, want)
		}
	}
	for _, s := range []string{"", "peak-resident", "mean-resident", "loads", "max-frame-bytes"} {
		if _, err := ParseObjective(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseObjective("peak"); err == nil || !strings.Contains(err.Error(), "peak-resident, mean-resident, loads, max-frame-bytes") {
		t.Errorf("ParseObjective(peak): %v", err)
	}
}

// TestPareto: the front keeps the candidates no other beats on one of peak
// and loads without losing on the other; of equal points, the first in
// rank order.
func TestPareto(t *testing.T) {
	pts := [][2]int{{100, 50}, {120, 40}, {110, 60}, {100, 50}, {90, 70}, {200, 40}, {150, 10}, {150, 10}}
	var cands []Candidate
	for i := range pts {
		cands = append(cands, Candidate{Index: i, CellSize: 8, Load: float64(10 - i), Unload: 20, Prefetch: 10})
	}
	plan := &searchPlan{list: cands, Count: len(cands), Total: len(cands)}
	res, err := search(context.Background(), plan, oneByOne(func(_ context.Context, c Candidate, _ int, _ stopFunc) (Figures, error) {
		p := pts[c.Index]
		return Figures{Frames: 1, PeakResidentBytes: int64(p[0]), Loads: p[1]}, nil
	}), Options{Routes: []string{"a.csv"}, Exhaustive: true})
	if err != nil {
		t.Fatal(err)
	}
	// (100, 50) twice: candidate 3 has the smaller load radius. (150, 10)
	// twice: 7.
	if want := []int{4, 3, 1, 7}; !slices.Equal(indexes(res.Pareto), want) {
		t.Errorf("front %v, want %v", indexes(res.Pareto), want)
	}
	if want := []int{4, 3, 0, 2, 1, 7, 6, 5}; !slices.Equal(indexes(res.Top), want) {
		t.Errorf("top %v, want %v", indexes(res.Top), want)
	}
}

func TestPlanHelpers(t *testing.T) {
	sp, err := ParseSpace(Spec{CellSize: "16,8", Budget: "none"})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := sp.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.CellSizes(); !slices.Equal(got, []float64{8, 16}) {
		t.Errorf("cell sizes %v", got)
	}
	for _, tc := range []struct {
		gate streaming.Gate
		want string
	}{
		{streaming.Gate{FailOn: []string{streaming.FailHoles}}, ""},
		{streaming.Gate{FailOn: []string{streaming.FailOverBudget}}, "over-budget needs a budget"},
		{streaming.Gate{FailOn: []string{streaming.FailOverCap}}, "over-cap needs a cap"},
		{streaming.Gate{Warmup: new(-1)}, "--warmup -1"},
	} {
		err := plan.CheckRequire(tc.gate)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckRequire(%v) = %v, want %q", tc.gate.FailOn, err, tc.want)
		}
	}
}
