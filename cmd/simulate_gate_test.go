package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/streaming"
)

// standRoute writes a route that stands at (16, 16), the middle of the
// island, for 40 frames: after the warm-up nothing moves, so no hole
// comes from the route.
func standRoute(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "stand.csv")
	if err := os.WriteFile(p, []byte("x,z\n"+strings.Repeat("16,16\n", 40)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// summaryLine returns the summary of a JSON Lines report.
func summaryLine(t *testing.T, out string) streaming.Summary {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, `{"message_type":"summary"`) {
			continue
		}
		var s streaming.Summary
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		return s
	}
	t.Fatalf("no summary in %s", out)
	return streaming.Summary{}
}

// TestSimulateGateExitCodes runs small worlds built to trip exactly one
// --fail-on condition each, with every condition asked for: the exit
// status is 1, the summary names that condition alone with its frames and
// cells, and stderr says it in one line. A run that trips none exits 0.
func TestSimulateGateExitCodes(t *testing.T) {
	stand := standRoute(t)
	all := []string{"--fail-on", "holes,over-budget,over-cap,failures"}
	for _, tc := range []struct {
		name  string
		args  []string
		want  string // the one condition that holds; "" for none
		cells string // a cell the breach must name
	}{
		// The reference demo: within its budget and cap, nothing given
		// up, but a prefetch radius equal to the load radius and three
		// frames of latency leave holes after the warm-up.
		{"holes", []string{"--path", islandRoute}, streaming.FailHoles, "island.cell_2_1"},
		// Full-detail cells of 3360 B against a 3000 B budget.
		{"over-budget", []string{"--path", stand, "--budget", "3000", "--max-resident-bytes", "100000"}, streaming.FailOverBudget, "island.cell_1_1"},
		// Four pinned cells of 3360 B under a 10000 B cap: eviction
		// cannot bring it down.
		{"over-cap", []string{"--path", stand, "--max-resident-bytes", "10000", "--pinned-radius", "10"}, streaming.FailOverCap, "island.cell_2_"},
		// Seed 6 fails only cells in the prefetch band (none within the
		// load radius), so loads are given up without a hole.
		{"failures", []string{"--path", stand, "--max-resident-bytes", "100000", "--prefetch-radius", "20", "--load-radius", "6",
			"--unload-radius", "24", "--fail-rate", "0.3", "--retries", "0", "--seed", "6"}, streaming.FailFailures, "island.cell_"},
		{"none", []string{"--path", stand, "--max-resident-bytes", "100000"}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--config", islandYAML, "simulate", "--format", "jsonl"}, tc.args...)
			args = append(append(args, all...), island)
			code, out, errs := run(t, args...)
			gate := summaryLine(t, out).Gate
			if gate == nil {
				t.Fatal("the summary has no gate")
			}
			if tc.want == "" {
				if code != 0 || gate.Failed || len(gate.Breaches) != 0 || errs != "" {
					t.Errorf("exit %d, gate %+v, stderr %q; want a pass", code, gate, errs)
				}
				return
			}
			if code != ExitFindings {
				t.Errorf("exit %d, want %d", code, ExitFindings)
			}
			if len(gate.Breaches) != 1 || gate.Breaches[0].Condition != tc.want {
				t.Fatalf("breaches %+v, want %s alone", gate.Breaches, tc.want)
			}
			b := gate.Breaches[0]
			if len(b.Frames) == 0 || !strings.Contains(strings.Join(b.Cells, ","), tc.cells) {
				t.Errorf("%s breach names frames %v, cells %v", tc.want, b.Frames, b.Cells)
			}
			if !strings.HasPrefix(errs, "worldcook: simulate --fail-on: "+tc.want+" in frames ") || strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr %q", errs)
			}
			// The text summary says it too.
			targs := append([]string{"--config", islandYAML, "simulate", "--summary-only"}, tc.args...)
			targs = append(append(targs, all...), island)
			code, text, _ := run(t, targs...)
			if code != ExitFindings || !strings.Contains(text, "gate                   FAILED") || !strings.Contains(text, "    "+tc.want+" ") {
				t.Errorf("text summary (exit %d):\n%s", code, text)
			}
		})
	}
}

// TestSimulateGateWarmup: with --warmup the reference demo's holes count
// from the frame after it; a warm-up past the last hole passes.
func TestSimulateGateWarmup(t *testing.T) {
	base := []string{"--config", islandYAML, "simulate", "--format", "jsonl", "--path", islandRoute, "--fail-on", "holes"}
	code, out, _ := run(t, append(base, "--warmup", "0", island)...)
	g := summaryLine(t, out).Gate
	if code != ExitFindings || g.WarmupAuto || g.Breaches[0].Frames[0].First != 1 {
		t.Errorf("--warmup 0: exit %d, %+v", code, g)
	}
	if code, _, errs := run(t, append(base, "--warmup", "60", island)...); code != 0 {
		t.Errorf("--warmup 60: exit %d, %s", code, errs)
	}
}

func TestSimulateGateUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--fail-on", "holes,popin"}, `--fail-on "popin": use holes, pop-in, over-budget, over-cap or failures`},
		{[]string{"--fail-on", "pop-in"}, "pop-in needs a view, and no streaming source has one"},
		{[]string{"--fail-on", "over-cap", "--budget", "100"}, "--fail-on: over-cap needs a cap to check against: set --max-resident-bytes"},
		{[]string{"--fail-on", "holes", "--warmup", "-2"}, "--warmup must be 0 or more frames (got -2)"},
	} {
		code, _, errs := run(t, append([]string{"simulate", "--path", islandRoute}, append(tc.args, island)...)...)
		if code != ExitInput || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want %q", tc.args, code, errs, tc.want)
		}
	}
	// The same conditions from the environment.
	t.Setenv("WORLDCOOK_SIMULATE_FAIL_ON", "holes,failures")
	if code, _, errs := run(t, "--config", islandYAML, "simulate", "-q", "--path", islandRoute, island); code != ExitFindings || !strings.Contains(errs, "holes in frames") {
		t.Errorf("WORLDCOOK_SIMULATE_FAIL_ON: exit %d, %q", code, errs)
	}
}

// TestSimulateReportLayout: warnings open the report; into a pipe the rows
// come first and the summary last (make demo's sed relies on it); with
// --summary-only no row is written; on a terminal the summary comes
// first and sizes are humanised.
func TestSimulateReportLayout(t *testing.T) {
	args := []string{"--config", islandYAML, "simulate", "--path", islandRoute, "--budget", "3000", island}
	code, out, errs := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	warn := strings.Index(out, "warning[cell-over-budget]: 16 of 16 cells are larger than the per-frame budget of 3000 B")
	rows, sum := strings.Index(out, "\nframe   req"), strings.Index(out, "\nsummary of 60 frames")
	if warn != 0 || rows < 0 || sum < rows {
		t.Errorf("warning at %d, rows at %d, summary at %d:\n%.400s", warn, rows, sum, out)
	}
	with := func(flags ...string) []string {
		return append(append(append([]string{}, args[:3]...), flags...), args[3:]...)
	}
	code, only, _ := run(t, with("--summary-only")...)
	if code != 0 || strings.Contains(only, "frame   req") || !strings.Contains(only, "summary of 60 frames") || !strings.HasPrefix(only, "warning[") {
		t.Errorf("--summary-only (exit %d):\n%s", code, only)
	}
	if code, csv, errs := run(t, with("--format", "csv")...); code != 0 || !strings.HasPrefix(csv, "frame,") || !strings.HasPrefix(errs, "warning[") {
		t.Errorf("csv: warnings belong on stderr: %.80q / %.80q", csv, errs)
	}
	if _, js, _ := run(t, with("--format", "jsonl")...); !strings.HasPrefix(js, `{"message_type":"warning","code":"cell-over-budget"`) {
		t.Errorf("jsonl does not open with the warning: %.100s", js)
	}

	onTerminal := func(args []string) string {
		var tty, ttyErr bytes.Buffer
		root := NewRoot(IO{In: strings.NewReader(""), Out: &tty, Err: &ttyErr, OutTerminal: true})
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		return tty.String()
	}
	// A terminal gets the warnings and the summary, not the rows that
	// would scroll it away; --rows adds them after the summary.
	term := onTerminal(args)
	if !strings.HasPrefix(term, "warning[") || !strings.Contains(term, "summary of 60 frames") || strings.Contains(term, "frame   req") {
		t.Errorf("terminal without --rows:\n%s", term)
	}
	term = onTerminal(with("--rows"))
	if s, r := strings.Index(term, "summary of 60 frames"), strings.Index(term, "frame   req"); s < 0 || r < s {
		t.Errorf("terminal with --rows: summary at %d, rows at %d", s, r)
	}
	if !strings.Contains(term, "11.4 KiB") {
		t.Errorf("terminal sizes not humanised:\n%s", term)
	}
	// A machine format on a terminal is complete.
	if js := onTerminal(with("--format", "jsonl")); !strings.Contains(js, `"message_type":"frame"`) {
		t.Errorf("jsonl on a terminal lacks its frames: %.200s", js)
	}
}

// TestSimulateAssumedRadii: a world without authored sources simulated
// without radius flags says which radii it assumed.
func TestSimulateAssumedRadii(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(island, "world", "island.world.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["sources"] = []any{}
	b, _ = json.MarshalIndent(m, "", "  ")
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "world"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "world", "island.world.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "simulate", "--summary-only", "--path", islandRoute, "--load-radius", "10", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "warning[assumed-radii]: the world has no authored streaming source and no radius was set: assumed unload 3000 and prefetch 3000") {
		t.Errorf("no assumed-radii warning:\n%s", out)
	}
	_, out, _ = run(t, "simulate", "--summary-only", "--path", islandRoute, "--load-radius", "10", "--unload-radius", "20", "--prefetch-radius", "12", dir)
	if strings.Contains(out, "assumed-radii") {
		t.Errorf("warned although every radius was set:\n%s", out)
	}
	// Authored sources: no warning.
	if _, out, _ := run(t, "--config", islandYAML, "simulate", "--summary-only", "--path", islandRoute, island); strings.Contains(out, "assumed") {
		t.Errorf("warned for a world with a source:\n%s", out)
	}
}

func TestSimulateTimings(t *testing.T) {
	code, out, errs := run(t, "--config", islandYAML, "simulate", "--timings", "--format", "jsonl", "--path", islandRoute, island)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"timings\n", "  load ", "  frames ", "(60 frames", "  per frame ", " mean, ", " p99, "} {
		if !strings.Contains(errs, want) {
			t.Errorf("timings lack %q:\n%s", want, errs)
		}
	}
	// Timings stay out of the report, which stays byte-identical.
	_, again, _ := run(t, "--config", islandYAML, "simulate", "--format", "jsonl", "--path", islandRoute, island)
	if out != again {
		t.Error("--timings changed the report")
	}
}

// TestSimulateGateDeterministic: the gate's verdict and the episodes are
// byte-identical across runs, in text and JSON.
func TestSimulateGateDeterministic(t *testing.T) {
	for _, format := range []string{"table", "jsonl"} {
		args := []string{"--config", islandYAML, "simulate", "--format", format, "--path", islandRoute, "--fail-on", "holes,over-cap", island}
		_, a, _ := run(t, args...)
		_, b, _ := run(t, args...)
		if a != b || !strings.Contains(a, "ole") {
			t.Errorf("%s: two runs differ", format)
		}
	}
}

// TestSimulateMapMarksHoles: the map marks the hole episodes on the route,
// with frame ticks, and outlines the missing cells.
func TestSimulateMapMarksHoles(t *testing.T) {
	file := filepath.Join(t.TempDir(), "map.svg")
	if code, _, errs := run(t, "--config", islandYAML, "simulate", "-q", "--path", islandRoute, "--map", file, island); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	for _, want := range []string{"hole episode", "missing while wanted", "9-11: prefetch-radius", "hole episode (frames: cause)", "Camera frame 10",
		"island.cell_2_1 (2, 1): 2 requests; missing in frames 9-11 (prefetch-radius), 35-37 (prefetch-radius)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("map lacks %q", want)
		}
	}
}

// TestSimulateCompareGates: --compare judges both policies, from the flag
// and from WORLDCOOK_SIMULATE_FAIL_ON, and the verdict names the one that
// failed: under a 16 KiB budget the demo's budgeted run has holes after
// its first frame, the runtime's on its first frame only.
func TestSimulateCompareGates(t *testing.T) {
	args := []string{"--config", demoYAML, "simulate", "--path", demoRoute, "--budget", "16384", "--warmup", "1", "--compare"}
	for _, tc := range []struct {
		name string
		env  string
		flag []string
	}{
		{"flag", "", []string{"--fail-on", "holes"}},
		{"env", "holes", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("WORLDCOOK_SIMULATE_FAIL_ON", tc.env)
			code, out, errs := run(t, append(append(slices.Clone(args), tc.flag...), demoScene)...)
			if code != 1 || !strings.Contains(errs, "simulate --compare --fail-on: budgeted: holes in frames 2-4") || strings.Contains(errs, "estella:") {
				t.Errorf("exit %d, %q; want exit 1 naming the budgeted policy only", code, errs)
			}
			if want := fmt.Sprintf("%-24s %22s %22s\n", "gate", "FAILED", "passed"); !strings.Contains(out, want) {
				t.Errorf("the comparison lacks %q:\n%s", want, out)
			}
		})
	}
	// Both policies fail without a warm-up; without --fail-on there is no
	// gate.
	code, _, errs := run(t, "--config", demoYAML, "simulate", "--path", demoRoute, "--budget", "16384", "--warmup", "0", "--compare", "--fail-on", "holes", demoScene)
	if code != 1 || !strings.Contains(errs, "budgeted: holes in frames 1-4") || !strings.Contains(errs, "; estella: holes in frames 1 ") {
		t.Errorf("no warm-up: exit %d, %q", code, errs)
	}
	code, out, _ := run(t, append(slices.Clone(args), demoScene)...)
	if code != 0 || strings.Contains(out, "gate") {
		t.Errorf("no --fail-on: exit %d\n%s", code, out)
	}
}

// TestSimulatePolicySeedIsBudgeted: --policy seed, the budgeted policy's
// former name, runs it.
func TestSimulatePolicySeedIsBudgeted(t *testing.T) {
	args := []string{"--config", demoYAML, "simulate", "--path", demoRoute, "--budget", "16384", "--policy"}
	_, budgeted, _ := run(t, append(slices.Clone(args), "budgeted", demoScene)...)
	code, seed, errs := run(t, append(slices.Clone(args), "seed", demoScene)...)
	if code != 0 || seed != budgeted {
		t.Errorf("--policy seed: exit %d, %s; its report differs from --policy budgeted's", code, errs)
	}
}
