package streaming

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/worldcook/worldcook/worldmap"
)

// Formats of the per-frame report.
const (
	FormatTable = "table"
	FormatJSONL = "jsonl"
	FormatCSV   = "csv"
)

// ReportWriter writes a run's report in one format: the warnings about
// its setup, its frames and its summary, in the order the caller chooses
// (a person reads the summary first; a log keeps frames as they come).
type ReportWriter interface {
	// Warnings writes warnings about the run's setup. The CSV writer
	// writes none: write them elsewhere with WriteWarnings.
	Warnings(ws []Warning) error
	Frame(r *FrameReport) error
	// Summary writes the totals. The CSV writer writes none: a CSV holds
	// one kind of row; write the summary elsewhere with WriteSummary.
	Summary(s *Summary) error
	// Flush writes anything buffered.
	Flush() error
}

// ReportOptions shape a report for its reader.
type ReportOptions struct {
	// Human renders the table's byte counts in binary units (12.3 KiB)
	// for a person at a terminal; files and pipes get exact counts.
	Human bool
	// Assets adds the asset columns (resident asset bytes, asset loads
	// and unloads) to the table and CSV, for a world with assets; JSONL
	// carries them as fields whenever they are not 0.
	Assets bool
}

// NewReportWriter returns a writer for format (table, jsonl or csv).
func NewReportWriter(format string, w io.Writer) (ReportWriter, error) {
	return NewReport(format, w, ReportOptions{})
}

// NewReport returns a writer for format (table, jsonl or csv) with options.
func NewReport(format string, w io.Writer, o ReportOptions) (ReportWriter, error) {
	bw := bufio.NewWriter(w)
	switch format {
	case "", FormatTable:
		return &tableWriter{w: bw, human: o.Human, assets: o.Assets}, nil
	case FormatJSONL:
		return &jsonlWriter{w: bw}, nil
	case FormatCSV:
		return &csvWriter{w: csv.NewWriter(bw), bw: bw, assets: o.Assets}, nil
	}
	return nil, fmt.Errorf("format %q must be table, jsonl or csv", format)
}

type tableWriter struct {
	w      *bufio.Writer
	human  bool
	assets bool
	rows   int
	// blocks counts what was written (warnings, the frames, the summary),
	// so that a blank line parts each from the one before.
	blocks int
}

const tableHeader = "frame   req  done   pub  prep  drop  cncl  unld  evct  fail  resident  inflight  resident B  request B  holes  position\n"

// tableLegend says what the columns count; it names the sources whose
// positions the last column holds.
const tableLegend = `columns: req requests started, done requests finished, pub cells that entered the world,
  prep prefetches now held (not in the world), drop held or prefetched cells released,
  cncl requests cancelled, unld cells unloaded, evct cells evicted by the cap,
  fail failed attempts; resident and inflight count cells, resident B and request B
  bytes at the end of the frame and requested in it; holes are cells within a load
  radius that are not resident; position is where %s stood (x, z)
`

func (t *tableWriter) block() {
	if t.blocks > 0 {
		t.w.WriteString("\n")
	}
	t.blocks++
}

func (t *tableWriter) Warnings(ws []Warning) error {
	if len(ws) == 0 {
		return nil
	}
	t.block()
	return writeWarnings(t.w, ws)
}

func (t *tableWriter) Frame(r *FrameReport) error {
	if t.rows == 0 {
		t.block()
		names := make([]string, len(r.Positions))
		for i, p := range r.Positions {
			names[i] = p.Source
		}
		fmt.Fprintf(t.w, tableLegend, joinAnd(names))
		if t.assets {
			t.w.WriteString(tableAssetLegend)
			t.w.WriteString(strings.Replace(tableHeader, "  position", tableAssetHeader+"  position", 1))
		} else {
			t.w.WriteString(tableHeader)
		}
	}
	t.rows++
	bytes := func(n int64, width int) string {
		if t.human {
			return fmt.Sprintf("%*s", width, humanBytes(n))
		}
		return fmt.Sprintf("%*d", width, n)
	}
	pos := make([]string, len(r.Positions))
	for i, p := range r.Positions {
		pos[i] = fmt.Sprintf("(%s, %s)", worldmap.Short(p.X), worldmap.Short(p.Z))
	}
	var assets string
	if t.assets {
		assets = assetColumns(r, bytes)
	}
	_, err := fmt.Fprintf(t.w, "%5d %5d %5d %5d %5d %5d %5d %5d %5d %5d %9d %9d %s %s %6d%s  %s\n",
		r.Frame, len(r.Requested), len(r.Completed), len(r.Published), len(r.Prepared), len(r.Dropped),
		len(r.Cancelled), len(r.Unloaded), len(r.Evicted), len(r.Failed),
		r.Resident, r.InFlight, bytes(r.ResidentBytes, 11), bytes(r.RequestedBytes, 10), len(r.Holes), assets, strings.Join(pos, " "))
	return err
}

func (t *tableWriter) Summary(s *Summary) error {
	t.block()
	return WriteSummary(t.w, s)
}

func (t *tableWriter) Flush() error { return t.w.Flush() }

// humanBytes renders a byte count in binary units: "980 B", "12.3 KiB".
func humanBytes(n int64) string {
	if n < 1024 && n > -1024 {
		return fmt.Sprintf("%d B", n)
	}
	v := float64(n)
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := -1
	for u < len(units)-1 && (v >= 1024 || v <= -1024) {
		v /= 1024
		u++
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}

type jsonlWriter struct{ w *bufio.Writer }

// jsonFrame puts the discriminator first and never writes a list as null.
type jsonFrame struct {
	MessageType string `json:"message_type"`
	FrameReport
}

func (j *jsonlWriter) Warnings(ws []Warning) error {
	for i := range ws {
		if err := j.line(struct {
			MessageType string `json:"message_type"`
			*Warning
		}{"warning", &ws[i]}); err != nil {
			return err
		}
	}
	return nil
}

func (j *jsonlWriter) Frame(r *FrameReport) error {
	f := jsonFrame{MessageType: "frame", FrameReport: *r}
	for _, l := range f.lists() {
		if *l == nil {
			*l = []string{}
		}
	}
	return j.line(f)
}

func (j *jsonlWriter) Summary(s *Summary) error {
	return j.line(struct {
		MessageType string `json:"message_type"`
		*Summary
	}{"summary", s})
}

func (j *jsonlWriter) line(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	j.w.Write(b)
	return j.w.WriteByte('\n')
}

func (j *jsonlWriter) Flush() error { return j.w.Flush() }

func (r *FrameReport) lists() []*[]string {
	return []*[]string{&r.Requested, &r.Completed, &r.Prepared, &r.Published, &r.Cancelled,
		&r.Unloaded, &r.Evicted, &r.Dropped, &r.Failed, &r.Holes}
}

type csvWriter struct {
	w      *csv.Writer
	bw     *bufio.Writer
	rows   int
	assets bool
}

// csvHeader's columns after holes were added later and stay at the end,
// so that readers of the first ones are not disturbed: x and z hold one
// value per enabled source, holeCauses one per hole.
var csvHeader = []string{"frame", "requested", "completed", "prepared", "published", "cancelled",
	"unloaded", "evicted", "dropped", "failed", "resident", "inFlight", "residentBytes",
	"preparedBytes", "requestedBytes", "holes", "x", "z", "holeCauses"}

func (c *csvWriter) Warnings([]Warning) error { return nil }

// Lists in a CSV cell are joined with ';', which cell names do not use.
func (c *csvWriter) Frame(r *FrameReport) error {
	j := func(xs []string) string { return strings.Join(xs, ";") }
	i := strconv.Itoa
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	xs, zs := make([]string, len(r.Positions)), make([]string, len(r.Positions))
	for k, p := range r.Positions {
		xs[k] = strconv.FormatFloat(p.X, 'g', -1, 64)
		zs[k] = strconv.FormatFloat(p.Z, 'g', -1, 64)
	}
	causes := make([]string, len(r.HoleCauses))
	for k, h := range r.HoleCauses {
		causes[k] = h.String()
	}
	row := []string{i(r.Frame), j(r.Requested), j(r.Completed), j(r.Prepared), j(r.Published),
		j(r.Cancelled), j(r.Unloaded), j(r.Evicted), j(r.Dropped), j(r.Failed), i(r.Resident), i(r.InFlight),
		i64(r.ResidentBytes), i64(r.PreparedBytes), i64(r.RequestedBytes), j(r.Holes), j(xs), j(zs), j(causes)}
	return c.row(csvHeader, row, r)
}

// row writes one frame's row, the header (header, then the asset columns
// when the world has assets) before the first.
func (c *csvWriter) row(header, row []string, r *FrameReport) error {
	if c.rows == 0 {
		if c.assets {
			header = append(slices.Clone(header), csvAssetHeader...)
		}
		c.w.Write(header)
	}
	c.rows++
	if c.assets {
		row = append(row, assetCells(r)...)
	}
	return c.w.Write(row)
}

func (c *csvWriter) Summary(*Summary) error { return nil }

func (c *csvWriter) Flush() error {
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		return err
	}
	return c.bw.Flush()
}

// WriteWarnings writes warnings for a person to read.
func WriteWarnings(w io.Writer, ws []Warning) error {
	bw := bufio.NewWriter(w)
	writeWarnings(bw, ws)
	return bw.Flush()
}

func writeWarnings(bw *bufio.Writer, ws []Warning) error {
	for _, warn := range ws {
		fmt.Fprintf(bw, "warning[%s]: %s\n", warn.Code, warn.Message)
		for _, c := range warn.Cells {
			fmt.Fprintf(bw, "  %s\n", c)
		}
		if warn.More > 0 {
			fmt.Fprintf(bw, "  and %d more\n", warn.More)
		}
	}
	return nil
}

// WriteSummary writes the totals for a person to read.
func WriteSummary(w io.Writer, s *Summary) error {
	bw := bufio.NewWriter(w)
	line := func(label, format string, args ...any) {
		fmt.Fprintf(bw, "  %-22s %s\n", label, fmt.Sprintf(format, args...))
	}
	fmt.Fprintf(bw, "summary of %d frames\n", s.Frames)
	if g := s.Gate; g != nil {
		writeGate(bw, g)
	}
	capText := "no cap"
	if s.MaxResidentBytes != nil {
		capText = fmt.Sprintf("cap %s, %d frames over", byteSize(*s.MaxResidentBytes), s.FramesOverResidentCap)
	}
	line("peak resident", "%s at frame %d (%s)", byteSize(s.PeakResidentBytes), s.PeakResidentFrame, capText)
	if s.PeakPreparedBytes > 0 {
		line("peak prepared", "%s", byteSize(s.PeakPreparedBytes))
	}
	line("peak in flight", "%d", s.PeakInFlight)
	budget := "no budget"
	if s.Budget != nil {
		budget = fmt.Sprintf("budget %s, %d frames over", byteSize(*s.Budget), s.FramesOverBudget)
	}
	line("max requested", "%s in frame %d (%s)", byteSize(s.MaxRequestedBytes), s.MaxRequestedFrame, budget)
	line("loads", "%d (%d prefetches, %d retries, %d proxies)", s.Loads, s.Prefetches, s.Retries, s.Proxies)
	line("published", "%d", s.Published)
	line("unloads", "%d", s.Unloads)
	line("evictions", "%d", s.Evictions)
	line("cancellations", "%d", s.Cancellations)
	line("dropped", "%d", s.Drops)
	line("failures", "%d (%d timeouts, %d cells given up)", s.Failures, s.Timeouts, len(s.GaveUp))
	for _, g := range s.GaveUp {
		line("", "gave up %s at frame %d after %d attempts: %s", g.Cell, g.Frame, g.Attempts, g.Err)
	}
	writeHoles(bw, line, s)
	rr := &s.Residency
	entities := 0
	for _, n := range rr.CellEntityCounts {
		entities += n
	}
	line("resident at the end", "%d cells, %d entities%s", len(rr.ResidentCells), entities, nameList(rr.ResidentCells, 8))
	line("load count", "%d", rr.LoadCount)
	if s.Assets != nil {
		writeAssetSummary(line, s.Assets)
	}
	if io := s.IO; io != nil {
		line("disk reads", "%d, %s", io.Reads, byteSize(io.BytesRead))
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
func writeHoles(bw *bufio.Writer, line func(label, format string, args ...any), s *Summary) {
	if s.HoleFrames == 0 {
		line("hole frames", "0 of %d", s.Frames)
	} else {
		line("hole frames", "%d of %d (first at frame %d, at most %d holes)", s.HoleFrames, s.Frames, s.FirstHoleFrame, s.MaxHoles)
	}
	if s.FirstResidentFrame > 0 {
		line("first position", "fully resident at frame %d", s.FirstResidentFrame)
	} else {
		line("first position", "never fully resident")
	}
	writeEpisodes(bw, s.HoleEpisodes)
}

func writeEpisodes(bw *bufio.Writer, eps []HoleEpisode) {
	if len(eps) == 0 {
		return
	}
	var total [numCauses]int
	for _, e := range eps {
		for _, c := range e.Causes {
			total[c.Cause] += c.CellFrames
		}
	}
	fmt.Fprintf(bw, "  %-22s %d\n", "hole episodes", len(eps))
	for k, e := range eps {
		if k == maxEpisodesShown {
			fmt.Fprintf(bw, "    and %d more episodes (every one is in --format jsonl's summary)\n", len(eps)-k)
			break
		}
		where := make([]string, len(e.Sources))
		for i, src := range e.Sources {
			if src.From == src.To {
				where[i] = fmt.Sprintf("%s at (%s, %s)", src.Source, worldmap.Short(src.From.X), worldmap.Short(src.From.Z))
			} else {
				where[i] = fmt.Sprintf("%s (%s, %s) to (%s, %s)", src.Source,
					worldmap.Short(src.From.X), worldmap.Short(src.From.Z), worldmap.Short(src.To.X), worldmap.Short(src.To.Z))
			}
		}
		span := fmt.Sprintf("%s %s", pluralS(e.Frames(), "frame"), FrameRange{e.First, e.Last})
		fmt.Fprintf(bw, "    %-18s up to %d %s, likely %s; %s\n", span,
			e.MaxHoles, pluralS(e.MaxHoles, "hole"), e.Cause, strings.Join(where, "; "))
		cells := make([]string, len(e.Cells))
		for i, c := range e.Cells {
			cells[i] = fmt.Sprintf("%s (%s, %d %s)", c.Cell, c.Cause, c.Frames, pluralS(c.Frames, "frame"))
		}
		fmt.Fprintf(bw, "      missing %s\n", NameList(cells, 8))
	}
	// What each cause means, once, the most common first (ties: the
	// later cause, which explains the earlier).
	fmt.Fprintf(bw, "  likely causes\n")
	causes := make([]HoleCause, 0, numCauses)
	for c := CauseUnknown; c < numCauses; c++ {
		if total[c] > 0 {
			causes = append(causes, c)
		}
	}
	slices.SortStableFunc(causes, func(a, b HoleCause) int {
		if c := cmp.Compare(total[b], total[a]); c != 0 {
			return c
		}
		return cmp.Compare(b, a)
	})
	for _, c := range causes {
		fmt.Fprintf(bw, "    %-20s %d missing %s: %s\n", c, total[c], pluralS(total[c], "cell-frame"), c.Advice())
	}
}

func writeGate(bw *bufio.Writer, g *GateResult) {
	verdict := "passed"
	if g.Failed {
		verdict = "FAILED"
	}
	warm := fmt.Sprintf("warm-up %d frames", g.Warmup)
	switch {
	case g.WarmupAuto && !g.WarmupEnded:
		warm = "never free of holes"
	case g.WarmupAuto:
		warm = fmt.Sprintf("warm-up until frame %d, the first without holes", g.Warmup)
	}
	fmt.Fprintf(bw, "  %-22s %s (--fail-on %s; %s)\n", "gate", verdict, strings.Join(g.FailOn, ","), warm)
	for _, b := range g.Breaches {
		fmt.Fprintf(bw, "    %-20s %s\n", b.Condition, b.Detail)
		fmt.Fprintf(bw, "    %-20s frames %s\n", "", FrameList(b.Frames, 10))
		if len(b.Cells) > 0 {
			fmt.Fprintf(bw, "    %-20s cells %s\n", "", NameList(b.Cells, 10))
		}
	}
}

func pluralS(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func (d DurationStat) String() string {
	return fmt.Sprintf("mean %.3f ms, p95 %.3f ms, max %.3f ms", d.MeanMS, d.P95MS, d.MaxMS)
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

// byteSize renders a byte count exactly, with a binary-unit reading from
// a mebibyte up: "11680 B", "3145728 B (3.0 MiB)".
func byteSize(n int64) string {
	if n < 1<<20 && n > -1<<20 {
		return fmt.Sprintf("%d B", n)
	}
	units := []string{"MiB", "GiB", "TiB"}
	v := float64(n) / (1 << 20)
	u := 0
	for (v >= 1024 || v <= -1024) && u < len(units)-1 {
		v /= 1024
		u++
	}
	return fmt.Sprintf("%d B (%.1f %s)", n, v, units[u])
}
