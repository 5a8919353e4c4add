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

	"github.com/fsnotify/fsnotify"
)

// rigDebounce is the quiet time the rig's loop waits for. The rig's
// tests only ever wait for a cook that must come (up to rigPatience),
// so a loaded machine makes them slower, never wrong.
const (
	rigDebounce = 50 * time.Millisecond
	rigPatience = 20 * time.Second
)

// rig runs the loop over a cook that reads those of its files that are
// there (as a cook reads the assets that exist and reports the others),
// and tells each cook's reads.
type rig struct {
	t     *testing.T
	mu    sync.Mutex
	files []string
	dirs  []string
	fail  bool
	cooks chan []string
	armed chan struct{}
	done  chan error
}

func start(t *testing.T, files, dirs []string) *rig {
	r := &rig{t: t, files: files, dirs: dirs, cooks: make(chan []string, 100), armed: make(chan struct{}, 100), done: make(chan error, 1)}
	ctx, stop := context.WithCancel(context.Background())
	cook := func(context.Context) Inputs {
		r.mu.Lock()
		defer r.mu.Unlock()
		var read []string
		for _, f := range r.files {
			if _, err := os.Stat(f); err == nil {
				read = append(read, f)
			}
		}
		r.cooks <- read
		return Inputs{Files: read, Dirs: r.dirs, OK: !r.fail}
	}
	go func() {
		r.done <- Run(ctx, cook, Options{Debounce: rigDebounce, SceneExt: ".esscene",
			Waiting: func() { r.armed <- struct{}{} }})
	}()
	r.next()
	t.Cleanup(func() {
		stop()
		<-r.done
	})
	return r
}

// set changes what the next cooks read, and whether they fail.
func (r *rig) set(files []string, fail bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files, r.fail = files, fail
}

// next waits for the next cook and for the loop to watch again, and
// returns what the cook read.
func (r *rig) next() []string {
	r.t.Helper()
	var read []string
	select {
	case read = <-r.cooks:
	case <-time.After(rigPatience):
		r.t.Fatal("no cook")
	}
	select {
	case <-r.armed:
	case <-time.After(rigPatience):
		r.t.Fatal("a cook is not followed by a watch")
	}
	return read
}

// until waits for a cook that read file (an edit can be seen as more
// than one burst: a copy, then its last block).
func (r *rig) until(file string) {
	r.t.Helper()
	for {
		if slices.Contains(r.next(), file) {
			return
		}
	}
}

// quiet checks that no cook follows for a while.
func (r *rig) quiet() {
	r.t.Helper()
	select {
	case got := <-r.cooks:
		r.t.Fatalf("unexpected cook (read %q)", got)
	case <-time.After(300 * time.Millisecond):
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWatch(t *testing.T) {
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
		r.next()
		// And again: the new file is watched as the old one was.
		write(t, tmp, "2")
		os.Rename(tmp, scene)
		r.next()
	})
	t.Run("a deleted input", func(t *testing.T) {
		dir := t.TempDir()
		scene, tex := filepath.Join(dir, "main.esscene"), filepath.Join(dir, "a.png")
		write(t, scene, "0")
		write(t, tex, "0")
		r := start(t, []string{scene, tex}, nil)
		os.Remove(tex)
		if got := r.next(); slices.Contains(got, tex) {
			t.Fatalf("read %q", got)
		}
		// The cook after the deletion did not read the texture; its
		// return is a change all the same.
		write(t, tex, "back")
		r.until(tex)
	})
	t.Run("a deleted input stays watched over cooks", func(t *testing.T) {
		dir := t.TempDir()
		scene, tex := filepath.Join(dir, "main.esscene"), filepath.Join(dir, "a.png")
		write(t, scene, "0")
		write(t, tex, "0")
		r := start(t, []string{scene, tex}, nil)
		os.Remove(tex)
		r.next()
		write(t, scene, "1")
		r.next()
		write(t, tex, "back")
		r.until(tex)
	})
	t.Run("a folder replaced by a file, then restored", func(t *testing.T) {
		dir := t.TempDir()
		scene, textures := filepath.Join(dir, "main.esscene"), filepath.Join(dir, "textures")
		tex := filepath.Join(textures, "a.png")
		write(t, scene, "0")
		write(t, tex, "0")
		r := start(t, []string{scene, tex}, nil)
		if err := os.Rename(textures, textures+".bak"); err != nil {
			t.Fatal(err)
		}
		write(t, textures, "not a folder")
		for slices.Contains(r.next(), tex) {
		}
		os.Remove(textures)
		if err := os.Rename(textures+".bak", textures); err != nil {
			t.Fatal(err)
		}
		r.until(tex)
		// The restored folder is watched again.
		write(t, tex, "1")
		r.next()
	})
	t.Run("a folder removed, then restored", func(t *testing.T) {
		dir := t.TempDir()
		levels := filepath.Join(dir, "levels", "town")
		scene := filepath.Join(levels, "main.esscene")
		write(t, scene, "0")
		r := start(t, []string{scene}, nil)
		if err := os.RemoveAll(filepath.Join(dir, "levels")); err != nil {
			t.Fatal(err)
		}
		for slices.Contains(r.next(), scene) {
		}
		write(t, scene, "back")
		r.until(scene)
		write(t, scene, "1")
		r.next()
	})
	t.Run("a scene that links into another folder", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "src", "main.esscene")
		scene := filepath.Join(dir, "levels", "main.esscene")
		write(t, target, "0")
		os.MkdirAll(filepath.Dir(scene), 0o755)
		if err := os.Symlink(filepath.Join("..", "src", "main.esscene"), scene); err != nil {
			t.Fatal(err)
		}
		r := start(t, []string{scene}, nil)
		write(t, target, "1")
		r.next()
		// Saved by rename beside the target.
		tmp := filepath.Join(dir, "src", ".main.esscene.swp")
		write(t, tmp, "2")
		os.Rename(tmp, target)
		r.next()
		// The link retargeted.
		other := filepath.Join(dir, "src", "other.esscene")
		write(t, other, "3")
		os.Remove(scene)
		os.Symlink(other, scene)
		r.next()
		write(t, other, "4")
		r.next()
	})
	t.Run("a failed cook that read fewer inputs", func(t *testing.T) {
		dir := t.TempDir()
		scene, prefab := filepath.Join(dir, "main.esscene"), filepath.Join(dir, "prefabs", "tree.esprefab")
		write(t, scene, "0")
		write(t, prefab, "0")
		r := start(t, []string{scene, prefab}, nil)
		// The edit breaks the scene before it gets to the prefab: the
		// cook fails having read the scene alone.
		r.set([]string{scene}, true)
		write(t, scene, "broken")
		r.next()
		// The last good cook's prefab is still watched.
		r.set([]string{scene, prefab}, false)
		write(t, prefab, "1")
		r.next()
	})
	t.Run("an input added by an edit", func(t *testing.T) {
		dir := t.TempDir()
		scene, prefab := filepath.Join(dir, "main.esscene"), filepath.Join(dir, "prefabs", "tree.esprefab")
		write(t, scene, "0")
		write(t, prefab, "0")
		r := start(t, []string{scene}, nil)
		write(t, prefab, "1")
		r.quiet() // not an input yet
		r.set([]string{scene, prefab}, false)
		write(t, scene, "uses the prefab")
		r.next()
		write(t, prefab, "2")
		r.next()
	})
	t.Run("a new scene in a folder argument", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "notes.txt"), "0")
		r := start(t, nil, []string{dir})
		write(t, filepath.Join(dir, "notes.txt"), "1")
		r.quiet()
		write(t, filepath.Join(dir, "new.esscene"), "0")
		r.next()
	})
}

// fakeClock is the time of a test: it moves only when told, and fires
// the loop's one pending timer when it is due.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	due     time.Time
	pending chan time.Time
	set     chan struct{}
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Unix(1e9, 0), set: make(chan struct{}, 100)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After replaces the pending timer: the loop listens to its latest only.
func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.due, c.pending = c.now.Add(d), make(chan time.Time)
	c.set <- struct{}{}
	return c.pending
}

// advance moves the time on by d and reports whether the pending timer
// fired (the loop has taken it when advance returns).
func (c *fakeClock) advance(d time.Duration) bool {
	c.mu.Lock()
	c.now = c.now.Add(d)
	ch := c.pending
	if ch == nil || c.now.Before(c.due) {
		c.mu.Unlock()
		return false
	}
	c.pending = nil
	now := c.now
	c.mu.Unlock()
	ch <- now
	return true
}

// fakeNotify is a change feed the test writes to.
type fakeNotify struct {
	ev  chan fsnotify.Event
	err chan error
}

func (fakeNotify) Add(string) error                { return nil }
func (fakeNotify) Remove(string) error             { return nil }
func (fakeNotify) Close() error                    { return nil }
func (n fakeNotify) events() <-chan fsnotify.Event { return n.ev }
func (n fakeNotify) errors() <-chan error          { return n.err }

// TestBurst: the rule for when a burst of saves has settled, driven save
// by save and tick by tick: a burst longer than the debounce whose saves
// come closer than it cooks once, the debounce after its last save; one
// that never pauses cooks at the maximum delay after its first save.
func TestBurst(t *testing.T) {
	const debounce, maxDelay = 150 * time.Millisecond, 2 * time.Second
	scene := filepath.Join(t.TempDir(), "main.esscene")
	write(t, scene, "0")
	clk := newFakeClock()
	feed := fakeNotify{ev: make(chan fsnotify.Event), err: make(chan error)}
	cooks, waiting := make(chan int, 10), make(chan struct{}, 10)
	n := 0
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, func(context.Context) Inputs {
			n++
			cooks <- n
			return Inputs{Files: []string{scene}, OK: true}
		}, Options{Debounce: debounce, MaxDelay: maxDelay, clock: clk,
			notify: func() (notifier, error) { return feed, nil }, Waiting: func() { waiting <- struct{}{} }})
	}()
	defer func() { stop(); <-done }()
	<-cooks
	<-waiting
	save := func() {
		t.Helper()
		feed.ev <- fsnotify.Event{Name: scene, Op: fsnotify.Write}
		<-clk.set // the loop has taken the save and set its timer
	}
	cooked := func(want int) {
		t.Helper()
		if got := <-cooks; got != want {
			t.Fatalf("cook %d, want %d", got, want)
		}
		<-waiting
	}

	// 11 saves 100 ms apart: a second-long burst, never quiet for the
	// 150 ms debounce.
	save()
	for i := range 10 {
		if clk.advance(100 * time.Millisecond) {
			t.Fatalf("cooked in the middle of the burst, %d ms after its first save", 100*(i+1))
		}
		save()
	}
	if clk.advance(debounce - time.Millisecond) {
		t.Fatal("cooked before the inputs were quiet for the debounce")
	}
	if !clk.advance(time.Millisecond) {
		t.Fatal("no cook once the inputs were quiet for the debounce")
	}
	cooked(2)

	// A chmod, or a file that is no input, is no change.
	feed.ev <- fsnotify.Event{Name: scene, Op: fsnotify.Chmod}
	feed.ev <- fsnotify.Event{Name: scene + ".bak", Op: fsnotify.Write}

	// Saves every 100 ms without end: the cook comes at the maximum delay
	// after the first, then the next burst begins.
	save()
	for elapsed := 100 * time.Millisecond; ; elapsed += 100 * time.Millisecond {
		fired := clk.advance(100 * time.Millisecond)
		if fired != (elapsed >= maxDelay) {
			t.Fatalf("%v after the first save of an endless burst: cooked %v", elapsed, fired)
		}
		if fired {
			break
		}
		save()
	}
	cooked(3)
}

// TestInterrupt: the end of the context between cooks ends the watch
// with nil; during a cook that stops, with ErrInterrupted; during a cook
// that still finished, with nil: its world is in place.
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
	for _, ok := range []bool{false, true} {
		ctx, stop = context.WithCancel(context.Background())
		err := Run(ctx, func(context.Context) Inputs { stop(); return Inputs{Files: []string{scene}, OK: ok} }, Options{})
		if want := map[bool]error{false: ErrInterrupted, true: nil}[ok]; !errors.Is(err, want) {
			t.Fatalf("during a cook (finished %v): %v, want %v", ok, err, want)
		}
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
