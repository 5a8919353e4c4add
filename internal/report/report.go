// Package report renders what a run of `worldcook simulate` did (a
// simulate.Result): the per-frame report in each format (table, jsonl,
// csv), one writer per format over both policies, the summaries, the
// side-by-side comparison, and the drawings (--plot, --map).
package report

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// Formats of the per-frame report.
const (
	FormatTable = "table"
	FormatJSONL = "jsonl"
	FormatCSV   = "csv"
)

// format is one per-frame report format: its name and its writer over
// bw for a policy's run (runtime: under Estella's runtime). A new format
// is one more entry in formats, with its writer in a file of its own;
// --format's values follow Formats (a cmd test checks them).
type format struct {
	name   string
	writer func(bw *bufio.Writer, runtime bool, o WriterOptions) Writer
}

// formats are the formats, in the order the help lists them.
var formats = []format{
	{FormatTable, func(bw *bufio.Writer, runtime bool, o WriterOptions) Writer {
		return &tableWriter{w: bw, runtime: runtime, human: o.Human && !runtime, assets: o.Assets, plane: o.Plane}
	}},
	{FormatJSONL, func(bw *bufio.Writer, _ bool, o WriterOptions) Writer {
		return &jsonlWriter{w: bw, assets: o.Assets}
	}},
	{FormatCSV, func(bw *bufio.Writer, runtime bool, o WriterOptions) Writer {
		return &csvWriter{w: csv.NewWriter(bw), bw: bw, runtime: runtime, assets: o.Assets, plane: o.Plane}
	}},
}

// Formats are the formats' names, in the order the help lists them.
var Formats = func() []string {
	out := make([]string, len(formats))
	for k, f := range formats {
		out[k] = f.name
	}
	return out
}()

// formatOf returns format name ("" is table), or an error naming the
// formats there are.
func formatOf(name string) (format, error) {
	if name == "" {
		name = FormatTable
	}
	for _, f := range formats {
		if f.name == name {
			return f, nil
		}
	}
	return format{}, fmt.Errorf("format %q must be %s or %s", name, strings.Join(Formats[:len(Formats)-1], ", "), Formats[len(Formats)-1])
}

// Writer writes one policy's report in one format: the warnings about its
// setup, its frames and its summary, in the order the caller chooses (a
// person reads the summary first; a log keeps frames as they come).
type Writer interface {
	// Warnings writes warnings about the run's setup. The CSV writer
	// writes none: write them elsewhere with WriteWarnings.
	Warnings(ws []streaming.Warning) error
	// Frame writes one frame; rt holds the runtime's additions under
	// Estella's runtime (nil under the budgeted policy).
	Frame(f *streaming.FrameReport, rt *streaming.RuntimeFrame) error
	// Summary writes the run's totals. The CSV writer writes none: a CSV
	// holds one kind of row; write the summary elsewhere with
	// WritePolicySummary.
	Summary(p *simulate.PolicyRun) error
	// Flush writes anything buffered.
	Flush() error
}

// WriterOptions shape a writer for its reader.
type WriterOptions struct {
	// Human renders the budgeted table's byte counts in binary units
	// (12.3 KiB) for a person at a terminal; files and pipes get exact
	// counts (as the runtime's table always does).
	Human bool
	// Assets adds the asset columns (resident asset bytes, asset loads
	// and unloads) to the table and CSV, and the asset fields to every
	// JSONL frame, zeros included, for a run that counts assets.
	Assets bool
	// Plane is the world's partition plane (xz or xy, "" is xz): the
	// positions' second coordinate is named after it (z or y).
	Plane string
}

// NewWriter returns a writer of policy's report in format (table, jsonl
// or csv; "" is table).
func NewWriter(format string, w io.Writer, policy simulate.Policy, o WriterOptions) (Writer, error) {
	f, err := formatOf(format)
	if err != nil {
		return nil, err
	}
	return f.writer(bufio.NewWriter(w), policy == simulate.Estella, o), nil
}

// Options are how a run's report is laid out.
type Options struct {
	// Format is table, jsonl or csv ("" is table).
	Format string
	// Terminal says the report goes to a person's terminal: the budgeted
	// table then opens with the summary and renders sizes in binary
	// units. A file or a pipe gets rows as they are made, so that a long
	// run can be followed, and the summary last.
	Terminal bool
	// SummaryOnly leaves the rows out (csv: the summary as text).
	SummaryOnly bool
	// Rows prints the table's per-frame rows on a terminal too: without
	// it a person's terminal gets the warnings and the summary, which a
	// thousand rows would scroll away. A file or a pipe always gets the
	// rows, and so does a machine format.
	Rows bool
}

// Report renders a run as it goes: Watch writes the rows the run makes,
// Finish the rest once it returns. Frames go to out; what a CSV cannot
// hold (warnings, the summary) goes to aside.
type Report struct {
	out, aside io.Writer
	format     string
	o          Options
	w          Writer
	// err is the first error the report's Watch returned.
	err error
}

// New returns a report in o's format.
func New(out, aside io.Writer, o Options) (*Report, error) {
	f, err := formatOf(o.Format)
	if err != nil {
		return nil, err
	}
	format := f.name
	if o.SummaryOnly && format == FormatCSV {
		format = FormatTable // no rows: the summary as text
	}
	return &Report{out: out, aside: aside, format: format, o: o}, nil
}

// rows says the report prints the per-frame rows.
func (r *Report) rows() bool {
	return !r.o.SummaryOnly && (!r.o.Terminal || r.o.Rows || r.format != FormatTable)
}

// summaryFirst says the budgeted report opens with its summary.
func (r *Report) summaryFirst() bool {
	return r.o.SummaryOnly || (r.o.Terminal && r.format == FormatTable)
}

// Watch is what the run calls as it goes: it writes the warnings before
// the first frame and the rows as they are made, unless the summary comes
// first. A comparison prints nothing until it ends.
func (r *Report) Watch(o simulate.Options) simulate.Watch {
	if o.Compare {
		return simulate.Watch{}
	}
	w := simulate.Watch{Begin: func(p *simulate.PolicyRun) error { return r.failed(r.begin(p)) }}
	if r.rows() && (o.Policy == simulate.Estella || !r.summaryFirst()) {
		w.Frame = func(_ *simulate.PolicyRun, f *streaming.FrameReport, rt *streaming.RuntimeFrame) error {
			return r.failed(r.w.Frame(f, rt))
		}
	}
	return w
}

// failed keeps the first error the report met while the run went.
func (r *Report) failed(err error) error {
	if r.err == nil {
		r.err = err
	}
	return err
}

// Err is the first error the report met writing as the run went: a run
// that returns it failed to write its report, not to run.
func (r *Report) Err() error { return r.err }

func (r *Report) begin(p *simulate.PolicyRun) error {
	w, err := NewWriter(r.format, r.out, p.Policy, WriterOptions{Human: r.o.Terminal, Assets: p.Assets, Plane: p.World.Plane})
	if err != nil {
		return err
	}
	r.w = w
	if r.format == FormatCSV {
		return WriteWarnings(r.aside, p.Warnings)
	}
	return w.Warnings(p.Warnings)
}

// Finish writes what is left of the report once the run has returned:
// the summary (before the rows when it comes first), or the comparison.
func (r *Report) Finish(res *simulate.Result) error {
	if res.Compare {
		// The warnings of both runs, each once, then the comparison.
		if r.format == FormatJSONL {
			j := &jsonlWriter{w: bufio.NewWriter(r.out)}
			if err := j.Warnings(res.Warnings()); err != nil {
				return err
			}
			if err := j.Flush(); err != nil {
				return err
			}
			return WriteComparisonJSON(r.out, res)
		}
		if ws := res.Warnings(); len(ws) > 0 {
			if err := WriteWarnings(r.out, ws); err != nil {
				return err
			}
			fmt.Fprintln(r.out)
		}
		return WriteComparison(r.out, res)
	}
	p := res.Runs[0]
	if r.w == nil {
		if err := r.begin(p); err != nil {
			return err
		}
	}
	if err := r.w.Summary(p); err != nil {
		return err
	}
	if p.Policy == simulate.Budgeted && r.summaryFirst() && r.rows() {
		for i := range p.Frames {
			if err := r.w.Frame(&p.Frames[i], nil); err != nil {
				return err
			}
		}
	}
	if err := r.w.Flush(); err != nil {
		return err
	}
	if r.format == FormatCSV {
		// A CSV holds frames only; the totals go aside for a person.
		return WritePolicySummary(r.aside, p)
	}
	return nil
}

// WritePolicySummary writes a run's totals for a person to read, as its
// policy reports them.
func WritePolicySummary(w io.Writer, p *simulate.PolicyRun) error {
	if p.Policy == simulate.Estella {
		s := p.EstellaSummary()
		return WriteEstellaSummary(w, &s)
	}
	return WriteSummary(w, &p.Summary)
}
