package streaming

import (
	"bytes"
	"path/filepath"
	"testing"

	json "github.com/goccy/go-json"

	goldenfile "github.com/worldcook/worldcook/internal/golden"
)

// golden compares got with the named file under testdata/simulate, or
// rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Compare(t, filepath.Join("..", "testdata", "simulate", name), got)
}

// TestDeterministic runs a busy scenario (two sources, prefetch, a cap,
// LOD, a bandwidth model and seeded failures) twice: the reports must be
// byte-identical.
func TestDeterministic(t *testing.T) {
	runOnce := func() []byte {
		reps, sum := busyRun(t)
		var b bytes.Buffer
		for _, r := range append(anySlice(reps), sum) {
			line, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(append(line, '\n'))
		}
		return b.Bytes()
	}
	a, b := runOnce(), runOnce()
	if !bytes.Equal(a, b) {
		t.Fatal("two runs of the same scenario differ")
	}
	for _, want := range []string{`"prefetches":`, `"failures":`} {
		if !bytes.Contains(a, []byte(want)) {
			t.Errorf("report lacks %s", want)
		}
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 11680: "11680 B", 1<<20 - 1: "1048575 B", 3 << 20: "3145728 B (3.0 MiB)", 5 << 30: "5368709120 B (5.0 GiB)"} {
		if got := ByteSize(n); got != want {
			t.Errorf("ByteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
