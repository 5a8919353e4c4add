package cook

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/streaming"
	"github.com/worldcook/worldcook/validate"
)

// TestOpen opens the cooked demo world every way simulate names it: the
// cooked directory, its world/ folder, the manifest, and the scene cooked
// in memory. All give the same cells; a cooked one serves its files
// through streaming.DirFiles, the scene from memory.
func TestOpen(t *testing.T) {
	ctx := context.Background()
	opts := OpenOptions{Validate: validate.Options{Plane: "xz"}}
	var cells []int
	for _, p := range []string{"testdata/demo", "testdata/demo/world", "testdata/demo/world/main.world.json", demoScene} {
		w, err := Open(ctx, p, opts)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		cells = append(cells, len(w.Cells))
		switch w.Files.(type) {
		case *streaming.DirFiles:
			if strings.HasSuffix(p, ".esscene") {
				t.Errorf("%s: a scene served from disk", p)
			}
		case streaming.MemFiles:
			if !strings.HasSuffix(p, ".esscene") {
				t.Errorf("%s: a cooked world served from memory", p)
			}
		default:
			t.Errorf("%s: files served by %T", p, w.Files)
		}
		data, err := fs.ReadFile(w.Files, w.Cells[0].Path)
		if err != nil || int64(len(data)) != w.Cells[0].Bytes {
			t.Errorf("%s: %s: %d bytes, %v", p, w.Cells[0].Path, len(data), err)
		}
	}
	for _, n := range cells {
		if n != cells[0] || n == 0 {
			t.Fatalf("cells %v", cells)
		}
	}
}

// TestOpenRefuses: a missing path gives the caller's advice, and a named
// pipe given as the world is refused at once.
func TestOpenRefuses(t *testing.T) {
	ctx := context.Background()
	_, err := Open(ctx, "testdata/none", OpenOptions{Missing: "cook it first"})
	if err == nil || err.Error() != "cannot read world testdata/none: no such file or directory; cook it first" {
		t.Errorf("missing: %v", err)
	}
	if _, err := Open(ctx, "testdata/none", OpenOptions{}); err == nil || !strings.HasSuffix(err.Error(), "pass a cooked directory, a world manifest or a scene") {
		t.Errorf("missing, default advice: %v", err)
	}
	fifo := filepath.Join(t.TempDir(), "main.world.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Open(ctx, fifo, OpenOptions{}); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "is not a regular file (a named pipe)") {
			t.Errorf("pipe: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("opening a named pipe as the world blocked")
	}
	empty := t.TempDir()
	os.Mkdir(filepath.Join(empty, "world"), 0o755)
	if _, err := Open(ctx, empty, OpenOptions{}); err == nil || !strings.Contains(err.Error(), "holds no world/*.world.json: not a cooked world") {
		t.Errorf("empty: %v", err)
	}
}

// TestOpenRecordedProject: a world cooked outside its project records
// where the project is, relative to the manifest, so that Open finds the
// asset files without being told: wherever the cooked folder and the
// project move together, and with a clear refusal naming the manifest and
// the field when the cooked folder moved alone. A project given wins.
func TestOpenRecordedProject(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	proj, out := filepath.Join(base, "game"), filepath.Join(base, "build", "web")
	corpus.CopyTree(t, filepath.Dir(demoScene), proj)
	rep := cookTo(t, filepath.Join(proj, filepath.Base(demoScene)), out, demoOptions(), 0)
	if got, want := rep.World.Manifest.Project, "../../../game"; got != want {
		t.Fatalf("manifest project %q, want %q", got, want)
	}
	opened := func(dir string, opts OpenOptions) error {
		w, err := Open(ctx, dir, opts)
		if err == nil && w.AssetFiles == nil {
			t.Errorf("%s: opened without its asset files", dir)
		}
		return err
	}
	if err := opened(out, OpenOptions{}); err != nil {
		t.Fatalf("cooked beside its project: %v", err)
	}
	// Moved together: the relative path still joins them.
	moved := filepath.Join(t.TempDir(), "release")
	if err := os.Rename(base, moved); err != nil {
		t.Fatal(err)
	}
	if err := opened(filepath.Join(moved, "build", "web"), OpenOptions{}); err != nil {
		t.Fatalf("moved with its project: %v", err)
	}
	// Moved alone, one level deeper: what the path names is no project.
	alone := filepath.Join(t.TempDir(), "a", "web")
	os.MkdirAll(filepath.Dir(alone), 0o755)
	if err := os.Rename(filepath.Join(moved, "build", "web"), alone); err != nil {
		t.Fatal(err)
	}
	err := opened(alone, OpenOptions{})
	for _, want := range []string{filepath.Join(alone, "world", "main.world.json"), `project "../../../game"`, "pass --assets"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("moved alone: %v; want it to say %q", err, want)
		}
	}
	// Moved alone so that the path names no folder at all.
	if err := os.Rename(filepath.Dir(alone), filepath.Join(filepath.Dir(filepath.Dir(alone)), "b")); err != nil {
		t.Fatal(err)
	}
	if err := opened(filepath.Join(filepath.Dir(filepath.Dir(alone)), "b", "web"), OpenOptions{}); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("project path naming nothing: %v", err)
	}
	// The project given overrides the recorded one.
	if err := opened(filepath.Join(filepath.Dir(filepath.Dir(alone)), "b", "web"), OpenOptions{Project: filepath.Join(moved, "game")}); err != nil {
		t.Errorf("with the project given: %v", err)
	}
}
