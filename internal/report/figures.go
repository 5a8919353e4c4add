package report

import (
	"fmt"
	"slices"

	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/streaming"
)

// figure is one figure of a run's summary: its label and its text, as the
// text summary prints them and the --html page shows them, so that a
// figure has one name and one value wherever it is read. Frame, when
// HasFrame, is the frame it points at (a peak, a first hole), as the
// route numbers it.
type figure struct {
	Label, Value string
	Frame        int
	HasFrame     bool
}

// at is f pointing at frame, when the figure's count says the event
// happened.
func (f figure) at(frame int, happened bool) figure {
	f.Frame, f.HasFrame = frame, happened
	return f
}

// residentNote says what resident bytes count: the documents of the
// resident cells, and the resident assets when the run counts them (those
// of the persistent world and of every cell holding its assets, prepared
// ones included).
func residentNote(assets bool) string {
	if assets {
		return "cell documents and assets; "
	}
	return ""
}

// budgetedFigures are the budgeted scheduler's figures, in the order the
// summary prints them, before the holes: peaks, then the events counted
// as the table's columns name them (requests started, cells published).
func budgetedFigures(s *streaming.Summary) []figure {
	capText := "no cap"
	if s.MaxResidentBytes != nil {
		capText = fmt.Sprintf("cap %s, %d frames over", streaming.ByteSize(*s.MaxResidentBytes), s.FramesOverResidentCap)
	}
	budget := "no budget"
	if s.Budget != nil {
		budget = fmt.Sprintf("budget %s, %d frames over", streaming.ByteSize(*s.Budget), s.FramesOverBudget)
	}
	out := []figure{figure{Label: "peak resident", Value: fmt.Sprintf("%s (%s%s)",
		peakText(s.PeakResidentBytes, "at", s.PeakResidentFrame, "0 B, nothing was ever resident"), residentNote(s.Assets != nil), capText)}.
		at(s.PeakResidentFrame, s.PeakResidentBytes > 0)}
	if s.PeakPreparedBytes > 0 {
		out = append(out, figure{Label: "peak prepared", Value: streaming.ByteSize(s.PeakPreparedBytes) + " (held, not in the world)"})
	}
	out = append(out,
		figure{Label: "peak in flight", Value: fmt.Sprint(s.PeakInFlight)},
		figure{Label: "max requested", Value: fmt.Sprintf("%s (%s)", peakText(s.MaxRequestedBytes, "in", s.MaxRequestedFrame, "0 B, nothing was requested"), budget)}.
			at(s.MaxRequestedFrame, s.MaxRequestedBytes > 0),
		figure{Label: "requests", Value: fmt.Sprintf("%d started (%s, %s, %s)", s.Loads,
			english.Count(s.Prefetches, "prefetch"), english.Count(s.Retries, "retry"), english.Count(s.Proxies, "proxy"))},
		figure{Label: "published", Value: fmt.Sprintf("%d (entries into the world: the residency report's loadCount)", s.Published)},
		figure{Label: "unloads", Value: fmt.Sprint(s.Unloads)},
		figure{Label: "evictions", Value: fmt.Sprint(s.Evictions)},
		figure{Label: "cancellations", Value: fmt.Sprint(s.Cancellations)},
		figure{Label: "dropped", Value: fmt.Sprint(s.Drops)},
		figure{Label: "failures", Value: fmt.Sprintf("%d (%d timeouts, %d cells given up)", s.Failures, s.Timeouts, len(s.GaveUp))},
	)
	return out
}

// estellaFigures are the runtime scheduler's figures, in the order its
// summary prints them, before the holes.
func estellaFigures(s *streaming.EstellaSummary) []figure {
	rt := &s.Runtime
	peak := peakText(s.PeakResidentBytes, "at", s.PeakResidentFrame, "0 B, nothing was ever resident")
	if s.Assets != nil {
		peak += " (cell documents and assets)"
	}
	out := []figure{figure{Label: "peak resident", Value: peak}.at(s.PeakResidentFrame, s.PeakResidentBytes > 0)}
	if s.PeakPreparedBytes > 0 {
		out = append(out, figure{Label: "peak prepared", Value: streaming.ByteSize(s.PeakPreparedBytes) + " (held, not in the world)"})
	}
	var dtr, dwell frameStat
	names := make([]string, 0, len(rt.Delivery))
	for name := range rt.Delivery {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		d := rt.Delivery[name]
		dtr.add(d.DemandToResident)
		if d.Outcome == "hit" {
			dwell.add(d.Dwell)
		}
	}
	return append(out,
		figure{Label: "peak in flight", Value: fmt.Sprint(s.PeakInFlight)},
		figure{Label: "max requested", Value: peakText(s.MaxRequestedBytes, "in", s.MaxRequestedFrame, "0 B, nothing was requested")}.
			at(s.MaxRequestedFrame, s.MaxRequestedBytes > 0),
		// The table's req column: the runtime's requests are its
		// preparations.
		figure{Label: "requests", Value: fmt.Sprintf("%s started (%d for speculation: prefetchRequests)", english.Count(rt.PrepareCount, "preparation"), rt.PrefetchRequests)},
		figure{Label: "publishes", Value: fmt.Sprintf("%d started, %d resident", rt.LoadCount, s.Published)},
		figure{Label: "unloads", Value: fmt.Sprint(rt.UnloadCount)},
		figure{Label: "discarded prepared", Value: fmt.Sprintf("%d (%d references released)", rt.CancelCount, rt.CancelledRefs)},
		figure{Label: "failures", Value: english.Count(s.Failures, "preparation")},
		figure{Label: "prefetch", Value: english.Count(rt.PrefetchHits, "hit") + ", " + english.Count(rt.PrefetchMisses, "miss")},
		figure{Label: "demand to resident", Value: fmt.Sprintf("%s (last delivery of each cell; last %d)", dtr, rt.LastDemandToResident)},
		figure{Label: "dwell before a hit", Value: dwell.String()},
	)
}

// holeFigures are the frames with holes and when the first position was
// fully resident.
func holeFigures(s *streaming.Summary) []figure {
	holes := figure{Label: "hole frames", Value: fmt.Sprintf("0 of %d", s.Frames)}
	if s.HoleFrames > 0 {
		holes = figure{Label: "hole frames", Value: fmt.Sprintf("%d of %d (first at frame %d, at most %d %s)",
			s.HoleFrames, s.Frames, s.FirstHoleFrame, s.MaxHoles, english.Plural(s.MaxHoles, "hole"))}.at(s.FirstHoleFrame, true)
	}
	first := figure{Label: "first position", Value: "never fully resident"}
	switch eps := s.HoleEpisodes; {
	case s.FirstResidentFrame != nil:
		first = figure{Label: "first position", Value: fmt.Sprintf("fully resident at frame %d", *s.FirstResidentFrame)}.at(*s.FirstResidentFrame, true)
	case len(eps) > 0 && eps[len(eps)-1].Last < s.LastFrame():
		// The route left the first position before all of it arrived: the
		// cells it wanted there were let go, not forgotten.
		first.Value = fmt.Sprintf("never fully resident: the route moved on first (holes end at frame %d)", eps[len(eps)-1].Last)
	}
	return []figure{holes, first}
}

// popInFigure is the frames with pop-in, or why pop-in was not counted.
func popInFigure(s *streaming.Summary) figure {
	switch {
	case !s.View:
		return figure{Label: "pop-in", Value: "not counted: no source has a view (set --view-size or --view-distance)"}
	case s.PopInFrames == 0:
		return figure{Label: "pop-in frames", Value: fmt.Sprintf("0 of %d", s.Frames)}
	}
	return figure{Label: "pop-in frames", Value: fmt.Sprintf("%d of %d (first at frame %d, at most %d %s)",
		s.PopInFrames, s.Frames, s.FirstPopInFrame, s.MaxPopIn, english.Plural(s.MaxPopIn, "cell"))}.at(s.FirstPopInFrame, true)
}

// residentAtTheEnd is the cells resident after the last frame and the
// entities they hold.
func residentAtTheEnd(cells []string, entityCounts map[string]int) figure {
	entities := 0
	for _, n := range entityCounts {
		entities += n
	}
	return figure{Label: "resident at the end", Value: fmt.Sprintf("%d %s, %d %s%s", len(cells), english.Plural(len(cells), "cell"),
		entities, english.Plural(entities, "entity"), nameList(cells, 8))}
}

// assetFigures are the asset lines of either summary.
func assetFigures(a *streaming.AssetSummary) []figure {
	return []figure{
		figure{Label: "peak resident assets", Value: fmt.Sprintf("%s (%d distinct %s)", peakText(a.PeakResidentAssetBytes, "at", a.PeakFrame, "0 B"), a.Distinct, english.Plural(a.Distinct, "asset"))}.
			at(a.PeakFrame, a.PeakResidentAssetBytes > 0),
		{Label: "asset loads", Value: fmt.Sprintf("%d (%d unloads, %d assets loaded more than once)", a.Loads, a.Unloads, a.Reloaded)},
	}
}

// frameStat is the mean and maximum of a per-cell count of frames.
type frameStat struct {
	n         int
	sum, most int
}

func (f *frameStat) add(v int) {
	f.n++
	f.sum += v
	f.most = max(f.most, v)
}

func (f frameStat) String() string {
	if f.n == 0 {
		return "none"
	}
	return fmt.Sprintf("mean %.1f, max %s over %s", float64(f.sum)/float64(f.n), english.Count(f.most, "frame"), english.Count(f.n, "cell"))
}
