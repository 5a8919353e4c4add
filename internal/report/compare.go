package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// sides returns a comparison's budgeted and runtime runs.
func sides(res *simulate.Result) (budgeted, runtime *simulate.PolicyRun, err error) {
	for _, p := range res.Runs {
		switch p.Policy {
		case simulate.Budgeted:
			budgeted = p
		case simulate.Estella:
			runtime = p
		}
	}
	if budgeted == nil || runtime == nil {
		return nil, nil, fmt.Errorf("a comparison needs a run of both policies")
	}
	return budgeted, runtime, nil
}

// WriteComparison prints the two policies side by side: holes, peaks and
// loads, so that what a budget buys (or costs) shows at a glance; with
// --fail-on, each policy's verdict.
func WriteComparison(w io.Writer, res *simulate.Result) error {
	b, r, err := sides(res)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	s, e := &b.Summary, &r.Summary
	// The policies as --policy names them (the JSON keeps "seed", the
	// budgeted policy's former name, for the readers that parse it).
	fmt.Fprintf(bw, "%-24s %22s %22s\n", fmt.Sprintf("%d frames", s.Frames), "budgeted", "estella (runtime)")
	row := func(label, a, b string) { fmt.Fprintf(bw, "%-24s %22s %22s\n", label, a, b) }
	d := strconv.Itoa
	first := func(f *int) string {
		if f == nil {
			return "never"
		}
		return "frame " + d(*f)
	}
	firstHole := func(s *streaming.Summary) *int {
		if s.HoleFrames == 0 {
			return nil
		}
		return &s.FirstHoleFrame
	}
	if s.Gate != nil && e.Gate != nil {
		verdict := func(g *streaming.GateResult) string {
			if g.Failed {
				return "FAILED"
			}
			return "passed"
		}
		row("gate", verdict(s.Gate), verdict(e.Gate))
	}
	row("hole frames", d(s.HoleFrames), d(e.HoleFrames))
	row("most holes in a frame", d(s.MaxHoles), d(e.MaxHoles))
	row("first hole", first(firstHole(s)), first(firstHole(e)))
	row("first fully resident", first(s.FirstResidentFrame), first(e.FirstResidentFrame))
	if s.View || e.View {
		row("pop-in frames", d(s.PopInFrames), d(e.PopInFrames))
		row("most pop-in in a frame", d(s.MaxPopIn), d(e.MaxPopIn))
		firstPopIn := func(s *streaming.Summary) *int {
			if s.PopInFrames == 0 {
				return nil
			}
			return &s.FirstPopInFrame
		}
		row("first pop-in", first(firstPopIn(s)), first(firstPopIn(e)))
	}
	row("peak resident bytes", strconv.FormatInt(s.PeakResidentBytes, 10), strconv.FormatInt(e.PeakResidentBytes, 10))
	row("peak prepared bytes", strconv.FormatInt(s.PeakPreparedBytes, 10), strconv.FormatInt(e.PeakPreparedBytes, 10))
	row("peak in flight", d(s.PeakInFlight), d(e.PeakInFlight))
	row("max requested in a frame", strconv.FormatInt(s.MaxRequestedBytes, 10), strconv.FormatInt(e.MaxRequestedBytes, 10))
	row("requests (prefetches)", fmt.Sprintf("%d (%d)", s.Loads, s.Prefetches), fmt.Sprintf("%d (%d)", e.Loads, e.Prefetches))
	row("published", d(s.Published), d(e.Published))
	row("unloads", d(s.Unloads), d(e.Unloads))
	row("evictions", d(s.Evictions), "-")
	row("cancelled / discarded", d(s.Cancellations+s.Drops), d(e.Cancellations))
	row("failures", d(s.Failures), d(e.Failures))
	if s.Assets != nil || e.Assets != nil {
		asset := func(a *streaming.AssetSummary, f func(*streaming.AssetSummary) string) string {
			if a == nil {
				return "-"
			}
			return f(a)
		}
		both := func(label string, f func(*streaming.AssetSummary) string) {
			row(label, asset(s.Assets, f), asset(e.Assets, f))
		}
		both("peak asset bytes", func(a *streaming.AssetSummary) string { return strconv.FormatInt(a.PeakResidentAssetBytes, 10) })
		both("asset loads (unloads)", func(a *streaming.AssetSummary) string { return fmt.Sprintf("%d (%d)", a.Loads, a.Unloads) })
		both("assets reloaded", func(a *streaming.AssetSummary) string { return d(a.Reloaded) })
	}
	row("resident at the end", d(len(s.Residency.ResidentCells)), d(len(e.Residency.ResidentCells)))
	return bw.Flush()
}

// WriteComparisonJSON writes the comparison as one JSON line: the
// budgeted policy's summary under "seed", its historical key, the
// runtime's under "estella" and its worldResidencyReport under
// "estellaRuntime"; each summary's gate with --fail-on.
func WriteComparisonJSON(w io.Writer, res *simulate.Result) error {
	b, r, err := sides(res)
	if err != nil {
		return err
	}
	// The comparison carries totals and verdicts; each policy's hole
	// episodes are in the summary of its own run (--policy).
	s, e := totals(b.Summary), totals(r.Summary)
	rt := r.EstellaSummary().Runtime
	out, err := json.Marshal(struct {
		MessageType string             `json:"message_type"`
		Budgeted    *streaming.Summary `json:"seed"`
		// go-json drops the members of a doubly embedded struct; see
		// jsonlWriter.joined.
		Estella *streaming.Summary       `json:"estella"`
		Runtime *streaming.RuntimeReport `json:"estellaRuntime"`
	}{"comparison", &s, &e, &rt})
	if err != nil {
		return err
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// totals is a summary without its hole and pop-in episodes.
func totals(s streaming.Summary) streaming.Summary {
	s.HoleEpisodes = []streaming.HoleEpisode{}
	s.PopInEpisodes = []streaming.HoleEpisode{}
	return s
}
