package cmd

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// numberedRoute writes the island route with a frame column counting from
// first.
func numberedRoute(t *testing.T, first int) string {
	t.Helper()
	data, err := os.ReadFile(islandRoute)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("frame,x,z\n")
	k := first
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] == '#' || line == "x,z" {
			continue
		}
		fmt.Fprintf(&b, "%d,%s\n", k, line)
		k++
	}
	p := filepath.Join(t.TempDir(), "route.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFramesNumberedAsTheRoute: a route with a frame column names every
// frame by it in every report (rows, summary, episodes, gate; both
// policies), and a route without one by its row from 1. The runs are
// otherwise the same: shifting the column shifts every frame number and
// nothing else.
func TestFramesNumberedAsTheRoute(t *testing.T) {
	args := func(route string, extra ...string) []string {
		return append([]string{"--config", islandYAML, "simulate", "--path", route, "--fail-on", "holes", island}, extra...)
	}
	// Estella's runtime has none of the budgeted settings the file gives.
	estellaArgs := func(route string, extra ...string) []string {
		return append([]string{"simulate", "--path", route, "--fail-on", "holes", "--latency-frames", "3", "--policy", "estella", island}, extra...)
	}
	// The summaries' frame fields, by JSON path.
	frameFields := func(t *testing.T, out string) (frames []int, fields map[string]float64) {
		fields = map[string]float64{}
		sc := bufio.NewScanner(strings.NewReader(out))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("%v: %s", err, sc.Text())
			}
			switch m["message_type"] {
			case "frame":
				frames = append(frames, int(m["frame"].(float64)))
			case "summary":
				for _, k := range []string{"firstFrame", "peakResidentFrame", "maxRequestedFrame", "firstHoleFrame", "firstResidentFrame"} {
					if v, ok := m[k].(float64); ok {
						fields[k] = v
					}
				}
				for i, e := range m["holeEpisodes"].([]any) {
					ep := e.(map[string]any)
					fields[fmt.Sprintf("episode%d.first", i)] = ep["first"].(float64)
					fields[fmt.Sprintf("episode%d.last", i)] = ep["last"].(float64)
				}
				g := m["gate"].(map[string]any)
				for i, b := range g["breaches"].([]any) {
					for j, r := range b.(map[string]any)["frames"].([]any) {
						fields[fmt.Sprintf("breach%d.%d", i, j)] = r.(map[string]any)["first"].(float64)
					}
				}
			}
		}
		return frames, fields
	}
	for _, policy := range []string{"budgeted", "estella"} {
		extra := []string{"--format", "jsonl"}
		args := args
		if policy == "estella" {
			args = estellaArgs
		}
		_, base, errs := run(t, args(islandRoute, extra...)...)
		baseFrames, baseFields := frameFields(t, base)
		if len(baseFrames) != 60 || baseFrames[0] != 1 || baseFields["firstFrame"] != 1 {
			t.Fatalf("%s: rows numbered %v…, firstFrame %v; want 60 from 1 (stderr %s)", policy, baseFrames[:min(3, len(baseFrames))], baseFields["firstFrame"], errs)
		}
		if len(baseFields) < 6 {
			t.Fatalf("%s: too few frame fields to compare: %v", policy, baseFields)
		}
		for _, first := range []int{0, 100, -5} {
			_, out, _ := run(t, args(numberedRoute(t, first), extra...)...)
			frames, fields := frameFields(t, out)
			for i, f := range frames {
				if f != first+i {
					t.Fatalf("%s, from %d: row %d numbered %d, want %d", policy, first, i, f, first+i)
				}
			}
			for k, v := range baseFields {
				if fields[k] != v+float64(first-1) {
					t.Errorf("%s, from %d: %s = %v, want %v", policy, first, k, fields[k], v+float64(first-1))
				}
			}
		}
	}
	// The text summary and the table say the same numbers.
	_, out, _ := run(t, args(numberedRoute(t, 100), "--format", "table")...)
	for _, want := range []string{"warm-up until frame 105, the first without holes", "peak resident          11680 B at frame 113", "\n  100 "} {
		if !strings.Contains(out, want) {
			t.Errorf("table and summary lack %q:\n%s", want, out)
		}
	}
}
