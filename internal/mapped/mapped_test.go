package mapped

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenReleaseReread(t *testing.T) {
	data := make([]byte, 3<<20+123)
	for i := range data {
		data[i] = byte(i*31 + i>>12)
	}
	f, err := Open(write(t, data), "scene")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !bytes.Equal(f.Data, data) {
		t.Fatal("mapped bytes differ from the file")
	}
	// Released pages come back from the file when touched again.
	f.Release(1000, len(data)-1000)
	if !bytes.Equal(f.Data, data) {
		t.Fatal("bytes differ after Release")
	}
	f.Release(-5, 1<<40) // out of range: clamped, not a crash
	if !bytes.Equal(f.Data, data) {
		t.Fatal("bytes differ after a clamped Release")
	}
}

func TestOpenEmptyAndRefused(t *testing.T) {
	f, err := Open(write(t, nil), "scene")
	if err != nil || len(f.Data) != 0 || f.Mapped() {
		t.Fatalf("empty file: %v, %d bytes, mapped %v", err, len(f.Data), f.Mapped())
	}
	f.Release(0, 10)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(t.TempDir(), "scene"); err == nil {
		t.Fatal("a directory was opened")
	}
}

// openMapped maps p for a test that needs a real mapping, closing it when
// the test ends, or skips the test where files are not mapped.
func openMapped(t *testing.T, p string) *File {
	t.Helper()
	f, err := Open(p, "scene")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if !f.Mapped() {
		t.Skip("files are not mapped on this system")
	}
	return f
}

// TestGuardTruncatedFile shrinks a mapped file and reads past its new end:
// without Guard the process would crash; with it the reader gets
// ErrChanged.
func TestGuardTruncatedFile(t *testing.T) {
	page := os.Getpagesize()
	p := write(t, bytes.Repeat([]byte("x"), 8*page))
	f := openMapped(t, p)
	if err := os.Truncate(p, int64(page)); err != nil {
		t.Fatal(err)
	}
	var sum int
	err := Guard(func() error {
		for i := 0; i < len(f.Data); i += page {
			sum += int(f.Data[i])
		}
		return nil
	})
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("Guard returned %v, want ErrChanged", err)
	}
	// Other panics pass through Guard untouched.
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want the original panic", r)
		}
	}()
	_ = Guard(func() error { panic("boom") })
}

func TestGuardPassesErrors(t *testing.T) {
	want := errors.New("x")
	if err := Guard(func() error { return want }); err != want {
		t.Fatalf("got %v", err)
	}
}

func TestChanged(t *testing.T) {
	p := write(t, bytes.Repeat([]byte("a"), 10000))
	f := openMapped(t, p)
	if f.Changed() {
		t.Fatal("an untouched file reported changed")
	}
	// Replaced by a rename: the mapping keeps the old file, unchanged.
	q := write(t, []byte("new"))
	if err := os.Rename(q, p); err != nil {
		t.Fatal(err)
	}
	if f.Changed() || f.Data[0] != 'a' {
		t.Fatal("a file replaced by rename reported changed")
	}
	// Written in place: changed.
	g, err := Open(p, "scene")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	// A different size: timestamps are too coarse to tell two writes within
	// a few milliseconds apart.
	if err := os.WriteFile(p, []byte("newer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !g.Changed() {
		t.Fatal("a file written in place did not report changed")
	}
}

// TestNames: a path still names the mapped file until another is renamed
// over it (an editor's save) or it is written in place.
func TestNames(t *testing.T) {
	p := write(t, bytes.Repeat([]byte("a"), 10000))
	f := openMapped(t, p)
	if same, ok := f.Names(p); !same || !ok {
		t.Fatalf("an untouched file: same %v, ok %v", same, ok)
	}
	q := write(t, bytes.Repeat([]byte("a"), 10000))
	if err := os.Rename(q, p); err != nil {
		t.Fatal(err)
	}
	if same, _ := f.Names(p); same {
		t.Fatal("the path names the file renamed over the mapped one, yet Names says it is the same")
	}
	g := openMapped(t, p)
	if err := os.WriteFile(p, []byte("newer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if same, _ := g.Names(p); same {
		t.Fatal("a file written in place is the same to Names")
	}
}
