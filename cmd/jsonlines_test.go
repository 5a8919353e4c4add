package cmd

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	goldenfile "github.com/worldcook/worldcook/internal/golden"
)

// TestJSONLines holds every command's machine output to the one style of
// docs/json.md: JSON Lines on stdout, each object's first field its
// message_type, a failed run ending with an exit_error line whose code is
// the exit status. Each case is a golden (go test ./cmd -run JSONLines
// -update rewrites them), with what varies from run to run (temporary
// folders, durations) replaced.
// fixYAML and fixScene are a street of prefab instances whose Link
// references cross cells, for validate --fix.
const (
	fixYAML  = "../internal/repair/testdata/instances/worldcook.yaml"
	fixScene = "../internal/repair/testdata/instances/assets/scenes/street.esscene"
)

func TestJSONLines(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	cases := []struct {
		name string
		args []string
		exit int
	}{
		{"cook", []string{"--config", demoYAML, "--json", "cook", demoScene, "--out", out}, 0},
		{"cook-findings", []string{"--json", "cook", errorsScene, "--out", out, "--assets", "../testdata/validate"}, 1},
		{"cook-missing-scene", []string{"--json", "cook", "no-such.esscene", "--out", out}, 2},
		{"validate", []string{"--json", "validate", errorsScene, "--assets", "../testdata/validate"}, 1},
		{"validate-clean", []string{"--config", demoYAML, "validate", "--format", "json", demoScene}, 0},
		{"simulate", []string{"--config", demoYAML, "--json", "simulate", "--path", demoRoute, "--budget", "16KiB", "--summary-only", demoScene}, 0},
		{"simulate-bad-flag", []string{"--json", "simulate", "--budget", "lots", demoScene}, 2},
		{"simulate-gate", []string{"--config", demoYAML, "--json", "simulate", "--path", demoRoute, "--summary-only", "--fail-on", "holes", "--warmup", "0", demoScene}, 1},
		{"config", []string{"--json", "config", "cook"}, 0},
		{"validate-fix", []string{"--config", fixYAML, "--json", "validate", "--fix", fixScene}, 0},
	}
	seconds := regexp.MustCompile(`"seconds":[0-9.e-]+`)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tc.args...)
			if code != tc.exit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.exit, stdout, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			for i, l := range lines {
				var v map[string]any
				if err := json.Unmarshal([]byte(l), &v); err != nil {
					t.Fatalf("line %d is not a JSON object: %v\n%s", i+1, err, l)
				}
				if !strings.HasPrefix(l, `{"message_type":"`) {
					t.Fatalf("line %d does not start with its message_type: %.80s", i+1, l)
				}
			}
			last := lines[len(lines)-1]
			if tc.exit != 0 && !strings.HasPrefix(last, `{"message_type":"exit_error","code":`+string(rune('0'+tc.exit))) {
				t.Errorf("a failed run must end with exit_error code %d, ends with %.100s", tc.exit, last)
			}
			if tc.exit == 0 && strings.Contains(stdout, "exit_error") {
				t.Errorf("a clean run reports an exit_error")
			}
			got := strings.ReplaceAll(stdout, out, "OUT")
			got = seconds.ReplaceAllString(got, `"seconds":0`)
			goldenfile.Compare(t, filepath.Join("testdata", "json", tc.name+".jsonl"), []byte(got))
		})
	}
}
