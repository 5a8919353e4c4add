package streaming

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
)

// Formats of the per-frame report.
const (
	FormatTable = "table"
	FormatJSONL = "jsonl"
	FormatCSV   = "csv"
)

// ReportWriter writes frame reports as they come and the summary at the
// end, in one format.
type ReportWriter interface {
	Frame(r *FrameReport) error
	// Summary writes the totals. The CSV writer writes none: a CSV holds
	// one kind of row; write the summary elsewhere with WriteSummary.
	Summary(s *Summary) error
	// Flush writes anything buffered.
	Flush() error
}

// NewReportWriter returns a writer for format (table, jsonl or csv).
func NewReportWriter(format string, w io.Writer, opts ...WriterOption) (ReportWriter, error) {
	var o writerOptions
	for _, f := range opts {
		f(&o)
	}
	bw := bufio.NewWriter(w)
	switch format {
	case "", FormatTable:
		return &tableWriter{w: bw, assets: o.assets}, nil
	case FormatJSONL:
		return &jsonlWriter{w: bw}, nil
	case FormatCSV:
		return &csvWriter{w: csv.NewWriter(bw), bw: bw, assets: o.assets}, nil
	}
	return nil, fmt.Errorf("format %q must be table, jsonl or csv", format)
}

type tableWriter struct {
	w      *bufio.Writer
	rows   int
	assets bool
}

const tableHeader = "frame   req  done   pub  prep  drop  cncl  unld  evct  fail  resident  inflight  resident B  request B  holes\n"

func (t *tableWriter) Frame(r *FrameReport) error {
	if t.rows == 0 {
		t.w.WriteString(tableHeader[:len(tableHeader)-1])
		if t.assets {
			t.w.WriteString(tableAssetHeader)
		}
		t.w.WriteString("\n")
	}
	t.rows++
	if t.assets {
		return t.assetRow(r)
	}
	_, err := fmt.Fprintf(t.w, "%5d %5d %5d %5d %5d %5d %5d %5d %5d %5d %9d %9d %11d %10d %6d\n",
		r.Frame, len(r.Requested), len(r.Completed), len(r.Published), len(r.Prepared), len(r.Dropped),
		len(r.Cancelled), len(r.Unloaded), len(r.Evicted), len(r.Failed),
		r.Resident, r.InFlight, r.ResidentBytes, r.RequestedBytes, len(r.Holes))
	return err
}

func (t *tableWriter) Summary(s *Summary) error {
	t.w.WriteString("\n")
	return WriteSummary(t.w, s)
}

func (t *tableWriter) Flush() error { return t.w.Flush() }

type jsonlWriter struct{ w *bufio.Writer }

// jsonFrame puts the discriminator first and never writes a list as null.
type jsonFrame struct {
	MessageType string `json:"message_type"`
	FrameReport
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

var csvHeader = []string{"frame", "requested", "completed", "prepared", "published", "cancelled",
	"unloaded", "evicted", "dropped", "failed", "resident", "inFlight", "residentBytes",
	"preparedBytes", "requestedBytes", "holes"}

// Lists in a CSV cell are joined with ';', which cell names do not use.
func (c *csvWriter) Frame(r *FrameReport) error {
	if c.rows == 0 {
		if c.assets {
			c.w.Write(append(slices.Clone(csvHeader), csvAssetHeader...))
		} else {
			c.w.Write(csvHeader)
		}
	}
	c.rows++
	j := func(xs []string) string { return strings.Join(xs, ";") }
	i := strconv.Itoa
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	row := []string{i(r.Frame), j(r.Requested), j(r.Completed), j(r.Prepared), j(r.Published),
		j(r.Cancelled), j(r.Unloaded), j(r.Evicted), j(r.Dropped), j(r.Failed), i(r.Resident), i(r.InFlight),
		i64(r.ResidentBytes), i64(r.PreparedBytes), i64(r.RequestedBytes), j(r.Holes)}
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

// WriteSummary writes the totals for a person to read.
func WriteSummary(w io.Writer, s *Summary) error {
	bw := bufio.NewWriter(w)
	line := func(label, format string, args ...any) {
		fmt.Fprintf(bw, "  %-22s %s\n", label, fmt.Sprintf(format, args...))
	}
	fmt.Fprintf(bw, "summary of %d frames\n", s.Frames)
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
