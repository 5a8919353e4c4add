package report

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/worldcook/worldcook/internal/english"

	"github.com/worldcook/worldcook/internal/drawing"
	"github.com/worldcook/worldcook/streaming"
)

// WriteWarnings writes warnings for a person to read.
func WriteWarnings(w io.Writer, ws []streaming.Warning) error {
	bw := bufio.NewWriter(w)
	writeWarnings(bw, ws)
	return bw.Flush()
}

func writeWarnings(bw *bufio.Writer, ws []streaming.Warning) error {
	for i := range ws {
		bw.WriteString(ws[i].Frame(false))
	}
	return nil
}

// peakText is a peak of bytes and the frame it was reached in ("16 KiB at
// frame 40"), or none for a run that never reached any: such a run has no
// frame to name.
func peakText(b int64, prep string, frame int, none string) string {
	if b == 0 {
		return none
	}
	return fmt.Sprintf("%s %s frame %d", streaming.ByteSize(b), prep, frame)
}

// WriteSummary writes the totals for a person to read.
func WriteSummary(w io.Writer, s *streaming.Summary) error {
	bw := bufio.NewWriter(w)
	line := func(label, format string, args ...any) {
		fmt.Fprintf(bw, "  %-22s %s\n", label, fmt.Sprintf(format, args...))
	}
	fmt.Fprintf(bw, "summary of %d frames\n", s.Frames)
	if g := s.Gate; g != nil {
		writeGate(bw, g, s.FirstFrame)
	}
	for _, f := range budgetedFigures(s) {
		line(f.Label, "%s", f.Value)
	}
	for _, g := range s.GaveUp {
		line("", "gave up %s at frame %d after %d attempts: %s", g.Cell, g.Frame, g.Attempts, g.Err)
	}
	writeHoles(bw, line, s)
	end := residentAtTheEnd(s.Residency.ResidentCells, s.Residency.CellEntityCounts)
	line(end.Label, "%s", end.Value)
	if s.Assets != nil {
		writeAssetSummary(line, s.Assets)
	}
	if io := s.IO; io != nil {
		line("disk reads", "%d, %s", io.Reads, streaming.ByteSize(io.BytesRead))
		line("read", "%s", io.Read.String())
		line("decode", "%s", io.Decode.String())
		line("apply", "%s", io.Apply.String())
		line("apply per frame", "%s (budget %.3g ms, %d frames over)", io.FrameApply.String(), io.FrameBudgetMS, io.FramesOverTimeBudget)
		line("completion backlog", "at most %d", io.MaxBacklog)
	}
	return bw.Flush()
}

// maxEpisodesShown bounds the hole episodes the text summary lists; the
// JSON summary has every one.
const maxEpisodesShown = 12

// writeHoles writes the summary's lines about holes: how many frames had
// them, when the first position was fully resident, and the episodes.
func writeHoles(bw *bufio.Writer, line func(label, format string, args ...any), s *streaming.Summary) {
	for _, f := range holeFigures(s) {
		line(f.Label, "%s", f.Value)
	}
	writeEpisodes(bw, s.HoleEpisodes, "hole")
	writePopIn(bw, line, s)
}

// writePopIn writes the summary's lines about pop-in: the frames with
// any, and its episodes; without a view, that it was not counted.
func writePopIn(bw *bufio.Writer, line func(label, format string, args ...any), s *streaming.Summary) {
	f := popInFigure(s)
	line(f.Label, "%s", f.Value)
	if s.View {
		writeEpisodes(bw, s.PopInEpisodes, "pop-in")
	}
}

// writeEpisodes writes hole or pop-in episodes (what names them: "hole",
// "pop-in"), each with its frames, sources and missing cells, then what
// each likely cause means.
func writeEpisodes(bw *bufio.Writer, eps []streaming.HoleEpisode, what string) {
	if len(eps) == 0 {
		return
	}
	unit := "hole"
	if what != "hole" {
		unit = "cell"
	}
	var total [streaming.NumCauses]int
	for _, e := range eps {
		for _, c := range e.Causes {
			total[c.Cause] += c.CellFrames
		}
	}
	fmt.Fprintf(bw, "  %-22s %d\n", what+" episodes", len(eps))
	for k, e := range eps {
		if k == maxEpisodesShown {
			fmt.Fprintf(bw, "    and %d more episodes (every one is in --format jsonl's summary)\n", len(eps)-k)
			break
		}
		where := make([]string, len(e.Sources))
		for i, src := range e.Sources {
			if src.From == src.To {
				where[i] = fmt.Sprintf("%s at (%s, %s)", src.Source, drawing.Short(src.From.X), drawing.Short(src.From.Z))
			} else {
				where[i] = fmt.Sprintf("%s (%s, %s) to (%s, %s)", src.Source,
					drawing.Short(src.From.X), drawing.Short(src.From.Z), drawing.Short(src.To.X), drawing.Short(src.To.Z))
			}
		}
		span := fmt.Sprintf("%s %s", english.Plural(e.Frames(), "frame"), streaming.FrameRange{First: e.First, Last: e.Last})
		fmt.Fprintf(bw, "    %-18s up to %d %s, likely %s; %s\n", span,
			e.MaxHoles, english.Plural(e.MaxHoles, unit), e.Cause, strings.Join(where, "; "))
		cells := make([]string, len(e.Cells))
		for i, c := range e.Cells {
			cells[i] = fmt.Sprintf("%s (%s, %d %s)", c.Cell, c.Cause, c.Frames, english.Plural(c.Frames, "frame"))
		}
		fmt.Fprintf(bw, "      missing %s\n", streaming.NameList(cells, 8))
	}
	// What each cause means, once, the most common first (ties: the
	// later cause, which explains the earlier).
	fmt.Fprintf(bw, "  likely causes\n")
	causes := make([]streaming.HoleCause, 0, streaming.NumCauses)
	for c := streaming.CauseUnknown; c < streaming.NumCauses; c++ {
		if total[c] > 0 {
			causes = append(causes, c)
		}
	}
	slices.SortStableFunc(causes, func(a, b streaming.HoleCause) int {
		if c := cmp.Compare(total[b], total[a]); c != 0 {
			return c
		}
		return cmp.Compare(b, a)
	})
	for _, c := range causes {
		fmt.Fprintf(bw, "    %-20s %d missing %s: %s\n", c, total[c], english.Plural(total[c], "cell-frame"), c.Advice())
	}
}

// writeGate writes the gate's verdict; first is the number of the run's
// first frame.
func writeGate(bw *bufio.Writer, g *streaming.GateResult, first int) {
	verdict := "passed"
	if g.Failed {
		verdict = "FAILED"
	}
	warm := fmt.Sprintf("warm-up %d frames", g.Warmup)
	switch {
	case g.WarmupAuto && !g.WarmupEnded:
		warm = "never free of holes"
	case g.WarmupAuto:
		warm = fmt.Sprintf("warm-up until frame %d, the first without holes", first+g.Warmup-1)
	}
	if g.WarmupAuto && slices.Contains(g.FailOn, streaming.FailPopIn) {
		if g.PopInWarmupEnded {
			warm += fmt.Sprintf("; pop-in's until frame %d, the first without pop-in", first+g.PopInWarmup-1)
		} else {
			warm += "; never free of pop-in"
		}
	}
	fmt.Fprintf(bw, "  %-22s %s (--fail-on %s; %s)\n", "gate", verdict, strings.Join(g.FailOn, ","), warm)
	for _, b := range g.Breaches {
		fmt.Fprintf(bw, "    %-20s %s\n", b.Condition, b.Detail)
		fmt.Fprintf(bw, "    %-20s frames %s\n", "", streaming.FrameList(b.Frames, 10))
		if len(b.Cells) > 0 {
			fmt.Fprintf(bw, "    %-20s cells %s\n", "", streaming.NameList(b.Cells, 10))
		}
	}
}

// nameList renders ": a, b, c" with at most n names.
func nameList(names []string, n int) string {
	if len(names) == 0 {
		return ""
	}
	if len(names) <= n {
		return ": " + strings.Join(names, ", ")
	}
	return fmt.Sprintf(": %s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// WriteEstellaSummary writes the runtime scheduler's totals and its
// worldResidencyReport for a person to read.
func WriteEstellaSummary(w io.Writer, s *streaming.EstellaSummary) error {
	bw := bufio.NewWriter(w)
	line := func(label, format string, args ...any) {
		fmt.Fprintf(bw, "  %-22s %s\n", label, fmt.Sprintf(format, args...))
	}
	rt := &s.Runtime
	fmt.Fprintf(bw, "summary of %d frames (Estella runtime scheduler: no budget, cap or LOD)\n", s.Frames)
	if g := s.Gate; g != nil {
		writeGate(bw, g, s.FirstFrame)
	}
	for _, f := range estellaFigures(s) {
		line(f.Label, "%s", f.Value)
	}
	writeHoles(bw, line, &s.Summary)
	if s.Assets != nil {
		writeAssetSummary(line, s.Assets)
	}
	fmt.Fprintf(bw, "  worldResidencyReport at the end (%d %s, %d %s)\n", rt.CellCount, english.Plural(rt.CellCount, "cell"), rt.SourceCount, english.Plural(rt.SourceCount, "source"))
	line("residentCells", "%s", residentAtTheEnd(rt.ResidentCells, rt.CellEntityCounts).Value)
	line("desiredCells", "%d%s", len(rt.DesiredCells), nameList(rt.DesiredCells, 8))
	line("prefetchCells", "%d%s", len(rt.PrefetchCells), nameList(rt.PrefetchCells, 8))
	line("preparedCells", "%d%s", len(rt.PreparedCells), nameList(rt.PreparedCells, 8))
	line("loadingCells", "%d%s", len(rt.LoadingCells), nameList(rt.LoadingCells, 8))
	line("unloadingCells", "%d%s", len(rt.UnloadingCells), nameList(rt.UnloadingCells, 8))
	if rt.AssetRefsByCell != nil {
		line("assetRefsByCell", "%s", assetRefs(rt.ResidentCells, *rt.AssetRefsByCell))
	}
	line("loadCount", "%d (the publishes started)", rt.LoadCount)
	return bw.Flush()
}

// assetRefs writes the runtime's assetRefsByCell: the references held
// over the resident cells, then the cells in residentCells order with
// their counts, the first eight named.
func assetRefs(cells []string, refs map[string]int) string {
	total := 0
	named := make([]string, 0, len(cells))
	for _, c := range cells {
		total += refs[c]
		named = append(named, fmt.Sprintf("%s %d", c, refs[c]))
	}
	return fmt.Sprintf("%d references over %d cells%s", total, len(cells), nameList(named, 8))
}
