package cook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	goldenfile "github.com/worldcook/worldcook/internal/golden"
)

var mainWorld = PackageWorld{Scene: "main", Manifest: "world/main.world.json"}

// TestPackageConfigGolden edits configurations of every shape the engine
// or a person writes: the worlds entry is added, replaced or left alone,
// and every other byte stays.
func TestPackageConfigGolden(t *testing.T) {
	ins, _ := filepath.Glob(filepath.Join("testdata", "packageconfig", "*.in.json"))
	if len(ins) < 6 {
		t.Fatalf("found %d inputs", len(ins))
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in.json")
		t.Run(name, func(t *testing.T) {
			src, _ := os.ReadFile(in)
			file := filepath.Join(t.TempDir(), "game.config.json")
			os.WriteFile(file, src, 0o640)
			old := time.Now().Add(-time.Hour)
			os.Chtimes(file, old, old)
			changed, err := PackageConfig(file, []PackageWorld{mainWorld}, false, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(file)
			goldenfile.Compare(t, strings.TrimSuffix(in, ".in.json")+".want.json", got)
			if changed != !bytes.Equal(got, src) {
				t.Errorf("changed = %v, but the bytes say otherwise", changed)
			}
			st, _ := os.Stat(file)
			if !changed && !st.ModTime().Equal(old) {
				t.Error("an up-to-date configuration was rewritten")
			}
			if changed && st.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want the original 0640", st.Mode().Perm())
			}
			checkWorldsEdit(t, src, got, mainWorld)
			// Idempotent: a second run changes nothing.
			again, err := PackageConfig(file, []PackageWorld{mainWorld}, false, nil)
			if err != nil || again {
				t.Errorf("second run: changed %v, %v", again, err)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".*worldcook*")); len(left) > 0 {
				t.Errorf("staging files left behind: %v", left)
			}
		})
	}
}

// checkWorldsEdit asserts what any edit must keep: valid JSON, the other
// top-level keys with their values in their order, and w listed once.
func checkWorldsEdit(t *testing.T, src, got []byte, w PackageWorld) {
	t.Helper()
	keys := func(b []byte) ([]string, map[string]string) {
		members, _, err := scanObject("x", b)
		if err != nil {
			t.Fatalf("not a JSON object: %v\n%s", err, b)
		}
		var order []string
		vals := map[string]string{}
		for _, m := range members {
			if m.key != "worlds" {
				order = append(order, m.key)
				vals[m.key] = string(b[m.start:m.end])
			}
		}
		return order, vals
	}
	if len(bytes.TrimSpace(src)) > 0 {
		wantOrder, wantVals := keys(src)
		gotOrder, gotVals := keys(got)
		if strings.Join(gotOrder, "\x00") != strings.Join(wantOrder, "\x00") {
			t.Errorf("key order changed: %v -> %v", wantOrder, gotOrder)
		}
		for k, v := range wantVals {
			if gotVals[k] != v {
				t.Errorf("value of %s changed: %s -> %s", k, v, gotVals[k])
			}
		}
	}
	var cfg struct {
		Worlds []json.RawMessage `json:"worlds"`
	}
	if err := json.Unmarshal(got, &cfg); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, got)
	}
	n := 0
	for _, raw := range cfg.Worlds {
		var e PackageWorld
		if json.Unmarshal(raw, &e) == nil && e.Scene == w.Scene {
			n++
			if e != w {
				t.Errorf("entry %+v, want %+v", e, w)
			}
		}
	}
	if n != 1 {
		t.Errorf("%s listed %d times:\n%s", w.Scene, n, got)
	}
}

func TestPackageConfigCreatesAndChecks(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "game.config.json")
	// --check writes nothing, but says the file would change.
	if changed, err := PackageConfig(file, []PackageWorld{mainWorld}, true, nil); err != nil || !changed {
		t.Fatalf("check of a missing file: changed %v, %v", changed, err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatal("--check created the file")
	}
	if _, err := PackageConfig(file, []PackageWorld{mainWorld}, false, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	want := "{\n  \"worlds\": [\n    {\n      \"scene\": \"main\",\n      \"manifest\": \"world/main.world.json\"\n    }\n  ]\n}\n"
	if string(got) != want {
		t.Errorf("new file:\n%s\nwant:\n%s", got, want)
	}
	if changed, err := PackageConfig(file, []PackageWorld{mainWorld}, true, nil); err != nil || changed {
		t.Errorf("check of an up-to-date file: changed %v, %v", changed, err)
	}
}

// TestPackageConfigRefuses: a configuration that is not one JSON object,
// or not a plain file, is refused with its position and left untouched.
func TestPackageConfigRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"syntax", "{\n  \"a\": 1,\n  \"b\" 2\n}", "game.config.json:3:7: expected colon after object key"},
		{"array", `[1, 2]`, "game.config.json:1:1: the configuration must be a JSON object"},
		{"worlds not a list", `{"worlds": {"scene": "main"}}`, "game.config.json:1:12: worlds must be a list"},
		{"two worlds", `{"worlds": [], "x": 1, "worlds": []}`, "game.config.json:1:34: worlds appears twice"},
		{"trailing", `{"a": 1} {"b": 2}`, "text after the configuration's closing brace"},
		{"truncated", `{"a": [1, 2`, "the file ends inside the configuration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "game.config.json")
			os.WriteFile(file, []byte(tc.src), 0o644)
			_, err := PackageConfig(file, []PackageWorld{mainWorld}, false, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line containing %q", err, tc.want)
			}
			if b, _ := os.ReadFile(file); string(b) != tc.src {
				t.Error("a refused configuration was changed")
			}
		})
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte(`{}`), 0o644)
	link := filepath.Join(dir, "game.config.json")
	os.Symlink(real, link)
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, append(append([]byte(`{"a":"`), bytes.Repeat([]byte("x"), maxPackageConfig)...), `"}`...), 0o644)
	for _, tc := range []struct{ file, want string }{
		{link, "is a symbolic link"},
		{fifo, "is not a regular file"},
		{dir, "is not a regular file"},
		{big, "more than a game configuration's"},
		{filepath.Join(dir, "missing", "game.config.json"), "does not exist"},
	} {
		if _, err := PackageConfig(tc.file, []PackageWorld{mainWorld}, false, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.file, err, tc.want)
		}
	}
	if b, _ := os.ReadFile(real); string(b) != `{}` {
		t.Error("the symlink's target was written")
	}
}

// TestPackageConfigFailureKeepsTheOld: when the new configuration cannot
// be staged, the old one stays whole.
func TestPackageConfigFailureKeepsTheOld(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: a read-only folder does not stop root")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "game.config.json")
	os.WriteFile(file, []byte(`{"a": 1}`), 0o644)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	if _, err := PackageConfig(file, []PackageWorld{mainWorld}, false, nil); err == nil || !strings.Contains(err.Error(), "cannot stage") {
		t.Fatalf("err %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != `{"a": 1}` {
		t.Error("the old configuration changed")
	}
}

func TestPackageEntryAndTarget(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "game.config.json")
	w, err := PackageEntry(cfg, dir, "levels/boss")
	if err != nil || w != (PackageWorld{Scene: "levels/boss", Manifest: "world/levels_boss.world.json"}) {
		t.Errorf("entry %+v, %v", w, err)
	}
	for _, out := range []string{filepath.Join(dir, "payload"), filepath.Dir(dir)} {
		if _, err := PackageEntry(cfg, out, "main"); err == nil || !strings.Contains(err.Error(), "reads the world's cells relative to the configuration's folder") {
			t.Errorf("a world cooked into %s: %v", out, err)
		}
	}
	scene := filepath.Join(dir, "main.esscene")
	os.WriteFile(scene, []byte(`{}`), 0o644)
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		file string
		bad  bool
	}{
		{scene, true},
		{filepath.Join(out, "main.esscene"), true},
		{filepath.Join(out, "world", "main.world.json"), true},
		{filepath.Join(out, ".main.worldcook-record"), true},
		{filepath.Join(out, "game.config.json"), false},
		{filepath.Join(dir, "assets", "hut.esprefab"), true},
		{filepath.Join(dir, "hut.esprefab.meta"), true},
		{filepath.Join(dir, "other", "main.world.json"), true},
		{cfg, false},
	} {
		err := checkPackageConfigTarget(tc.file, out, []string{scene}, []string{"main"})
		if (err != nil) != tc.bad {
			t.Errorf("%s: %v, want refused %v", tc.file, err, tc.bad)
		}
	}
}

func FuzzPackageConfig(f *testing.F) {
	ins, _ := filepath.Glob(filepath.Join("testdata", "packageconfig", "*.in.json"))
	for _, in := range ins {
		b, _ := os.ReadFile(in)
		f.Add(b)
	}
	f.Add([]byte(`{"worlds":[1,"x",{"scene":2},{"scene":"main"}]}`))
	f.Add([]byte(`{"worlds":[{"scene":"main","manifest":"world/main.world.json"},{"scene":"main"}]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		got, err := editWorlds("game.config.json", src, []PackageWorld{mainWorld})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error: %v", err)
			}
			return
		}
		checkWorldsEdit(t, src, got, mainWorld)
		again, err := editWorlds("game.config.json", got, []PackageWorld{mainWorld})
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("not idempotent: %v\n%s\n%s", err, got, again)
		}
	})
}
