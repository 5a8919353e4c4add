package validate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/internal/english"

	"github.com/worldcook/worldcook/diag"
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

// informationURI is where SARIF viewers link a worldcook rule.
const informationURI = "https://github.com/worldcook/worldcook/blob/main/docs/validate.md"

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
	// otherwise the maxGrewLines largest are listed and the rest counted.
	Verbose bool
	// SourceRoot is the folder the sarif and github formats name files
	// relative to, as code scanning and pull-request annotations resolve
	// them from the repository's root; "" is diag.SourceRoot of the
	// working directory (the git work tree holding it).
	SourceRoot string
}

// sourceRoot is the folder files are named relative to in the formats
// GitHub reads.
func (o ReportOptions) sourceRoot() string {
	if o.SourceRoot != "" {
		return o.SourceRoot
	}
	return diag.SourceRoot(".")
}

// maxGrewLines is how many grown cells the text format lists without
// Verbose: a world of thousands of cells would otherwise bury its errors
// under one line per cell.
const maxGrewLines = 20

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
				file, english.Count(len(p.Doc.Entities), "entity"), english.Count(errs, "error"), english.Count(warns, "warning"))
			continue
		}
		fmt.Fprintf(w, "%s: streamed world %q, cellSize %s on %s: %s, %s in the persistent world; %s, %s\n",
			file, p.SceneName, fmtNum(p.CellSize), p.Plane, english.Count(len(p.Cells), "cell"),
			english.Count(len(p.Persistent), "entity"), english.Count(errs, "error"), english.Count(warns, "warning"))
		writeGrew(w, p, opts.Verbose)
		writeLevelsText(w, p)
		writeAssetText(w, p)
	}
	return nil
}

// writeGrew lists the cells whose bounds grew beyond their grid square: all
// of them in cell order when they are few or verbose is set, else the
// maxGrewLines largest, largest first, and how many more grew.
func writeGrew(w *bufio.Writer, p *Plan, verbose bool) {
	var grew []*Cell
	for i := range p.Cells {
		if p.Cells[i].Overhang.By > 0 {
			grew = append(grew, &p.Cells[i])
		}
	}
	rest := 0
	if !verbose && len(grew) > maxGrewLines {
		sort.SliceStable(grew, func(i, j int) bool { return grew[i].Overhang.By > grew[j].Overhang.By })
		rest = len(grew) - maxGrewLines
		grew = grew[:maxGrewLines]
	}
	for _, c := range grew {
		fmt.Fprintf(w, "  %s grew %s beyond its grid square to [%s, %s]x[%s, %s]; farthest out: %s (%d)\n",
			c.Name, short(c.Overhang.By), short(c.Bounds.MinX), short(c.Bounds.MaxX), short(c.Bounds.MinZ), short(c.Bounds.MaxZ),
			quoteName(c.Overhang.Name), c.Overhang.Entity)
	}
	if rest > 0 {
		fmt.Fprintf(w, "  … and %s grew by %s or less (--verbose lists every one)\n",
			english.Count(rest, "more cell"), short(grew[len(grew)-1].Overhang.By))
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

// writeSARIF writes one SARIF 2.1.0 log of every plan's findings, with
// validate's rules.
func writeSARIF(w *bufio.Writer, plans []*Plan, opts ReportOptions) error {
	tool := diag.SARIFTool{Name: "worldcook", Version: opts.ToolVersion, InformationURI: informationURI, Rules: make([]diag.SARIFRule, len(Rules))}
	for k, r := range Rules {
		tool.Rules[k] = diag.SARIFRule{ID: r.ID, Name: ruleName(r.ID), Short: r.Short, Full: r.Full, Help: r.Help, HelpURI: informationURI + "#" + r.ID, Level: r.Level}
	}
	groups := make([]diag.SARIFGroup, len(plans))
	for k, p := range plans {
		groups[k] = diag.SARIFGroup{Scope: p.SceneName, File: p.Doc.Path, Diagnostics: diagnostics(p.Findings)}
	}
	return diag.WriteSARIF(w, tool, groups, opts.sourceRoot())
}

// diagnostics are the findings' diagnostics, for the renderers.
func diagnostics(fs []Finding) []diag.Diagnostic {
	ds := make([]diag.Diagnostic, len(fs))
	for k := range fs {
		ds[k] = fs[k].Diagnostic
	}
	return ds
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

func writeGitHub(w *bufio.Writer, plans []*Plan, opts ReportOptions) error {
	root := opts.sourceRoot()
	for _, p := range plans {
		for _, f := range p.Findings {
			if opts.Quiet && f.Severity != SeverityError {
				continue
			}
			diag.WriteGitHub(w, f.Diagnostic, root)
		}
	}
	if opts.Quiet {
		return nil
	}
	for _, p := range plans {
		errs, warns := p.Counts()
		fmt.Fprintf(w, "%s: %s, %s\n", p.Doc.Path, english.Count(errs, "error"), english.Count(warns, "warning"))
	}
	return nil
}
