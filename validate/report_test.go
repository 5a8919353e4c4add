package validate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/diag"
	goldenfile "github.com/worldcook/worldcook/internal/golden"
	"github.com/worldcook/worldcook/internal/scene"
)

const goldenScene = "testdata/validate/errors.esscene"

// goldenPlan checks the scene with errors of every kind, named as it is from
// the repository root so the goldens read like a real run.
func goldenPlan(t *testing.T) *Plan {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", goldenScene))
	if err != nil {
		t.Fatal(err)
	}
	d, err := scene.Parse(goldenScene, src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Check(d, Options{
		SceneName:  "errors",
		Components: map[string]ComponentFields{"FollowTarget": {Entity: []string{"target"}}},
		Assets:     []string{filepath.Join("..", "testdata", "validate")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Compare(t, filepath.Join("..", "testdata", "validate", name), got)
}

func TestGoldenReports(t *testing.T) {
	p := goldenPlan(t)
	// Every code but bad-cell-size (it replaces the partition), parent-cycle
	// and plane-mismatch (the scene is laid out in 3D; TestRules has them)
	// and duplicate-uuid (it needs two .meta files; TestDuplicateUUID has
	// it) and control-in-source-name (TestRules has it) shows up.
	seen := map[string]bool{}
	for _, f := range p.Findings {
		seen[f.Code] = true
	}
	for _, r := range Rules {
		if !seen[r.ID] && r.ID != CodeBadCellSize && r.ID != CodeParentCycle && r.ID != CodePlaneMismatch && !setupCodes[r.ID] && r.ID != CodeDuplicateUUID && r.ID != CodeControlInSourceName {
			t.Errorf("the golden scene has no %s finding", r.ID)
		}
	}
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, format, []*Plan{p}, ReportOptions{ToolVersion: "test", SourceRoot: "."}); err != nil {
				t.Fatal(err)
			}
			golden(t, "errors."+format+".golden", buf.Bytes())
		})
	}
	t.Run("text with frames", func(t *testing.T) {
		var buf bytes.Buffer
		if err := Write(&buf, FormatText, []*Plan{p}, ReportOptions{Frames: true}); err != nil {
			t.Fatal(err)
		}
		golden(t, "errors.text-frames.golden", buf.Bytes())
		buf.Reset()
		if err := Write(&buf, FormatText, []*Plan{p}, ReportOptions{Frames: true, Color: true}); err != nil {
			t.Fatal(err)
		}
		painted := buf.String()
		if !strings.Contains(painted, ": \x1b[1;31merror\x1b[0m[cross-cell-ref]") || !strings.Contains(painted, ": \x1b[1;33mwarning\x1b[0m[dangling-ref]") {
			t.Errorf("colour: severities are not painted:\n%.300q", painted)
		}
		plain := strings.NewReplacer("\x1b[1;31m", "", "\x1b[1;33m", "", "\x1b[0m", "").Replace(painted)
		if want, _ := os.ReadFile(filepath.Join("..", "testdata", "validate", "errors.text-frames.golden")); plain != string(want) {
			t.Error("colour changes more than the severities")
		}
	})
	t.Run("map", func(t *testing.T) {
		var buf bytes.Buffer
		if err := WriteMap(&buf, p); err != nil {
			t.Fatal(err)
		}
		golden(t, "errors.map.svg.golden", buf.Bytes())
		rejected := 0
		for _, f := range p.Findings {
			if f.Code == CodeCrossCellRef || f.Code == CodePersistentToCellRef {
				rejected++
			}
		}
		if n := strings.Count(buf.String(), `)"><title>cross-cell-ref: `) + strings.Count(buf.String(), `)"><title>persistent-to-cell-ref: `); n != rejected || n == 0 {
			t.Errorf("map draws %d arrows, want one per rejected reference (%d)", n, rejected)
		}
	})
}

// TestSARIFStructure checks what code-scanning services require of a SARIF
// 2.1.0 log, independently of the golden bytes.
func TestSARIFStructure(t *testing.T) {
	p := goldenPlan(t)
	var buf bytes.Buffer
	if err := Write(&buf, FormatSARIF, []*Plan{p, p}, ReportOptions{SourceRoot: "."}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name           string `json:"name"`
					InformationURI string `json:"informationUri"`
					Rules          []struct {
						ID               string            `json:"id"`
						ShortDescription map[string]string `json:"shortDescription"`
						FullDescription  map[string]string `json:"fullDescription"`
						Help             map[string]string `json:"help"`
						Default          struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string            `json:"ruleId"`
				RuleIndex int               `json:"ruleIndex"`
				Level     string            `json:"level"`
				Message   map[string]string `json:"message"`
				Locations []struct {
					Physical struct {
						Artifact struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
					Logical []struct {
						Name string `json:"name"`
						FQN  string `json:"fullyQualifiedName"`
						Kind string `json:"kind"`
					} `json:"logicalLocations"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-schema-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("header: version %q schema %q runs %d", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	d := run.Tool.Driver
	if d.Name != "worldcook" || !strings.HasPrefix(d.InformationURI, "https://") || len(d.Rules) != len(Rules) {
		t.Fatalf("driver %+v", d)
	}
	for _, r := range d.Rules {
		if r.ID == "" || r.ShortDescription["text"] == "" || r.FullDescription["text"] == "" || r.Help["text"] == "" ||
			(r.Default.Level != "error" && r.Default.Level != "warning") {
			t.Errorf("rule %+v is incomplete", r)
		}
	}
	if len(run.Results) != 2*len(p.Findings) {
		t.Fatalf("%d results for %d findings", len(run.Results), 2*len(p.Findings))
	}
	for _, r := range run.Results {
		if r.RuleIndex < 0 || r.RuleIndex >= len(d.Rules) || d.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s has rule index %d", r.RuleID, r.RuleIndex)
		}
		if (r.Level != "error" && r.Level != "warning") || r.Message["text"] == "" || len(r.Locations) != 1 {
			t.Errorf("result %+v is incomplete", r)
			continue
		}
		l := r.Locations[0]
		if l.Physical.Artifact.URI != goldenScene || l.Physical.Region.StartLine < 1 {
			t.Errorf("location %+v", l.Physical)
		}
		if len(l.Logical) != 1 || l.Logical[0].Kind != "object" || !strings.HasPrefix(l.Logical[0].FQN, "errors#") || l.Logical[0].Name == "" {
			t.Errorf("logical location %+v", l.Logical)
		}
	}
}

// TestJSONSchema checks the field order of docs/json.md, one object per scene
// and per line.
func TestJSONSchema(t *testing.T) {
	p := goldenPlan(t)
	var buf bytes.Buffer
	if err := Write(&buf, FormatJSON, []*Plan{p, p}, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines for two scenes", len(lines))
	}
	dec := json.NewDecoder(strings.NewReader(lines[0]))
	var keys []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 && dec.More() {
				keys = append(keys, v)
				// Skip the value.
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	want := []string{"message_type", "scene", "name", "streamed", "plane", "cellSize", "persistentEntities", "persistentRefs", "cells", "findings", "assets", "summary"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	var r struct {
		Cells []struct {
			Name        string          `json:"name"`
			Grid        Rect            `json:"grid"`
			Bounds      Rect            `json:"bounds"`
			EntityCount int             `json:"entityCount"`
			RootCount   int             `json:"rootCount"`
			Overhang    json.RawMessage `json:"overhang"`
		} `json:"cells"`
		Summary struct{ Errors, Warnings int } `json:"summary"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil {
		t.Fatal(err)
	}
	errs, warns := p.Counts()
	if r.Summary.Errors != errs || r.Summary.Warnings != warns || len(r.Cells) != len(p.Cells) {
		t.Errorf("summary %+v cells %d", r.Summary, len(r.Cells))
	}
}

func TestGitHubEscaping(t *testing.T) {
	id := int64(3)
	p := &Plan{Doc: &scene.Document{Path: "a,b:c.esscene"}, Findings: []Finding{{Diagnostic: diag.Diagnostic{
		Code: CodeDanglingRef, Severity: SeverityWarning, Location: diag.Location{File: "a,b:c.esscene", Line: 7}, Subject: diag.Subject{Entity: &id},
		Message: "100% broken\nsecond line", Hint: "fix: it",
	}}}}
	var buf bytes.Buffer
	if err := Write(&buf, FormatGitHub, []*Plan{p}, ReportOptions{SourceRoot: "."}); err != nil {
		t.Fatal(err)
	}
	want := "::warning file=a%2Cb%3Ac.esscene,line=7,title=worldcook dangling-ref::100%25 broken%0Asecond line (fix: it)\n" +
		"a,b:c.esscene: 0 errors, 1 warning\n"
	if buf.String() != want {
		t.Errorf("got  %q\nwant %q", buf.String(), want)
	}
}

func TestQuietTextShowsErrorsOnly(t *testing.T) {
	p := goldenPlan(t)
	var buf bytes.Buffer
	if err := Write(&buf, FormatText, []*Plan{p}, ReportOptions{Quiet: true}); err != nil {
		t.Fatal(err)
	}
	errs, _ := p.Counts()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != errs {
		t.Fatalf("%d lines for %d errors:\n%s", len(lines), errs, buf.String())
	}
	for _, l := range lines {
		if !strings.Contains(l, ": error[") {
			t.Errorf("quiet output has %q", l)
		}
	}
	if err := Write(&buf, "yaml", []*Plan{p}, ReportOptions{}); err == nil {
		t.Error("unknown format accepted")
	}
}

// TestSARIFFingerprintsSurviveEdits: blank lines added at the top of the
// scene move every finding's line, and no fingerprint; every result has
// one, and no two of a run share it.
func TestSARIFFingerprintsSurviveEdits(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", goldenScene))
	if err != nil {
		t.Fatal(err)
	}
	results := func(src []byte) (lines []int, fps []string) {
		d, err := scene.Parse(goldenScene, src)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Check(d, Options{SceneName: "errors", Components: map[string]ComponentFields{"FollowTarget": {Entity: []string{"target"}}},
			Assets: []string{filepath.Join("..", "testdata", "validate")}})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, FormatSARIF, []*Plan{p}, ReportOptions{SourceRoot: "."}); err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct {
								URIBaseID string `json:"uriBaseId"`
							} `json:"artifactLocation"`
							Region struct{ StartLine int } `json:"region"`
						} `json:"physicalLocation"`
					} `json:"locations"`
					PartialFingerprints map[string]string `json:"partialFingerprints"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		for _, r := range log.Runs[0].Results {
			if r.Locations[0].PhysicalLocation.ArtifactLocation.URIBaseID != "%SRCROOT%" {
				t.Errorf("a relative URI without its base: %+v", r.Locations[0])
			}
			lines = append(lines, r.Locations[0].PhysicalLocation.Region.StartLine)
			fps = append(fps, r.PartialFingerprints["worldcookFinding/v1"])
		}
		return lines, fps
	}
	lines, fps := results(src)
	edited := append([]byte("\n\n"), src...)
	moved, after := results(edited)
	if len(fps) == 0 || !slices.Equal(fps, after) {
		t.Errorf("fingerprints changed with the lines:\n%v\n%v", fps, after)
	}
	for k := range lines {
		if moved[k] != lines[k]+2 {
			t.Errorf("result %d: line %d, then %d: the edit did not move it", k, lines[k], moved[k])
		}
	}
	seen := map[string]bool{}
	for _, fp := range fps {
		if fp == "" || seen[fp] {
			t.Errorf("fingerprint %q is empty or shared", fp)
		}
		seen[fp] = true
	}
}
