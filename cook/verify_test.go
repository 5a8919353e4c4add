package cook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/manifest"
)

func TestVerify(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	rep := cookTo(t, demoScene, out, demoOptions(), 0)
	m := rep.World.Manifest
	if err := verify(out, m); err != nil {
		t.Fatalf("a fresh cook: %v", err)
	}
	if err := pending(out, m.Scene); err != nil {
		t.Fatalf("a fresh cook: %v", err)
	}
	cell := func(i int) string { return filepath.Join(out, filepath.FromSlash(m.Cells[i].Path)) }

	// Two damaged files: the first in manifest order is named, the other counted.
	os.Remove(cell(3))
	os.WriteFile(cell(1), []byte("{}\n"), 0o644)
	err := verify(out, m)
	if err == nil {
		t.Fatal("a damaged world verified")
	}
	for _, want := range []string{cell(1) + " is 3 bytes, the manifest says", "(and 1 more file(s))", "re-cook the world"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v\ndoes not say %q", err, want)
		}
	}

	// Entries without a blake3 (a hand-written manifest modelling sizes)
	// are not checked.
	bare := *m
	bare.Cells = append([]manifest.Cell(nil), m.Cells...)
	for i := range bare.Cells {
		bare.Cells[i].Blake3 = ""
	}
	if err := verify(out, &bare); err != nil {
		t.Errorf("entries without blake3: %v", err)
	}

	// A journal in place means a commit is pending.
	journal := filepath.Join(out, ".main"+journalSuffix)
	os.WriteFile(journal, []byte(`{"renames":[],"removes":[]}`), 0o644)
	for _, scene := range []string{"main", ""} {
		if err := pending(out, scene); err == nil || !strings.Contains(err.Error(), journal+": an interrupted cook left "+out+" mid-commit") {
			t.Errorf("Pending(%q): %v", scene, err)
		}
	}
	if err := pending(out, "other"); err != nil {
		t.Errorf("another scene's commit is not pending: %v", err)
	}
}
