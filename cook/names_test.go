package cook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiscoverNamesAsTheEngine: a scene inside an Estella project is named
// as the engine's export names it, relative to the project's scenes root,
// whichever folder or file it was given as; --scenes-root still decides
// when given; a scene outside any project keeps the folder's rule.
func TestDiscoverNamesAsTheEngine(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("game/project.esproject", `{"defaultScene": "assets/scenes/main.esscene"}`)
	for _, s := range []string{"game/assets/scenes/main.esscene", "game/assets/scenes/levels/boss.esscene", "game/tests/probe.esscene", "loose/levels/a.esscene"} {
		write(s, `{"entities": []}`)
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		args []string
		root string
		want string // name=file, in the order found
	}{
		{[]string{"game"}, "", "levels/boss=game/assets/scenes/levels/boss.esscene main=game/assets/scenes/main.esscene tests/probe=game/tests/probe.esscene"},
		{[]string{"game/assets/scenes/levels"}, "", "levels/boss=game/assets/scenes/levels/boss.esscene"},
		{[]string{"game/assets/scenes/levels/boss.esscene"}, "", "levels/boss=game/assets/scenes/levels/boss.esscene"},
		{[]string{"game/tests/probe.esscene"}, "", "tests/probe=game/tests/probe.esscene"},
		{[]string{"game/assets/scenes/levels"}, "game/assets/scenes/levels", "boss=game/assets/scenes/levels/boss.esscene"},
		{[]string{"game/assets/scenes/levels/boss.esscene"}, "game/assets", "scenes/levels/boss=game/assets/scenes/levels/boss.esscene"},
		// Outside any project: the folder argument, or the file's folder.
		{[]string{"loose"}, "", "levels/a=loose/levels/a.esscene"},
		{[]string{"loose/levels/a.esscene"}, "", "a=loose/levels/a.esscene"},
	} {
		scenes, err := Discover(tc.args, tc.root, "")
		if err != nil {
			t.Errorf("%q (root %q): %v", tc.args, tc.root, err)
			continue
		}
		var got []string
		for _, s := range scenes {
			got = append(got, s.Name+"="+filepath.ToSlash(s.File))
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%q (root %q): %s, want %s", tc.args, tc.root, g, tc.want)
		}
	}
	// From the project's root, as a user types it.
	t.Chdir(filepath.Join(dir, "game"))
	scenes, err := Discover([]string{"."}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(scenes) != 3 || scenes[1].Name != "main" || scenes[1].File != "assets/scenes/main.esscene" {
		t.Errorf("cook . from the project: %+v", scenes)
	}
	write("game/project.esproject", `{"defaultScene": `)
	if _, err := Discover([]string{"."}, "", ""); err == nil || !strings.Contains(err.Error(), "project.esproject") {
		t.Errorf("a broken project file: %v", err)
	}
}
