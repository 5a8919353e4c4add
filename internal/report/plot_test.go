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

// TestChartAndMapDrawPopIn: with a view, the plot has a pop-in panel
// counting each frame's pop-in and the map outlines the cells shown
// unloaded; without one, the holes panel says pop-in was not counted.
func TestChartAndMapDrawPopIn(t *testing.T) {
	w := rowWorld(6)
	s := src("cam", 5, 12, 12, 14)
	s.View = &streaming.View{HalfWidth: 25, HalfHeight: 5}
	p := budgetedRow(t, w, s, streaming.Settings{}, streaming.ModelIO{LatencyFrames: 1}, []float64{5, 5, 25, 45})
	p.Summary.View = true
	streaming.Conclude(&p.Summary, p.Frames, streaming.Gate{})
	if p.Summary.PopInFrames == 0 {
		t.Fatal("the run has no pop-in to draw")
	}
	ch := Chart("t", "s", p.Frames, &p.Summary, streaming.Settings{})
	last := ch.Panels[len(ch.Panels)-1]
	if !strings.HasPrefix(last.Title, "Pop-in") || len(last.Series) != 1 {
		t.Fatalf("last panel %q with %d series, want the pop-in panel", last.Title, len(last.Series))
	}
	for f, v := range last.Series[0].Values {
		if v != float64(p.Frames[f].PopIn) {
			t.Errorf("frame %d: pop-in bar %v, want %d", f, v, p.Frames[f].PopIn)
		}
	}
	if !strings.Contains(last.Note, "frames with pop-in") {
		t.Errorf("pop-in note %q", last.Note)
	}
	m := Map("t", "s", w, p.Loads, []streaming.Source{s}, [][]streaming.Point{at(5), at(5), at(25), at(45)}, 1)
	MarkPopIn(m, p.Summary.PopInEpisodes)
	shown := 0
	for _, c := range m.Cells {
		if c.Alert && strings.Contains(c.Note, "shown by the camera, not resident") {
			shown++
		}
	}
	if shown == 0 {
		t.Error("the map outlines no cell shown unloaded")
	}

	s.View = nil
	p = budgetedRow(t, w, s, streaming.Settings{}, streaming.ModelIO{LatencyFrames: 1}, []float64{5, 5, 25, 45})
	ch = Chart("t", "s", p.Frames, &p.Summary, streaming.Settings{})
	if last := ch.Panels[len(ch.Panels)-1]; !strings.HasPrefix(last.Title, "Holes") || !strings.Contains(last.Note, "pop-in not counted") {
		t.Errorf("without a view: last panel %q, note %q", last.Title, last.Note)
	}
}
