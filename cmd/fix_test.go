package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixProject is a folder with a scene whose Link.target crosses cells
// and the worldcook.yaml that declares the field.
func fixProject(t *testing.T) (dir, scene string) {
	t.Helper()
	dir = t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "internal", "repair", "testdata", "pair.esscene"))
	if err != nil {
		t.Fatal(err)
	}
	scene = filepath.Join(dir, "pair.esscene")
	if err := os.WriteFile(scene, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "worldcook.yaml"), []byte("components:\n  Link:\n    entityFields: [target]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, scene
}

func TestValidateFix(t *testing.T) {
	dir, scene := fixProject(t)
	cfg := filepath.Join(dir, "worldcook.yaml")
	before, _ := os.ReadFile(scene)
	code, out, errs := run(t, "--config", cfg, "validate", "--fix", scene)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "+++ b/") || !strings.Contains(errs, `chosen: move "Lamp" (2) under "House" (3)`) {
		t.Fatalf("want the diff on stdout and the table on stderr:\n%s\n%s", out, errs)
	}
	if now, _ := os.ReadFile(scene); string(now) != string(before) {
		t.Fatal("--fix without --write wrote the scene")
	}
	code, out, _ = run(t, "--config", cfg, "--json", "validate", "--fix", scene)
	var line struct {
		Type       string            `json:"message_type"`
		Candidates []json.RawMessage `json:"candidates"`
		Chosen     int               `json:"chosen"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &line); err != nil || code != 0 || line.Type != "fix" || len(line.Candidates) != 3 || line.Chosen != 2 {
		t.Fatalf("--json: exit %d, %+v, %v:\n%s", code, line, err, out)
	}
	// Read-only: refused before anything is read, nothing written.
	if err := os.Chmod(scene, 0o444); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "--config", cfg, "validate", "--fix", "--write", scene); code == 0 || !strings.Contains(errs, "read-only") {
		t.Errorf("a read-only scene: exit %d, %s", code, errs)
	}
	os.Chmod(scene, 0o644)
	if code, _, errs := run(t, "--config", cfg, "validate", "--fix", "--write", scene); code != 0 {
		t.Fatalf("--write: exit %d: %s", code, errs)
	}
	if code, out, errs := run(t, "--config", cfg, "validate", scene); code != 0 || strings.Contains(out, "cross-cell-ref") {
		t.Fatalf("after --write, validate: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := run(t, "--config", cfg, "cook", "-o", filepath.Join(dir, "out"), scene); code != 0 {
		t.Fatalf("after --write, cook: exit %d: %s", code, errs)
	}
	if code, _, errs := run(t, "validate", "--write", scene); code == 0 || !strings.Contains(errs, "go with --fix") {
		t.Errorf("--write without --fix: exit %d, %s", code, errs)
	}
}
