package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/diag"
)

const errorsScene = "../testdata/validate/errors.esscene"

// TestValidateCatalogue runs the hostile-input catalogue through validate:
// malformed input exits 2 with one line naming the file, rule violations
// exit 1 and are reported on stdout, and nothing panics.
func TestValidateCatalogue(t *testing.T) {
	for _, tc := range catalogue() {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.write(t)
			code, stdout, stderr := run(t, "validate", in)
			if code != tc.exit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.exit, stdout, stderr)
			}
			out := stderr
			if tc.exit == 1 {
				out = stdout
			}
			if !strings.Contains(out, tc.want) || !strings.Contains(out, in) {
				t.Errorf("output does not name %q and the file:\n%s", tc.want, out)
			}
			if tc.exit == 2 && strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("want one line on stderr, got:\n%s", stderr)
			}
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
				t.Errorf("stderr shows a panic:\n%s", stderr)
			}
		})
	}
}

func TestValidateDemoIsClean(t *testing.T) {
	code, stdout, stderr := run(t, "--config", "../testdata/demo/worldcook.yaml", "validate", "../testdata/demo/main.esscene")
	if code != 0 || stderr != "" || !strings.Contains(stdout, `streamed world "main"`) || !strings.Contains(stdout, "0 errors, 0 warnings") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	// Without the project's FollowTarget declaration the camera's follow
	// target is not a reference, so it stays clean; with it, it is checked.
	if code, _, _ := run(t, "validate", "-q", "../testdata/demo/main.esscene"); code != 0 {
		t.Errorf("demo without config: exit %d", code)
	}
}

func TestValidateFormats(t *testing.T) {
	for _, format := range []string{"text", "json", "sarif", "github"} {
		t.Run(format, func(t *testing.T) {
			code, stdout, stderr := run(t, "validate", "--format", format, errorsScene)
			if code != 1 || stderr != "" {
				t.Fatalf("exit %d, stderr %s", code, stderr)
			}
			switch format {
			case "text":
				if !strings.Contains(stdout, errorsScene+":129:13: error[cross-cell-ref]:") {
					t.Errorf("text:\n%s", stdout)
				}
			case "sarif":
				var v map[string]any
				if err := json.Unmarshal([]byte(stdout), &v); err != nil {
					t.Errorf("%s output is not one JSON document: %v\n%s", format, err, stdout)
				}
			case "json":
				// JSON Lines: the scene's report, then the exit_error that
				// ends a failed run.
				lines := strings.Split(strings.TrimSpace(stdout), "\n")
				var types []string
				for _, l := range lines {
					var v struct {
						Type string `json:"message_type"`
					}
					if err := json.Unmarshal([]byte(l), &v); err != nil {
						t.Fatalf("line %q: %v", l, err)
					}
					types = append(types, v.Type)
				}
				if strings.Join(types, ",") != "validate,exit_error" {
					t.Errorf("json lines %v:\n%s", types, stdout)
				}
			case "github":
				// Named from the repository's root, where the checkout
				// has one (a copy without .git names it as given).
				want := errorsScene
				if root, _ := filepath.Abs(".."); diag.SourceRoot(".") == root {
					want = strings.TrimPrefix(errorsScene, "../")
				}
				if !strings.HasPrefix(stdout, "::error file="+want+",line=") {
					t.Errorf("github:\n%s", stdout)
				}
			}
		})
	}
	// The global --json picks the JSON format; an explicit --format wins.
	if _, stdout, _ := run(t, "--json", "validate", errorsScene); !strings.HasPrefix(stdout, `{"message_type":"validate","scene":`) {
		t.Errorf("--json:\n%s", stdout)
	}
	if _, stdout, _ := run(t, "--json", "validate", "--format", "github", errorsScene); !strings.HasPrefix(stdout, "::") {
		t.Errorf("--json --format github:\n%s", stdout)
	}
}

func TestValidateStrictAndConfig(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "w.esscene")
	os.WriteFile(scene, []byte(`{"version": 1, "name": "w", "entities": [
{"id": 1, "name": "S", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": 100}}]},
{"id": 2, "name": "A", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 5}}}, {"type": "FollowTarget", "data": {"target": 3}}]},
{"id": 3, "name": "B", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 500}}}, {"type": "RevoluteJoint", "data": {"connectedEntity": 99}}]}
]}`), 0o644)
	if code, stdout, _ := run(t, "validate", scene); code != 0 || !strings.Contains(stdout, "warning[dangling-ref]") {
		t.Errorf("warnings only: exit %d\n%s", code, stdout)
	}
	if code, _, _ := run(t, "validate", "--strict", scene); code != 1 {
		t.Errorf("--strict: exit %d, want 1", code)
	}
	cfg := filepath.Join(dir, "worldcook.yaml")
	os.WriteFile(cfg, []byte("components:\n  FollowTarget:\n    entityFields: [target]\n"), 0o644)
	if code, stdout, _ := run(t, "--config", cfg, "validate", scene); code != 1 || !strings.Contains(stdout, "error[cross-cell-ref]") {
		t.Errorf("project field from config: exit %d\n%s", code, stdout)
	}
	os.WriteFile(cfg, []byte("components:\n  FollowTarget:\n    entityFields: [target]\n    softFields: [target]\nvalidate:\n  strict: true\n"), 0o644)
	if code, stdout, _ := run(t, "--config", cfg, "validate", scene); code != 1 || strings.Contains(stdout, "cross-cell-ref") {
		t.Errorf("soft field and strict from config: exit %d\n%s", code, stdout)
	}
	// Scene names come from the scenes root.
	sub := filepath.Join(dir, "levels", "boss.esscene")
	os.MkdirAll(filepath.Dir(sub), 0o755)
	data, _ := os.ReadFile(scene)
	os.WriteFile(sub, data, 0o644)
	if _, stdout, _ := run(t, "--config", cfg, "validate", "--format", "json", "--scenes-root", dir, sub); !strings.Contains(stdout, `"name":"levels/boss"`) ||
		!strings.Contains(stdout, `"levels/boss.cell_0_0"`) {
		t.Errorf("scenes root:\n%s", stdout)
	}
	// A directory validates every scene under it, in order.
	_, stdout, _ := run(t, "--config", cfg, "validate", dir)
	if strings.Index(stdout, "levels/boss.esscene") > strings.Index(stdout, "w.esscene:") {
		t.Errorf("directory scenes out of order:\n%s", stdout)
	}
}

func TestValidateMap(t *testing.T) {
	out := filepath.Join(t.TempDir(), "map.svg")
	code, _, stderr := run(t, "validate", "-q", "--map", out, errorsScene)
	if code != 1 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	svg, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(svg), "<svg") || !strings.Contains(string(svg), "url(#head-") {
		t.Fatalf("map: %v\n%.200s", err, svg)
	}
	if code, _, stderr := run(t, "validate", "--map", out, errorsScene, "../testdata/demo/main.esscene"); code != 2 || !strings.Contains(stderr, "--map") {
		t.Errorf("--map with two scenes: exit %d: %s", code, stderr)
	}
}

func TestValidateUsageErrors(t *testing.T) {
	// A missing argument adds the usage line and an example
	// (TestMistakesGetTheFix).
	cases := [][]string{
		{"validate", "--format", "yaml", errorsScene},
		{"validate", "--plane", "yz", errorsScene},
		{"validate", "no/such/scene.esscene"},
		{"validate", "--scenes-root", "../cmd", errorsScene},
	}
	for _, args := range cases {
		code, _, stderr := run(t, args...)
		if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.HasPrefix(stderr, "worldcook: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	// A malformed scene among good ones: the others are still reported,
	// and the exit status says the input was bad.
	bad := filepath.Join(t.TempDir(), "bad.esscene")
	os.WriteFile(bad, []byte(`{"entities": [`), 0o644)
	code, stdout, stderr := run(t, "validate", bad, "../testdata/demo/main.esscene")
	if code != 2 || !strings.Contains(stdout, "main.esscene") || !strings.Contains(stderr, bad) {
		t.Errorf("mixed: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

func TestValidateHelpHasExample(t *testing.T) {
	_, stdout, _ := run(t, "validate", "--help")
	if !strings.Contains(stdout, "Examples:") || !strings.Contains(stdout, "--format sarif") {
		t.Errorf("help:\n%s", stdout)
	}
}

// TestColorAllowed: colour on a terminal unless NO_COLOR (any value) or a
// dumb terminal says otherwise.
func TestColorAllowed(t *testing.T) {
	for _, tc := range []struct {
		noColor, term string
		want          bool
	}{
		{"", "xterm-256color", true},
		{"1", "xterm-256color", false},
		{"0", "xterm", false}, // any value, as no-color.org says
		{"", "dumb", false},
	} {
		t.Setenv("NO_COLOR", tc.noColor)
		t.Setenv("TERM", tc.term)
		if got := colorAllowed(); got != tc.want {
			t.Errorf("NO_COLOR=%q TERM=%q: %v, want %v", tc.noColor, tc.term, got, tc.want)
		}
	}
}
