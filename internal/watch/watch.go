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
	// SceneExt names the files under Dirs that are inputs once created.
	SceneExt string
	// Exclude is a folder none of whose files is an input (the output
	// directory, which may lie under a directory argument).
	Exclude string
	// Waiting, if set, is told when the loop starts waiting for a change.
	Waiting func()
	// Armed, if set, is told after each cook what the loop now watches.
	Armed func(Watched)
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

// ErrInterrupted is returned when the context ended during a cook.
var ErrInterrupted = errors.New("interrupted during a cook")

// ErrGone is returned (wrapped) when a watched folder disappears.
var ErrGone = errors.New("a watched folder disappeared")

// Run cooks, then cooks again after each change of an input, until ctx
// ends. It returns nil when ctx ends between cooks, ErrInterrupted when
// it ends during one, and an error wrapping ErrGone when a folder that
// holds inputs disappears.
func Run(ctx context.Context, cook func(context.Context) Inputs, opts Options) error {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	w, err := fsnotify.NewWatcher()
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
			return ErrInterrupted
		}
		if !in.OK {
			in.Files = append(append([]string(nil), in.Files...), last.Files...)
			in.Dirs = append(append([]string(nil), in.Dirs...), last.Dirs...)
		} else {
			last = in
		}
		if err := l.arm(in); err != nil {
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
	w       *fsnotify.Watcher
	opts    Options
	exclude string
	files   map[string]bool
	dirs    []string
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

// arm watches the folders of in and nothing else.
func (l *loop) arm(in Inputs) error {
	l.files = map[string]bool{}
	want := map[string]bool{}
	for _, f := range in.Files {
		a := abs(f)
		l.files[a] = true
		want[filepath.Dir(a)] = true
	}
	l.dirs = l.dirs[:0]
	for _, d := range in.Dirs {
		root := abs(d)
		l.dirs = append(l.dirs, root)
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
	for d := range l.watched {
		if !want[d] {
			l.w.Remove(d)
			delete(l.watched, d)
		}
	}
	dirs := make([]string, 0, len(want))
	for d := range want {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		if l.watched[d] {
			if _, err := os.Stat(d); err != nil {
				return gone(d)
			}
			continue
		}
		if err := l.w.Add(d); err != nil {
			if _, serr := os.Stat(d); serr != nil {
				return gone(d)
			}
			return fmt.Errorf("cannot watch %s: %w", d, err)
		}
		l.watched[d] = true
	}
	files := len(l.files)
	for _, d := range l.dirs {
		if l.files[d] {
			files-- // a folder argument, not a file
		}
	}
	l.watching = Watched{Files: files, Folders: dirs, SceneDirs: append([]string(nil), l.dirs...)}
	return nil
}

func gone(d string) error {
	return fmt.Errorf("%w: %s; restore it or start the watch again over the folders that are there", ErrGone, d)
}

func (l *loop) excluded(p string) bool {
	return l.exclude != "" && (p == l.exclude || strings.HasPrefix(p, l.exclude+string(filepath.Separator)))
}

// relevant reports whether a change of path concerns the cook.
func (l *loop) relevant(path string) bool {
	p := abs(path)
	if l.files[p] {
		return true
	}
	if l.excluded(p) || l.opts.SceneExt == "" || !strings.HasSuffix(p, l.opts.SceneExt) {
		return false
	}
	for _, d := range l.dirs {
		if strings.HasPrefix(p, d+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// wait returns once a change of an input has been followed by Debounce
// of quiet, or with the error that ends the watch.
func (l *loop) wait(ctx context.Context) error {
	var timer <-chan time.Time
	var t *time.Timer
	defer func() {
		if t != nil {
			t.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err, ok := <-l.w.Errors:
			if !ok {
				return errors.New("the file watch stopped")
			}
			return fmt.Errorf("watching the inputs: %w", err)
		case ev, ok := <-l.w.Events:
			if !ok {
				return errors.New("the file watch stopped")
			}
			p := abs(ev.Name)
			if l.watched[p] && ev.Has(fsnotify.Remove|fsnotify.Rename) {
				if _, err := os.Stat(p); err != nil {
					return gone(p)
				}
			}
			if ev.Op == fsnotify.Chmod || !l.relevant(p) {
				continue
			}
			if t == nil {
				t = time.NewTimer(l.opts.Debounce)
			} else {
				t.Reset(l.opts.Debounce)
			}
			timer = t.C
		case <-timer:
			// A folder removed in the burst ends the watch rather than
			// cooking against nothing.
			for d := range l.watched {
				if _, err := os.Stat(d); err != nil {
					return gone(d)
				}
			}
			return nil
		}
	}
}
