package streaming

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/worldcook/worldcook/manifest"
)

// within runs fn and fails the test if it does not return in time: the
// cases below would hang or exhaust memory before the limits were in.
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not finish within %v", d)
	}
}

// hostileFolder is a cooked folder in a temp dir whose cells are each
// bad one way, with a manifest listing them all (sizes as a hand-written
// manifest gives them, no digests).
func hostileFolder(t *testing.T) (string, *manifest.Manifest) {
	t.Helper()
	dir := t.TempDir()
	outside := t.TempDir()
	world := filepath.Join(dir, "world")
	os.Mkdir(world, 0o755)
	doc := []byte(`{"name":"good","entities":[{"id":1,"name":"Rock","parent":null,"components":[]}]}` + "\n")
	os.WriteFile(filepath.Join(world, "good.json"), doc, 0o644)
	os.WriteFile(filepath.Join(outside, "secret.json"), doc, 0o644)
	os.WriteFile(filepath.Join(world, "big.json"), append(doc, make([]byte, 64<<10)...), 0o644)
	os.Mkdir(filepath.Join(world, "folder.json"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(world, "pipe.json"), 0o644); err != nil {
		t.Skip(err)
	}
	for name, target := range map[string]string{
		"zero.json":     "/dev/zero",
		"out.json":      filepath.Join(outside, "secret.json"),
		"up.json":       "../../" + filepath.Base(outside) + "/secret.json",
		"link.json":     "good.json",
		"topipe.json":   "pipe.json",
		"dangle.json":   "nowhere.json",
		"tofolder.json": "folder.json",
	} {
		if err := os.Symlink(target, filepath.Join(world, name)); err != nil {
			t.Skip(err)
		}
	}
	m := &manifest.Manifest{Version: manifest.Version, Scene: "h", CellSize: 10}
	for i, name := range []string{"good", "link", "big", "folder", "pipe", "topipe", "zero", "out", "up", "dangle", "tofolder", "missing"} {
		m.Cells = append(m.Cells, manifest.Cell{Name: name, Path: "world/" + name + ".json", X: int32(i), MaxX: 10, MaxZ: 10, Bytes: int64(len(doc))})
	}
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
	return dir, m
}

// TestDirFilesReadsOnlyTheWorld: through DirFiles a cell is read only if
// it is a regular file inside the folder (links inside are followed) and
// no larger than its manifest size allows; every other case fails at once
// with the reason.
func TestDirFilesReadsOnlyTheWorld(t *testing.T) {
	dir, m := hostileFolder(t)
	files, err := OpenDir(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"good":     "",
		"link":     "",
		"big":      "65618 bytes, more than the 4183 bytes its manifest size allows (82 + slack)",
		"folder":   "not a regular file (a directory)",
		"pipe":     "not a regular file (a named pipe)",
		"topipe":   "not a regular file (a named pipe)",
		"zero":     "path escapes from parent",
		"out":      "path escapes from parent",
		"up":       "path escapes from parent",
		"dangle":   "no such file",
		"tofolder": "not a regular file (a directory)",
		"missing":  "no such file",
	}
	for _, c := range m.Cells {
		within(t, 10*time.Second, func() {
			data, err := files.ReadFile(c.Path)
			w := want[c.Name]
			switch {
			case w == "" && (err != nil || int64(len(data)) != c.Bytes):
				t.Errorf("%s: %d bytes, %v", c.Name, len(data), err)
			case w != "" && (err == nil || !strings.Contains(err.Error(), w)):
				t.Errorf("%s: %v, want %q", c.Name, err, w)
			}
		})
	}
	// Only what the manifest lists is served.
	if _, err := files.ReadFile("world/../world/good.json"); err == nil {
		t.Error("an unclean path was served")
	}
	if _, err := files.Open("world"); err == nil {
		t.Error("a path the manifest does not list was served")
	}
	if err := files.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := files.ReadFile("world/good.json"); err == nil {
		t.Error("a closed folder still served a file")
	}
}

// TestDiskIOHostileCells runs the scheduler with disk IO over the hostile
// folder, a source standing on every cell: the bad cells are clean load
// failures (retried, then given up with the reason), the good ones load,
// and the run ends promptly — a named pipe no longer hangs the pool.
func TestDiskIOHostileCells(t *testing.T) {
	dir, m := hostileFolder(t)
	files, err := OpenDir(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	w := WorldFromManifest(m, files)
	d, err := NewDiskLoader(DiskIO{Files: w.Files, Concurrency: 2, FrameBudget: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	retry := RetryPolicy{Retries: 1, BackoffFrames: 1, TimeoutFrames: 50}
	src := []Source{{Name: "cam", X: 60, Z: 5, Load: 100, Prefetch: 100, Unload: 200, Enabled: true}}
	s, err := NewScheduler(w, src, Settings{Retry: retry}, d)
	if err != nil {
		t.Fatal(err)
	}
	within(t, 30*time.Second, func() {
		for f := 0; f < 400 && (len(s.Summary().GaveUp) < len(m.Cells)-2 || s.State("good") != Resident || s.State("link") != Resident); f++ {
			s.Step([]Point{{X: 60, Z: 5}})
			time.Sleep(time.Millisecond)
		}
		s.Close()
	})
	if s.State("good") != Resident || s.State("link") != Resident {
		t.Errorf("good cells: %v, %v", s.State("good"), s.State("link"))
	}
	sum := s.Summary()
	if len(sum.GaveUp) != len(m.Cells)-2 {
		t.Fatalf("%d cells given up, want %d: %+v", len(sum.GaveUp), len(m.Cells)-2, sum.GaveUp)
	}
	for _, g := range sum.GaveUp {
		if !strings.Contains(g.Err, "world/"+g.Cell+".json") {
			t.Errorf("%s: %s", g.Cell, g.Err)
		}
	}
}

// TestDiskIOLimits: a worker count or frame budget out of range is refused
// with the limit named, never a panic (a huge count used to fail to make
// the completion queue).
func TestDiskIOLimits(t *testing.T) {
	files := MemFiles{}
	for _, tc := range []struct {
		cfg  DiskIO
		want string
	}{
		{DiskIO{Files: files, Concurrency: math.MaxInt}, fmt.Sprintf("concurrency %d must be from 1 to 256 disk IO workers", math.MaxInt)},
		{DiskIO{Files: files, Concurrency: 257}, "must be from 1 to 256"},
		{DiskIO{Files: files, Concurrency: 0}, "must be from 1 to 256"},
		{DiskIO{Files: files, Concurrency: 1, FrameBudget: maxFrameBudget + 1}, "frame budget 1h0m0.000000001s must be from 0 to 1h0m0s"},
		{DiskIO{Files: files, Concurrency: 1, FrameBudget: -1}, "must be from 0 to"},
	} {
		d, err := NewDiskLoader(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.cfg, err, tc.want)
		}
		if d != nil {
			d.Close()
		}
	}
	d, err := NewDiskLoader(DiskIO{Files: files, Concurrency: MaxConcurrency, FrameBudget: maxFrameBudget})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	for _, ms := range []float64{-1, math.NaN(), math.Inf(1), 1e300, MaxFrameBudgetMS + 1} {
		if err := checkFrameBudgetMS(ms); err == nil || !strings.Contains(err.Error(), "must be from 0 to 3.6e+06 ms") {
			t.Errorf("checkFrameBudgetMS(%v) = %v", ms, err)
		}
	}
	for _, ms := range []float64{0, 4, MaxFrameBudgetMS} {
		if err := checkFrameBudgetMS(ms); err != nil {
			t.Errorf("checkFrameBudgetMS(%v) = %v", ms, err)
		}
	}
}

// TestWorldBytesCannotWrap: a world built in code whose sizes add up past
// manifest.MaxWorldBytes is refused as a manifest would be, so resident
// bytes can never wrap negative.
func TestWorldBytesCannotWrap(t *testing.T) {
	for _, edit := range []func(w *World){
		func(w *World) { w.Cells[0].Bytes, w.Cells[1].Bytes = math.MaxInt64, math.MaxInt64 },
		func(w *World) { w.Cells[2].ProxyBytes = manifest.MaxWorldBytes },
		func(w *World) { w.Cells[3].Bytes = 1e18 },
	} {
		w := gridWorld(2)
		edit(w)
		_, err := NewScheduler(w, benchSources(), Settings{}, NewModelLoader(ModelIO{}))
		if err == nil || !strings.Contains(err.Error(), "sizes add up past 4398046511104 bytes") {
			t.Errorf("%v", err)
		}
	}
}

// TestFrameSettingsLimits: settings counted in frames are bounded, so
// that a frame number plus one of them never wraps (an evict cooldown of
// 2^63-1 used to wrap to no cooldown at all).
func TestFrameSettingsLimits(t *testing.T) {
	for _, tc := range []struct {
		set  Settings
		want string
	}{
		{Settings{EvictCooldown: math.MaxInt}, "evict cooldown 9223372036854775807 must be at most 2147483647 frames"},
		{Settings{Retry: RetryPolicy{TimeoutFrames: math.MaxInt32 + 1}}, "retry timeout and backoff must be at most 2147483647 frames"},
		{Settings{Retry: RetryPolicy{BackoffFrames: math.MaxInt}}, "at most 2147483647 frames"},
	} {
		_, err := NewScheduler(gridWorld(2), benchSources(), tc.set, NewModelLoader(ModelIO{}))
		if err == nil || err.Error() != tc.want && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.set, err, tc.want)
		}
	}
	if _, err := NewScheduler(gridWorld(2), benchSources(), Settings{EvictCooldown: MaxFrameSetting, Retry: RetryPolicy{TimeoutFrames: MaxFrameSetting}}, NewModelLoader(ModelIO{})); err != nil {
		t.Fatal(err)
	}
}

// TestRouteLimits: a route whose frames × sources, frame span, rows or
// bytes pass the limits is refused with the limit named, before the
// frames are allocated.
func TestRouteLimits(t *testing.T) {
	var many strings.Builder
	many.WriteString("frame,source,x,z\n")
	for i := range 2000 {
		fmt.Fprintf(&many, "0,s%d,0,0\n", i)
	}
	many.WriteString("999999,s0,1,1\n")
	template := Source{Name: "cam", Load: 1, Prefetch: 1, Unload: 2, Enabled: true}
	for _, tc := range []struct{ name, csv, want string }{
		{"2000 sources to frame 999999", many.String(), "route.csv:2002: 1000000 frames × 2000 sources is 2000000000 source positions, more than the 4194304 a route may hold (MaxRoutePoints)"},
		{"frames from -2^63 to 2^63-1", "frame,x,z\n-9223372036854775808,0,0\n9223372036854775807,1,1\n", "route.csv:3: frame 9223372036854775807 is more than 1000000 frames after the first"},
		{"frame past the span", "frame,x,z\n0,0,0\n1000000,1,1\n", "more than 1000000 frames after the first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, err := parseRouteOn(strings.NewReader(tc.csv), "route.csv", "")
			if err != nil {
				t.Fatal(err)
			}
			within(t, 10*time.Second, func() { _, _, err = rt.Bind(nil, "xz", template) })
			if err == nil || err.Error() != tc.want && !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v, want %q", err, tc.want)
			}
		})
	}
	// The most frames a route may span, with one source, still binds.
	rt, err := parseRouteOn(strings.NewReader("frame,x,z\n0,0,0\n999999,1,1\n"), "route.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, frames, err := rt.Bind(nil, "xz", template); err != nil || len(frames) != MaxRouteFrames {
		t.Fatalf("%d frames, %v", len(frames), err)
	}
	// Authored sources count too: 5 of them over a million frames.
	authored := make([]Source, 5)
	for i := range authored {
		authored[i] = template
		authored[i].Name = fmt.Sprint("a", i)
	}
	if _, _, err := rt.Bind(authored, "xz", template); err == nil || !strings.Contains(err.Error(), "1000000 frames × 5 sources") {
		t.Errorf("authored sources: %v", err)
	}
	if testing.Short() {
		return
	}
	// A route of more rows than MaxRoutePoints, and an endless one.
	rows := "x,z\n" + strings.Repeat("1,2\n", MaxRoutePoints+1)
	if _, err := parseRouteOn(strings.NewReader(rows), "route.csv", ""); err == nil || !strings.Contains(err.Error(), "route.csv:4194306: the route has more than 4194304 rows (MaxRoutePoints") {
		t.Errorf("rows: %v", err)
	}
	within(t, 60*time.Second, func() {
		_, err = parseRouteOn(io.MultiReader(strings.NewReader("x,z\n"), endless("# "+strings.Repeat("-", 1000)+"\n")), "route.csv", "")
	})
	if err == nil || err.Error() != "route.csv: the route is larger than 268435456 bytes (MaxRouteBytes); shorten it" {
		t.Errorf("endless route: %v", err)
	}
}

// endless repeats a line for ever.
type endless string

func (e endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], e)
	}
	return n, nil
}
