package cmd

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/enginejs"
)

// TestSARIFAcceptedByCodeScanning checks validate's SARIF with Microsoft's
// SARIF Multitool, whose "Gh" rules are GitHub code scanning's ingestion
// requirements, besides the SARIF 2.1.0 schema: no error may be found.
// WORLDCOOK_SARIF_MULTITOOL names its Sarif.Multitool binary, else it is
// looked for where .ci/run installs it from npm (the tests' npm cache,
// @microsoft/sarif-multitool-linux).
func TestSARIFAcceptedByCodeScanning(t *testing.T) {
	tool := os.Getenv("WORLDCOOK_SARIF_MULTITOOL")
	if tool == "" {
		tool = filepath.Join(enginejs.Cache(), "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
		if _, err := os.Stat(tool); err != nil {
			t.Skip("no SARIF Multitool: set WORLDCOOK_SARIF_MULTITOOL to a Sarif.Multitool binary (npm install @microsoft/sarif-multitool; .ci/run does) to check the SARIF as code scanning reads it")
		}
	}
	dir := t.TempDir()
	for _, tc := range []struct{ name, scene string }{
		{"every rule", errorsScene},
		{"clean", "../testdata/demo/main.esscene"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "validate", "--format", "sarif", tc.scene)
			if code > 1 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			log := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".sarif")
			if err := os.WriteFile(log, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			checked := log + ".checked.json"
			cmd := exec.Command(tool, "validate", "--rule-kind", "Gh;Sarif", "--level", "Error", "-o", checked, log)
			// The multitool needs no ICU for what it checks here.
			cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", tool, err, out)
			}
			data, err := os.ReadFile(checked)
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Runs []struct {
					Results []struct {
						RuleID  string `json:"ruleId"`
						Level   string `json:"level"`
						Message struct {
							Text      string   `json:"text"`
							ID        string   `json:"id"`
							Arguments []string `json:"arguments"`
						} `json:"message"`
					} `json:"results"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(data, &res); err != nil {
				t.Fatal(err)
			}
			for _, run := range res.Runs {
				for _, r := range run.Results {
					if r.Level == "" || r.Level == "error" {
						t.Errorf("%s: %s %s %q", r.RuleID, r.Message.Text, r.Message.ID, r.Message.Arguments)
					}
				}
			}
			// The files are named from the repository's root, as code
			// scanning resolves them.
			if !strings.Contains(stdout, `"uri": "testdata/`) && tc.name == "every rule" {
				t.Errorf("artifact URIs are not relative to the repository root:\n%.2000s", stdout)
			}
		})
	}
}
