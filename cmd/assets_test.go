package cmd

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const demoSceneFile = "../testdata/demo/main.esscene"

func summaryOf(out string) string {
	if i := strings.Index(out, "summary of "); i >= 0 {
		return out[i:]
	}
	return out
}

// TestSimulateDemoAssets keeps the demo's summary with and without asset
// costs as goldens, and proves the runs deterministic.
func TestSimulateDemoAssets(t *testing.T) {
	args := []string{"--config", demoConfig, "simulate", "--path", demoRoute, "--budget", "16384", demoSceneFile}
	code, with, errs := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(with, "  asset B  a+  a-") || !strings.Contains(with, "peak resident assets") {
		t.Errorf("no asset columns or summary lines:\n%.400s", with)
	}
	simGolden(t, "demo-assets.summary", summaryOf(with))
	if _, again, _ := run(t, args...); again != with {
		t.Error("two runs with assets differ")
	}
	code, without, errs := run(t, append(args, "--asset-costs", "off")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(without, "asset") {
		t.Errorf("--asset-costs off still reports assets:\n%s", summaryOf(without))
	}
	simGolden(t, "demo-no-assets.summary", summaryOf(without))
	if code, _, errs := run(t, append(args, "--asset-costs", "maybe")...); code != ExitInput || !strings.Contains(errs, "--asset-costs") {
		t.Errorf("--asset-costs maybe: exit %d, %q", code, errs)
	}
}

// copyDemo copies the demo project into a temporary folder.
func copyDemo(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir("../testdata/demo", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("../testdata/demo", p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755)
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestSimulateDiskReadsAssets(t *testing.T) {
	old := diskFramePeriod
	diskFramePeriod = 100 * time.Microsecond
	defer func() { diskFramePeriod = old }()
	// Cooked outside its project: the manifest records where the project
	// is, so --io disk finds the assets without --assets.
	proj := copyDemo(t)
	out := filepath.Join(t.TempDir(), "build")
	cfg := filepath.Join(proj, "worldcook.yaml")
	if code, _, errs := run(t, "--config", cfg, "cook", filepath.Join(proj, "main.esscene"), "--out", out); code != 0 {
		t.Fatalf("cook: exit %d: %s", code, errs)
	}
	route := filepath.Join(proj, "route.csv")
	code, with, errs := run(t, "--config", cfg, "simulate", "--path", route, "--io", "disk", out)
	if code != 0 || !strings.Contains(with, "0 cells given up") {
		t.Fatalf("disk IO: exit %d, %s\n%s", code, errs, with)
	}
	_, without, _ := run(t, "--config", cfg, "simulate", "--path", route, "--io", "disk", "--asset-costs", "off", out)
	if readBytes(t, with) <= readBytes(t, without) {
		t.Errorf("disk reads with assets (%d B) are not more than without (%d B)", readBytes(t, with), readBytes(t, without))
	}

	// A texture swapped for a named pipe after the cook: loads that need it
	// fail with a clear reason instead of blocking a worker for ever.
	tex := filepath.Join(proj, "assets", "textures", "grass.png")
	os.Remove(tex)
	if err := syscall.Mkfifo(tex, 0o644); err != nil {
		t.Skip("no FIFOs here")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, out2, errs := run(t, "--config", cfg, "simulate", "--path", route, "--io", "disk", "--retries", "0", out)
		if code != 0 || !strings.Contains(out2, "cannot read asset assets/textures/grass.png: not a regular file") {
			t.Errorf("FIFO asset: exit %d, %s\n%s", code, errs, summaryOf(out2))
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("simulate hung on a FIFO asset")
	}

	// The cooked world moved alone, away from its project: the folder
	// its manifest names holds none of the assets, and --io disk says so,
	// naming the manifest and the field, and how to proceed; --assets
	// names the project.
	// (One level deeper: at the same depth beside it, the relative path
	// would still reach the project.)
	away := filepath.Join(t.TempDir(), "elsewhere")
	os.Mkdir(away, 0o755)
	if err := os.Rename(out, filepath.Join(away, "build")); err != nil {
		t.Fatal(err)
	}
	os.Remove(tex)
	os.WriteFile(tex, []byte("png"), 0o644)
	code, _, errs = run(t, "--config", cfg, "simulate", "--path", route, "--io", "disk", filepath.Join(away, "build"))
	for _, want := range []string{"main.world.json", "project", "pass --assets with the project folder"} {
		if code != ExitInput || !strings.Contains(errs, want) {
			t.Errorf("world away from its project: exit %d, %q lacks %q", code, errs, want)
		}
	}
	if code, _, errs = run(t, "--config", cfg, "simulate", "--path", route, "--io", "disk", "--assets", proj, filepath.Join(away, "build")); code != 0 {
		t.Errorf("--assets PROJECT: exit %d, %s", code, errs)
	}
}

// readBytes finds the byte count of the "disk reads" summary line.
func readBytes(t *testing.T, out string) int64 {
	t.Helper()
	i := strings.Index(out, "disk reads")
	if i < 0 {
		t.Fatalf("no disk reads line:\n%s", summaryOf(out))
	}
	var n, b int64
	line := strings.TrimSpace(out[i+len("disk reads"):])
	if _, err := fmtSscanf(line, &n, &b); err != nil {
		t.Fatalf("disk reads line %q: %v", line, err)
	}
	return b
}

func fmtSscanf(line string, n, b *int64) (int, error) { return fmt.Sscanf(line, "%d, %d B", n, b) }

// TestAssetRefsFromConfig: a reference field declared in worldcook.yaml
// puts its files in the manifest; without it they are not assets.
func TestAssetRefsFromConfig(t *testing.T) {
	proj := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(proj, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("project.esproject", "{}")
	write("assets/portraits/ann.png", "PNG")
	write("main.esscene", `{"version":1,"name":"main","entities":[{"id":1,"parent":null,"components":[{"type":"StreamedWorld","data":{"cellSize":100}}]},
		{"id":2,"name":"Ann","parent":null,"components":[{"type":"Transform","data":{"position":{"x":5,"y":0,"z":5}}},{"type":"Dialog","data":{"portrait":"assets/portraits/ann.png"}}]}]}`)
	// Outside the project: a worldcook.yaml in it would be read without
	// --config.
	settings := filepath.Join(t.TempDir(), "worldcook.yaml")
	if err := os.WriteFile(settings, []byte("assetRefs:\n  fields: [portrait]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		config string
		want   bool
	}{{settings, true}, {"", false}} {
		out := t.TempDir()
		args := []string{"cook", filepath.Join(proj, "main.esscene"), "--out", out}
		if tc.config != "" {
			args = append([]string{"--config", tc.config}, args...)
		}
		if code, _, errs := run(t, args...); code != 0 {
			t.Fatalf("cook: exit %d: %s", code, errs)
		}
		m, err := os.ReadFile(filepath.Join(out, "world", "main.world.json"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(m), `"path": "assets/portraits/ann.png"`); got != tc.want {
			t.Errorf("config %q: portrait listed %v, want %v:\n%s", tc.config, got, tc.want, m)
		}
	}
}
