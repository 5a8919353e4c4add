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
		reps, sum := busyRun(t)
		return render(t, FormatJSONL, reps, sum)
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
