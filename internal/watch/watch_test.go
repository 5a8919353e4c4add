package watch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// rigDebounce is the quiet time the rig's loop waits for.
const rigDebounce = 300 * time.Millisecond

// rig runs the loop over a cook that reports the files it was told to,
// and counts its cooks.
type rig struct {
	t     *testing.T
	mu    sync.Mutex
	files []string
	dirs  []string
	cooks chan int
	armed chan struct{}
	n     int
	done  chan error
	stop  context.CancelFunc
}

func start(t *testing.T, files, dirs []string) *rig {
	r := &rig{t: t, files: files, dirs: dirs, cooks: make(chan int, 100), armed: make(chan struct{}, 100), done: make(chan error, 1)}
	ctx, stop := context.WithCancel(context.Background())
	r.stop = stop
	cook := func(context.Context) Inputs {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.n++
		r.cooks <- r.n
		return Inputs{Files: append([]string(nil), r.files...), Dirs: r.dirs, OK: true}
	}
	go func() {
		r.done <- Run(ctx, cook, Options{Debounce: rigDebounce, SceneExt: ".esscene",
			Waiting: func() { r.armed <- struct{}{} }})
	}()
	r.expect(1)
	t.Cleanup(func() {
		stop()
		<-r.done
	})
	return r
}

// expect waits for cook n, and for the loop to watch its inputs.
func (r *rig) expect(n int) {
	r.t.Helper()
	select {
	case got := <-r.cooks:
		if got != n {
			r.t.Fatalf("cook %d, want %d", got, n)
		}
	case <-time.After(5 * time.Second):
		r.t.Fatalf("no cook %d", n)
	}
	select {
	case <-r.armed:
	case <-time.After(5 * time.Second):
		r.t.Fatalf("cook %d is not followed by a watch", n)
	}
}

// quiet checks that no cook follows for a while.
func (r *rig) quiet() {
	r.t.Helper()
	select {
	case got := <-r.cooks:
		r.t.Fatalf("unexpected cook %d", got)
	case <-time.After(800 * time.Millisecond):
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWatch(t *testing.T) {
	t.Run("a burst of saves cooks once", func(t *testing.T) {
		dir := t.TempDir()
		scene := filepath.Join(dir, "main.esscene")
		write(t, scene, "0")
		r := start(t, []string{scene}, nil)
		// The saves come 20 ms apart; on a machine too loaded to keep
		// them within the debounce of one another they are no burst.
		var gap time.Duration
		last := time.Now()
		for i := range 5 {
			write(t, scene, string(rune('a'+i)))
			now := time.Now()
			gap, last = max(gap, now.Sub(last)), now
			time.Sleep(20 * time.Millisecond)
		}
		r.expect(2)
		if gap >= rigDebounce/2 {
			t.Skipf("saves came up to %v apart, not within the %v debounce: the machine is too loaded to test a burst", gap, rigDebounce)
		}
		r.quiet()
	})
	t.Run("a save by rename", func(t *testing.T) {
		dir := t.TempDir()
		scene := filepath.Join(dir, "main.esscene")
		write(t, scene, "0")
		r := start(t, []string{scene}, nil)
		tmp := filepath.Join(dir, ".main.esscene.swp")
		write(t, tmp, "1")
		if err := os.Rename(tmp, scene); err != nil {
			t.Fatal(err)
		}
		r.expect(2)
		// And again: the new file is watched as the old one was.
		write(t, tmp, "2")
		os.Rename(tmp, scene)
		r.expect(3)
	})
	t.Run("a deleted input", func(t *testing.T) {
		dir := t.TempDir()
		scene, tex := filepath.Join(dir, "main.esscene"), filepath.Join(dir, "a.png")
		write(t, scene, "0")
		write(t, tex, "0")
		r := start(t, []string{scene, tex}, nil)
		os.Remove(tex)
		r.expect(2)
	})
	t.Run("an input added by an edit", func(t *testing.T) {
		dir := t.TempDir()
		sub := filepath.Join(dir, "prefabs")
		os.Mkdir(sub, 0o755)
		scene, prefab := filepath.Join(dir, "main.esscene"), filepath.Join(sub, "tree.esprefab")
		write(t, scene, "0")
		write(t, prefab, "0")
		r := start(t, []string{scene}, nil)
		write(t, prefab, "1")
		r.quiet() // not an input yet
		r.mu.Lock()
		r.files = append(r.files, prefab)
		r.mu.Unlock()
		write(t, scene, "uses the prefab")
		r.expect(2)
		write(t, prefab, "2")
		r.expect(3)
	})
	t.Run("a new scene in a folder argument", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "notes.txt"), "0")
		r := start(t, nil, []string{dir})
		write(t, filepath.Join(dir, "notes.txt"), "1")
		r.quiet()
		write(t, filepath.Join(dir, "new.esscene"), "0")
		r.expect(2)
	})
	t.Run("a watched folder disappears", func(t *testing.T) {
		dir := t.TempDir()
		levels := filepath.Join(dir, "levels")
		os.Mkdir(levels, 0o755)
		scene := filepath.Join(levels, "main.esscene")
		write(t, scene, "0")
		r := start(t, []string{scene}, nil)
		if err := os.RemoveAll(levels); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-r.done:
			if !errors.Is(err, ErrGone) {
				t.Fatalf("got %v, want ErrGone", err)
			}
			r.done <- err // for the cleanup
		case <-time.After(5 * time.Second):
			t.Fatal("the watch went on without its folder")
		}
	})
}

// TestInterrupt: the end of the context between cooks ends the watch
// with nil; during a cook, with ErrInterrupted.
func TestInterrupt(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "main.esscene")
	write(t, scene, "0")
	ctx, stop := context.WithCancel(context.Background())
	waiting := make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, func(context.Context) Inputs { return Inputs{Files: []string{scene}, OK: true} },
			Options{Waiting: func() { waiting <- struct{}{} }})
	}()
	<-waiting
	stop()
	if err := <-done; err != nil {
		t.Fatalf("between cooks: %v", err)
	}
	ctx, stop = context.WithCancel(context.Background())
	err := Run(ctx, func(context.Context) Inputs { stop(); return Inputs{Files: []string{scene}} }, Options{})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("during a cook: %v", err)
	}
}

// TestArmed: after a cook the loop says what it watches: the input files,
// their folders and every folder under a scene folder, and those scene
// folders (the output folder left out).
func TestArmed(t *testing.T) {
	dir := t.TempDir()
	scenes, assets, out := filepath.Join(dir, "levels"), filepath.Join(dir, "assets"), filepath.Join(dir, "levels", "out")
	scene, tex := filepath.Join(scenes, "town", "main.esscene"), filepath.Join(assets, "t.png")
	for _, d := range []string{filepath.Dir(scene), assets, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, scene, "{}")
	write(t, tex, "png")
	ctx, stop := context.WithCancel(context.Background())
	got := make(chan Watched, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, func(context.Context) Inputs {
			return Inputs{Files: []string{scene, tex, tex}, Dirs: []string{scenes}, OK: true}
		}, Options{Exclude: out, Armed: func(w Watched) { got <- w }})
	}()
	w := <-got
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := Watched{Files: 2, Folders: []string{assets, scenes, filepath.Join(scenes, "town")}, SceneDirs: []string{scenes}}
	if w.Files != want.Files || !slices.Equal(w.Folders, want.Folders) || !slices.Equal(w.SceneDirs, want.SceneDirs) {
		t.Errorf("watched %+v, want %+v", w, want)
	}
}
