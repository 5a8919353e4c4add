package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWritesFileAndStdoutAlike(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.esscene")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-entities", "500", "-seed", "3", "-o", path}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"-entities", "500", "-seed", "3"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !bytes.Equal(file, stdout.Bytes()) {
		t.Fatal("the file and standard output differ")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("the output directory holds %d entries, want only the world", len(entries))
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"-entities", "x"}, {"stray"}, {"-plane", "yz"}} {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), "worldgen") && !strings.Contains(stderr.String(), "invalid") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}
