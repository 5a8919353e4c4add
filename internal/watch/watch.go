// Package watch re-runs a cook whenever one of its inputs changes: it
// watches the folders that hold them (an editor saves by writing a new
// file and renaming it over the old, which a watch on the file itself
// would lose), waits for a burst of saves to settle, and follows the
// inputs each cook reports, so that a prefab or asset an edit starts to
// use is watched from the next cook on.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Inputs are what one cook depends on.
type Inputs struct {
	// Files are the files it read (the scenes at least, even when it
	// failed).
	Files []string
	// Dirs are folders whose new scene files (ending in SceneExt) join
	// the next cook: the directory arguments.
	Dirs []string
	// OK is false for a failed cook: the inputs of the last good one stay
	// watched too, so that undoing the edit that broke it cooks again.
	OK bool
}

// Options tune the loop.
type Options struct {
	// Debounce is how long the inputs must stay quiet after a change
	// before the next cook (0 = DefaultDebounce).
	Debounce time.Duration
	// MaxDelay bounds how long a burst that never goes quiet delays the
	// cook, counted from its first change (0 = DefaultMaxDelay).
	MaxDelay time.Duration
	// SceneExt names the files under Dirs that are inputs once created.
	SceneExt string
	// Exclude is a folder none of whose files is an input (the output
	// directory, which may lie under a directory argument).
	Exclude string
	// Waiting, if set, is told when the loop starts waiting for a change.
	Waiting func()
	// Armed, if set, is told after each cook what the loop now watches.
	Armed func(Watched)

	// clock and notify replace the real time and file system events in
	// tests, which drive a burst change by change and tick by tick.
	clock  clock
	notify func() (notifier, error)
}

// Watched is what the loop watches between two cooks.
type Watched struct {
	// Files is how many input files it watches.
	Files int
	// Folders are the folders it watches (absolute, sorted): those of the
	// files, and every folder under SceneDirs.
	Folders []string
	// SceneDirs are the folders whose new scenes join the next cook.
	SceneDirs []string
}

// DefaultDebounce covers an editor's save: write, rename, a .meta
// sidecar, a formatter rewriting the file.
const DefaultDebounce = 150 * time.Millisecond

// DefaultMaxDelay is how long a burst of changes that never pauses for
// the debounce (a tool exporting textures one after another, a folder
// being synced) may hold the cook back: it cooks then, and again once the
// burst is over.
const DefaultMaxDelay = 2 * time.Second

// ErrInterrupted is returned when the context ended during a cook that
// did not finish.
var ErrInterrupted = errors.New("interrupted during a cook")

// Run cooks, then cooks again after each change of an input, until ctx
// ends. It returns nil when ctx ends between cooks (or during a cook
// that still finished), and ErrInterrupted when it ends during a cook
// that did not.
//
// What counts as a change: a file an input names (through every link
// on the way to it) written, created, removed or renamed; a new scene
// under Dirs; a folder that holds inputs removed, renamed or replaced.
// An input that is deleted stays watched until it is back, and so does a
// folder of inputs that is gone (through the nearest folder above it that
// is there), so that restoring either cooks again.
func Run(ctx context.Context, cook func(context.Context) Inputs, opts Options) error {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = DefaultMaxDelay
	}
	if opts.clock == nil {
		opts.clock = realClock{}
	}
	if opts.notify == nil {
		opts.notify = newFSNotify
	}
	w, err := opts.notify()
	if err != nil {
		return fmt.Errorf("cannot watch the inputs: %w", err)
	}
	defer w.Close()
	l := &loop{w: w, opts: opts, watched: map[string]bool{}}
	if opts.Exclude != "" {
		l.exclude = abs(opts.Exclude)
	}
	var last Inputs
	for {
		in := cook(ctx)
		if ctx.Err() != nil {
			if in.OK {
				return nil
			}
			return ErrInterrupted
		}
		files := append([]string(nil), in.Files...)
		dirs := append([]string(nil), in.Dirs...)
		if !in.OK {
			files = append(files, last.Files...)
			dirs = append(dirs, last.Dirs...)
		} else {
			last = in
		}
		// A deleted input stays watched until it is back: the cook that
		// followed its deletion did not read it, and would otherwise
		// not see it return.
		for f := range l.files {
			if _, err := os.Lstat(f); err != nil {
				files = append(files, f)
			}
		}
		if err := l.arm(files, dirs); err != nil {
			return err
		}
		if opts.Armed != nil {
			opts.Armed(l.watching)
		}
		if opts.Waiting != nil {
			opts.Waiting()
		}
		if err := l.wait(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

type loop struct {
	w       notifier
	opts    Options
	exclude string
	// files are the input files (absolute), with every link on the way
	// to each and what it points to.
	files map[string]bool
	dirs  []string
	// missing are folders that should hold inputs but are not there (or
	// are not folders): the nearest folder above each is watched, and a
	// change of any folder on the way is one.
	missing []string
	watched map[string]bool
	// watching is what the last arm watches.
	watching Watched
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// maxLinks bounds a chain of symbolic links followed (as the kernel's
// ELOOP does).
const maxLinks = 40

// chain is p and, when p is a symbolic link, every link it leads through
// and the file it names at last: an edit of the target is a change of
// the input, and so is a link retargeted.
func chain(p string) []string {
	out := []string{p}
	for range maxLinks {
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			break
		}
		t, err := os.Readlink(p)
		if err != nil {
			break
		}
		if !filepath.IsAbs(t) {
			// Relative to the folder the link is really in, as the
			// kernel reads it ("../x" from a linked folder).
			dir := filepath.Dir(p)
			if r, err := filepath.EvalSymlinks(dir); err == nil {
				dir = r
			}
			t = filepath.Join(dir, t)
		}
		p = filepath.Clean(t)
		out = append(out, p)
	}
	return out
}

// arm watches the folders of files and under dirs, and nothing else.
func (l *loop) arm(files, dirs []string) error {
	l.files = map[string]bool{}
	want := map[string]bool{}
	inputs := 0
	for _, f := range files {
		a := abs(f)
		if !l.files[a] {
			inputs++
		}
		for _, p := range chain(a) {
			l.files[p] = true
			want[filepath.Dir(p)] = true
		}
	}
	l.dirs = l.dirs[:0]
	for _, d := range dirs {
		root := abs(d)
		l.dirs = append(l.dirs, root)
		if l.files[root] {
			inputs-- // a folder argument, not a file
		}
		want[root] = true
		filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.IsDir() {
				if l.excluded(p) {
					return fs.SkipDir
				}
				want[p] = true
			}
			return nil
		})
	}
	// A folder that is not there is watched through the nearest one above
	// it that is.
	l.missing = l.missing[:0]
	for d := range want {
		if isDir(d) {
			continue
		}
		delete(want, d)
		l.missing = append(l.missing, d)
		for up := filepath.Dir(d); ; up = filepath.Dir(up) {
			if isDir(up) {
				want[up] = true
				break
			}
			if up == filepath.Dir(up) {
				break
			}
		}
	}
	for d := range l.watched {
		if !want[d] {
			l.w.Remove(d)
			delete(l.watched, d)
		}
	}
	folders := make([]string, 0, len(want))
	for d := range want {
		folders = append(folders, d)
	}
	sort.Strings(folders)
	for _, d := range folders {
		if l.watched[d] {
			continue
		}
		if err := l.w.Add(d); err != nil {
			if !isDir(d) {
				// Gone between the look and the watch: the next cook
				// looks again.
				l.missing = append(l.missing, d)
				continue
			}
			return fmt.Errorf("cannot watch %s: %w", d, err)
		}
		l.watched[d] = true
	}
	l.watching = Watched{Files: inputs, Folders: folders, SceneDirs: append([]string(nil), l.dirs...)}
	return nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func (l *loop) excluded(p string) bool {
	return l.exclude != "" && (p == l.exclude || under(p, l.exclude))
}

// under reports whether p lies inside the folder dir.
func under(p, dir string) bool {
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// relevant reports whether a change of path concerns the cook.
func (l *loop) relevant(p string) bool {
	if l.files[p] {
		return true
	}
	for _, m := range l.missing {
		if p == m || under(m, p) {
			return true
		}
	}
	if l.excluded(p) || l.opts.SceneExt == "" || !strings.HasSuffix(p, l.opts.SceneExt) {
		return false
	}
	for _, d := range l.dirs {
		if under(p, d) {
			return true
		}
	}
	return false
}

// burst is the rule for when a run of changes has settled: once the
// inputs have been quiet for the debounce since the last change, or the
// maximum delay after the first, whichever comes first.
type burst struct {
	debounce, maxDelay time.Duration
	first, last        time.Time
	open               bool
}

// change records a change at now and returns when the cook is due.
func (b *burst) change(now time.Time) time.Time {
	if !b.open {
		b.open, b.first = true, now
	}
	b.last = now
	return b.due()
}

func (b *burst) due() time.Time {
	quiet, latest := b.last.Add(b.debounce), b.first.Add(b.maxDelay)
	if latest.Before(quiet) {
		return latest
	}
	return quiet
}

// wait returns once a burst of changes of the inputs has settled, or
// with the error that ends the watch.
func (l *loop) wait(ctx context.Context) error {
	b := burst{debounce: l.opts.Debounce, maxDelay: l.opts.MaxDelay}
	var timer <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err, ok := <-l.w.errors():
			if !ok {
				return errors.New("the file watch stopped")
			}
			return fmt.Errorf("watching the inputs: %w", err)
		case ev, ok := <-l.w.events():
			if !ok {
				return errors.New("the file watch stopped")
			}
			p := abs(ev.Name)
			changed := ev.Op != fsnotify.Chmod && l.relevant(p)
			if l.watched[p] && ev.Has(fsnotify.Remove|fsnotify.Rename) {
				// A watched folder removed, moved away or replaced: its
				// watch went with it (or follows it to its new name),
				// so the next arm looks for it again.
				l.w.Remove(p)
				delete(l.watched, p)
				changed = true
			}
			if !changed {
				continue
			}
			now := l.opts.clock.Now()
			timer = l.opts.clock.After(b.change(now).Sub(now))
		case <-timer:
			return nil
		}
	}
}

// clock is the time the debounce is measured in.
type clock interface {
	Now() time.Time
	After(time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// notifier is the file system's change feed.
type notifier interface {
	Add(dir string) error
	Remove(dir string) error
	Close() error
	events() <-chan fsnotify.Event
	errors() <-chan error
}

type fsNotify struct{ *fsnotify.Watcher }

func newFSNotify() (notifier, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	return fsNotify{w}, nil
}

func (n fsNotify) events() <-chan fsnotify.Event { return n.Events }
func (n fsNotify) errors() <-chan error          { return n.Errors }
