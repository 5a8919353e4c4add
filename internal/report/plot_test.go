package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/streaming"
)

// TestSeedDrawings keeps the reference demo's plot and map as goldens:
// the SVG depends only on the run, so a change in a drawing shows up in
// review.
func TestSeedDrawings(t *testing.T) {
	p := runSeed(t)
	var chart, world bytes.Buffer
	if err := Chart("island", "seed 000 demo", p.Frames, &p.Summary, seedSettings()).WriteSVG(&chart); err != nil {
		t.Fatal(err)
	}
	if err := Map("island", "seed 000 demo", seedWorld(), p.Loads, p.Sources, seedRoute(), 1).WriteSVG(&world); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"budget 4096 B", "cap 12000 B", "Holes"} {
		if !strings.Contains(chart.String(), want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	if !strings.Contains(world.String(), "chunk_1_1 (1, 1): 3 requests") {
		t.Errorf("map lacks chunk_1_1's request count")
	}
	golden(t, "seed000.plot.svg", chart.Bytes())
	golden(t, "seed000.map.svg", world.Bytes())
}

func TestChartDrawsTheAssetShare(t *testing.T) {
	for _, w := range []*streaming.World{assetWorld(6), rowWorld(6)} {
		p := budgetedRow(t, w, src("cam", 5, 12, 12, 14), streaming.Settings{}, streaming.ModelIO{LatencyFrames: 1}, []float64{5, 5, 25, 45})
		ch := Chart("t", "s", p.Frames, &p.Summary, streaming.Settings{})
		var names []string
		for _, series := range ch.Panels[0].Series {
			names = append(names, series.Name)
		}
		has := slices.Contains(names, "of which assets")
		if has != (len(w.Assets) > 0) {
			t.Errorf("world with %d assets: resident panel series %q", len(w.Assets), names)
		}
		if has && ch.Panels[0].Series[1].Values[1] != float64(p.Frames[1].ResidentAssetBytes) {
			t.Errorf("asset share %v, want %d", ch.Panels[0].Series[1].Values[1], p.Frames[1].ResidentAssetBytes)
		}
	}
}
