//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSpecialFileIsWrittenInPlace checks that a destination which is not a
// regular file is written, not replaced by a rename.
func TestSpecialFileIsWrittenInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("cannot make a named pipe: %v", err)
	}
	got := make(chan []byte)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	var stderr bytes.Buffer
	if code := run([]string{"-entities", "50", "-o", path}, io.Discard, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if b := <-got; !bytes.HasSuffix(b, []byte("}\n")) {
		t.Fatalf("the pipe received %d bytes, not a whole world", len(b))
	}
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the named pipe was replaced: %v %v", fi.Mode(), err)
	}
}
