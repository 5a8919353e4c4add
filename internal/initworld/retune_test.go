package initworld

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/golden"
	"github.com/worldcook/worldcook/internal/scene"
)

// TestRetune: the radii tune recommends replace a source's own values in
// place and are added where it leaves them out (an empty data object
// included), the cell size replaces StreamedWorld's; the diff applies,
// and every other byte stays.
func TestRetune(t *testing.T) {
	file := filepath.Join("testdata", "retune.esscene")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		r    Retune
	}{
		{"retune", Retune{Sources: []int64{2, 3, 4}, Load: 735, Unload: 935, Prefetch: 835, CellSize: 400}},
		{"retune-same", Retune{Sources: []int64{2}, Load: 200, Unload: 300, Prefetch: 300, CellSize: 200}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := MakeRetune(file, src, tc.r)
			if err != nil {
				t.Fatal(err)
			}
			golden.Compare(t, filepath.Join("testdata", tc.name+".golden"), r.Diff)
			if len(r.Diff) == 0 {
				return
			}
			checkApplies(t, map[string]bool{"patch": has("patch"), "git": has("git")}, file, r)
			if _, err := scene.Parse(file, r.After); err != nil {
				t.Fatal(err)
			}
		})
	}
	// One line of compact JSON keeps its form.
	compact := []byte(`{"version":1,"entities":[{"id":1,"components":[{"type":"StreamedWorld","data":{"cellSize":10}}]},{"id":2,"components":[{"type":"WorldStreamingSource","data":{"loadRadius":5}}]}]}` + "\n")
	r, err := MakeRetune("c.esscene", compact, Retune{Sources: []int64{2}, Load: 7, Unload: 9, Prefetch: 8, CellSize: 20})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"version":1,"entities":[{"id":1,"components":[{"type":"StreamedWorld","data":{"cellSize":20}}]},{"id":2,"components":[{"type":"WorldStreamingSource","data":{"loadRadius":7,"prefetchRadius":8,"unloadRadius":9}}]}]}` + "\n"; string(r.After) != want {
		t.Errorf("compact:\n got %s\nwant %s", r.After, want)
	}
	if _, err := MakeRetune(file, src, Retune{Sources: []int64{99}, Load: 1, Unload: 2, Prefetch: 1}); err == nil || !strings.Contains(err.Error(), "no entity 99") {
		t.Errorf("a source that is not there: %v", err)
	}
}

// TestRetuneWriteRefusesReadOnly: --write never replaces a read-only
// scene.
func TestRetuneWriteRefusesReadOnly(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "retune.esscene"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "scene.esscene")
	if err := os.WriteFile(file, src, 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := RetuneFile(file, Retune{Sources: []int64{2}, Load: 1, Unload: 2, Prefetch: 1}, true); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("read-only scene: %v", err)
	}
	if got, _ := os.ReadFile(file); string(got) != string(src) {
		t.Error("the read-only scene changed")
	}
	os.Chmod(file, 0o644)
	if _, err := RetuneFile(file, Retune{Sources: []int64{2}, Load: 1, Unload: 2, Prefetch: 1}, true); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); !strings.Contains(string(got), `"loadRadius": 1,`) {
		t.Errorf("--write did not write the radii:\n%s", got)
	}
}
