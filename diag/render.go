package diag

import (
	"bufio"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// JSONLine is a diagnostic as one object of JSON Lines output: its
// message_type ("finding"), then the fields of the Diagnostic.
type JSONLine struct {
	MessageType string `json:"message_type"`
	Diagnostic
}

// ShortJSONLine is the short JSON Lines form of a diagnostic that is about
// a run rather than a place (simulate's `warning` object, docs/json.md):
// its message_type, code, message, and the cells it concerns.
func ShortJSONLine(messageType string, d Diagnostic) any {
	return shortLine{MessageType: messageType, Code: d.Code, Message: d.Message, Cells: d.Cells, More: d.More}
}

type shortLine struct {
	MessageType string   `json:"message_type"`
	Code        string   `json:"code"`
	Message     string   `json:"message"`
	Cells       []string `json:"cells,omitempty"`
	More        int      `json:"more,omitempty"`
}

// GitHub workflow commands: data escapes %, CR and LF; property values
// also escape ':' and ','.
var (
	ghData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProp = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// WriteGitHub writes d as a GitHub Actions workflow command, which
// annotates its file in a pull request:
// "::error file=F,line=L,col=C,title=worldcook CODE::message (hint)".
func WriteGitHub(w *bufio.Writer, d Diagnostic) {
	w.WriteString("::")
	w.WriteString(d.Severity)
	sep := " "
	prop := func(k, v string) {
		w.WriteString(sep)
		w.WriteString(k)
		w.WriteByte('=')
		w.WriteString(v)
		sep = ","
	}
	if d.File != "" {
		prop("file", ghProp.Replace(filepath.ToSlash(d.File)))
		if d.Line > 0 {
			prop("line", strconv.Itoa(d.Line))
			if d.Column > 0 {
				prop("col", strconv.Itoa(d.Column))
			}
		}
	}
	title := "worldcook"
	if d.Code != "" {
		title += " " + d.Code
	}
	prop("title", ghProp.Replace(title))
	w.WriteString("::")
	w.WriteString(ghData.Replace(d.MessageWithHint()))
	w.WriteByte('\n')
}

// SARIF 2.1.0, the subset code-scanning services read.
const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// SARIFTool describes the tool of a SARIF log and the rules its results
// refer to by code.
type SARIFTool struct {
	Name           string
	Version        string
	InformationURI string
	Rules          []SARIFRule
}

// SARIFRule describes one code. Name is its PascalCase name, Level its
// default severity.
type SARIFRule struct {
	ID, Name, Short, Full, Help, HelpURI, Level string
}

// SARIFGroup is diagnostics of one scope: Scope names the world the
// logical location of each entity is qualified by ("main#12").
type SARIFGroup struct {
	Scope       string
	Diagnostics []Diagnostic
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifToolJSON `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifToolJSON struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string    `json:"id"`
	Name                 string    `json:"name"`
	ShortDescription     sarifText `json:"shortDescription"`
	FullDescription      sarifText `json:"fullDescription"`
	Help                 sarifText `json:"help"`
	HelpURI              string    `json:"helpUri"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  int             `json:"ruleIndex"`
	Level      string          `json:"level"`
	Message    sarifText       `json:"message"`
	Locations  []sarifLocation `json:"locations"`
	Properties *sarifProps     `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region *sarifRegion `json:"region,omitempty"`
	} `json:"physicalLocation"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifLogical struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifProps struct {
	Entity   *int64 `json:"entity,omitempty"`
	Field    string `json:"field,omitempty"`
	Target   *int64 `json:"target,omitempty"`
	FromCell string `json:"fromCell,omitempty"`
	ToCell   string `json:"toCell,omitempty"`
}

// sarifURI turns a path into an artifact URI: relative paths stay
// relative (code scanning resolves them against the repository root),
// absolute ones become file URIs.
func sarifURI(path string) string {
	p := filepath.ToSlash(path)
	if filepath.IsAbs(path) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a Windows drive path
		}
		return "file://" + p
	}
	return strings.TrimPrefix(p, "./")
}

// WriteSARIF writes one SARIF 2.1.0 log with one run of tool holding
// every group's diagnostics as results, in the order given, indented.
func WriteSARIF(w io.Writer, tool SARIFTool, groups []SARIFGroup) error {
	run := sarifRun{
		Tool: sarifToolJSON{Driver: sarifDriver{
			Name:           tool.Name,
			Version:        tool.Version,
			InformationURI: tool.InformationURI,
			Rules:          make([]sarifRule, len(tool.Rules)),
		}},
		Results: []sarifResult{},
	}
	index := make(map[string]int, len(tool.Rules))
	for k, r := range tool.Rules {
		sr := sarifRule{ID: r.ID, Name: r.Name, ShortDescription: sarifText{r.Short}, FullDescription: sarifText{r.Full},
			Help: sarifText{r.Help}, HelpURI: r.HelpURI}
		sr.DefaultConfiguration.Level = r.Level
		run.Tool.Driver.Rules[k] = sr
		index[r.ID] = k
	}
	for _, g := range groups {
		for _, d := range g.Diagnostics {
			res := sarifResult{RuleID: d.Code, RuleIndex: index[d.Code], Level: d.Severity, Message: sarifText{d.MessageWithHint()}}
			var loc sarifLocation
			loc.PhysicalLocation.ArtifactLocation.URI = sarifURI(d.File)
			if d.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Line, StartColumn: d.Column}
			}
			if d.Entity != nil {
				name := d.EntityName
				if name == "" {
					name = "entity " + strconv.FormatInt(*d.Entity, 10)
				}
				loc.LogicalLocations = []sarifLogical{{
					Name:               name,
					FullyQualifiedName: g.Scope + "#" + strconv.FormatInt(*d.Entity, 10),
					Kind:               "object",
				}}
			}
			res.Locations = []sarifLocation{loc}
			res.Properties = &sarifProps{Entity: d.Entity, Field: d.Field, Target: d.Target, FromCell: d.FromCell, ToCell: d.ToCell}
			run.Results = append(run.Results, res)
		}
	}
	log := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(&log)
}
