package regular

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.esscene")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadFile(fifo, "scene"); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a named pipe blocked")
	}
	if _, err := ReadFile(dir, "scene"); err == nil || !strings.Contains(err.Error(), "a directory") {
		t.Fatalf("directory: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), "scene"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("missing: %v", err)
	}
	ok := filepath.Join(dir, "ok")
	os.WriteFile(ok, []byte("hi"), 0o644)
	if b, err := ReadFile(ok, "scene"); err != nil || string(b) != "hi" {
		t.Fatalf("regular file: %q %v", b, err)
	}
}

func TestParallelReadMatches(t *testing.T) {
	defer func(old int) { parallelRead = old }(parallelRead)
	parallelRead = 1024
	prev := runtime.GOMAXPROCS(3)
	defer runtime.GOMAXPROCS(prev)
	data := make([]byte, 1<<20+12345)
	for i := range data {
		data[i] = byte(i*7 + i>>9)
	}
	p := filepath.Join(t.TempDir(), "big")
	os.WriteFile(p, data, 0o644)
	got, err := ReadFile(p, "scene")
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("parallel read differs (err %v)", err)
	}
}
