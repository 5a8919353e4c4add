package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// runRow runs a route along the asset row under policy, through
// simulate.Run as the command does.
func runRow(t *testing.T, policy simulate.Policy, cellStates bool) *simulate.PolicyRun {
	t.Helper()
	route := filepath.Join(t.TempDir(), "route.csv")
	var b strings.Builder
	b.WriteString("x,z\n")
	for _, x := range []string{"5", "9", "14", "22", "33", "48", "60", "30", "5", "-20", "-20"} {
		b.WriteString(x + ",5\n")
	}
	if err := os.WriteFile(route, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f := func(v float64) *float64 { return &v }
	o := simulate.Options{Policy: policy, Route: route, CellStates: cellStates,
		Radii: simulate.Radii{Load: f(4), Unload: f(6), Prefetch: f(15)},
		Model: streaming.ModelIO{LatencyFrames: 2}, UnloadFrames: 1, PublishFrames: 1}
	res, err := simulate.Run(context.Background(), assetWorld(6), o)
	if err != nil {
		t.Fatal(err)
	}
	return res.Runs[0]
}

// TestJSONLCellStates: with cell states asked for, every frame object
// lists the cells resident, prepared and loading (and, under the runtime,
// unloading); a run that counts assets writes the asset fields in every
// frame, zeros included. Without, no frame has the sets.
func TestJSONLCellStates(t *testing.T) {
	for _, policy := range []simulate.Policy{simulate.Budgeted, simulate.Estella} {
		p := runRow(t, policy, true)
		out := string(render(t, FormatJSONL, p, WriterOptions{Assets: p.Assets}))
		golden(t, "cell-states-"+string(policy)+".jsonl", []byte(out))
		keys := []string{`"residentAssetBytes":`, `"assetLoads":`, `"assetUnloads":`, `"residentCells":[`, `"preparedCells":[`, `"loadingCells":[`}
		if policy == simulate.Estella {
			keys = append(keys, `"unloadingCells":[`)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(line, `{"message_type":"frame"`) {
				continue
			}
			for _, k := range keys {
				if !strings.Contains(line, k) {
					t.Errorf("%s: frame lacks %s: %s", policy, k, line)
				}
			}
			if policy == simulate.Budgeted && strings.Contains(line, `"unloadingCells"`) {
				t.Errorf("budgeted frame has unloadingCells: %s", line)
			}
		}
		plain := string(render(t, FormatJSONL, runRow(t, policy, false), WriterOptions{Assets: true}))
		for _, line := range strings.Split(plain, "\n") {
			if !strings.HasPrefix(line, `{"message_type":"frame"`) {
				continue // the summary has the runtime report's own residentCells
			}
			for _, k := range []string{"residentCells", "preparedCells", "loadingCells", "unloadingCells"} {
				if strings.Contains(line, k) {
					t.Errorf("%s: %s without cell states asked for: %s", policy, k, line)
				}
			}
		}
	}
}
