package report

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// TestReferenceGolden keeps the reference demo's full report in every
// format.
func TestReferenceGolden(t *testing.T) {
	p := runSeed(t)
	for _, f := range Formats {
		golden(t, "seed000."+f, render(t, f, p, WriterOptions{}))
	}
}

func TestJSONLinesParse(t *testing.T) {
	p := runSeed(t)
	lines := bytes.Split(bytes.TrimSpace(render(t, FormatJSONL, p, WriterOptions{})), []byte("\n"))
	if len(lines) != 61 {
		t.Fatalf("%d lines, want 60 frames and a summary", len(lines))
	}
	var frame map[string]any
	if err := json.Unmarshal(lines[0], &frame); err != nil {
		t.Fatal(err)
	}
	if frame["message_type"] != "frame" || frame["holes"] == nil || frame["evicted"] == nil {
		t.Errorf("frame line %s", lines[0])
	}
	var s struct {
		MessageType string `json:"message_type"`
		streaming.Summary
	}
	if err := json.Unmarshal(lines[60], &s); err != nil {
		t.Fatal(err)
	}
	if s.MessageType != "summary" || s.PeakResidentBytes != 11680 || s.Residency.LoadCount != p.Summary.Residency.LoadCount {
		t.Errorf("summary line %s", lines[60])
	}
}

func TestFormatUnknown(t *testing.T) {
	for _, policy := range []simulate.Policy{simulate.Budgeted, simulate.Estella} {
		if _, err := NewWriter("xml", &bytes.Buffer{}, policy, WriterOptions{}); err == nil {
			t.Errorf("%s: xml accepted", policy)
		}
	}
	if _, err := New(&bytes.Buffer{}, &bytes.Buffer{}, Options{Format: "xml"}); err == nil {
		t.Error("a report in xml accepted")
	}
}

// TestHoleEpisodesText keeps the busy scenario's episodes and gate as a
// person reads them (streaming's TestHoleEpisodesGolden keeps them as
// JSON).
func TestHoleEpisodesText(t *testing.T) {
	reps, sum := busyRun(t)
	streaming.Conclude(&sum, reps, streaming.Gate{FailOn: streaming.FailConditions})
	var text bytes.Buffer
	if err := WriteSummary(&text, &sum); err != nil {
		t.Fatal(err)
	}
	golden(t, "episodes.txt", text.Bytes())
}

// TestTableLayout: a report can open with its warnings and summary and
// follow with the rows; humanised sizes only when asked.
func TestTableLayout(t *testing.T) {
	p := runSeed(t)
	var buf bytes.Buffer
	w, _ := NewWriter(FormatTable, &buf, simulate.Budgeted, WriterOptions{Human: true})
	w.Warnings([]streaming.Warning{{Code: "x", Severity: diag.SeverityWarning, Message: "careful", Subject: diag.Subject{Cells: []string{"a"}, More: 2}}})
	w.Summary(p)
	for i := range p.Frames {
		w.Frame(&p.Frames[i], nil)
	}
	w.Flush()
	out := buf.String()
	order := []string{"warning[x]: careful\n  a\n  and 2 more\n", "\nsummary of 60 frames", "\ncolumns: ", "position is where Camera stood", "frame   req", "    1 "}
	at := 0
	for _, want := range order {
		i := strings.Index(out[at:], want)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%.600s", want, out)
		}
		at += i
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "   14 ") && !strings.Contains(sc.Text(), "11.4 KiB") {
			t.Errorf("frame 14 not humanised: %s", sc.Text())
		}
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 12595: "12.3 KiB", 3 << 20: "3.0 MiB", -2048: "-2.0 KiB"} {
		if got := humanBytes(n); got != want {
			t.Errorf("humanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestEstellaWriters: each format writes the runtime's columns and its
// worldResidencyReport.
func TestEstellaWriters(t *testing.T) {
	p := estellaRow(t, rowWorld(4), src("camera", 0, 15, 5, 8), streaming.EstellaHost{Prepare: streaming.ModelIO{LatencyFrames: 1}}, []float64{5, 5, 16})
	for _, tc := range []struct {
		format string
		want   []string
	}{
		{FormatTable, []string{"frame   req  done  prep  pubg", "prefetch               1 hit, 2 misses", "worldResidencyReport at the end (4 cells, 1 source)"}},
		{FormatJSONL, []string{`{"message_type":"frame","frame":3,`, `"prefetchHits":["c02"]`, `"arrived":[{"cell":"c02","deliveryFrames":2,"prepareFrames":1,"publishFrames":0,"demandToResidentFrames":0,"dwellFrames":1,"outcome":"hit"}]`,
			`{"message_type":"summary","policy":"estella","frames":3,`, `"runtime":{"streamed":true,"cellCount":4,`, `"prefetchHits":1,"prefetchMisses":2,`}},
		{FormatCSV, []string{"frame,requested,completed,prepared,publishing,", "3,c03,,,c02,c02,,,,c02,,0,c02:0:1,3,1,"}},
	} {
		out := string(render(t, tc.format, p, WriterOptions{Human: true}))
		for _, s := range tc.want {
			if !strings.Contains(out, s) {
				t.Errorf("%s output lacks %q:\n%s", tc.format, s, out)
			}
		}
	}
}

// TestEstellaAssetReportsAreDeterministic: the same run writes the same
// bytes in every format.
func TestEstellaAssetReportsAreDeterministic(t *testing.T) {
	write := func(format string) string {
		p := estellaRow(t, assetWorld(6), src("camera", 5, 15, 4, 6), streaming.EstellaHost{Prepare: streaming.ModelIO{LatencyFrames: 2}, UnloadFrames: 1},
			[]float64{5, 9, 14, 22, 33, 48, 60, 30, 5, -20, -20})
		return string(render(t, format, p, WriterOptions{Assets: p.Assets}))
	}
	for _, tc := range []struct {
		format string
		want   []string
	}{
		{FormatTable, []string{"holes  popin   asset B  a+  a-", "peak resident assets   1800 B", "assetRefsByCell        "}},
		{FormatJSONL, []string{`"residentAssetBytes":300`, `"assets":{"distinct":3,`, `"assetRefsByCell":{}`}},
		{FormatCSV, []string{",holes,popIn,residentAssetBytes,assetLoads,assetUnloads\n"}},
	} {
		first := write(tc.format)
		if again := write(tc.format); again != first {
			t.Errorf("%s: two runs differ", tc.format)
		}
		for _, s := range tc.want {
			if !strings.Contains(first, s) {
				t.Errorf("%s output lacks %q:\n%s", tc.format, s, first)
			}
		}
	}
}

// comparison is a result of both policies with the given summaries.
func comparison(b, e streaming.Summary) *simulate.Result {
	return &simulate.Result{Compare: true, Runs: []*simulate.PolicyRun{
		{Policy: simulate.Budgeted, Summary: b},
		{Policy: simulate.Estella, Summary: e, RuntimeReport: &streaming.RuntimeReport{}},
	}}
}

// TestComparisonShowsAssetPeaks: the side-by-side view adds the asset rows
// only when a side counted assets.
func TestComparisonShowsAssetPeaks(t *testing.T) {
	var b strings.Builder
	WriteComparison(&b, comparison(streaming.Summary{}, streaming.Summary{}))
	if strings.Contains(b.String(), "asset") {
		t.Errorf("a comparison without assets shows asset rows:\n%s", b.String())
	}
	b.Reset()
	WriteComparison(&b, comparison(
		streaming.Summary{Assets: &streaming.AssetSummary{PeakResidentAssetBytes: 1800, Loads: 4, Unloads: 1, Reloaded: 1}},
		streaming.Summary{Assets: &streaming.AssetSummary{PeakResidentAssetBytes: 1300, Loads: 3, Unloads: 2}}))
	for _, s := range []string{
		fmt.Sprintf("%-24s %22s %22s\n", "peak asset bytes", "1800", "1300"),
		fmt.Sprintf("%-24s %22s %22s\n", "asset loads (unloads)", "4 (1)", "3 (2)"),
		fmt.Sprintf("%-24s %22s %22s\n", "assets reloaded", "1", "0"),
	} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("comparison lacks %q:\n%s", s, b.String())
		}
	}
}

// TestComparisonShowsEachVerdict: with a gate, the comparison names the
// policy that failed, in its table and its JSON.
func TestComparisonShowsEachVerdict(t *testing.T) {
	res := comparison(streaming.Summary{Gate: &streaming.GateResult{Failed: true}}, streaming.Summary{Gate: &streaming.GateResult{}})
	var b strings.Builder
	WriteComparison(&b, res)
	if want := fmt.Sprintf("%-24s %22s %22s\n", "gate", "FAILED", "passed"); !strings.Contains(b.String(), want) {
		t.Errorf("comparison lacks %q:\n%s", want, b.String())
	}
	b.Reset()
	WriteComparisonJSON(&b, res)
	var got struct {
		Budgeted struct{ Gate *streaming.GateResult } `json:"seed"`
		Estella  struct{ Gate *streaming.GateResult } `json:"estella"`
	}
	if err := json.Unmarshal([]byte(b.String()), &got); err != nil {
		t.Fatal(err)
	}
	if got.Budgeted.Gate == nil || !got.Budgeted.Gate.Failed || got.Estella.Gate == nil || got.Estella.Gate.Failed {
		t.Errorf("comparison JSON verdicts: %s", b.String())
	}
	b.Reset()
	WriteComparison(&b, comparison(streaming.Summary{}, streaming.Summary{}))
	if strings.Contains(b.String(), "gate") {
		t.Errorf("a comparison without a gate shows one:\n%s", b.String())
	}
}
