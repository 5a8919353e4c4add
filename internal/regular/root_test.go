package regular

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenInRefusesWhatIsNotAFile: inside a root, a named pipe, a device
// reached through a link, a link out of the root and a folder are refused
// without blocking; a regular file and a link to one inside the root open.
func TestOpenInRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ok"), []byte("hi"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skip(err)
	}
	links := map[string]string{"zero": "/dev/zero", "out": "../../etc/hostname", "inside": "ok", "topipe": "pipe"}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skip(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, tc := range []struct{ name, want string }{
		{"ok", ""},
		{"inside", ""},
		{"pipe", "not a regular file (a named pipe)"},
		{"topipe", "not a regular file (a named pipe)"},
		{"sub", "not a regular file (a directory)"},
		{"zero", "path escapes from parent"},
		{"out", "path escapes from parent"},
		{"missing", "no such file"},
	} {
		done := make(chan error, 1)
		go func() {
			f, _, err := OpenIn(root, tc.name)
			if err == nil {
				b, _ := io.ReadAll(f)
				f.Close()
				if string(b) != "hi" {
					err = errors.New("read " + string(b))
				}
			}
			done <- err
		}()
		select {
		case err := <-done:
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("OpenIn(%s) = %v, want %q", tc.name, err, tc.want)
			}
			if strings.Contains(tc.want, "regular") && !errors.Is(err, ErrNotRegular) {
				t.Errorf("OpenIn(%s): %v is not ErrNotRegular", tc.name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("OpenIn(%s) blocked", tc.name)
		}
	}
}
