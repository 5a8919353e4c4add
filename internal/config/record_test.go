package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRecordPlaneEdits: the top-level plane is replaced where it is, or
// inserted before the first key; every other byte is kept.
func TestRecordPlaneEdits(t *testing.T) {
	for _, tc := range []struct {
		name, before, want, err string
		line                    int
		unchanged               bool
	}{
		{name: "empty", before: "", want: "plane: xy\n", line: 1},
		{name: "comments only", before: "# settings\n", want: "# settings\nplane: xy\n", line: 2},
		{name: "no trailing newline", before: "# settings", want: "# settings\nplane: xy\n", line: 2},
		{name: "before the first key",
			before: "# worldcook\nsimulate:\n  budget: 16KiB # per frame\n",
			want:   "# worldcook\nplane: xy\nsimulate:\n  budget: 16KiB # per frame\n", line: 2},
		{name: "after a document start",
			before: "# c\n---\ncook:\n  jobs: 2\n",
			want:   "# c\n---\nplane: xy\ncook:\n  jobs: 2\n", line: 3},
		{name: "CRLF kept", before: "cook:\r\n  jobs: 2\r\n", want: "plane: xy\r\ncook:\r\n  jobs: 2\r\n", line: 1},
		{name: "replaced in place",
			before: "quiet: true\nplane: xz   # 3D for now\ncook: {jobs: 2}\n",
			want:   "quiet: true\nplane: xy   # 3D for now\ncook: {jobs: 2}\n", line: 2},
		{name: "quoted replaced", before: "plane: \"xz\"\n", want: "plane: xy\n", line: 1},
		{name: "after non-ASCII", before: "# café\nplane:  'xz'\n", want: "# café\nplane:  xy\n", line: 2},
		{name: "already so", before: "plane: xy\n", unchanged: true},
		{name: "a flow mapping", before: "{cook: {jobs: 2}}\n", err: "only to a block mapping"},
		{name: "not YAML", before: "cook: [\n", err: "fix the YAML first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeConfig(t, tc.before)
			cfg := &Config{File: file}
			r, err := cfg.RecordPlane(filepath.Join(filepath.Dir(file), "main.esscene"), "xy")
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			case tc.unchanged:
				if r != nil {
					t.Fatalf("an edit %q of a file that says so", r.After)
				}
				return
			case r == nil:
				t.Fatal("no edit")
			}
			if string(r.After) != tc.want || r.Line != tc.line {
				t.Errorf("after %q (line %d), want %q (line %d)", r.After, r.Line, tc.want, tc.line)
			}
			if err := r.Write(); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(file); string(got) != tc.want {
				t.Errorf("file holds %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRecordPlaneFiles: a new file at the project root when the run read
// none, nothing for the default plane, a note for each section that still
// overrides it, and never over a link or a file changed meanwhile.
func TestRecordPlaneFiles(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	os.MkdirAll(filepath.Join(proj, "assets", "scenes"), 0o755)
	os.WriteFile(filepath.Join(proj, "project.esproject"), []byte("{}"), 0o644)
	scene := filepath.Join(proj, "assets", "scenes", "main.esscene")
	t.Chdir(root)

	r, err := (&Config{}).RecordPlane("proj/assets/scenes/main.esscene", "xy")
	if err != nil || r == nil || !r.Create || r.File != filepath.Join("proj", DefaultFile) {
		t.Fatalf("record %+v, %v; want a new proj/worldcook.yaml", r, err)
	}
	if err := r.Write(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(r.File); string(got) != "plane: xy\n" {
		t.Errorf("new file holds %q", got)
	}
	if err := r.Write(); err == nil || !strings.Contains(err.Error(), "appeared") {
		t.Errorf("creating over a file that appeared: %v", err)
	}
	if _, err := (&Config{}).RecordPlane(scene, "xy"); err == nil || !strings.Contains(err.Error(), "--config") {
		t.Errorf("a file there that the run did not read: %v", err)
	}
	os.Remove(r.File)
	if r, err := (&Config{}).RecordPlane(scene, "xz"); r != nil || err != nil {
		t.Errorf("the default plane without a file: %+v, %v; want nothing", r, err)
	}

	file := filepath.Join(proj, DefaultFile)
	os.WriteFile(file, []byte("cook:\n  plane: xz\nvalidate:\n  plane: xy\n"), 0o600)
	r, err = (&Config{File: file}).RecordPlane(scene, "xy")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"cook.plane: xz at " + file + ":3"}; !slices.Equal(r.Overrides, want) {
		t.Errorf("overrides %q, want %q", r.Overrides, want)
	}
	os.WriteFile(file, []byte("cook:\n  jobs: 3\n"), 0o600)
	if err := r.Write(); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("writing over a file changed meanwhile: %v", err)
	}
	if got, _ := os.ReadFile(file); string(got) != "cook:\n  jobs: 3\n" {
		t.Errorf("the changed file was lost: %q", got)
	}
	r, _ = (&Config{File: file}).RecordPlane(scene, "xy")
	if err := r.Write(); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's 0600", st.Mode().Perm())
	}

	link := filepath.Join(root, "link.yaml")
	os.Symlink(file, link)
	if _, err := (&Config{File: link}).RecordPlane(scene, "xz"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link: %v", err)
	}
}
