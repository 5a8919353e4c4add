package cmd

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/config"
)

// faultFS is the real file system failing the way a read-only or full
// disk fails: once `after` calls of the listed operations have succeeded,
// every further one returns a *fs.PathError carrying errno, as the kernel
// would. A failing write leaves half the file behind, as a disk that fills
// up halfway does. Cells are staged from several goroutines, hence the lock.
type faultFS struct {
	cook.FS
	errno syscall.Errno
	ops   map[string]bool // "mkdir", "write", "rename", "remove"
	after int

	mu    sync.Mutex
	calls int
}

func (f *faultFS) fail(op string) bool {
	if !f.ops[op] {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return f.calls > f.after
}

func (f *faultFS) MkdirAll(p string, perm fs.FileMode) error {
	if _, err := f.FS.Lstat(p); err == nil {
		return nil // as MkdirAll: an existing folder needs no write
	}
	if f.fail("mkdir") {
		return &fs.PathError{Op: "mkdir", Path: p, Err: f.errno}
	}
	return f.FS.MkdirAll(p, perm)
}

func (f *faultFS) WriteFile(p string, b []byte, perm fs.FileMode) error {
	if f.fail("write") {
		if f.errno == syscall.ENOSPC {
			// The file is created and half written before the disk is full.
			f.FS.WriteFile(p, b[:len(b)/2], perm)
			return &fs.PathError{Op: "write", Path: p, Err: f.errno}
		}
		return &fs.PathError{Op: "open", Path: p, Err: f.errno}
	}
	return f.FS.WriteFile(p, b, perm)
}

func (f *faultFS) Rename(a, b string) error {
	if f.fail("rename") {
		return &os.LinkError{Op: "rename", Old: a, New: b, Err: f.errno}
	}
	return f.FS.Rename(a, b)
}

func (f *faultFS) Remove(p string) error {
	if f.fail("remove") {
		return &fs.PathError{Op: "remove", Path: p, Err: f.errno}
	}
	return f.FS.Remove(p)
}

func (f *faultFS) RemoveAll(p string) error {
	if _, err := f.FS.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if f.fail("remove") {
		return &fs.PathError{Op: "unlinkat", Path: p, Err: f.errno}
	}
	return f.FS.RemoveAll(p)
}

// openOut opens an output directory as the cook does, for a faultFS to
// wrap.
func openOut(t testing.TB, dir string) cook.FS {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fsys, err := cook.OpenFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	return fsys
}

// cookThrough runs the cook command on one scene, writing through fsys
// (nil: the real output directory), and returns its exit status and
// stderr as Main would.
func cookThrough(t testing.TB, fsys cook.FS, scene, out string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	opts := &cookOptions{
		IO:          IO{In: strings.NewReader(""), Out: &stdout, Err: &stderr},
		Scenes:      []string{scene},
		Cfg:         config.Cook{Out: out, SceneInput: config.SceneInput{Plane: "xz"}},
		Components:  map[string]config.Component{"FollowTarget": {EntityFields: []string{"target"}}},
		LockTimeout: 10 * time.Second,
		FS:          fsys,
	}
	code := report(&stderr, runCook(context.Background(), opts))
	return code, stderr.String()
}

const demoConfig = "../testdata/demo/worldcook.yaml"

// demoPair writes the demo scene and an edit of it that changes every
// cell into dir, and returns their paths (both named main.esscene, so that
// they cook to the same files).
func demoPair(t testing.TB, dir string) (demo, edited string) {
	t.Helper()
	src, err := os.ReadFile("../testdata/demo/main.esscene")
	if err != nil {
		t.Fatal(err)
	}
	demo = filepath.Join(dir, "a", "main.esscene")
	edited = filepath.Join(dir, "b", "main.esscene")
	for p, b := range map[string][]byte{
		demo:   src,
		edited: bytes.ReplaceAll(src, []byte(`"visible": true`), []byte(`"visible": false`)),
	} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return demo, edited
}

func sameSnapshot(t testing.TB, before, after map[string]string) {
	t.Helper()
	for p, v := range before {
		if after[p] != v {
			t.Errorf("previous world changed: %s", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("file left behind: %s", p)
		}
	}
}

// TestReadOnlyAndFullDisk cooks an edited world over a good one through a
// file system that is read-only, or fills up after some writes (the last
// one being the commit journal): exit status 2, one line naming the output
// directory and the cause, and the previous world exactly as it was (no
// staging folder, no half-written file, no mtime changed). Root ignores
// permissions, so the faults come through cook's file-system seam.
func TestReadOnlyAndFullDisk(t *testing.T) {
	dir := t.TempDir()
	demo, edited := demoPair(t, dir)

	// How many files the edited cook writes: the staged files, then the
	// journal, then the cook record (written after the commit, best effort).
	scratch := filepath.Join(dir, "scratch")
	if code, stderr := cookThrough(t, nil, demo, scratch); code != 0 {
		t.Fatalf("cook: exit %d: %s", code, stderr)
	}
	counter := &faultFS{FS: openOut(t, scratch), ops: map[string]bool{"write": true}, after: 1 << 30}
	if code, stderr := cookThrough(t, counter, edited, scratch); code != 0 {
		t.Fatalf("cook: exit %d: %s", code, stderr)
	}
	writes := counter.calls
	if writes < 3 {
		t.Fatalf("the edited cook wrote %d files; the test needs a world whose cells change", writes)
	}

	out := filepath.Join(dir, "out")
	if code, stderr := cookThrough(t, nil, demo, out); code != 0 {
		t.Fatalf("cook: exit %d: %s", code, stderr)
	}
	before := snapshot(t, out)
	cases := []struct {
		name  string
		fsys  *faultFS
		cause string
	}{
		{"read-only output directory", &faultFS{errno: syscall.EROFS, ops: map[string]bool{"mkdir": true, "write": true, "rename": true, "remove": true}}, "read-only file system"},
		{"disk full at the first write", &faultFS{errno: syscall.ENOSPC, ops: map[string]bool{"write": true}}, "no space left on device"},
		{"disk full halfway", &faultFS{errno: syscall.ENOSPC, ops: map[string]bool{"write": true}, after: writes / 2}, "no space left on device"},
		{"disk full at the journal", &faultFS{errno: syscall.ENOSPC, ops: map[string]bool{"write": true}, after: writes - 2}, "no space left on device"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.fsys.FS = openOut(t, out)
			code, stderr := cookThrough(t, tc.fsys, edited, out)
			t.Logf("exit %d: %s", code, strings.TrimSpace(stderr))
			if code != ExitInput {
				t.Errorf("exit %d, want %d: %s", code, ExitInput, stderr)
			}
			if !strings.Contains(stderr, tc.cause) || !strings.Contains(stderr, out) {
				t.Errorf("stderr does not name %s and %q:\n%s", out, tc.cause, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, "goroutine ") {
				t.Errorf("want one line on stderr, got:\n%s", stderr)
			}
			if tc.fsys.calls <= tc.fsys.after {
				t.Fatalf("the fault was never reached (%d calls)", tc.fsys.calls)
			}
			sameSnapshot(t, before, snapshot(t, out))
		})
	}
	// With room again, the same cook goes through.
	if code, stderr := cookThrough(t, nil, edited, out); code != 0 {
		t.Fatalf("cook after the faults: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(t, "--config", demoConfig, "simulate", "-q", "--path", "../testdata/demo/route.csv", out); code != 0 {
		t.Fatalf("simulate after the faults: exit %d: %s", code, stderr)
	}
}
