package tune

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/internal/golden"
	"github.com/worldcook/worldcook/streaming"
)

// goldenSearch is a search of two cell sizes and two budgets on two
// routes through the budgeted scheduler, against the authored
// settings, and its JSON report.
func goldenSearch(t *testing.T, spec Spec, gate streaming.Gate) (*Result, []byte) {
	t.Helper()
	e := newSchedulerEval(8, 16)
	e.gate = gate
	sp, err := ParseSpace(spec)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := sp.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	res, err := search(context.Background(), plan, oneByOne(e.eval), Options{Routes: []string{"east.csv", "west.csv"}, Require: gate, Top: 5,
		Authored: &Candidate{CellSize: 8, Load: 8, Unload: 12, Prefetch: 8}, JSON: &js})
	if err != nil {
		t.Fatal(err)
	}
	return res, js.Bytes()
}

func TestGoldenOutput(t *testing.T) {
	holes := streaming.Gate{FailOn: []string{streaming.FailHoles}}
	overBudget := streaming.Gate{FailOn: []string{streaming.FailHoles, streaming.FailOverBudget}}
	for _, tc := range []struct {
		name string
		spec Spec
		gate streaming.Gate
	}{
		{"search", Spec{CellSize: "8,16", Unload: "6..24/6", Budget: "2KiB..8KiBx2,none"}, holes},
		{"infeasible", Spec{Load: "2,4", Unload: "6", Prefetch: "4", Budget: "1KiB"}, overBudget},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, js := goldenSearch(t, tc.spec, tc.gate)
			if tc.name == "search" && (res.Best == nil || res.Pruned == 0 || len(res.Pareto) < 2) {
				t.Errorf("the golden search shows too little: best %d, pruned %d, front %d", bestIndex(res), res.Pruned, len(res.Pareto))
			}
			if tc.name == "infeasible" && res.Best != nil {
				t.Errorf("a candidate is feasible: %d", bestIndex(res))
			}
			for _, out := range []struct {
				file  string
				write func(*bytes.Buffer, *Result) error
			}{
				{".txt", func(b *bytes.Buffer, r *Result) error { return WriteText(b, r) }},
				{".jsonl", func(b *bytes.Buffer, r *Result) error { _, err := b.Write(js); return err }},
				{".svg", func(b *bytes.Buffer, r *Result) error { return WritePlot(b, r) }},
			} {
				var b bytes.Buffer
				if err := out.write(&b, res); err != nil {
					t.Fatal(err)
				}
				golden.Compare(t, filepath.Join("testdata", tc.name+out.file), b.Bytes())
			}
		})
	}
}
