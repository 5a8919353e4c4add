package streaming

import (
	"bytes"
	"strings"
	"testing"
)

// TestSeedDrawings keeps the seed demo's plot and map as goldens: the SVG
// depends only on the run, so a change in a drawing shows up in review.
func TestSeedDrawings(t *testing.T) {
	reps, sum := runSeed(t)
	s, _ := NewScheduler(seedWorld(), []Source{seedSource()}, seedSettings(), NewModelLoader(ModelIO{LatencyFrames: 3}))
	for _, pos := range seedRoute() {
		s.Step(pos)
	}
	var chart, world bytes.Buffer
	if err := Chart("island", "seed 000 demo", reps, &sum, seedSettings()).WriteSVG(&chart); err != nil {
		t.Fatal(err)
	}
	if err := Map("island", "seed 000 demo", seedWorld(), s.Loads(), s.Sources(), seedRoute()).WriteSVG(&world); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"budget 4096 B", "cap 12000 B", "Holes"} {
		if !strings.Contains(chart.String(), want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	if !strings.Contains(world.String(), "chunk_1_1 (1, 1): 3 loads") {
		t.Errorf("map lacks chunk_1_1's load count")
	}
	golden(t, "seed000.plot.svg", chart.Bytes())
	golden(t, "seed000.map.svg", world.Bytes())
}
