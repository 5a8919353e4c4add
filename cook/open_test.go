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
