package validate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Report formats accepted by Write.
const (
	FormatText   = "text"
	FormatJSON   = "json"
	FormatSARIF  = "sarif"
	FormatGitHub = "github"
)

// Formats lists the report formats, the default first.
var Formats = []string{FormatText, FormatJSON, FormatSARIF, FormatGitHub}

// InformationURI is where SARIF viewers link a worldcook rule.
const InformationURI = "https://github.com/worldcook/worldcook/blob/main/docs/validate.md"

// ReportOptions tune Write.
type ReportOptions struct {
	// Quiet leaves out warnings and summaries (text and github formats):
	// only errors are printed.
	Quiet bool
	// ToolVersion is recorded in SARIF output.
	ToolVersion string
	// Frames adds, in the text format, the source line under each finding
	// with a caret at the field and the hint on a line of its own: for a
	// person at a terminal, not for logs that tools read.
	Frames bool
	// Color paints the severities of framed findings (red errors, yellow
	// warnings) with ANSI colours. The command sets it on a terminal
	// unless NO_COLOR is set (no-color.org).
	Color bool
	// Verbose lists, in the text format, every cell whose bounds grew;
	// otherwise the MaxGrewLines largest are listed and the rest counted.
	Verbose bool
}

// MaxGrewLines is how many grown cells the text format lists without
// Verbose: a world of thousands of cells would otherwise bury its errors
// under one line per cell.
const MaxGrewLines = 20

// Write renders the plans' findings in format (text, json, sarif or
// github; "" is text). Plans are reported in the order given, findings in
// each plan's order, so output is deterministic.
//
//   - text: one finding a line, "file:line: severity[code]: message (hint)",
//     then, unless quiet, a summary per scene and one line per cell whose
//     bounds grew beyond its grid square.
//   - json: one JSON object per scene, each on its own line (JSON Lines),
//     with the fields of docs/json.md in a fixed order.
//   - sarif: one SARIF 2.1.0 log with one run holding every scene's results.
//   - github: GitHub Actions workflow commands (::error / ::warning) that
//     annotate the scene files in pull requests.
func Write(w io.Writer, format string, plans []*Plan, opts ReportOptions) error {
	bw := bufio.NewWriter(w)
	var err error
	switch format {
	case "", FormatText:
		err = writeText(bw, plans, opts)
	case FormatJSON:
		err = writeJSON(bw, plans)
	case FormatSARIF:
		err = writeSARIF(bw, plans, opts)
	case FormatGitHub:
		err = writeGitHub(bw, plans, opts)
	default:
		return fmt.Errorf("unknown report format %q; use one of %s", format, strings.Join(Formats, ", "))
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// Counts returns a plan's error and warning findings.
func (p *Plan) Counts() (errors, warnings int) {
	for _, f := range p.Findings {
		if f.Severity == SeverityError {
			errors++
		} else {
			warnings++
		}
	}
	return errors, warnings
}

// String renders a finding as one text line: "file:line:col:
// severity[code]: message (hint)".
func (f Finding) String() string {
	var b strings.Builder
	f.head(&b)
	if f.Hint != "" {
		b.WriteString(" (")
		b.WriteString(f.Hint)
		b.WriteByte(')')
	}
	return b.String()
}

// head writes "file:line:col: severity[code]: message".
func (f Finding) head(b *strings.Builder) {
	b.WriteString(f.File)
	if f.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(f.Line))
		if f.Column > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(f.Column))
		}
	}
	b.WriteString(": ")
	b.WriteString(f.Severity)
	b.WriteByte('[')
	b.WriteString(f.Code)
	b.WriteString("]: ")
	b.WriteString(f.Message)
}

// Frame renders a finding for a person at a terminal (with colour if
// color is set): the one-line head,
// then the source line with its number and a caret under the field, then
// the hint on a line of its own. Without the source line it is the head
// and the hint.
//
//	main.esscene:50:13: error[persistent-to-cell-ref]: "Player" (2) FollowTarget.target ...
//	   50 |             "target": 31
//	      |             ^
//	  fix: mark "Gate" (30) WorldPersistent, or ...
func (f Finding) Frame(color bool) string {
	var b strings.Builder
	head := strings.Builder{}
	f.head(&head)
	line := head.String()
	if color {
		// Only the severity is painted: the rest reads the same with
		// colour or without, and copies cleanly.
		sev := f.Severity + "["
		paint := map[string]string{SeverityError: "\x1b[1;31m", SeverityWarning: "\x1b[1;33m"}[f.Severity]
		if paint != "" {
			line = strings.Replace(line, ": "+sev, ": "+paint+f.Severity+"\x1b[0m[", 1)
		}
	}
	b.WriteString(line)
	b.WriteByte('\n')
	if f.Source != "" && f.Line > 0 && f.Column > 0 {
		num := strconv.Itoa(f.Line)
		gutter := strings.Repeat(" ", max(4, len(num)))
		fmt.Fprintf(&b, "%*s | %s\n", len(gutter), num, tabsToSpaces(f.Source))
		fmt.Fprintf(&b, "%s | %s^\n", gutter, strings.Repeat(" ", caretOffset(f.Source, f.Column)))
	}
	if f.Hint != "" {
		b.WriteString("  fix: ")
		b.WriteString(f.Hint)
		b.WriteByte('\n')
	}
	return b.String()
}

// tabsToSpaces shows a tab as one space, so that the caret, which counts
// characters, stays under the field.
func tabsToSpaces(s string) string { return strings.ReplaceAll(s, "\t", " ") }

// caretOffset is the number of characters before column col (1-based) of
// line, bounded by the line's length.
func caretOffset(line string, col int) int {
	return min(col-1, utf8.RuneCountInString(line))
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	if many, ok := strings.CutSuffix(one, "y"); ok {
		return strconv.Itoa(n) + " " + many + "ies"
	}
	return strconv.Itoa(n) + " " + one + "s"
}

func writeText(w *bufio.Writer, plans []*Plan, opts ReportOptions) error {
	for _, p := range plans {
		// Errors first, then warnings, each in the plan's order.
		for _, errorsPass := range []bool{true, false} {
			for _, f := range p.Findings {
				if (f.Severity == SeverityError) != errorsPass || (opts.Quiet && f.Severity != SeverityError) {
					continue
				}
				if opts.Frames {
					w.WriteString(f.Frame(opts.Color))
					continue
				}
				w.WriteString(f.String())
				w.WriteByte('\n')
			}
		}
	}
	if opts.Quiet {
		return nil
	}
	for _, p := range plans {
		errs, warns := p.Counts()
		file := p.Doc.Path
		if !p.Streamed {
			fmt.Fprintf(w, "%s: not a streamed world (no StreamedWorld): %s; %s, %s\n",
				file, plural(len(p.Doc.Entities), "entity"), plural(errs, "error"), plural(warns, "warning"))
			continue
		}
		fmt.Fprintf(w, "%s: streamed world %q, cellSize %s on %s: %s, %s in the persistent world; %s, %s\n",
			file, p.SceneName, fmtNum(p.CellSize), p.Plane, plural(len(p.Cells), "cell"),
			plural(len(p.Persistent), "entity"), plural(errs, "error"), plural(warns, "warning"))
		writeGrew(w, p, opts.Verbose)
		writeLevelsText(w, p)
		writeAssetText(w, p)
	}
	return nil
}

// writeGrew lists the cells whose bounds grew beyond their grid square: all
// of them in cell order when they are few or verbose is set, else the
// MaxGrewLines largest, largest first, and how many more grew.
func writeGrew(w *bufio.Writer, p *Plan, verbose bool) {
	var grew []*Cell
	for i := range p.Cells {
		if p.Cells[i].Overhang.By > 0 {
			grew = append(grew, &p.Cells[i])
		}
	}
	rest := 0
	if !verbose && len(grew) > MaxGrewLines {
		sort.SliceStable(grew, func(i, j int) bool { return grew[i].Overhang.By > grew[j].Overhang.By })
		rest = len(grew) - MaxGrewLines
		grew = grew[:MaxGrewLines]
	}
	for _, c := range grew {
		fmt.Fprintf(w, "  %s grew %s beyond its grid square to [%s, %s]x[%s, %s]; farthest out: %s (%d)\n",
			c.Name, short(c.Overhang.By), short(c.Bounds.MinX), short(c.Bounds.MaxX), short(c.Bounds.MinZ), short(c.Bounds.MaxZ),
			quoteName(c.Overhang.Name), c.Overhang.Entity)
	}
	if rest > 0 {
		fmt.Fprintf(w, "  … and %s grew by %s or less (--verbose lists every one)\n",
			plural(rest, "more cell"), short(grew[len(grew)-1].Overhang.By))
	}
}

// short formats a length for people: two decimals are plenty, and they
// hide the float noise of rotations (the JSON report keeps every digit).
func short(f float64) string {
	if r := math.Round(f*100) / 100; !math.IsInf(r, 0) && !math.IsNaN(r) {
		f = r
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// jsonReport is the JSON schema of one scene's report (docs/json.md). Field
// order is the declaration order and never changes.
type jsonReport struct {
	// MessageType is "validate": machine output of every worldcook
	// command names its kind in this first field (docs/json.md).
	MessageType        string     `json:"message_type"`
	Scene              string     `json:"scene"`
	Name               string     `json:"name"`
	Streamed           bool       `json:"streamed"`
	Plane              string     `json:"plane,omitempty"`
	CellSize           *float64   `json:"cellSize"`
	PersistentEntities int        `json:"persistentEntities"`
	PersistentRefs     []int64    `json:"persistentRefs"`
	Cells              []jsonCell `json:"cells"`
	// Levels is set when some root was promoted to a coarser level.
	Levels   *LevelReport `json:"levels,omitempty"`
	Findings []Finding    `json:"findings"`
	// Assets is set for a world whose entities reference assets.
	Assets  *AssetReport `json:"assets,omitempty"`
	Summary struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
	} `json:"summary"`
}

type jsonCell struct {
	Name        string `json:"name"`
	Level       int32  `json:"level,omitempty"`
	X           int32  `json:"x"`
	Z           int32  `json:"z"`
	Grid        Rect   `json:"grid"`
	Bounds      Rect   `json:"bounds"`
	EntityCount int    `json:"entityCount"`
	RootCount   int    `json:"rootCount"`
	// SpawnCount is written for worlds with prefab instances.
	SpawnCount *int      `json:"spawnCount,omitempty"`
	Overhang   *Overhang `json:"overhang,omitempty"`
	// AssetCount and AssetBytes are set in a world with assets.
	AssetCount *int   `json:"assetCount,omitempty"`
	AssetBytes *int64 `json:"assetBytes,omitempty"`
}

func writeJSON(w *bufio.Writer, plans []*Plan) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, p := range plans {
		r := jsonReport{
			MessageType:    "validate",
			Scene:          p.Doc.Path,
			Name:           p.SceneName,
			Streamed:       p.Streamed,
			PersistentRefs: p.PersistentRefs,
			Cells:          make([]jsonCell, 0, len(p.Cells)),
			Findings:       p.Findings,
		}
		if r.PersistentRefs == nil {
			r.PersistentRefs = []int64{}
		}
		if r.Findings == nil {
			r.Findings = []Finding{}
		}
		if p.Streamed {
			cs := p.CellSize
			r.CellSize = &cs
			r.Plane = p.Plane
			r.PersistentEntities = len(p.Persistent)
		} else {
			r.PersistentEntities = len(p.Doc.Entities)
		}
		r.Assets = p.AssetSummary()
		r.Levels = p.LevelSummary()
		for k, c := range p.Cells {
			jc := jsonCell{Name: c.Name, Level: c.Level, X: c.X, Z: c.Z, Grid: c.Grid, Bounds: c.Bounds, EntityCount: len(c.Entities), RootCount: c.Roots}
			if p.Instances {
				n := c.SpawnCount
				jc.SpawnCount = &n
			}
			jc.AssetCount, jc.AssetBytes = p.cellAssetCost(k)
			if c.Overhang.By > 0 {
				o := c.Overhang
				jc.Overhang = &o
			}
			r.Cells = append(r.Cells, jc)
		}
		r.Summary.Errors, r.Summary.Warnings = p.Counts()
		if err := enc.Encode(&r); err != nil {
			return fmt.Errorf("encode report of %s: %w", p.Doc.Path, err)
		}
	}
	return nil
}

// SARIF 2.1.0, the subset code-scanning services read.
const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
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

// sarifURI turns a scene path into an artifact URI: relative paths stay
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

func writeSARIF(w *bufio.Writer, plans []*Plan, opts ReportOptions) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "worldcook",
			Version:        opts.ToolVersion,
			InformationURI: InformationURI,
			Rules:          make([]sarifRule, len(Rules)),
		}},
		Results: []sarifResult{},
	}
	index := make(map[string]int, len(Rules))
	for k, r := range Rules {
		sr := sarifRule{ID: r.ID, Name: ruleName(r.ID), ShortDescription: sarifText{r.Short}, FullDescription: sarifText{r.Full},
			Help: sarifText{r.Help}, HelpURI: InformationURI + "#" + r.ID}
		sr.DefaultConfiguration.Level = r.Level
		run.Tool.Driver.Rules[k] = sr
		index[r.ID] = k
	}
	for _, p := range plans {
		for _, f := range p.Findings {
			res := sarifResult{RuleID: f.Code, RuleIndex: index[f.Code], Level: f.Severity, Message: sarifText{f.Message}}
			if f.Hint != "" {
				res.Message.Text += " (" + f.Hint + ")"
			}
			var loc sarifLocation
			loc.PhysicalLocation.ArtifactLocation.URI = sarifURI(f.File)
			if f.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line, StartColumn: f.Column}
			}
			if f.Entity != nil {
				name := f.EntityName
				if name == "" {
					name = "entity " + strconv.FormatInt(*f.Entity, 10)
				}
				loc.LogicalLocations = []sarifLogical{{
					Name:               name,
					FullyQualifiedName: p.SceneName + "#" + strconv.FormatInt(*f.Entity, 10),
					Kind:               "object",
				}}
			}
			res.Locations = []sarifLocation{loc}
			res.Properties = &sarifProps{Entity: f.Entity, Field: f.Field, Target: f.Target, FromCell: f.FromCell, ToCell: f.ToCell}
			run.Results = append(run.Results, res)
		}
	}
	log := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(&log)
}

// ruleName turns a code into the PascalCase name SARIF viewers show:
// cross-cell-ref → CrossCellRef.
func ruleName(id string) string {
	parts := strings.Split(id, "-")
	for k, s := range parts {
		if s != "" {
			parts[k] = strings.ToUpper(s[:1]) + s[1:]
		}
	}
	return strings.Join(parts, "")
}

// GitHub workflow commands: data escapes %, CR and LF; property values
// also escape ':' and ','.
var (
	ghData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProp = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func writeGitHub(w *bufio.Writer, plans []*Plan, opts ReportOptions) error {
	for _, p := range plans {
		for _, f := range p.Findings {
			if opts.Quiet && f.Severity != SeverityError {
				continue
			}
			w.WriteString("::")
			w.WriteString(f.Severity)
			w.WriteString(" file=")
			w.WriteString(ghProp.Replace(filepath.ToSlash(f.File)))
			if f.Line > 0 {
				w.WriteString(",line=")
				w.WriteString(strconv.Itoa(f.Line))
				if f.Column > 0 {
					w.WriteString(",col=")
					w.WriteString(strconv.Itoa(f.Column))
				}
			}
			w.WriteString(",title=")
			w.WriteString(ghProp.Replace("worldcook " + f.Code))
			w.WriteString("::")
			msg := f.Message
			if f.Hint != "" {
				msg += " (" + f.Hint + ")"
			}
			w.WriteString(ghData.Replace(msg))
			w.WriteByte('\n')
		}
	}
	if opts.Quiet {
		return nil
	}
	for _, p := range plans {
		errs, warns := p.Counts()
		fmt.Fprintf(w, "%s: %s, %s\n", p.Doc.Path, plural(errs, "error"), plural(warns, "warning"))
	}
	return nil
}
