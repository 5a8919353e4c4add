package diag

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	id := int64(12)
	full := Diagnostic{Code: "cross-cell-ref", Severity: SeverityError, Message: "Door (12) refers across cells",
		Location: Location{File: "main.esscene", Line: 50, Column: 13, LineText: "\t\t\"target\": 31"},
		Subject:  Subject{Entity: &id, Field: "Door.target"}, Hint: "mark it persistent"}
	run := Diagnostic{Code: "cell-over-budget", Severity: SeverityWarning, Message: "2 cells are too large",
		Subject: Subject{Cells: []string{"a (1 KiB)", "b (2 KiB)"}, More: 3}}
	plain := Diagnostic{Severity: SeverityWarning, Message: "--plane xy: the runtime samples x and z"}
	for _, tc := range []struct {
		name        string
		d           Diagnostic
		line, frame string
	}{
		{"located", full,
			"main.esscene:50:13: error[cross-cell-ref]: Door (12) refers across cells (mark it persistent)",
			"main.esscene:50:13: error[cross-cell-ref]: Door (12) refers across cells\n" +
				"  50 |   \"target\": 31\n" +
				"     |             ^\n" +
				"  fix: mark it persistent\n"},
		{"line only", Diagnostic{Code: "c", Severity: SeverityError, Message: "m", Location: Location{File: "f", Line: 3, LineText: "x"}},
			"f:3: error[c]: m", "f:3: error[c]: m\n"},
		{"about the run", run,
			"warning[cell-over-budget]: 2 cells are too large",
			"warning[cell-over-budget]: 2 cells are too large\n  a (1 KiB)\n  b (2 KiB)\n  and 3 more\n"},
		{"no code", plain, "warning: --plane xy: the runtime samples x and z", "warning: --plane xy: the runtime samples x and z\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.String(); got != tc.line {
				t.Errorf("String:\ngot  %q\nwant %q", got, tc.line)
			}
			if got := tc.d.Frame(false); got != tc.frame {
				t.Errorf("Frame:\ngot  %q\nwant %q", got, tc.frame)
			}
		})
	}
	if got, want := full.Frame(true), "main.esscene:50:13: \x1b[1;31merror\x1b[0m[cross-cell-ref]: "; !strings.HasPrefix(got, want) {
		t.Errorf("coloured frame %q does not start %q", got, want)
	}
	if got, want := plain.Frame(true), "\x1b[1;33mwarning\x1b[0m: --plane"; !strings.HasPrefix(got, want) {
		t.Errorf("coloured frame %q does not start %q", got, want)
	}
}

func TestJSON(t *testing.T) {
	id, to := int64(3), int64(4)
	d := Diagnostic{Code: "c", Severity: SeverityWarning, Message: "a <b> & c",
		Location: Location{File: "s.esscene", Line: 2, Column: 5, LineText: "not written"},
		Subject:  Subject{Entity: &id, EntityName: "E", Field: "F.f", Target: &to, TargetName: "T", FromCell: "x", ToCell: "y"}, Hint: "h"}
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"finding", JSONLine{MessageType: "finding", Diagnostic: d},
			`{"message_type":"finding","code":"c","severity":"warning","message":"a <b> & c","file":"s.esscene","line":2,"column":5,"entity":3,"entityName":"E","field":"F.f","target":4,"targetName":"T","fromCell":"x","toCell":"y","hint":"h"}`},
		{"finding, bare", JSONLine{MessageType: "finding", Diagnostic: Diagnostic{Code: "c", Severity: SeverityError, Message: "m"}},
			`{"message_type":"finding","code":"c","severity":"error","message":"m","file":""}`},
		{"short", ShortJSONLine("warning", Diagnostic{Code: "c", Severity: SeverityWarning, Message: "m", Subject: Subject{Cells: []string{"a"}, More: 1}}),
			`{"message_type":"warning","code":"c","message":"m","cells":["a"],"more":1}`},
		{"short, no cells", ShortJSONLine("warning", d), `{"message_type":"warning","code":"c","message":"a <b> & c","hint":"h"}`},
	} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(tc.v); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(buf.String(), "\n"); got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

func TestGitHub(t *testing.T) {
	for _, tc := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Code: "dangling-ref", Severity: SeverityWarning, Message: "100% broken\nsecond", Hint: "fix: it", Location: Location{File: "a,b:c.esscene", Line: 7, Column: 2}},
			"::warning file=a%2Cb%3Ac.esscene,line=7,col=2,title=worldcook dangling-ref::100%25 broken%0Asecond (fix: it)\n"},
		{Diagnostic{Code: "c", Severity: SeverityError, Message: "m", Location: Location{File: "f", Column: 4}},
			"::error file=f,title=worldcook c::m\n"},
		{Diagnostic{Severity: SeverityWarning, Message: "about the run"},
			"::warning title=worldcook::about the run\n"},
	} {
		var buf bytes.Buffer
		w := bufio.NewWriter(&buf)
		WriteGitHub(w, tc.d, "")
		w.Flush()
		if buf.String() != tc.want {
			t.Errorf("got  %q\nwant %q", buf.String(), tc.want)
		}
	}
}

func TestGitHubNamesFilesFromTheRoot(t *testing.T) {
	root := t.TempDir()
	for _, tc := range []struct{ file, want string }{
		{filepath.Join(root, "levels", "main.esscene"), "levels/main.esscene"},
		{filepath.Join(filepath.Dir(root), "elsewhere.esscene"), filepath.ToSlash(filepath.Join(filepath.Dir(root), "elsewhere.esscene"))},
	} {
		var buf bytes.Buffer
		w := bufio.NewWriter(&buf)
		WriteGitHub(w, Diagnostic{Code: "c", Severity: SeverityError, Message: "m", Location: Location{File: tc.file, Line: 2}}, root)
		w.Flush()
		if want := "::error file=" + strings.NewReplacer(":", "%3A", ",", "%2C").Replace(tc.want) + ",line=2,title=worldcook c::m\n"; buf.String() != want {
			t.Errorf("got  %q\nwant %q", buf.String(), want)
		}
	}
}

func TestSourceRoot(t *testing.T) {
	repo := t.TempDir()
	deep := filepath.Join(repo, "game", "assets")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := SourceRoot(deep); got != deep {
		t.Errorf("without .git: %s, want the folder itself %s", got, deep)
	}
	// A worktree's or a submodule's .git is a file.
	if err := os.WriteFile(filepath.Join(repo, ".git"), []byte("gitdir: elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := SourceRoot(deep); got != repo {
		t.Errorf("SourceRoot %s, want the work tree %s", got, repo)
	}
}

// sarifResult is what the tests read of a result.
type sarifTestLog struct {
	Runs []struct {
		Results []struct {
			RuleID    string
			RuleIndex *int
			Level     string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI, URIBaseID string }
					Region           *struct{ StartLine, StartColumn int }
				}
				LogicalLocations []struct{ Name, FullyQualifiedName string }
			}
			PartialFingerprints map[string]string
		}
	}
}

func writeSARIFLog(t *testing.T, root string, groups []SARIFGroup) sarifTestLog {
	t.Helper()
	tool := SARIFTool{Name: "worldcook", InformationURI: "https://x", Rules: []SARIFRule{
		{ID: "a", Name: "A", Level: SeverityError}, {ID: "b", Name: "B", Level: SeverityWarning}}}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, tool, groups, root); err != nil {
		t.Fatal(err)
	}
	var log sarifTestLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	return log
}

func TestSARIF(t *testing.T) {
	id := int64(9)
	log := writeSARIFLog(t, "", []SARIFGroup{{Scope: "main", File: "levels/main.esscene", Diagnostics: []Diagnostic{
		{Code: "b", Severity: SeverityWarning, Message: "m", Hint: "h", Location: Location{File: "./levels/main.esscene", Line: 3, Column: 4}, Subject: Subject{Entity: &id, Field: "F"}},
		{Code: "a", Severity: SeverityError, Message: "n", Location: Location{File: "/abs/s.esscene"}},
		{Code: "unlisted", Severity: SeverityWarning, Message: "about the world"},
	}}})
	rs := log.Runs[0].Results
	if len(rs) != 3 {
		t.Fatalf("%d results", len(rs))
	}
	r := rs[0]
	if r.RuleID != "b" || r.RuleIndex == nil || *r.RuleIndex != 1 || r.Level != "warning" || r.Message.Text != "m (h)" {
		t.Errorf("first result %+v", r)
	}
	loc := r.Locations[0]
	if loc.PhysicalLocation.ArtifactLocation.URI != "levels/main.esscene" || loc.PhysicalLocation.ArtifactLocation.URIBaseID != "%SRCROOT%" ||
		loc.PhysicalLocation.Region == nil || loc.PhysicalLocation.Region.StartLine != 3 || loc.PhysicalLocation.Region.StartColumn != 4 {
		t.Errorf("first location %+v", loc.PhysicalLocation)
	}
	if len(loc.LogicalLocations) != 1 || loc.LogicalLocations[0].Name != "entity 9" || loc.LogicalLocations[0].FullyQualifiedName != "main#9" {
		t.Errorf("logical locations %+v", loc.LogicalLocations)
	}
	// A file-wide finding is on line 1: code scanning places no result
	// without a line.
	if l := rs[1].Locations[0]; l.PhysicalLocation.ArtifactLocation.URI != "file:///abs/s.esscene" || l.PhysicalLocation.ArtifactLocation.URIBaseID != "" ||
		l.PhysicalLocation.Region == nil || l.PhysicalLocation.Region.StartLine != 1 || l.PhysicalLocation.Region.StartColumn != 0 || l.LogicalLocations != nil {
		t.Errorf("second location %+v", l)
	}
	// A code the rules do not list has no index (0 would name rule a),
	// and a diagnostic without a file is placed in its group's scene.
	if r := rs[2]; r.RuleIndex != nil || r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "levels/main.esscene" {
		t.Errorf("third result %+v", r)
	}
	for _, r := range rs {
		if len(r.PartialFingerprints) != 1 || r.PartialFingerprints["worldcookFinding/v1"] == "" {
			t.Errorf("result %s has fingerprints %v", r.RuleID, r.PartialFingerprints)
		}
	}
}

func TestSARIFURIsFromTheRoot(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(filepath.Dir(root), "other", "x.esscene")
	log := writeSARIFLog(t, root, []SARIFGroup{{Scope: "main", Diagnostics: []Diagnostic{
		{Code: "a", Severity: SeverityError, Message: "m", Location: Location{File: filepath.Join(root, "my levels", "100%.esscene"), Line: 1}},
		{Code: "a", Severity: SeverityError, Message: "m", Location: Location{File: outside, Line: 1}},
	}}})
	rs := log.Runs[0].Results
	if got := rs[0].Locations[0].PhysicalLocation.ArtifactLocation; got.URI != "my%20levels/100%25.esscene" || got.URIBaseID != "%SRCROOT%" {
		t.Errorf("inside the root: %+v", got)
	}
	if got := rs[1].Locations[0].PhysicalLocation.ArtifactLocation; got.URI != "file://"+filepath.ToSlash(outside) || got.URIBaseID != "" {
		t.Errorf("outside the root: %+v", got)
	}
}

// TestSARIFFingerprints: a finding keeps its fingerprint when its line,
// column or message change (an edit elsewhere in the scene), and findings
// that differ, or repeat, get fingerprints of their own.
func TestSARIFFingerprints(t *testing.T) {
	e, tg := int64(4), int64(7)
	base := Diagnostic{Code: "a", Severity: SeverityError, Message: "m", Location: Location{File: "s.esscene", Line: 10, Column: 3}, Subject: Subject{Entity: &e, Field: "F.x", Target: &tg}}
	moved := base
	moved.Line, moved.Column, moved.Message = 42, 9, "m, reworded"
	other := base
	other.Field = "F.y"
	world := Diagnostic{Code: "b", Severity: SeverityWarning, Message: "world", Location: Location{File: "s.esscene"}, Subject: Subject{Cells: []string{"c_0_0"}}}
	fp := func(ds ...Diagnostic) []string {
		var out []string
		for _, r := range writeSARIFLog(t, "", []SARIFGroup{{Scope: "s", Diagnostics: ds}}).Runs[0].Results {
			out = append(out, r.PartialFingerprints["worldcookFinding/v1"])
		}
		return out
	}
	a, b := fp(base, other, world, base), fp(moved, other, world, moved)
	if !slices.Equal(a, b) {
		t.Errorf("fingerprints moved with the line or message:\n%v\n%v", a, b)
	}
	if len(a) != 4 || len(slices.Compact(slices.Sorted(slices.Values(a)))) != 4 {
		t.Errorf("fingerprints not distinct: %v", a)
	}
	if !strings.HasSuffix(a[0], ":1") || !strings.HasSuffix(a[3], ":2") || strings.TrimSuffix(a[0], ":1") != strings.TrimSuffix(a[3], ":2") {
		t.Errorf("a repeated finding is not told apart by its order: %s, %s", a[0], a[3])
	}
	if c := fp(Diagnostic{Code: "b", Severity: SeverityWarning, Message: "world", Location: Location{File: "s.esscene"}, Subject: Subject{Cells: []string{"c_1_0"}}}); c[0] == a[2] {
		t.Errorf("world-wide findings about other cells share a fingerprint")
	}
}
