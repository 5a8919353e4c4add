// Package golden compares test output with files under testdata/ and,
// run with -update, rewrites them: one flag and one message for every
// package's golden tests.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/ instead of comparing with them")

// Updating reports whether the test run was asked to rewrite golden files.
func Updating() bool { return *update }

// Compare checks got against the golden file at path, or writes got there
// with -update. A difference is reported with the first differing line.
func Compare(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from its golden file (run the test with -update to accept the change):\n%s", path, FirstDiff(string(got), string(want)))
	}
}

// FirstDiff describes the first line where got and want differ.
func FirstDiff(got, want string) string {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return "line " + itoa(i+1) + ":\n  got:  " + g + "\n  want: " + w
		}
	}
	return "(no line differs; the files differ in their last bytes)"
}

func itoa(n int) string { return strconv.Itoa(n) }
