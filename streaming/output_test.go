package streaming

import (
	"bytes"
	"path/filepath"
	"testing"

	json "github.com/goccy/go-json"

	goldenfile "github.com/worldcook/worldcook/internal/golden"
)

// golden compares got with the named file under testdata/simulate, or
// rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Compare(t, filepath.Join("..", "testdata", "simulate", name), got)
}

func render(t *testing.T, format string, reps []FrameReport, sum Summary) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewReportWriter(format, &buf)
	if err != nil {
		t.Fatal(err)
	}
	for i := range reps {
		if err := w.Frame(&reps[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Summary(&sum); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReferenceGolden keeps the seed demo's full report in every format.
func TestReferenceGolden(t *testing.T) {
	reps, sum := runSeed(t)
	for _, f := range []string{FormatTable, FormatJSONL, FormatCSV} {
		golden(t, "seed000."+f, render(t, f, reps, sum))
	}
}

func TestJSONLinesParse(t *testing.T) {
	reps, sum := runSeed(t)
	lines := bytes.Split(bytes.TrimSpace(render(t, FormatJSONL, reps, sum)), []byte("\n"))
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
		Summary
	}
	if err := json.Unmarshal(lines[60], &s); err != nil {
		t.Fatal(err)
	}
	if s.MessageType != "summary" || s.PeakResidentBytes != 11680 || s.Residency.LoadCount != sum.Residency.LoadCount {
		t.Errorf("summary line %s", lines[60])
	}
}

func TestFormatUnknown(t *testing.T) {
	if _, err := NewReportWriter("xml", &bytes.Buffer{}); err == nil {
		t.Error("xml accepted")
	}
}

// TestDeterministic runs a busy scenario (two sources, prefetch, a cap,
// LOD, a bandwidth model and seeded failures) twice: the reports must be
// byte-identical.
func TestDeterministic(t *testing.T) {
	runOnce := func() []byte {
		w := gridWorld(24)
		sources := []Source{
			{Name: "player", Prefetch: 500, Load: 300, Unload: 450, Enabled: true},
			{Name: "drone", X: 2000, Z: 2000, Prefetch: 250, Load: 250, Unload: 400, Enabled: true},
		}
		set := Settings{Budget: Int64(5000), MaxInFlight: Int(12), LODRadius: Float(150), MaxResidentBytes: Int64(40000),
			PinnedRadius: Float(50), EvictCooldown: 2, Retry: DefaultRetry()}
		s, err := NewScheduler(w, sources, set, NewModelLoader(ModelIO{LatencyFrames: 2, BytesPerFrame: Int64(6000), Fail: FailureModel{Rate: 0.1, Seed: 7}}))
		if err != nil {
			t.Fatal(err)
		}
		var reps []FrameReport
		for f := 0; f < 300; f++ {
			reps = append(reps, s.Step([]Point{{X: float64(f) * 7, Z: 1200}, {X: 2000 - float64(f)*5, Z: 2000 - float64(f)*3}}))
		}
		return render(t, FormatJSONL, reps, s.Summary())
	}
	a, b := runOnce(), runOnce()
	if !bytes.Equal(a, b) {
		t.Fatal("two runs of the same scenario differ")
	}
	for _, want := range []string{`"prefetches":`, `"failures":`} {
		if !bytes.Contains(a, []byte(want)) {
			t.Errorf("report lacks %s", want)
		}
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 11680: "11680 B", 1<<20 - 1: "1048575 B", 3 << 20: "3145728 B (3.0 MiB)", 5 << 30: "5368709120 B (5.0 GiB)"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
