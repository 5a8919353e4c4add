package validate

import (
	"fmt"
	"strings"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
)

// Streaming sources and their radii (bad-source-radii).

// collectSources reads every WorldStreamingSource of a streamed world.
func (c *checker) collectSources() {
	d := c.d
	c.plan.Sources = make([]manifest.Source, 0, len(c.w.Sources()))
	for _, i := range c.w.Sources() {
		get := c.w.Field(i, "WorldStreamingSource")
		s := manifest.Source{Entity: d.Entities[i].ID, Name: d.Entities[i].Name, Enabled: true}
		if p, ok := c.posOf(i); ok && p.Finite() {
			s.Position = p
		}
		// first is the radius the finding points at: the first one named
		// in its message.
		var bad []string
		first := ""
		wrong := func(key, msg string) {
			bad = append(bad, msg)
			if first == "" {
				first = key
			}
		}
		radius := func(key string, def float64) float64 {
			v, ok := get(key)
			if !ok || scene.KindOf(v) == scene.Null {
				return def
			}
			f, err := scene.Float(v)
			if err != nil || f < 0 {
				wrong(key, fmt.Sprintf("%s %s is not a non-negative number", key, clip(v)))
				return def
			}
			return f
		}
		s.PrefetchRadius = radius("prefetchRadius", manifest.DefaultPrefetchRadius)
		s.LoadRadius = radius("loadRadius", manifest.DefaultLoadRadius)
		s.UnloadRadius = radius("unloadRadius", manifest.DefaultUnloadRadius)
		if v, ok := get("enabled"); ok && scene.KindOf(v) == scene.Bool {
			s.Enabled = v[0] == 't'
		}
		// The rule is the one the scheduler applies too (manifest).
		for _, p := range manifest.CheckRadii(s.PrefetchRadius, s.LoadRadius, s.UnloadRadius) {
			wrong(p.Field, p.Message)
		}
		if len(bad) > 0 {
			c.add(i, Finding{Diagnostic: diag.Diagnostic{
				Code:    CodeBadSourceRadii,
				Message: fmt.Sprintf("%s WorldStreamingSource: %s", c.who(i), strings.Join(bad, "; ")),
				Subject: diag.Subject{
					Field: "WorldStreamingSource." + first,
				},
				Hint: fmt.Sprintf("set prefetchRadius ≥ loadRadius and unloadRadius > loadRadius, e.g. loadRadius %s, prefetchRadius %s, unloadRadius %s", fmtNum(s.LoadRadius), fmtNum(s.LoadRadius*1.5), fmtNum(s.LoadRadius*1.5)),
			}})
		}
		if r, ok := controlIn(s.Name); ok {
			c.add(i, Finding{Diagnostic: diag.Diagnostic{
				Code:    CodeControlInSourceName,
				Message: fmt.Sprintf("%s WorldStreamingSource: its name holds the control character %s, which the cooked world cannot carry (reports and the terminal would show it raw)", c.who(i), controlName(r)),
				Hint:    "rename the entity without tabs, line breaks or other control characters",
			}})
		}
		c.plan.Sources = append(c.plan.Sources, s)
	}
}

// controlIn returns the first control character of s (C0 or DEL, as the
// manifest refuses them).
func controlIn(s string) (rune, bool) {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return r, true
		}
	}
	return 0, false
}

// controlName names a control character for a message: a tab (U+0009).
func controlName(r rune) string {
	names := map[rune]string{'\t': "a tab", '\n': "a line feed", '\r': "a carriage return", 0x1b: "ESC", 0x07: "BEL", 0x7f: "DEL"}
	if n, ok := names[r]; ok {
		return fmt.Sprintf("%s (U+%04X)", n, r)
	}
	return fmt.Sprintf("U+%04X", r)
}

// sourcesInCells reports the enabled sources placed in a cell: the
// runtime samples the sources that exist, and such a one exists only
// while its cell is loaded, so the world stops streaming around it when
// the cell unloads.
func (c *checker) sourcesInCells() {
	for k, i := range c.w.Sources() {
		if c.plan.Sources[k].Enabled && c.pl.Cell(i) >= 0 {
			c.sourceInCell(i)
		}
	}
}

func (c *checker) sourceInCell(i int32) {
	cell := c.plan.Cells[c.pl.Cell(i)].Name
	hint := "mark it WorldPersistent"
	if r := c.root[i]; r != i {
		hint = "mark its root " + c.who(r) + " WorldPersistent"
	}
	c.add(i, Finding{Diagnostic: diag.Diagnostic{
		Code:    CodeSourceInCell,
		Message: fmt.Sprintf("%s carries an enabled WorldStreamingSource and is placed in cell %s; the source exists only while that cell is loaded, so streaming around it stops when the cell unloads", c.who(i), cell),
		Subject: diag.Subject{
			Field:    "WorldStreamingSource",
			FromCell: cell,
		},
		Hint: hint,
	}})
}

// Finding codes of this file's rules. They are stable: CI configurations,
// SARIF baselines and suppressions refer to them.
const (
	CodeBadSourceRadii = "bad-source-radii"
	CodeSourceInCell   = "source-in-cell"
	// CodeControlInSourceName: the manifest carries source names, and
	// simulate refuses one holding a control character.
	CodeControlInSourceName = "control-in-source-name"
)

var ruleBadSourceRadii = rule{
	Rule: Rule{ID: CodeBadSourceRadii, Level: SeverityError,
		Short: "Streaming source radii are inconsistent",
		Full:  "A WorldStreamingSource needs finite non-negative radii with prefetchRadius ≥ loadRadius and unloadRadius > loadRadius, or cells would be loaded and unloaded every frame at the border.",
		Help:  "Set prefetchRadius ≥ loadRadius and unloadRadius > loadRadius; an unloadRadius about 1.5 × loadRadius is a good start."},
	phase: phaseSources,
}

var ruleControlInSourceName = rule{
	Rule: Rule{ID: CodeControlInSourceName, Level: SeverityError,
		Short: "Streaming source name holds a control character",
		Full:  "The cooked world's manifest names each streaming source after its entity, and every report prints that name. A tab, a line break, ESC or another control character in it would break the reports' lines or reach the terminal raw (ESC and BEL sequences can retitle a window or move the cursor), so a world carrying one is refused where it is read.",
		Help:  "Rename the entity without control characters."},
	phase: phaseSources,
}

var ruleSourceInCell = rule{
	Rule: Rule{ID: CodeSourceInCell, Level: SeverityError,
		Short: "Streaming source placed in a cell",
		Full:  "An enabled WorldStreamingSource on an entity that goes to a cell (it is not under a WorldPersistent root). The runtime samples the sources that exist: this one vanishes with its cell, and nothing streams around it from then on.",
		Help:  "Mark it (or its root) WorldPersistent."},
	phase: phaseWorld,
	check: (*checker).sourcesInCells,
}
