package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
)

// TestRealProjectNamedAsTheEngine: `cook .` from the root of the engine's
// spine-demo names its worlds as the engine's export names the scenes
// (main, aran: relative to the folder of its defaultScene), in file names
// and in the manifest's scene.
func TestRealProjectNamedAsTheEngine(t *testing.T) {
	proj := t.TempDir()
	corpus.CopyTree(t, filepath.Join(corpus.Estella(t), "examples", "spine-demo"), proj)
	for _, s := range []string{"main", "aran"} {
		if code, _, errs := run(t, "init", "--write", filepath.Join(proj, "assets", "scenes", s+".esscene")); code != 0 {
			t.Fatalf("init %s: %s", s, errs)
		}
	}
	t.Chdir(proj)
	if code, _, errs := run(t, "cook", "."); code != 0 {
		t.Fatalf("cook .: exit %d: %s", code, errs)
	}
	for _, s := range []string{"main", "aran"} {
		data, err := os.ReadFile(filepath.Join("cooked", "world", s+".world.json"))
		if err != nil {
			t.Fatalf("cook . wrote no world/%s.world.json: %v", s, err)
		}
		var m struct{ Scene string }
		if err := json.Unmarshal(data, &m); err != nil || m.Scene != s {
			t.Errorf("world/%s.world.json names its scene %q, want %q", s, m.Scene, s)
		}
		if _, err := os.Stat(filepath.Join("cooked", s+".esscene")); err != nil {
			t.Errorf("no persistent world cooked/%s.esscene: %v", s, err)
		}
	}
}
