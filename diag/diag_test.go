package diag

import (
	"bufio"
	"bytes"
	"encoding/json"
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
		{"short, no cells", ShortJSONLine("warning", d), `{"message_type":"warning","code":"c","message":"a <b> & c"}`},
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
		WriteGitHub(w, tc.d)
		w.Flush()
		if buf.String() != tc.want {
			t.Errorf("got  %q\nwant %q", buf.String(), tc.want)
		}
	}
}

func TestSARIF(t *testing.T) {
	id := int64(9)
	tool := SARIFTool{Name: "worldcook", InformationURI: "https://x", Rules: []SARIFRule{
		{ID: "a", Name: "A", Level: SeverityError}, {ID: "b", Name: "B", Level: SeverityWarning}}}
	var buf bytes.Buffer
	err := WriteSARIF(&buf, tool, []SARIFGroup{{Scope: "main", Diagnostics: []Diagnostic{
		{Code: "b", Severity: SeverityWarning, Message: "m", Hint: "h", Location: Location{File: "./levels/main.esscene", Line: 3, Column: 4}, Subject: Subject{Entity: &id, Field: "F"}},
		{Code: "a", Severity: SeverityError, Message: "n", Location: Location{File: "/abs/s.esscene"}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           *struct{ StartLine, StartColumn int }
					}
					LogicalLocations []struct{ Name, FullyQualifiedName string }
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	rs := log.Runs[0].Results
	if len(rs) != 2 {
		t.Fatalf("%d results", len(rs))
	}
	r := rs[0]
	if r.RuleID != "b" || r.RuleIndex != 1 || r.Level != "warning" || r.Message.Text != "m (h)" {
		t.Errorf("first result %+v", r)
	}
	loc := r.Locations[0]
	if loc.PhysicalLocation.ArtifactLocation.URI != "levels/main.esscene" || loc.PhysicalLocation.Region == nil ||
		loc.PhysicalLocation.Region.StartLine != 3 || loc.PhysicalLocation.Region.StartColumn != 4 {
		t.Errorf("first location %+v", loc.PhysicalLocation)
	}
	if len(loc.LogicalLocations) != 1 || loc.LogicalLocations[0].Name != "entity 9" || loc.LogicalLocations[0].FullyQualifiedName != "main#9" {
		t.Errorf("logical locations %+v", loc.LogicalLocations)
	}
	if l := rs[1].Locations[0]; l.PhysicalLocation.ArtifactLocation.URI != "file:///abs/s.esscene" || l.PhysicalLocation.Region != nil || l.LogicalLocations != nil {
		t.Errorf("second location %+v", l)
	}
}
