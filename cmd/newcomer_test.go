package cmd

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/testbin"
	"github.com/worldcook/worldcook/internal/watch"
)

// TestNewcomerFlags: a flag other tools spell so, or a word for the same
// thing, gets the flag it means, not only the nearest spelling; a cell
// size given to a command that reads it from the world says where it is
// set, with the init command that writes it.
func TestNewcomerFlags(t *testing.T) {
	scene := filepath.Join("..", "testdata", "demo", "main.esscene")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"cook", scene, "--output", "build"}, "unknown flag: --output (did you mean --out?)"},
		{[]string{"cook", scene, "--output-dir=build"}, "(did you mean --out?)"},
		{[]string{"cook", scene, "--dry-run"}, "(did you mean --check?)"},
		{[]string{"simulate", "--route", "r.csv", "cooked"}, "unknown flag: --route (did you mean --path?)"},
		{[]string{"tune", "--route", "r.csv", scene}, "(did you mean --path?)"},
		{[]string{"init", "--apply", scene}, "(did you mean --write?)"},
		{[]string{"init", "--cellsize", "500", scene}, "(did you mean --cell-size?)"},
		// A typo is still answered by spelling.
		{[]string{"cook", scene, "--ot", "build"}, "(did you mean --out?)"},
		{[]string{"cook", "--cellsize", "500", scene}, "unknown flag: --cellsize: cook reads the cell size from the world: the cellSize of the scene's StreamedWorld entity; set it there, or have init write a StreamedWorld into a scene without one: worldcook init --cell-size 500 " + scene},
		{[]string{"validate", "--cell-size=250", "my level.esscene"}, "worldcook init --cell-size 250 'my level.esscene'"},
		{[]string{"simulate", "--grid-size", "x", "cooked"}, "without one (worldcook init --cell-size, see 'worldcook init --help')"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != ExitInput || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, %q; want exit %d and one line with %q", tc.args, code, errs, ExitInput, tc.want)
		}
	}
}

// TestNewcomerSettingsKey: the settings file answers a key by meaning too.
func TestNewcomerSettingsKey(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "worldcook.yaml")
	if err := os.WriteFile(conf, []byte("cook:\n  output: build\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "--config", conf, "config", "cook")
	if code != ExitInput || !strings.Contains(errs, `unknown key "output" in cook; did you mean "out"?`) {
		t.Errorf("exit %d, %q", code, errs)
	}
}

// TestInitCellSizeMessage: one rule, said the same way, for every value
// it refuses, from the flag, the environment and the file.
func TestInitCellSizeMessage(t *testing.T) {
	scene := filepath.Join("..", "testdata", "demo", "main.esscene")
	for _, v := range []string{"-5", "0", "-0"} {
		code, _, errs := run(t, "init", "--cell-size", v, scene)
		want := "worldcook: --cell-size must be a finite distance, more than 0 (got " + v + ")\n"
		if code != ExitInput || errs != want {
			t.Errorf("--cell-size %s: exit %d, %q; want %q", v, code, errs, want)
		}
	}
	t.Setenv("WORLDCOOK_INIT_CELL_SIZE", "0")
	if code, _, errs := run(t, "init", scene); code != ExitInput || !strings.Contains(errs, "WORLDCOOK_INIT_CELL_SIZE must be a finite distance, more than 0 (got 0)") {
		t.Errorf("WORLDCOOK_INIT_CELL_SIZE=0: exit %d, %q", code, errs)
	}
}

func TestWatchingText(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		w    watch.Watched
		want string
	}{
		{watch.Watched{Files: 1, Folders: []string{filepath.Join(wd, "levels")}},
			"watching 1 file the cook read (scenes, prefabs, assets, .meta files) in levels; cooking again after each change; press Ctrl-C to stop"},
		{watch.Watched{Files: 12, Folders: []string{"/a", "/b", "/c", "/d"}, SceneDirs: []string{filepath.Join(wd, "levels"), filepath.Join(wd, "more")}},
			"watching 12 files the cook read (scenes, prefabs, assets, .meta files) in 4 folders, and new scenes under levels, more; cooking again after each change; press Ctrl-C to stop"},
	} {
		if got := watchingText(tc.w); got != tc.want {
			t.Errorf("%+v:\n%s\nwant\n%s", tc.w, got, tc.want)
		}
	}
}

// TestWatchSaysOnce: cook --watch says what it watches and how to stop
// once, before it waits, and Ctrl-C (an interrupt) stops it with exit 0.
func TestWatchSaysOnce(t *testing.T) {
	bin, _ := testbin.Build(t, t.TempDir())
	proj := t.TempDir()
	corpus.CopyTree(t, "../testdata/containers", proj)
	c := exec.Command(bin, "cook", "--watch", "assets/scenes", "--out", filepath.Join(t.TempDir(), "out"))
	c.Dir = proj
	stderr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	var said []string
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if strings.Contains(lines.Text(), "watching") {
			said = append(said, lines.Text())
			c.Process.Signal(syscall.SIGINT)
		}
	}
	if err := c.Wait(); err != nil {
		t.Fatalf("after an interrupt: %v", err)
	}
	want := "worldcook: watching 17 files the cook read (scenes, prefabs, assets, .meta files) in 7 folders, and new scenes under assets/scenes; cooking again after each change; press Ctrl-C to stop"
	if len(said) != 1 || said[0] != want {
		t.Errorf("said %q, want once %q", said, want)
	}
}
