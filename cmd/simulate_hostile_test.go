package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
)

// runWithin runs worldcook in-process like run, failing the test if it has
// not finished within d: every case below once hung or ran out of memory.
func runWithin(t *testing.T, d time.Duration, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := run(t, args...)
		done <- result{code, out, errs}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(d):
		t.Fatalf("worldcook %s did not finish within %v", strings.Join(args, " "), d)
	}
	return 0, "", ""
}

// refusedInOneLine checks a refusal: exit 2, one line on stderr saying want, no
// report on stdout.
func refusedInOneLine(t *testing.T, code int, stdout, stderr, want string) {
	t.Helper()
	t.Logf("exit %d: %s", code, strings.TrimSpace(stderr))
	if code != ExitInput {
		t.Errorf("exit %d, want %d", code, ExitInput)
	}
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "worldcook: ") {
		t.Errorf("want one line on stderr, got:\n%s", stderr)
	}
	if stdout != "" {
		t.Errorf("a refused run printed a report:\n%.200s", stdout)
	}
}

func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	os.Remove(link)
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
}

func fifoOrSkip(t *testing.T, p string) {
	t.Helper()
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
}

// TestSimulateReadsOnlyItsWorld: a cooked world (with digests) whose
// manifest or cells lead outside it, or whose cells are not regular files,
// is refused before the first frame (exit 2, one line naming the cell or
// file), promptly: a named pipe no longer hangs it and a link to
// /dev/zero no longer exhausts memory.
func TestSimulateReadsOnlyItsWorld(t *testing.T) {
	demo, _ := demoPair(t, t.TempDir())
	swap := func(from, to string) func(b []byte) []byte {
		return func(b []byte) []byte {
			if !strings.Contains(string(b), from) {
				t.Fatalf("manifest lacks %s", from)
			}
			return []byte(strings.Replace(string(b), from, to, 1))
		}
	}
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, out string)
		want  string
	}{
		{"absolute cell path", func(t *testing.T, out string) {
			rewrite(t, demoManifest(out), swap(`"world/main.cell_0_0.json"`, `"/etc/passwd"`))
		}, `cell main.cell_0_0: path "/etc/passwd" leaves the cooked directory`},
		{"cell path with ..", func(t *testing.T, out string) {
			rewrite(t, demoManifest(out), swap(`"world/main.cell_0_0.json"`, `"world/../../x/main.cell_0_0.json"`))
		}, `cell main.cell_0_0: path "world/../../x/main.cell_0_0.json" leaves the cooked directory`},
		{"cell path with a backslash", func(t *testing.T, out string) {
			rewrite(t, demoManifest(out), swap(`"world/main.cell_0_0.json"`, `"world/..\\..\\main.cell_0_0.json"`))
		}, `cell main.cell_0_0: path "world/..\\..\\main.cell_0_0.json" holds '\\'`},
		{"manifest bytes 1e18", func(t *testing.T, out string) {
			rewrite(t, demoManifest(out), func(b []byte) []byte {
				s := string(b)
				i := strings.Index(s, `"name": "main.cell_0_0"`)
				j := i + strings.Index(s[i:], `"bytes": `) + len(`"bytes": `)
				k := j + strings.IndexAny(s[j:], ",\n")
				return []byte(s[:j] + "1000000000000000000" + s[k:])
			})
		}, "cell main.cell_0_0: bytes: 1000000000000000000 bytes takes the world's sizes past 4398046511104 bytes (4 TiB)"},
		{"cell is a link to /dev/zero", func(t *testing.T, out string) {
			symlinkOrSkip(t, "/dev/zero", demoCell(out))
		}, "main.cell_1_1.json: path escapes from parent"},
		{"cell is a link out of the world", func(t *testing.T, out string) {
			other := filepath.Join(t.TempDir(), "x.json")
			os.WriteFile(other, []byte("{}"), 0o644)
			symlinkOrSkip(t, other, demoCell(out))
		}, "main.cell_1_1.json: path escapes from parent"},
		{"cell is a named pipe", func(t *testing.T, out string) {
			fifoOrSkip(t, demoCell(out))
		}, "main.cell_1_1.json is not a regular file (a named pipe)"},
		{"cell is a link to a named pipe inside", func(t *testing.T, out string) {
			fifoOrSkip(t, filepath.Join(out, "world", "pipe"))
			symlinkOrSkip(t, "pipe", demoCell(out))
		}, "main.cell_1_1.json is not a regular file (a named pipe)"},
		{"cell larger than its manifest size", func(t *testing.T, out string) {
			rewrite(t, demoCell(out), func(b []byte) []byte { return append(b, make([]byte, 1<<20)...) })
		}, "main.cell_1_1.json is 1059497 bytes, the manifest says 10921"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if code, stderr := cookThrough(t, nil, demo, out); code != 0 {
				t.Fatalf("cook: exit %d: %s", code, stderr)
			}
			tc.spoil(t, out)
			for _, world := range []string{out, demoManifest(out)} {
				code, stdout, stderr := runWithin(t, 30*time.Second, "--config", demoConfig, "simulate", "--path", demoRoute, "--io", "disk", world)
				refusedInOneLine(t, code, stdout, stderr, tc.want)
			}
		})
	}
}

// TestSimulateDiskReadsOnlyItsWorld: a hand-written manifest without
// digests is not verified, so with --io disk the same hostile cells reach
// the reader; each is then a failed load, given up with the reason, and
// the run finishes and reports (exit 0).
func TestSimulateDiskReadsOnlyItsWorld(t *testing.T) {
	old := diskFramePeriod
	diskFramePeriod = time.Millisecond
	defer func() { diskFramePeriod = old }()
	m, err := os.ReadFile(filepath.Join(island, "world", "island.world.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, cell string)
		want  string
	}{
		{"link to /dev/zero", func(t *testing.T, cell string) { symlinkOrSkip(t, "/dev/zero", cell) },
			"cannot read world/island.cell_1_1.json: path escapes from parent"},
		{"link out of the world", func(t *testing.T, cell string) {
			other := filepath.Join(t.TempDir(), "x.json")
			os.WriteFile(other, []byte(`{"name":"x","entities":[]}`), 0o644)
			symlinkOrSkip(t, other, cell)
		}, "cannot read world/island.cell_1_1.json: path escapes from parent"},
		{"named pipe", func(t *testing.T, cell string) { fifoOrSkip(t, cell) },
			"cell file world/island.cell_1_1.json is not a regular file (a named pipe); re-cook the world"},
		{"folder", func(t *testing.T, cell string) { os.Remove(cell); os.Mkdir(cell, 0o755) },
			"cell file world/island.cell_1_1.json is not a regular file (a directory); re-cook the world"},
		{"larger than its manifest size", func(t *testing.T, cell string) {
			os.WriteFile(cell, append([]byte(`{"name":"x","entities":[]}`), make([]byte, 10000)...), 0o644)
		}, "cell file world/island.cell_1_1.json is 10026 bytes, more than the 7666 bytes its manifest size allows (3360 + slack); re-cook the world"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "world"), 0o755)
			os.WriteFile(filepath.Join(dir, "world", "island.world.json"), m, 0o644)
			for i := range 4 {
				for j := range 4 {
					name := fmt.Sprintf("island.cell_%d_%d", i, j)
					doc := fmt.Sprintf(`{"version":1,"name":%q,"entities":[{"id":%d,"name":"Rock","parent":null,"components":[]}]}`+"\n", name, i*4+j+1)
					os.WriteFile(filepath.Join(dir, "world", name+".json"), []byte(doc), 0o644)
				}
			}
			tc.spoil(t, filepath.Join(dir, "world", "island.cell_1_1.json"))
			route := filepath.Join(dir, "stand.csv")
			os.WriteFile(route, []byte("x,z\n"+strings.Repeat("12,12\n", 300)), 0o644)
			code, out, errs := runWithin(t, 60*time.Second, "--config", islandYAML, "simulate", "--path", route, "--io", "disk", "--concurrency", "2", dir)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(out, "gave up island.cell_1_1") || !strings.Contains(out, tc.want) {
				t.Errorf("the summary does not give up island.cell_1_1 saying %q:\n%s", tc.want, out)
			}
			if !strings.Contains(out, "1 cells given up") {
				t.Errorf("other cells failed too:\n%s", out)
			}
		})
	}
}

// TestSimulateLimits: settings and routes that would exhaust memory or
// panic are refused with the limit named.
func TestSimulateLimits(t *testing.T) {
	dir := t.TempDir()
	var many strings.Builder
	many.WriteString("frame,source,x,z\n")
	for i := range 2000 {
		fmt.Fprintf(&many, "0,s%d,0,0\n", i)
	}
	many.WriteString("999999,s0,1,1\n")
	sources := filepath.Join(dir, "sources.csv")
	os.WriteFile(sources, []byte(many.String()), 0o644)
	wide := filepath.Join(dir, "wide.csv")
	os.WriteFile(wide, []byte("frame,x,z\n-9223372036854775808,0,0\n9223372036854775807,1,1\n"), 0o644)
	fifo := filepath.Join(dir, "pipe.world.json")
	fifoOrSkip(t, fifo)
	// A world without authored sources, so that the route's source
	// column makes them.
	bare := filepath.Join(dir, "bare.world.json")
	b, err := manifest.Encode(&manifest.Manifest{Version: manifest.Version, Scene: "bare", CellSize: 8,
		Cells: []manifest.Cell{{Name: "bare.cell_0_0", Path: "world/bare.cell_0_0.json", MaxX: 8, MaxZ: 8, Bytes: 100}}})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(bare, b, 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"huge --concurrency", []string{"--io", "disk", "--concurrency", "1000000000000"}, "--concurrency must be from 1 to 256 (got "},
		{"--concurrency over the limit", []string{"--io", "disk", "--concurrency", "257"}, "--concurrency must be from 1 to 256 (got "},
		{"huge --frame-budget-ms", []string{"--io", "disk", "--frame-budget-ms", "1e300"}, "--frame-budget-ms must be from 0 to 3600000 milliseconds"},
		{"huge --evict-cooldown", []string{"--evict-cooldown", "9223372036854775807"}, "--evict-cooldown must be from 0 to 2147483647 frames (got 9223372036854775807)"},
		{"2000 sources to frame 999999", []string{"--path", sources, bare}, "sources.csv:2002: 1000000 frames × 2000 sources is 2000000000 source positions, more than the 4194304 a route may hold (MaxRoutePoints)"},
		{"frames from -2^63 to 2^63-1", []string{"--path", wide}, "wide.csv:3: frame 9223372036854775807 is more than 1000000 frames after the first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--config", islandYAML, "simulate", "--path", islandRoute}, tc.args...)
			if !strings.HasSuffix(args[len(args)-1], ".json") {
				args = append(args, island)
			}
			code, stdout, stderr := runWithin(t, 30*time.Second, args...)
			refusedInOneLine(t, code, stdout, stderr, tc.want)
		})
	}
	t.Run("manifest is a named pipe", func(t *testing.T) {
		code, stdout, stderr := runWithin(t, 30*time.Second, "simulate", "--path", islandRoute, fifo)
		refusedInOneLine(t, code, stdout, stderr, "pipe.world.json is not a regular file (a named pipe)")
	})
}

// hugeCollider is a 400-byte scene whose one rock has a box collider
// 2^32 cells of 1000 wide: its cell's grown bounds span 2^32 index buckets
// a side, whose product wraps to 0 in int64.
const hugeCollider = `{"version":1,"name":"Main","entities":[
{"id":1,"name":"World","parent":null,"components":[{"type":"StreamedWorld","data":{"cellSize":1000}}]},
{"id":2,"name":"Rock","parent":null,"components":[{"type":"Transform","data":{"position":{"x":500,"y":0,"z":500}}},
{"type":"BoxCollider3D","data":{"halfExtents":{"x":2147483647500,"y":1,"z":2147483647500}}}]}]}
`

// TestSimulateHugeCollider: the scene simulates promptly, cooked in memory
// and cooked to disk, and its cell is resident; it used to grow simulate
// to gigabytes.
func TestSimulateHugeCollider(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "main.esscene")
	os.WriteFile(scene, []byte(hugeCollider), 0o644)
	if n := len(hugeCollider); n > 400 {
		t.Fatalf("the scene is %d bytes", n)
	}
	route := filepath.Join(dir, "route.csv")
	os.WriteFile(route, []byte("x,z\n500,500\n600,600\n700,700\n"), 0o644)
	out := filepath.Join(dir, "out")
	if code, _, stderr := runWithin(t, 30*time.Second, "cook", "--out", out, scene); code != 0 {
		t.Fatalf("cook: exit %d: %s", code, stderr)
	}
	m, err := manifest.Load(demoManifest(out))
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Cells[0]; c.MaxX-c.MinX < 4e12 {
		t.Fatalf("the cell's bounds did not grow over the collider: %+v", c)
	}
	for _, world := range []string{scene, out} {
		code, stdout, stderr := runWithin(t, 30*time.Second, "simulate", "--path", route, "--format", "csv", world)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", world, code, stderr)
		}
		if !strings.Contains(stdout, "main.cell_0_0") {
			t.Errorf("%s: the cell never loaded:\n%s", world, stdout)
		}
	}
}

// TestSimulateHelpNamesTheLimits keeps the numbers docs/simulate.md gives
// the limits'.
func TestSimulateHelpNamesTheLimits(t *testing.T) {
	doc, err := os.ReadFile("../docs/simulate.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	for _, want := range []string{
		fmt.Sprintf("span %d frames", streaming.MaxRouteFrames),
		fmt.Sprintf("hold %d source positions", streaming.MaxRoutePoints),
		fmt.Sprintf("(1 to %d)", streaming.MaxConcurrency),
		fmt.Sprintf("(0 to %.0f)", streaming.MaxFrameBudgetMS),
		fmt.Sprintf("plus %d KiB and a sixteenth", manifest.ReadSlack>>10),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("docs/simulate.md does not say %q", want)
		}
	}
}
