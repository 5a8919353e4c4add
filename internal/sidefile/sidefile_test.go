package sidefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, p, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func text(w io.Writer) error { _, err := io.WriteString(w, "drawing"); return err }

// TestRefusesInputs: a side output that is an input of the run, however
// it is spelled or linked, is refused and the input keeps its bytes; any
// other file is written.
func TestRefusesInputs(t *testing.T) {
	dir := t.TempDir()
	scene := write(t, filepath.Join(dir, "levels", "main.esscene"), "scene")
	os.Symlink(filepath.Join(dir, "levels"), filepath.Join(dir, "alias"))
	os.Symlink(scene, filepath.Join(dir, "link.svg"))
	os.Link(scene, filepath.Join(dir, "hard.svg"))
	inFS := write(t, filepath.Join(dir, "world", "main.cell_0_0.json"), "cell")
	for _, tc := range []struct {
		out     string
		refused bool
	}{
		{scene, true},
		{filepath.Join(dir, "levels", ".", "main.esscene"), true},
		{filepath.Join(dir, "levels", "..", "levels", "main.esscene"), true},
		{filepath.Join(dir, "alias", "main.esscene"), true},
		{filepath.Join(dir, "link.svg"), true},
		{filepath.Join(dir, "hard.svg"), true},
		{inFS, true},
		{filepath.Join(dir, "plot.svg"), false},
	} {
		g := New(scene, "")
		g.InputsIn(os.DirFS(filepath.Join(dir, "world")), "main.cell_0_0.json")
		err := g.WriteFile(tc.out, "--plot", text)
		if tc.refused != (err != nil) {
			t.Errorf("%s: %v", tc.out, err)
			continue
		}
		if tc.refused && (!strings.Contains(err.Error(), "an input of this run") || !strings.Contains(err.Error(), tc.out)) {
			t.Errorf("%s: message %q", tc.out, err)
		}
		if !tc.refused {
			if b, _ := os.ReadFile(tc.out); string(b) != "drawing" {
				t.Errorf("%s holds %q", tc.out, b)
			}
		}
	}
	if b, _ := os.ReadFile(scene); string(b) != "scene" {
		t.Fatalf("the scene became %q", b)
	}
	if b, _ := os.ReadFile(inFS); string(b) != "cell" {
		t.Fatalf("the cell became %q", b)
	}
	assertNoTemp(t, dir)
}

// TestAtomic: a drawing that fails halfway leaves the previous file as it
// was and no temporary file behind; a link at the name is replaced, not
// written through.
func TestAtomic(t *testing.T) {
	dir := t.TempDir()
	old := write(t, filepath.Join(dir, "plot.svg"), "old")
	g := New()
	err := g.WriteFile(old, "--plot", func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("disk full")
	})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(old); string(b) != "old" {
		t.Fatalf("the previous file became %q", b)
	}
	victim := write(t, filepath.Join(dir, "victim"), "precious")
	link := filepath.Join(dir, "map.svg")
	os.Symlink(victim, link)
	if err := g.WriteFile(link, "--map", text); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Fatalf("written through the link: %q", b)
	}
	if st, err := os.Lstat(link); err != nil || !st.Mode().IsRegular() {
		t.Fatalf("the link was not replaced by the file: %v", err)
	}
	// A folder at the name is not a file to write.
	os.Mkdir(filepath.Join(dir, "folder.svg"), 0o755)
	if err := g.WriteFile(filepath.Join(dir, "folder.svg"), "--map", text); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a folder: %v", err)
	}
	assertNoTemp(t, dir)
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

// TestRefusesReadOnly: a file nobody may write (a Perforce file not
// checked out) is not replaced, and the refusal names it.
func TestRefusesReadOnly(t *testing.T) {
	file := filepath.Join(t.TempDir(), "game.config.json")
	os.WriteFile(file, []byte("{}"), 0o444)
	err := New().WriteFile(file, "--package-config", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err })
	if err == nil || !strings.Contains(err.Error(), file+" is read-only") {
		t.Errorf("err %v, want read-only", err)
	}
	if got, _ := os.ReadFile(file); string(got) != "{}" {
		t.Error("a read-only file was replaced")
	}
}

// TestRecheck: side outputs claimed before the run are refused once the
// run learns that they are its own files (a folder's names by a rule, in
// any case, whether they exist or not) or files it reads (by identity),
// in the order they were claimed.
func TestRecheck(t *testing.T) {
	dir := t.TempDir()
	tex := write(t, filepath.Join(dir, "assets", "stone.png"), "png")
	world := filepath.Join(dir, "out", "world")
	g := New()
	for _, c := range []struct{ file, flag string }{
		{filepath.Join(dir, "plot.svg"), "--plot"},
		{filepath.Join(world, "MAIN.CELL_0_0.JSON"), "--depfile"},
		{tex, "--map"},
	} {
		if err := g.Claim(c.file, c.flag); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Recheck(); err != nil {
		t.Fatalf("nothing is known yet: %v", err)
	}
	g.OwnedIn(world, func(base string) (string, bool) {
		return "a cell", strings.EqualFold(base, "main.cell_0_0.json")
	})
	if err := g.Recheck(); err == nil || !strings.Contains(err.Error(), "--depfile") || !strings.Contains(err.Error(), "is a cell, a file this run writes itself") {
		t.Fatalf("a cell by name: %v", err)
	}
	g = New()
	g.Claim(tex, "--map")
	g.OwnedIn(filepath.Join(dir, "staging"), nil)
	g.Claim(filepath.Join(dir, "staging", "000001"), "--plot")
	if err := g.Recheck(); err == nil || !strings.Contains(err.Error(), "--plot") {
		t.Fatalf("a file in an owned folder: %v", err)
	}
	g = New()
	g.Claim(tex, "--map")
	g.Inputs(filepath.Join(dir, "assets", ".", "stone.png"))
	if err := g.Recheck(); err == nil || !strings.Contains(err.Error(), "an input of this run") {
		t.Fatalf("a texture read: %v", err)
	}
	if b, _ := os.ReadFile(tex); string(b) != "png" {
		t.Fatal("the texture changed")
	}
}
