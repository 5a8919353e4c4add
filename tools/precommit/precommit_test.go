// Package precommit tests worldcook's pre-commit hook
// (.pre-commit-hooks.yaml at the repository root) with pre-commit itself,
// in a temporary git repository holding a copy of a real Estella project.
package precommit

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/testbin"
)

// moduleRoot is worldcook's checkout, the hook repository.
const moduleRoot = "../.."

// TestHookManifest: one hook, worldcook-validate, on scenes and prefabs.
func TestHookManifest(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID       string `yaml:"id"`
		Entry    string `yaml:"entry"`
		Language string `yaml:"language"`
		Files    string `yaml:"files"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 || hooks[0].ID != "worldcook-validate" || hooks[0].Entry != "worldcook validate" || hooks[0].Language != "golang" {
		t.Fatalf("hooks %+v", hooks)
	}
	for _, f := range []string{"a.esscene", "levels/b.esscene", "assets/prefabs/Coin.esprefab"} {
		if !matches(hooks[0].Files, f) {
			t.Errorf("the hook does not run on %s", f)
		}
	}
	for _, f := range []string{"src/main.ts", "a.esscene.meta", "a.esprefab.meta", "game.config.json"} {
		if matches(hooks[0].Files, f) {
			t.Errorf("the hook runs on %s", f)
		}
	}
}

// matches is pre-commit's files test: Python's re.search, which for this
// pattern Go's regexp agrees with.
func matches(pattern, file string) bool {
	ok, err := regexp.MatchString(pattern, file)
	return err == nil && ok
}

// need skips the test without the tools it drives.
func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (apt-get install pre-commit; .ci/run does): the hook is tested with pre-commit itself", tool)
		}
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestHookWithPreCommit installs the hook with pre-commit from this
// checkout's commit (pre-commit builds worldcook from it with Go, as it
// does from GitHub) into a git repository holding the Estella platformer
// made a streamed world: a commit of a scene passes, a commit of a prefab
// that breaks the scene's instances is refused naming the scene's lines,
// and a commit touching neither skips the hook.
func TestHookWithPreCommit(t *testing.T) {
	need(t, "pre-commit", "git", "go")
	abs, _ := filepath.Abs(moduleRoot)
	rev := git(t, abs, "rev-parse", "HEAD")
	if st := git(t, abs, "status", "--porcelain", "--", ".pre-commit-hooks.yaml"); st != "" {
		t.Fatalf("pre-commit installs the hook from a commit, and .pre-commit-hooks.yaml has changes since %s: commit them to test them\n%s", rev, st)
	}
	projects := corpus.Projects()
	if projects == "" {
		t.Skip("Estella projects not found at ../shared/estella-projects (set WORLDCOOK_PROJECTS to run this test)")
	}
	worldcook, _ := testbin.Build(t, t.TempDir())
	repo := filepath.Join(t.TempDir(), "game")
	corpus.CopyTree(t, filepath.Join(projects, "examples", "platformer"), repo)
	streamed := exec.Command(worldcook, "init", "--write", "assets/scenes/main.esscene")
	streamed.Dir = repo
	if out, err := streamed.CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	config := "repos:\n  - repo: " + abs + "\n    rev: " + rev + "\n    hooks:\n      - id: worldcook-validate\n"
	if err := os.WriteFile(filepath.Join(repo, ".pre-commit-config.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q", "-b", "main")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "the platformer, streamed")

	gomodcache := strings.TrimSpace(run(t, abs, "go", "env", "GOMODCACHE").stdout)
	env := append(os.Environ(),
		"PRE_COMMIT_HOME="+filepath.Join(t.TempDir(), "pre-commit"),
		// pre-commit gives the hook a GOPATH of its own: the modules
		// worldcook needs are those already downloaded, not fetched again.
		"GOMODCACHE="+gomodcache, "GOTOOLCHAIN=local",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	preCommit := func(args ...string) outcome {
		cmd := exec.Command("pre-commit", args...)
		cmd.Dir = repo
		cmd.Env = env
		return runCmd(t, cmd)
	}
	if o := preCommit("install-hooks"); o.code != 0 {
		t.Fatalf("pre-commit install-hooks: %+v", o)
	}
	if o := preCommit("install"); o.code != 0 {
		t.Fatalf("pre-commit install: %+v", o)
	}
	commit := func(msg string) outcome {
		cmd := exec.Command("git", "commit", "-q", "-m", msg)
		cmd.Dir = repo
		cmd.Env = env
		return runCmd(t, cmd)
	}

	// A scene edit that keeps it valid (its name).
	scene := filepath.Join(repo, "assets", "scenes", "main.esscene")
	data, _ := os.ReadFile(scene)
	os.WriteFile(scene, bytes.Replace(data, []byte(`"name": "`), []byte(`"name": "Renamed `), 1), 0o644)
	git(t, repo, "add", "-A")
	if o := commit("rename the scene"); o.code != 0 || !strings.Contains(o.stdout+o.stderr, "worldcook validate") || !strings.Contains(o.stdout+o.stderr, "Passed") {
		t.Fatalf("a valid scene's commit: %+v", o)
	}

	// A prefab edit that breaks every instance in the scene.
	corpus.BreakPrefab(t, filepath.Join(repo, "assets", "prefabs", "Coin.esprefab"))
	git(t, repo, "add", "-A")
	o := commit("a halo for the coin")
	said := o.stdout + o.stderr
	if o.code == 0 || !strings.Contains(said, "Failed") || strings.Count(said, "error[persistent-not-root]") != 5 ||
		!strings.Contains(said, "assets/scenes/main.esscene:479:7") || !strings.Contains(said, "assets/prefabs/Coin.esprefab is used by 1 scene") {
		t.Fatalf("a breaking prefab's commit: %+v", o)
	}
	if head := git(t, repo, "log", "-1", "--format=%s"); head != "rename the scene" {
		t.Errorf("the refused commit was made: HEAD is %q", head)
	}

	// Neither a scene nor a prefab: the hook is skipped.
	git(t, repo, "reset", "-q", "--hard")
	os.WriteFile(filepath.Join(repo, "src", "note.ts"), []byte("// a note\n"), 0o644)
	git(t, repo, "add", "-A")
	if o := commit("a note"); o.code != 0 || !strings.Contains(o.stdout+o.stderr, "Skipped") {
		t.Errorf("a commit without scenes: %+v", o)
	}
}

type outcome struct {
	stdout, stderr string
	code           int
}

func run(t *testing.T, dir string, name string, args ...string) outcome {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	return runCmd(t, cmd)
}

func runCmd(t *testing.T, cmd *exec.Cmd) outcome {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return outcome{out.String(), errb.String(), code}
}
