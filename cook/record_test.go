package cook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// TestRecordSkipsUnchangedCook: a cook of the same bytes with the same
// settings confirms the world from its record without parsing; any change
// to the input, the settings or the world's files means a full cook.
func TestRecordSkipsUnchangedCook(t *testing.T) {
	in, out, src := demoCopy(t)
	first := cookTo(t, in, out, demoOptions(), 0)
	if first.Reused {
		t.Fatal("a first cook cannot reuse anything")
	}
	files := len(first.World.Manifest.Cells) + 2

	again := cookTo(t, in, out, demoOptions(), 0)
	if !again.Reused || again.Plan != nil || len(again.Result.Unchanged) != files || again.Result.Changed() {
		t.Fatalf("unchanged cook: reused %v, %d unchanged of %d, changed %v", again.Reused, len(again.Result.Unchanged), files, again.Result.Changed())
	}
	if !again.Streamed || again.Entities != len(first.Plan.Doc.Entities) || again.Cells != len(first.Plan.Cells) {
		t.Fatalf("reused report lost the scene's shape: %+v", again)
	}
	if rep, err := run(context.Background(), sceneJob{File: in, Out: out, Validate: demoOptions(), Check: true}); err != nil || !rep.Reused {
		t.Fatalf("--check of an up-to-date world: %v, reused %v", err, rep.Reused)
	}

	// Other settings: a full cook (here it writes the same files).
	xy := demoOptions()
	xy.Components = map[string]validate.ComponentFields{"Lantern": {Entity: []string{"owner"}}}
	if rep := cookTo(t, in, out, xy, 0); rep.Reused {
		t.Fatal("a change of settings reused the record")
	}
	cookTo(t, in, out, demoOptions(), 0) // record for the default settings again

	// A world file modified after the record (here: the record made
	// older): a full cook, which finds the bytes equal and writes nothing.
	cell := filepath.Join(out, filepath.FromSlash(first.World.Manifest.Cells[0].Path))
	past := time.Now().Add(-time.Hour)
	os.Chtimes((&committer{Dir: out}).recordPath("main"), past, past)
	if rep := cookTo(t, in, out, demoOptions(), 0); rep.Reused || rep.Result.Changed() {
		t.Fatalf("touched cell: reused %v, changed %v", rep.Reused, rep.Result.Changed())
	}
	// That cook compared the touched cell and renewed the record.
	if rep := cookTo(t, in, out, demoOptions(), 0); !rep.Reused {
		t.Fatal("the record was not renewed after a cook that confirmed every file")
	}
	// A world file removed: a full cook puts it back.
	os.Remove(cell)
	if rep := cookTo(t, in, out, demoOptions(), 0); rep.Reused || len(rep.Result.Written) != 1 {
		t.Fatalf("removed cell: reused %v, wrote %v", rep.Reused, rep.Result.Written)
	}

	// Another input: a full cook that rewrites, and a record for it.
	os.WriteFile(in, bytes.Replace(src, []byte(`"visible": true`), []byte(`"visible": false`), 1), 0o644)
	if rep := cookTo(t, in, out, demoOptions(), 0); rep.Reused || !rep.Result.Changed() {
		t.Fatal("an edited scene reused the record")
	}
	if rep := cookTo(t, in, out, demoOptions(), 0); !rep.Reused {
		t.Fatal("the record was not written after the edited cook")
	}
}

// TestRecordNotUsedWithPrefabs: prefab assets decide a scene's cells too,
// and the record does not cover them.
func TestRecordNotUsedWithPrefabs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "main.esscene")
	os.WriteFile(in, []byte(`{"version":1,"name":"m","entities":[{"id":1,"parent":null,"prefab":"assets/x.esprefab","overrides":[],"added":[],"removed":[]}]}`), 0o644)
	out := filepath.Join(dir, "out")
	cookTo(t, in, out, validate.Options{}, 0)
	if rep := cookTo(t, in, out, validate.Options{}, 0); rep.Reused {
		t.Fatal("a scene with prefab instances reused its record")
	}
}

// TestRecordGoesBeforeTheCommitPoint: once a commit is decided the old
// record no longer describes the world, so it must be gone by then.
func TestRecordGoesBeforeTheCommitPoint(t *testing.T) {
	in, out, _ := staleDemo(t)
	c := &committer{Dir: out}
	if _, err := os.Stat(c.recordPath("main")); err != nil {
		t.Fatalf("no record after a cook: %v", err)
	}
	fsys := &faultyFS{FS: openFS(t, out), op: "rename", after: 1} // the journal goes in place, then the first cell fails
	if _, err := run(context.Background(), sceneJob{File: in, Out: out, Validate: demoOptions(), FS: fsys}); err == nil {
		t.Fatal("the injected fault did not fail the cook")
	}
	if _, err := os.Stat(c.recordPath("main")); err == nil {
		t.Fatal("the record outlived the commit point")
	}
	rep := cookTo(t, in, out, demoOptions(), 0)
	if rep.Reused {
		t.Fatal("reused a world that a commit was changing")
	}
	if m, err := manifest.Load(filepath.Join(out, "world", "main.world.json")); err != nil || len(m.Cells) == 0 {
		t.Fatalf("manifest after finishing: %v", err)
	}
}
