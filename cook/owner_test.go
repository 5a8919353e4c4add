package cook

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sceneAt writes the demo scene as dir/<name>.esscene and returns its path.
func sceneAt(t *testing.T, dir, name string) string {
	t.Helper()
	src, err := os.ReadFile(demoScene)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, filepath.FromSlash(name)+".esscene")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// cookBatch cooks scene files named relative to root into out, as the
// command does, and returns the run's error or the scene's.
func cookBatch(root, out string, check bool, files ...string) error {
	o, err := Cook(context.Background(), Batch{Args: files, Out: out, ScenesRoot: root, Validate: demoOptions(), Check: check, LockTimeout: time.Second})
	if err != nil {
		return err
	}
	for _, err := range o.Errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// snapshot is every file under dir, bookkeeping included, with its bytes
// and modification time.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		out[p] = st.ModTime().String() + "\x00" + string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameSnapshot(t *testing.T, got, want map[string]string) {
	t.Helper()
	for p, w := range want {
		if g, ok := got[p]; !ok {
			t.Errorf("%s was removed", p)
		} else if g != w {
			t.Errorf("%s was changed", p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s was written", p)
		}
	}
}

// TestSeparateCooksThatCollide: a scene whose manifest path holds another
// scene's manifest is refused, whether the two names become one file
// name or differ only in case, by a cook, a check and a job run on its
// own, with one line naming both scenes, and the first world is left
// byte for byte (and time for time) as it was.
func TestSeparateCooksThatCollide(t *testing.T) {
	for _, tc := range []struct {
		first, second string
		want          []string
	}{
		{"a b", "a_b", []string{`would overwrite the world of scene "a b"`, `(scene "a_b")`, `manifest (both names become the file name "a_b")`, "world/a_b.world.json is that scene's manifest", "a b.esscene, ", "world/a_b.cell_*.json"}},
		{"a_b", "a b", []string{`would overwrite the world of scene "a_b"`, `(scene "a b")`, `both names become the file name "a_b"`}},
		{"town/x", "town_x", []string{`scene "town/x"`, `(scene "town_x")`, "town/x.esscene, ", "world/town_x.world.json"}},
		{"Main", "main", []string{`scene "Main"`, `(scene "main")`, `their file names "Main" and "main" are one where names ignore case`, "world/Main.world.json is that scene's manifest"}},
		{"main", "Main", []string{`scene "main"`, `(scene "Main")`, "are one where names ignore case"}},
	} {
		t.Run(tc.first+" then "+tc.second, func(t *testing.T) {
			root := t.TempDir()
			out := filepath.Join(t.TempDir(), "out")
			a, b := sceneAt(t, root, tc.first), sceneAt(t, root, tc.second)
			if err := cookBatch(root, out, false, a); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, out)
			runs := map[string]func() error{
				"cook":  func() error { return cookBatch(root, out, false, b) },
				"check": func() error { return cookBatch(root, out, true, b) },
				"job": func() error {
					_, err := run(context.Background(), sceneJob{File: b, Out: out, ScenesRoot: root, Validate: demoOptions()})
					return err
				},
			}
			for name, run := range runs {
				err := run()
				if err == nil {
					t.Fatalf("%s: the second scene was cooked", name)
				}
				msg := err.Error()
				for _, w := range append(tc.want, b, "cook one of them into another --out", "delete its files") {
					if !strings.Contains(msg, w) {
						t.Errorf("%s: %q does not say %q", name, msg, w)
					}
				}
				if strings.Contains(msg, "\n") {
					t.Errorf("%s: a message of two lines: %q", name, msg)
				}
				sameSnapshot(t, snapshot(t, out), before)
			}
			// The first scene still cooks, and finds nothing to do.
			o, err := Cook(context.Background(), Batch{Args: []string{a}, Out: out, ScenesRoot: root, Validate: demoOptions(), LockTimeout: time.Second})
			if err != nil || o.Errs[0] != nil {
				t.Fatalf("recooking the first scene: %v %v", err, o.Errs)
			}
			if r := o.Reports[0].Result; r.Changed() {
				t.Fatalf("recooking the first scene wrote %v, removed %v", r.Written, r.Removed)
			}
			// Following the advice lets the second cook.
			for _, p := range []string{filepath.FromSlash(tc.first) + ".esscene", filepath.Join("world", layoutOf(tc.first).safe+".world.json")} {
				if err := os.Remove(filepath.Join(out, p)); err != nil {
					t.Fatal(err)
				}
			}
			cells, _ := filepath.Glob(filepath.Join(out, "world", layoutOf(tc.first).safe+".cell_*.json"))
			for _, p := range cells {
				os.Remove(p)
			}
			if err := cookBatch(root, out, false, b); err != nil {
				t.Fatalf("after deleting the first world: %v", err)
			}
		})
	}
}

// TestCollidingScenesInOneRun: two colliding scenes of one run are still
// refused as a pair (Collisions), before any owner is looked at.
func TestCollidingScenesInOneRun(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(t.TempDir(), "out")
	err := cookBatch(root, out, false, sceneAt(t, root, "a b"), sceneAt(t, root, "a_b"))
	if err == nil || !strings.Contains(err.Error(), "would both write world/a_b.world.json") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("the refused run created the output directory")
	}
}

// TestRecookMovedScene: a scene moved to another folder keeps its runtime
// name and so its world; cooking it from there is the ordinary
// incremental cook, which writes nothing.
func TestRecookMovedScene(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	first := sceneAt(t, t.TempDir(), "a b")
	if err := cookBatch("", out, false, first); err != nil {
		t.Fatal(err)
	}
	moved := sceneAt(t, t.TempDir(), "a b")
	os.Remove(first)
	before := snapshot(t, out)
	o, err := Cook(context.Background(), Batch{Args: []string{moved}, Out: out, Validate: demoOptions(), LockTimeout: time.Second})
	if err != nil || o.Errs[0] != nil {
		t.Fatalf("%v %v", err, o.Errs)
	}
	if !o.Reports[0].Reused || o.Reports[0].Result.Changed() {
		t.Fatalf("the moved scene was cooked again: reused %v, %+v", o.Reports[0].Reused, o.Reports[0].Result)
	}
	sameSnapshot(t, snapshot(t, out), before)
}

// TestOwnerOfADamagedManifest: a manifest at the scene's path that is not
// JSON or names no scene cannot be told from a damaged one of the
// scene's own and is cooked over; one that names another scene, however
// hostile the name, is refused on one line that sends no one outside
// the directory.
func TestOwnerOfADamagedManifest(t *testing.T) {
	for _, tc := range []struct {
		name, manifest string
		refused        []string // nil: cooked over
		absent         []string
	}{
		{"not JSON", "<<<<<<< HEAD\n", nil, nil},
		{"cut off", `{"version": 1, "scene": "other`, nil, nil},
		{"no scene", `{"version": 1}`, nil, nil},
		{"scene not a string", `{"scene": 7}`, nil, nil},
		{"empty scene", `{"scene": ""}`, nil, nil},
		{"its own, damaged", `{"scene": "a_b", "cells": 3}`, nil, nil},
		{"not UTF-8", "{\"scene\": \"a\xffb\"}", []string{"scene \"a\ufffdb\"", `(by its "scene" member)`}, nil},
		{"another scene's, damaged", `{"scene": "a b", "cells": "x"}`, []string{`scene "a b"`, `both names become the file name "a_b"`}, nil},
		{"a newline in the name", `{"scene": "a\nb"}`, []string{"scene \"a\\nb\""}, nil},
		{"a name climbing out", `{"scene": "../../etc/passwd"}`, []string{`scene "../../etc/passwd"`, `(by its "scene" member)`}, []string{"passwd.esscene", "cell_*"}},
		{"a name of 1 MB", `{"scene": "` + strings.Repeat("x", 1<<20) + `"}`, []string{"xxx...\""}, nil},
		{"a name folding to it", `{"scene": "A B"}`, []string{`their file names "A_B" and "a_b" are one where names ignore case`, "A_B.cell_*.json"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			out := filepath.Join(t.TempDir(), "out")
			s := sceneAt(t, root, "a_b")
			mf := filepath.Join(out, "world", "a_b.world.json")
			os.MkdirAll(filepath.Dir(mf), 0o755)
			if err := os.WriteFile(mf, []byte(tc.manifest), 0o644); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, out)
			err := cookBatch(root, out, false, s)
			if tc.refused == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if b, _ := os.ReadFile(mf); string(b) == tc.manifest {
					t.Fatal("the manifest was not replaced")
				}
				return
			}
			if err == nil {
				t.Fatal("cooked over another scene's manifest")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || len(msg) > 2000 {
				t.Errorf("not one short line: %d bytes, %q", len(msg), msg[:min(len(msg), 300)])
			}
			for _, w := range tc.refused {
				if !strings.Contains(msg, w) {
					t.Errorf("%q does not say %q", msg[:min(len(msg), 600)], w)
				}
			}
			for _, w := range tc.absent {
				if strings.Contains(msg, w) {
					t.Errorf("%q says %q", msg, w)
				}
			}
			sameSnapshot(t, snapshot(t, out), before)
		})
	}
}
