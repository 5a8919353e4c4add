package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	goldenfile "github.com/worldcook/worldcook/internal/golden"
)

const (
	island      = "../testdata/simulate/island"
	islandRoute = "../testdata/simulate/island_route.csv"
	islandYAML  = "../testdata/simulate/island.yaml"
)

func simGolden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Compare(t, filepath.Join("..", "testdata", "simulate", name), []byte(got))
}

// TestSimulateReferenceThroughTheCommand runs the seed demo from a
// manifest, a route file and worldcook.yaml: the JSON lines must be the
// library's seed golden, cell names aside, and the table is kept as a
// golden of its own.
func TestSimulateReferenceThroughTheCommand(t *testing.T) {
	code, out, errs := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, "--format", "jsonl", island)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lib, err := os.ReadFile("../testdata/simulate/seed000.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.ReplaceAll(out, "island.cell_", "chunk_"); got != string(lib) {
		t.Errorf("command and library disagree:\n%s", goldenfile.FirstDiff(got, string(lib)))
	}
	code, table, errs := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, island)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	simGolden(t, "island.table", table)
	// Byte-identical across runs with modelled IO.
	if _, again, _ := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, island); again != table {
		t.Error("two runs differ")
	}
}

func TestSimulateFlagsOverrideConfig(t *testing.T) {
	code, out, errs := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, "--budget", "0", "--load-radius", "10", "--prefetch-radius", "10", island)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "budget 0 B") {
		t.Errorf("--budget 0 did not override the config's 4096:\n%s", out)
	}
	t.Setenv("WORLDCOOK_SIMULATE_BUDGET", "1000")
	if _, out, _ := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, island); !strings.Contains(out, "budget 1000 B") {
		t.Errorf("WORLDCOOK_SIMULATE_BUDGET did not override the config:\n%s", out)
	}
}

func TestSimulateFormats(t *testing.T) {
	code, out, errs := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, "--format", "csv", island)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 61 || !strings.HasPrefix(lines[0], "frame,requested,") {
		t.Errorf("csv: %d lines, header %q", len(lines), lines[0])
	}
	if !strings.Contains(errs, "summary of 60 frames") {
		t.Errorf("csv run did not print the summary to stderr: %q", errs)
	}
	if _, out, _ := run(t, "--json", "--config", islandYAML, "simulate", "--path", islandRoute, island); !strings.HasPrefix(out, `{"message_type":"frame"`) {
		t.Errorf("--json did not select JSON lines: %.80s", out)
	}
	if _, out, _ := run(t, "-q", "--config", islandYAML, "simulate", "--path", islandRoute, island); out != "" {
		t.Errorf("--quiet printed %q", out)
	}
}

func TestSimulateBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badRow := write("bad.csv", "x,z\n1,2\n3,north\n")
	ghost := write("ghost.csv", "source,x,z\nGhost,1,2\n")
	broken := write("broken/world/broken.world.json", "{\"version\": 1, \"cells\": [")
	write("two/world/a.world.json", "{}")
	write("two/world/b.world.json", "{}")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no route", []string{"simulate", island}, "simulate needs a route: pass --path"},
		{"missing route", []string{"simulate", "--path", filepath.Join(dir, "nope.csv"), island}, "cannot read route"},
		{"bad row", []string{"simulate", "--path", badRow, island}, badRow + `:3: z "north" is not a finite number`},
		{"unknown source", []string{"simulate", "--path", ghost, island}, `:2: the world has no streaming source "Ghost" (it has Camera)`},
		{"bad distance", []string{"simulate", "--path", islandRoute, "--distance", "far", island}, `--distance "far": use bounds or center`},
		{"bad io", []string{"simulate", "--path", islandRoute, "--io", "tape", island}, `--io "tape"`},
		{"bad format", []string{"simulate", "--path", islandRoute, "--format", "xml", island}, `--format: format "xml" must be table, jsonl or csv`},
		{"fail rate", []string{"simulate", "--path", islandRoute, "--fail-rate", "2", island}, "--fail-rate must be a probability from 0 to 1"},
		{"negative budget", []string{"simulate", "--path", islandRoute, "--budget", "-1", island}, "--budget must be 0 or more bytes"},
		{"no hysteresis", []string{"simulate", "--path", islandRoute, "--unload-radius", "12", island}, "source Camera: unload radius 12 must exceed load radius 12"},
		{"not a number flag", []string{"simulate", "--path", islandRoute, "--budget", "lots", island}, `invalid argument "lots"`},
		{"no world", []string{"simulate", "--path", islandRoute, filepath.Join(dir, "nowhere")}, "cannot read world"},
		{"not cooked", []string{"simulate", "--path", islandRoute, dir}, "holds no world/*.world.json: not a cooked world"},
		{"two worlds", []string{"simulate", "--path", islandRoute, filepath.Join(dir, "two")}, "holds 2 worlds; simulate one by its manifest: worldcook simulate --path " + islandRoute + " " + filepath.Join(dir, "two", "world", "a.world.json")},
		{"broken manifest", []string{"simulate", "--path", islandRoute, broken}, "broken.world.json: not a world manifest"},
		{"two worlds given", []string{"simulate", "--path", islandRoute, island, island}, "simulate takes at most 1 argument (WORLD), got 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, tc.args...)
			if code != ExitInput {
				t.Errorf("exit %d, want %d", code, ExitInput)
			}
			if !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr %q, want one line containing %q", errs, tc.want)
			}
		})
	}
}

func TestSimulateHelpShowsAnExample(t *testing.T) {
	code, out, _ := run(t, "simulate", "--help")
	if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "worldcook simulate --path") {
		t.Errorf("help (exit %d) lacks an example:\n%s", code, out)
	}
}

func TestSimulateDrawings(t *testing.T) {
	dir := t.TempDir()
	plot, world := filepath.Join(dir, "plot.svg"), filepath.Join(dir, "map.svg")
	code, _, errs := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, "--plot", plot, "--map", world, "-q", island)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []string{plot, world} {
		b, err := os.ReadFile(f)
		if err != nil || !bytes.HasPrefix(b, []byte("<svg ")) {
			t.Errorf("%s: %v, %.40q", f, err, b)
		}
	}
	if code, _, errs := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, "--plot", filepath.Join(dir, "no", "such", "dir.svg"), "-q", island); code == 0 || !strings.Contains(errs, "cannot write") {
		t.Errorf("unwritable plot: exit %d, %q", code, errs)
	}
}

// TestSimulateDiskIO reads the island's cell files for real, one of them
// missing, with a camera standing on the missing cell (so that however
// slowly the machine runs the reads, the cell stays wanted until it is
// given up): the run finishes and reports it.
func TestSimulateDiskIO(t *testing.T) {
	old := diskFramePeriod
	diskFramePeriod = time.Millisecond
	defer func() { diskFramePeriod = old }()
	dir := t.TempDir()
	m, err := os.ReadFile(filepath.Join(island, "world", "island.world.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "world"), 0o755)
	os.WriteFile(filepath.Join(dir, "world", "island.world.json"), m, 0o644)
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if i == 1 && j == 1 {
				continue // missing
			}
			name := fmt.Sprintf("island.cell_%d_%d", i, j)
			doc := fmt.Sprintf(`{"version":1,"name":%q,"entities":[{"id":%d,"name":"Rock","parent":null,"components":[]}]}`+"\n", name, i*4+j+1)
			os.WriteFile(filepath.Join(dir, "world", name+".json"), []byte(doc), 0o644)
		}
	}
	route := filepath.Join(dir, "stand.csv")
	os.WriteFile(route, []byte("x,z\n"+strings.Repeat("12,12\n", 300)), 0o644)
	code, out, errs := run(t, "--config", islandYAML, "simulate", "--path", route, "--io", "disk", "--concurrency", "2", "--fail-rate", "0.2", "--seed", "5", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"gave up island.cell_1_1", "island.cell_1_1.json is missing; re-cook the world", "disk reads", "apply per frame"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

func TestSimulateScene(t *testing.T) {
	code, out, errs := run(t, "--config", "../testdata/demo/worldcook.yaml", "simulate", "--path", "../testdata/demo/route.csv", "--format", "jsonl", "../testdata/demo/main.esscene")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"message_type":"summary"`) || !strings.Contains(out, `"main.cell_`) {
		t.Errorf("scene run output: %.300s", out)
	}
	// Disk IO on a scene reads the cells cooked in memory.
	old := diskFramePeriod
	diskFramePeriod = 100 * time.Microsecond
	defer func() { diskFramePeriod = old }()
	code, out, errs = run(t, "--config", "../testdata/demo/worldcook.yaml", "simulate", "--path", "../testdata/demo/route.csv", "--io", "disk", "../testdata/demo/main.esscene")
	if code != 0 || !strings.Contains(out, "disk reads") || !strings.Contains(out, "0 cells given up") {
		t.Errorf("disk IO on a scene: exit %d, %s\n%s", code, errs, out)
	}
	if code, _, errs := run(t, "simulate", "--path", islandRoute, "../testdata/bad/no-such.esscene"); code != ExitInput || errs == "" {
		t.Errorf("missing scene: exit %d, %q", code, errs)
	}
}
