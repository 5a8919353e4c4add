package cmd

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/config"
)

// TestBuildOutputsRefused: a depfile or metafile among the scenes' own
// files, or over an input, and --watch with --check are refused with one
// line and exit 2, and nothing of the scene or the configuration changes.
// (A file over an input outside the scenes' folders is refused when it
// is written, after the cook: docs/build.md.)
func TestBuildOutputsRefused(t *testing.T) {
	dir := t.TempDir()
	levels := filepath.Join(dir, "levels")
	other := filepath.Join(dir, "other")
	for _, d := range []string{levels, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	scene := filepath.Join(levels, "main.esscene")
	src := []byte(levelledScene)
	if err := os.WriteFile(scene, src, 0o644); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(other, "worldcook.yaml")
	conf := []byte("cook:\n  jobs: 1\n")
	if err := os.WriteFile(config, conf, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(levels, filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"depfile beside the scene", []string{"--depfile", filepath.Join(levels, "main.d")}, "a folder of the scenes being cooked"},
		{"metafile below the scene's folder", []string{"--metafile", filepath.Join(levels, "sub", "meta.json")}, "a folder of the scenes being cooked"},
		{"depfile through a link to the scene's folder", []string{"--depfile", filepath.Join(dir, "alias", "main.d")}, "a folder of the scenes being cooked"},
		{"depfile over the configuration", []string{"--depfile", config}, "--depfile"},
		{"watch with check", []string{"--watch", "--check"}, "--watch cooks on every change and --check writes nothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--config", config, "cook", scene, "--out", out}, tc.args...)
			code, _, errs := run(t, args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr:\n%s", code, errs)
			}
			// The scene's own warnings (a world without a source) may
			// come first; the refusal is one line.
			if lines := errorLines(errs); len(lines) != 1 || !strings.Contains(errs, tc.want) {
				t.Errorf("stderr %q: want one line saying %q", errs, tc.want)
			}
			if b, _ := os.ReadFile(scene); string(b) != string(src) {
				t.Error("the scene changed")
			}
			if b, _ := os.ReadFile(config); string(b) != string(conf) {
				t.Error("the configuration changed")
			}
			for _, f := range []string{filepath.Join(levels, "main.d"), filepath.Join(levels, "sub")} {
				if _, err := os.Stat(f); err == nil {
					t.Errorf("%s was written", f)
				}
			}
		})
	}
}

// errorLines are stderr's lines but the warnings a command prints about
// its input before it fails ("FILE:LINE:COL: warning[code]: ...").
func errorLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.Contains(l, ": warning[") {
			out = append(out, l)
		}
	}
	return out
}

// cancelFS ends a context at the first file a cook stages: Ctrl-C in the
// middle of a cook, at a moment a test can name.
type cancelFS struct {
	cook.FS
	cancel context.CancelFunc
}

func (f cancelFS) WriteFile(p string, b []byte, perm fs.FileMode) error {
	f.cancel()
	return f.FS.WriteFile(p, b, perm)
}

// TestWatchInterruptedDuringACook: Ctrl-C during a cook of --watch stops
// it, leaves the previous world, says so once and exits 2 (docs/build.md),
// and never says it waits for the next change.
func TestWatchInterruptedDuringACook(t *testing.T) {
	dir := t.TempDir()
	scene, out := filepath.Join(dir, "main.esscene"), filepath.Join(dir, "out")
	if err := os.WriteFile(scene, []byte(levelledScene), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr bytes.Buffer
	opts := &cookOptions{
		IO:          IO{In: strings.NewReader(""), Out: &stdout, Err: &stderr},
		Scenes:      []string{scene},
		Cfg:         config.Cook{Out: out, Watch: true, SceneInput: config.SceneInput{Plane: "xz"}},
		LockTimeout: 10 * time.Second,
		FS:          cancelFS{FS: openOut(t, out), cancel: cancel},
	}
	code := report(&stderr, runCook(ctx, opts))
	want := "worldcook: interrupted during a cook; the previous world is unchanged\n"
	if code != ExitInput || stderr.String() != want {
		t.Fatalf("exit %d, stderr %q; want exit 2, %q", code, stderr.String(), want)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("OUT holds %d files after the interrupted first cook", len(entries))
	}
}
