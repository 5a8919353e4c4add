package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

func TestCookDirectoryNamesScenesUnderIt(t *testing.T) {
	demo, err := os.ReadFile("../testdata/demo/main.esscene")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	levels := filepath.Join(dir, "levels")
	for _, p := range []string{"main.esscene", "town/main.esscene", "caves/deep one.esscene"} {
		f := filepath.Join(levels, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, demo, 0o644)
	}
	out := filepath.Join(dir, "out")
	code, stdout, stderr := run(t, "--config", "../testdata/demo/worldcook.yaml", "--json", "cook", levels, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res := cookLines(t, stdout)
	var names []string
	for _, r := range res {
		names = append(names, r.Scene)
	}
	if got := strings.Join(names, ","); got != "caves/deep one,main,town/main" {
		t.Fatalf("scene names %s", got)
	}
	for _, p := range []string{"main.esscene", "town/main.esscene", "caves/deep one.esscene", "world/town_main.world.json", "world/caves_deep_one.cell_0_0.json"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			t.Errorf("missing %s", p)
		}
	}

	// The same two scene names from two folders given as files collide.
	code, _, stderr = run(t, "--config", "../testdata/demo/worldcook.yaml", "cook", filepath.Join(levels, "main.esscene"), filepath.Join(levels, "town", "main.esscene"), "--out", out)
	if code != 2 || !strings.Contains(stderr, `both named "main"`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// With a common scenes root they are told apart.
	code, _, stderr = run(t, "--config", "../testdata/demo/worldcook.yaml", "cook", "--scenes-root", levels, filepath.Join(levels, "main.esscene"), filepath.Join(levels, "town", "main.esscene"), "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestCookCheckAndExitStatus(t *testing.T) {
	out := t.TempDir()
	args := []string{"--config", "../testdata/demo/worldcook.yaml", "cook", "../testdata/demo/main.esscene", "--out", out}
	if code, _, stderr := run(t, append(args, "--check")...); code != 1 || !strings.Contains(stderr, "out of date") {
		t.Fatalf("--check on empty output: exit %d: %s", code, stderr)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Fatal("--check wrote files")
	}
	if code, stdout, stderr := run(t, args...); code != 0 || !strings.Contains(stdout, "14 written") {
		t.Fatalf("cook: exit %d: %s%s", code, stdout, stderr)
	}
	if code, _, stderr := run(t, append(args, "--check")...); code != 0 {
		t.Fatalf("--check on fresh output: exit %d: %s", code, stderr)
	}
	// Without the project component declared, the guard's FollowTarget is
	// not a reference; with a bad plane the command refuses.
	if code, _, stderr := run(t, "cook", "../testdata/demo/main.esscene", "--out", out, "--plane", "yz"); code != 2 || !strings.Contains(stderr, "--plane") {
		t.Fatalf("bad plane: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(t, "cook"); code != 2 || !strings.Contains(stderr, "cook needs an argument: SCENE|DIR") {
		t.Fatalf("no args: exit %d: %s", code, stderr)
	}
}

// cookLines reads cook --json output: JSON Lines, one "cook" object per
// scene, findings before it.
func cookLines(t *testing.T, stdout string) []cookSummary {
	t.Helper()
	var res []cookSummary
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var s cookSummary
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("--json line %q: %v", line, err)
		}
		if s.MessageType == "cook" {
			res = append(res, s)
		}
	}
	return res
}
