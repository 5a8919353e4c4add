package diag

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"os"
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
// its message_type, code, message, the hint when it has one (how to fix
// it), and the cells it concerns.
func ShortJSONLine(messageType string, d Diagnostic) any {
	return shortLine{MessageType: messageType, Code: d.Code, Message: d.Message, Hint: d.Hint, Cells: d.Cells, More: d.More}
}

type shortLine struct {
	MessageType string   `json:"message_type"`
	Code        string   `json:"code"`
	Message     string   `json:"message"`
	Hint        string   `json:"hint,omitempty"`
	Cells       []string `json:"cells,omitempty"`
	More        int      `json:"more,omitempty"`
}

// GitHub workflow commands: data escapes %, CR and LF; property values
// also escape ':' and ','.
var (
	ghData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProp = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// SourceRoot is the folder that code scanning and pull-request
// annotations resolve a file's path against: the work tree of the git
// repository holding dir (the nearest folder from dir up with a .git
// entry, a folder or, in a worktree or submodule, a file), else dir
// itself. It is absolute when dir can be made so.
func SourceRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return abs
		}
		d = up
	}
}

// underRoot returns file as a slash-separated path relative to root, and
// false when root is empty or file is not inside it.
func underRoot(root, file string) (string, bool) {
	if root == "" || file == "" {
		return "", false
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", false
	}
	if root, err = filepath.Abs(root); err != nil {
		return "", false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// WriteGitHub writes d as a GitHub Actions workflow command, which
// annotates its file in a pull request:
// "::error file=F,line=L,col=C,title=worldcook CODE::message (hint)".
// The file is named relative to root (SourceRoot: GitHub matches an
// annotation to the repository's paths) when it is inside it, else as
// given; root "" keeps every path as given.
func WriteGitHub(w *bufio.Writer, d Diagnostic, root string) {
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
		file := filepath.ToSlash(d.File)
		if rel, ok := underRoot(root, d.File); ok {
			file = rel
		}
		prop("file", ghProp.Replace(file))
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

// SARIF 2.1.0, the subset code-scanning services read. GitHub's code
// scanning asks of each result a rule id, a message, a location with an
// artifact URI relative to the repository root and a region whose
// startLine counts from 1, and partialFingerprints that stay the same
// while the finding does, so that an alert follows its finding across
// commits instead of being closed and opened again.
const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// srcRoot is the base a relative artifact URI is resolved against: the
// repository's root, which code scanning knows without being told (an
// originalUriBaseIds entry would name this machine's folder and make the
// log differ between machines).
const srcRoot = "%SRCROOT%"

// fingerprintKey names worldcook's partial fingerprint; the version
// changes only if what it hashes does, which re-opens every alert once.
const fingerprintKey = "worldcookFinding/v1"

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
// logical location of each entity is qualified by ("main#12"), File the
// scene a diagnostic without a file of its own is placed in.
type SARIFGroup struct {
	Scope       string
	File        string
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
	RuleID string `json:"ruleId"`
	// RuleIndex is left out for a code the rules do not list: an index
	// must name the rule of RuleID.
	RuleIndex           *int              `json:"ruleIndex,omitempty"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          *sarifProps       `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId,omitempty"`
		} `json:"artifactLocation"`
		Region sarifRegion `json:"region"`
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

// sarifURI turns a path into an artifact URI and its base: with a root,
// a file inside it is a percent-encoded path relative to it (resolved
// against the repository's root, %SRCROOT%) and any other an absolute
// file URI, which code scanning cannot place in the repository; without
// one, a relative path stays as given.
func sarifURI(root, path string) (uri, base string) {
	if rel, ok := underRoot(root, path); ok {
		return (&url.URL{Path: rel}).EscapedPath(), srcRoot
	}
	if root != "" {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
	}
	p := filepath.ToSlash(path)
	if !filepath.IsAbs(path) {
		return (&url.URL{Path: strings.TrimPrefix(p, "./")}).EscapedPath(), srcRoot
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive path
	}
	return (&url.URL{Scheme: "file", Path: p}).String(), ""
}

// fingerprint is what identifies a finding while it stays the same: its
// code, file, world and subject (the entity by its id, which the editor
// never reassigns, its field and target, or the cells a world-wide
// finding concerns), never its line, column or wording, which move and
// change with unrelated edits.
func fingerprint(d Diagnostic, uri, scope string) string {
	h := sha256.New()
	put := func(s string) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	id := func(v *int64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatInt(*v, 10)
	}
	put(d.Code)
	put(uri)
	put(scope)
	put(id(d.Entity))
	put(d.Field)
	put(id(d.Target))
	if d.Entity == nil {
		put(strings.Join(d.Cells, ","))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// WriteSARIF writes one SARIF 2.1.0 log with one run of tool holding
// every group's diagnostics as results, in the order given, indented.
// Files are named relative to root (SourceRoot) where they are inside it.
func WriteSARIF(w io.Writer, tool SARIFTool, groups []SARIFGroup, root string) error {
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
	// Two findings of one fingerprint in a run (the same reference
	// written twice) are told apart by their order, as CodeQL's line
	// hashes are.
	seen := map[string]int{}
	for _, g := range groups {
		for _, d := range g.Diagnostics {
			res := sarifResult{RuleID: d.Code, Level: d.Severity, Message: sarifText{d.MessageWithHint()}}
			if k, ok := index[d.Code]; ok {
				res.RuleIndex = &k
			}
			file := d.File
			if file == "" {
				file = g.File
			}
			var loc sarifLocation
			uri, base := sarifURI(root, file)
			loc.PhysicalLocation.ArtifactLocation.URI = uri
			loc.PhysicalLocation.ArtifactLocation.URIBaseID = base
			// A finding about the whole file is placed on its first
			// line: code scanning shows no result without a line.
			loc.PhysicalLocation.Region = sarifRegion{StartLine: max(1, d.Line)}
			if d.Line > 0 && d.Column > 0 {
				loc.PhysicalLocation.Region.StartColumn = d.Column
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
			fp := fingerprint(d, uri, g.Scope)
			seen[fp]++
			res.PartialFingerprints = map[string]string{fingerprintKey: fp + ":" + strconv.Itoa(seen[fp])}
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
