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

// EstellaWriter writes the runtime scheduler's frames as they come and its
// summary at the end, in one format.
type EstellaWriter interface {
	Frame(r *EstellaFrame) error
	// Summary writes the totals (the CSV writer writes none; see
	// ReportWriter.Summary).
	Summary(s *EstellaSummary) error
	Flush() error
}

// NewEstellaWriter returns a writer for format (table, jsonl or csv).
func NewEstellaWriter(format string, w io.Writer) (EstellaWriter, error) {
	return NewEstellaReport(format, w, ReportOptions{})
}

// NewEstellaReport returns a writer for format with options; of them, the
// runtime's table and CSV use Assets (their byte counts stay exact).
func NewEstellaReport(format string, w io.Writer, o ReportOptions) (EstellaWriter, error) {
	bw := bufio.NewWriter(w)
	switch format {
	case "", FormatTable:
		return &estTable{tableWriter{w: bw, assets: o.Assets}}, nil
	case FormatJSONL:
		return &estJSONL{jsonlWriter{w: bw}}, nil
	case FormatCSV:
		return &estCSV{csvWriter{w: csv.NewWriter(bw), bw: bw, assets: o.Assets}}, nil
	}
	return nil, fmt.Errorf("format %q must be table, jsonl or csv", format)
}

// estTable and estCSV are the seed writers with the runtime's columns; the
// asset columns, for a world with assets, go last.
type estTable struct{ tableWriter }

const estTableHeader = "frame   req  done  prep  pubg   pub  cncl  unld  fail   hit  miss  resident  inflight  resident B  request B  holes"

func (t *estTable) Frame(r *EstellaFrame) error {
	if t.rows == 0 {
		if t.assets {
			t.w.WriteString("columns:" + tableAssetLegend[1:])
			t.w.WriteString(estTableHeader + tableAssetHeader + "\n")
		} else {
			t.w.WriteString(estTableHeader + "\n")
		}
	}
	t.rows++
	var assets string
	if t.assets {
		assets = assetColumns(&r.FrameReport, func(n int64, width int) string { return fmt.Sprintf("%*d", width, n) })
	}
	_, err := fmt.Fprintf(t.w, "%5d %5d %5d %5d %5d %5d %5d %5d %5d %5d %5d %9d %9d %11d %10d %6d%s\n",
		r.Frame, len(r.Requested), len(r.Completed), len(r.Prepared), len(r.Publishing), len(r.Published),
		len(r.Cancelled), len(r.Unloaded), len(r.Failed), len(r.Hits), len(r.Misses),
		r.Resident, r.InFlight, r.ResidentBytes, r.RequestedBytes, len(r.Holes), assets)
	return err
}

func (t *estTable) Summary(s *EstellaSummary) error {
	t.w.WriteString("\n")
	return WriteEstellaSummary(t.w, s)
}

type estJSONL struct{ jsonlWriter }

func (j *estJSONL) Frame(r *EstellaFrame) error {
	f := *r
	for _, l := range append(f.lists(), &f.Publishing, &f.Hits, &f.Misses) {
		if *l == nil {
			*l = []string{}
		}
	}
	if f.Arrived == nil {
		f.Arrived = []Arrival{}
	}
	return j.joined(jsonFrame{MessageType: "frame", FrameReport: f.FrameReport}, f.RuntimeFrame)
}

func (j *estJSONL) Summary(s *EstellaSummary) error {
	return j.joined(struct {
		MessageType string `json:"message_type"`
		Policy      string `json:"policy"`
		*Summary
	}{"summary", "estella", &s.Summary}, struct {
		Runtime *RuntimeReport `json:"runtime"`
	}{&s.Runtime})
}

// joined writes the members of two objects as one JSON line. go-json drops
// the fields of a struct that embeds a struct embedding another, so the
// seed report and the runtime's additions are encoded apart.
func (j *estJSONL) joined(a, b any) error {
	ab, err := json.Marshal(a)
	if err != nil {
		return err
	}
	bb, err := json.Marshal(b)
	if err != nil {
		return err
	}
	j.w.Write(ab[:len(ab)-1])
	j.w.WriteByte(',')
	j.w.Write(bb[1:])
	return j.w.WriteByte('\n')
}

type estCSV struct{ csvWriter }

var estCSVHeader = []string{"frame", "requested", "completed", "prepared", "publishing", "published",
	"cancelled", "unloaded", "failed", "prefetchHits", "prefetchMisses", "cancelledRefs", "arrived",
	"resident", "inFlight", "residentBytes", "preparedBytes", "requestedBytes", "holes"}

// Arrivals are written cell:demandToResident:dwell, joined with ';'.
func (c *estCSV) Frame(r *EstellaFrame) error {
	j := func(xs []string) string { return strings.Join(xs, ";") }
	i := strconv.Itoa
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	arrived := make([]string, len(r.Arrived))
	for k, a := range r.Arrived {
		arrived[k] = fmt.Sprintf("%s:%d:%d", a.Cell, a.DemandToResident, a.Dwell)
	}
	row := []string{i(r.Frame), j(r.Requested), j(r.Completed), j(r.Prepared), j(r.Publishing),
		j(r.Published), j(r.Cancelled), j(r.Unloaded), j(r.Failed), j(r.Hits), j(r.Misses), i(r.CancelledRefs),
		j(arrived), i(r.Resident), i(r.InFlight), i64(r.ResidentBytes), i64(r.PreparedBytes),
		i64(r.RequestedBytes), j(r.Holes)}
	return c.row(estCSVHeader, row, &r.FrameReport)
}

func (c *estCSV) Summary(*EstellaSummary) error { return nil }

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
	return fmt.Sprintf("mean %.1f, max %d frames over %d cells", float64(f.sum)/float64(f.n), f.most, f.n)
}

// WriteEstellaSummary writes the runtime scheduler's totals and its
// worldResidencyReport for a person to read.
func WriteEstellaSummary(w io.Writer, s *EstellaSummary) error {
	bw := bufio.NewWriter(w)
	line := func(label, format string, args ...any) {
		fmt.Fprintf(bw, "  %-22s %s\n", label, fmt.Sprintf(format, args...))
	}
	rt := &s.Runtime
	fmt.Fprintf(bw, "summary of %d frames (Estella runtime scheduler: no budget, cap or LOD)\n", s.Frames)
	if g := s.Gate; g != nil {
		writeGate(bw, g)
	}
	line("peak resident", "%s at frame %d", byteSize(s.PeakResidentBytes), s.PeakResidentFrame)
	if s.PeakPreparedBytes > 0 {
		line("peak prepared", "%s", byteSize(s.PeakPreparedBytes))
	}
	line("peak in flight", "%d", s.PeakInFlight)
	line("max requested", "%s in frame %d", byteSize(s.MaxRequestedBytes), s.MaxRequestedFrame)
	line("preparations", "%d (%d for speculation)", rt.PrepareCount, rt.PrefetchRequests)
	line("publishes", "%d started, %d resident", rt.LoadCount, s.Published)
	line("unloads", "%d", rt.UnloadCount)
	line("discarded prepared", "%d (%d references released)", rt.CancelCount, rt.CancelledRefs)
	line("failures", "%d preparations", s.Failures)
	line("prefetch", "%d hits, %d misses", rt.PrefetchHits, rt.PrefetchMisses)
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
	line("demand to resident", "%s (last delivery of each cell; last %d)", dtr, rt.LastDemandToResident)
	line("dwell before a hit", "%s", dwell)
	writeHoles(bw, line, &s.Summary)
	if s.Assets != nil {
		writeAssetSummary(line, s.Assets)
	}
	entities := 0
	for _, n := range rt.CellEntityCounts {
		entities += n
	}
	fmt.Fprintf(bw, "  worldResidencyReport at the end (%d cells, %d sources)\n", rt.CellCount, rt.SourceCount)
	line("residentCells", "%d, %d entities%s", len(rt.ResidentCells), entities, nameList(rt.ResidentCells, 8))
	line("desiredCells", "%d%s", len(rt.DesiredCells), nameList(rt.DesiredCells, 8))
	line("prefetchCells", "%d%s", len(rt.PrefetchCells), nameList(rt.PrefetchCells, 8))
	line("preparedCells", "%d%s", len(rt.PreparedCells), nameList(rt.PreparedCells, 8))
	line("loadingCells", "%d%s", len(rt.LoadingCells), nameList(rt.LoadingCells, 8))
	line("unloadingCells", "%d%s", len(rt.UnloadingCells), nameList(rt.UnloadingCells, 8))
	if rt.AssetRefsByCell != nil {
		line("assetRefsByCell", "%s", assetRefs(rt.ResidentCells, *rt.AssetRefsByCell))
	}
	line("loadCount", "%d", rt.LoadCount)
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

// Comparison is the same route under both policies.
type Comparison struct {
	Seed    Summary        `json:"seed"`
	Estella EstellaSummary `json:"estella"`
}

// WriteComparison prints the two policies side by side: holes, peaks and
// loads, so that what a budget buys (or costs) shows at a glance.
func WriteComparison(w io.Writer, c *Comparison) error {
	bw := bufio.NewWriter(w)
	s, e := &c.Seed, &c.Estella
	fmt.Fprintf(bw, "%-24s %22s %22s\n", fmt.Sprintf("%d frames", s.Frames), "seed (budgeted)", "estella (runtime)")
	row := func(label, a, b string) { fmt.Fprintf(bw, "%-24s %22s %22s\n", label, a, b) }
	d := strconv.Itoa
	first := func(f int) string {
		if f == 0 {
			return "never"
		}
		return "frame " + d(f)
	}
	row("hole frames", d(s.HoleFrames), d(e.HoleFrames))
	row("most holes in a frame", d(s.MaxHoles), d(e.MaxHoles))
	row("first hole", first(s.FirstHoleFrame), first(e.FirstHoleFrame))
	row("first fully resident", first(s.FirstResidentFrame), first(e.FirstResidentFrame))
	row("peak resident bytes", strconv.FormatInt(s.PeakResidentBytes, 10), strconv.FormatInt(e.PeakResidentBytes, 10))
	row("peak prepared bytes", strconv.FormatInt(s.PeakPreparedBytes, 10), strconv.FormatInt(e.PeakPreparedBytes, 10))
	row("peak in flight", d(s.PeakInFlight), d(e.PeakInFlight))
	row("max bytes in a frame", strconv.FormatInt(s.MaxRequestedBytes, 10), strconv.FormatInt(e.MaxRequestedBytes, 10))
	row("loads (prefetches)", fmt.Sprintf("%d (%d)", s.Loads, s.Prefetches), fmt.Sprintf("%d (%d)", e.Loads, e.Prefetches))
	row("published", d(s.Published), d(e.Published))
	row("unloads", d(s.Unloads), d(e.Unloads))
	row("evictions", d(s.Evictions), "-")
	row("cancelled / discarded", d(s.Cancellations+s.Drops), d(e.Cancellations))
	row("failures", d(s.Failures), d(e.Failures))
	if s.Assets != nil || e.Assets != nil {
		asset := func(a *AssetSummary, f func(*AssetSummary) string) string {
			if a == nil {
				return "-"
			}
			return f(a)
		}
		both := func(label string, f func(*AssetSummary) string) { row(label, asset(s.Assets, f), asset(e.Assets, f)) }
		both("peak asset bytes", func(a *AssetSummary) string { return strconv.FormatInt(a.PeakResidentAssetBytes, 10) })
		both("asset loads (unloads)", func(a *AssetSummary) string { return fmt.Sprintf("%d (%d)", a.Loads, a.Unloads) })
		both("assets reloaded", func(a *AssetSummary) string { return d(a.Reloaded) })
	}
	row("resident at the end", d(len(s.Residency.ResidentCells)), d(len(e.Residency.ResidentCells)))
	return bw.Flush()
}

// WriteComparisonJSON writes the comparison as one JSON line.
func WriteComparisonJSON(w io.Writer, c *Comparison) error {
	b, err := json.Marshal(struct {
		MessageType string   `json:"message_type"`
		Seed        *Summary `json:"seed"`
		// go-json drops the members of a doubly embedded struct; see
		// estJSONL.joined.
		Estella *Summary       `json:"estella"`
		Runtime *RuntimeReport `json:"estellaRuntime"`
	}{"comparison", &c.Seed, &c.Estella.Summary, &c.Estella.Runtime})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
