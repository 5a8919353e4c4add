package report

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/worldcook/worldcook/internal/english"

	"github.com/worldcook/worldcook/internal/drawing"
	"github.com/worldcook/worldcook/simulate"
)

// PlotRun draws a policy's run over time (--plot); o are the options it
// ran with, which the subtitle names.
func PlotRun(p *simulate.PolicyRun, o simulate.Options) *drawing.Chart {
	return Chart(title(p, o), subtitle(p, o), p.Frames, &p.Summary, p.Settings)
}

// MapRun draws a policy's run on the world (--map), its hole episodes
// marked and its pop-in cells outlined.
func MapRun(p *simulate.PolicyRun, o simulate.Options) *drawing.Map {
	m := Map(title(p, o), subtitle(p, o), p.World, p.Loads, p.Sources, p.Route, p.Summary.FirstFrame)
	MarkHoles(m, p.Summary.HoleEpisodes, p.Route, p.Summary.FirstFrame, p.Sources)
	MarkPopIn(m, p.Summary.PopInEpisodes)
	return m
}

// title names the world and the route, and Estella's runtime.
func title(p *simulate.PolicyRun, o simulate.Options) string {
	t := fmt.Sprintf("%s along %s", p.World.Scene, filepath.Base(o.Route))
	if p.Policy == simulate.Estella {
		t += " (Estella runtime)"
	}
	return t
}

// subtitle names the settings that shaped the run.
func subtitle(p *simulate.PolicyRun, o simulate.Options) string {
	frames := len(p.Frames)
	if p.Policy == simulate.Estella {
		return fmt.Sprintf("%d frames · prepare %d, publish %d, unload %d frames · distance bounds",
			frames, o.Model.LatencyFrames, o.PublishFrames, o.UnloadFrames)
	}
	set := p.Settings
	parts := []string{fmt.Sprintf("%d frames", frames)}
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	if set.Budget != nil {
		add("budget %d B", *set.Budget)
	}
	if set.MaxResidentBytes != nil {
		add("cap %d B", *set.MaxResidentBytes)
	}
	if set.PinnedRadius != nil {
		add("pinned %g", *set.PinnedRadius)
	}
	if set.LODRadius != nil {
		add("LOD %g", *set.LODRadius)
	}
	if d := o.Disk; d != nil {
		add("disk IO, %d workers, %g ms a frame", d.Concurrency, float64(d.FrameBudget.Nanoseconds())/1e6)
	} else {
		add("latency %d %s", o.Model.LatencyFrames, english.Plural(o.Model.LatencyFrames, "frame"))
		if o.Model.BytesPerFrame != nil {
			add("%d B/frame", *o.Model.BytesPerFrame)
		}
	}
	add("distance %s", set.Distance)
	return strings.Join(parts, " · ")
}
