// Package action holds the tests of worldcook's GitHub Action
// (action.yml at the repository root and the scripts in this folder): they
// run the scripts as the runner would, with the GITHUB_* variables naming
// temporary files.
package action

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	goldenfile "github.com/worldcook/worldcook/internal/golden"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/testbin"
)

// metadata is what the tests read of action.yml.
type metadata struct {
	Name   string
	Inputs map[string]struct {
		Description string
		Required    bool
		Default     *string
	}
	Outputs map[string]struct{ Value string }
	Runs    struct {
		Using string
		Steps []struct {
			ID              string
			If              string
			Uses            string
			Shell           string
			Run             string
			Env             map[string]string
			With            map[string]string
			ContinueOnError bool `yaml:"continue-on-error"`
		}
	}
}

func readMetadata(t *testing.T) metadata {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var m metadata
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestActionMetadata: a composite action with the documented inputs,
// whose steps run scripts that exist, pass every input to the main
// script, and upload the SARIF only where the workflow may, without
// failing the job when code scanning refuses it.
func TestActionMetadata(t *testing.T) {
	m := readMetadata(t)
	if m.Runs.Using != "composite" {
		t.Errorf("runs.using %q", m.Runs.Using)
	}
	var names []string
	for n := range m.Inputs {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := []string{"fail-on", "out", "routes", "sarif", "scenes"}; !slices.Equal(names, want) {
		t.Errorf("inputs %v, want %v", names, want)
	}
	if d := m.Inputs["sarif"].Default; d == nil || *d != "true" {
		t.Errorf("sarif defaults to %v, want true", d)
	}
	if !m.Inputs["scenes"].Required {
		t.Error("scenes is not required")
	}
	var run, upload bool
	for _, s := range m.Runs.Steps {
		if s.Uses == "" && s.Shell != "bash" {
			t.Errorf("step %q runs in %q, not bash (every runner has it)", s.ID, s.Shell)
		}
		for _, script := range []string{"install.sh", "run.js"} {
			if strings.Contains(s.Run, "$GITHUB_ACTION_PATH/action/"+script) {
				if _, err := os.Stat(script); err != nil {
					t.Errorf("step %q runs %s: %v", s.ID, script, err)
				}
			}
		}
		if s.ID == "run" {
			run = true
			for n := range m.Inputs {
				v := "INPUT_" + strings.ToUpper(strings.ReplaceAll(n, "-", "_"))
				if s.Env[v] != "${{ inputs."+n+" }}" {
					t.Errorf("the run step's %s is %q", v, s.Env[v])
				}
			}
		}
		if strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") {
			upload = true
			if !s.ContinueOnError || !strings.Contains(s.If, "inputs.sarif == 'true'") || !strings.Contains(s.If, "always()") ||
				!strings.Contains(s.If, "github.event.pull_request.head.repo.full_name == github.repository") {
				t.Errorf("upload step: if %q, continue-on-error %v", s.If, s.ContinueOnError)
			}
		}
	}
	if !run || !upload {
		t.Errorf("no run step (%v) or no upload step (%v)", run, upload)
	}
	for n, o := range m.Outputs {
		if !strings.Contains(o.Value, "steps.run.outputs."+n) {
			t.Errorf("output %s is %q", n, o.Value)
		}
	}
}

// tools skips without Node (the runner's, for the main script) and bash.
func tools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"node", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the action's scripts need it", tool)
		}
	}
}

// platformer is a copy of the Estella platformer example made a streamed
// world, cooked into build/world, with a route in routes/.
func platformer(t *testing.T, worldcook string) string {
	t.Helper()
	projects := corpus.Projects()
	if projects == "" {
		t.Skip("Estella projects not found at ../shared/estella-projects (set WORLDCOOK_PROJECTS to run this test)")
	}
	root := filepath.Join(t.TempDir(), "platformer")
	corpus.CopyTree(t, filepath.Join(projects, "examples", "platformer"), root)
	for _, args := range [][]string{
		// A 2D project: cut on x and y (init records the plane in
		// worldcook.yaml, which every later command reads), or validate
		// rightly warns plane-mismatch.
		{"init", "--plane", "xy", "--write", "assets/scenes/main.esscene"},
		{"cook", "assets/scenes", "--out", "build/world"},
	} {
		cmd := exec.Command(worldcook, args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("worldcook %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	var route strings.Builder
	route.WriteString("frame,x,y\n")
	for i := range 61 {
		route.WriteString(strings.Join([]string{strconv.Itoa(i + 1), strconv.Itoa(i*13 - 400), "0"}, ",") + "\n")
	}
	os.MkdirAll(filepath.Join(root, "routes"), 0o755)
	if err := os.WriteFile(filepath.Join(root, "routes", "walk.csv"), []byte(route.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// github is a runner's files for one step.
type github struct {
	summary, output, temp string
}

func newGitHub(t *testing.T) github {
	d := t.TempDir()
	return github{summary: filepath.Join(d, "step_summary.md"), output: filepath.Join(d, "output"), temp: filepath.Join(d, "runner_temp")}
}

func (g github) env(extra ...string) []string {
	vars := []string{
		"GITHUB_STEP_SUMMARY=" + g.summary, "GITHUB_OUTPUT=" + g.output, "RUNNER_TEMP=" + g.temp,
		"GITHUB_SERVER_URL=https://github.com", "GITHUB_REPOSITORY=studio/game", "GITHUB_SHA=0123abcd",
	}
	return append(append(os.Environ(), vars...), extra...)
}

func (g github) outputs(t *testing.T) map[string]string {
	t.Helper()
	data, _ := os.ReadFile(g.output)
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			out[k] = v
		}
	}
	return out
}

// runAction runs the main script in dir as the run step does.
func runAction(t *testing.T, dir, worldcook string, g github, inputs map[string]string) (code int, stdout, stderr string) {
	t.Helper()
	env := []string{"WORLDCOOK=" + worldcook}
	for k, v := range inputs {
		env = append(env, "INPUT_"+strings.ToUpper(strings.ReplaceAll(k, "-", "_"))+"="+v)
	}
	script, _ := filepath.Abs("run.js")
	cmd := exec.Command("node", script)
	cmd.Dir = dir
	cmd.Env = g.env(env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// TestRun runs the action's main script on a copy of a real project: clean
// (validate, cook --check and a route's replay pass), then with a prefab
// that breaks every instance (errors annotated on the scene, listed with
// their lines in the summary, SARIF written, the step failing). The job
// summaries are golden files.
func TestRun(t *testing.T) {
	tools(t)
	worldcook, _ := testbin.Build(t, t.TempDir())
	root := platformer(t, worldcook)
	inputs := map[string]string{"scenes": "assets/scenes", "out": "build/world", "routes": "routes", "fail-on": "pop-in,failures", "sarif": "true"}

	t.Run("clean", func(t *testing.T) {
		g := newGitHub(t)
		code, stdout, stderr := runAction(t, root, worldcook, g, inputs)
		if code != 0 || strings.Contains(stdout, "::error") {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		out := g.outputs(t)
		if out["ok"] != "true" || out["errors"] != "0" || out["sarif-file"] != filepath.Join(g.temp, "worldcook-action", "worldcook.sarif") {
			t.Errorf("outputs %v", out)
		}
		summary, _ := os.ReadFile(g.summary)
		goldenfile.Compare(t, filepath.Join("testdata", "summary-clean.md"), summary)
	})

	t.Run("errors", func(t *testing.T) {
		corpus.BreakPrefab(t, filepath.Join(root, "assets", "prefabs", "Coin.esprefab"))
		g := newGitHub(t)
		code, stdout, stderr := runAction(t, root, worldcook, g, inputs)
		if code != 1 {
			t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		// Annotations on the scene's lines, for the runner to read.
		if n := strings.Count(stdout, "::error file=assets/scenes/main.esscene,line="); n != 5 {
			t.Errorf("%d annotations, want 5:\n%s", n, stdout)
		}
		out := g.outputs(t)
		if out["ok"] != "false" || out["errors"] != "5" {
			t.Errorf("outputs %v", out)
		}
		var log struct {
			Runs []struct {
				Results []struct{ RuleID string } `json:"results"`
			} `json:"runs"`
		}
		data, err := os.ReadFile(out["sarif-file"])
		if err != nil || json.Unmarshal(data, &log) != nil || len(log.Runs[0].Results) != 5 {
			t.Errorf("SARIF %s: %v\n%.500s", out["sarif-file"], err, data)
		}
		summary, _ := os.ReadFile(g.summary)
		// The findings name the prefab by its path on this machine.
		summary = bytes.ReplaceAll(summary, []byte(root), []byte("$PROJECT"))
		goldenfile.Compare(t, filepath.Join("testdata", "summary-errors.md"), summary)
	})

	t.Run("no SARIF, no world for the routes", func(t *testing.T) {
		g := newGitHub(t)
		code, _, stderr := runAction(t, root, worldcook, g, map[string]string{"scenes": "assets/scenes", "routes": "routes", "sarif": "false"})
		summary, _ := os.ReadFile(g.summary)
		if code != 2 || g.outputs(t)["sarif-file"] != "" || !strings.Contains(string(summary), "the routes need a world") {
			t.Errorf("exit %d, outputs %v\n%s\n%s", code, g.outputs(t), summary, stderr)
		}
	})

	t.Run("no scenes", func(t *testing.T) {
		g := newGitHub(t)
		code, _, stderr := runAction(t, root, worldcook, g, map[string]string{"scenes": " "})
		if code != 2 || !strings.Contains(stderr, "scenes input is empty") {
			t.Errorf("exit %d: %s", code, stderr)
		}
	})
}

// TestInstall: the install step uses the project's own worldcook, else
// one on PATH, else asks for a build, which makes one that runs.
func TestInstall(t *testing.T) {
	tools(t)
	script, _ := filepath.Abs("install.sh")
	find := func(t *testing.T, workspace, path string) map[string]string {
		t.Helper()
		g := newGitHub(t)
		cmd := exec.Command("bash", script, "find")
		cmd.Env = append(g.env("GITHUB_WORKSPACE="+workspace), "PATH="+path)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("install.sh find: %v\n%s", err, out)
		}
		return g.outputs(t)
	}
	bash, _ := exec.LookPath("bash")
	// PATH holds only what the script itself needs.
	minimal := t.TempDir()
	for _, tool := range []string{"dirname"} {
		if p, err := exec.LookPath(tool); err == nil {
			os.Symlink(p, filepath.Join(minimal, tool))
		}
	}
	os.Symlink(bash, filepath.Join(minimal, "bash"))

	ws := t.TempDir()
	if out := find(t, ws, minimal); out["build"] != "true" || out["path"] != "" {
		t.Errorf("nothing installed: outputs %v", out)
	}
	onPath := t.TempDir()
	os.WriteFile(filepath.Join(onPath, "worldcook"), []byte("#!/bin/sh\n"), 0o755)
	if out := find(t, ws, minimal+string(os.PathListSeparator)+onPath); out["path"] != filepath.Join(onPath, "worldcook") {
		t.Errorf("on PATH: outputs %v", out)
	}
	bin := filepath.Join(ws, "node_modules", ".bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "worldcook"), []byte("#!/bin/sh\n"), 0o755)
	if out := find(t, ws, minimal+string(os.PathListSeparator)+onPath); out["path"] != filepath.Join(bin, "worldcook") {
		t.Errorf("the project's own: outputs %v", out)
	}

	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command: the build is not tested")
	}
	g := newGitHub(t)
	cmd := exec.Command("bash", script, "build")
	cmd.Env = g.env("GITHUB_ACTION_REF=v1.2.3")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install.sh build: %v\n%s", err, out)
	}
	built := g.outputs(t)["path"]
	out, err := exec.Command(built, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "worldcook v1.2.3") {
		t.Errorf("%s --version: %q, %v", built, out, err)
	}
}
