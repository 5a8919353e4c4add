package validate

import (
	"fmt"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/manifest"
)

// Whether a streamed world can stream as it is meant to (nothing-streams,
// no-streaming-source): a cut that leaves nothing to stream, and a world
// no source asks cells of. Neither is an error: the cooked world loads,
// but it does not do what StreamedWorld promised.

// checkNothingStreams warns about a world of no cell or of one.
func (c *checker) checkNothingStreams() {
	p := c.plan
	only := ""
	if len(p.Cells) > 0 {
		only = p.Cells[0].Name
	}
	msg, hint := manifest.NothingStreams(len(p.Cells), only, c.layout(), p.Plane, p.CellSize)
	if msg == "" {
		return
	}
	sw, ok := c.worldEntity()
	if !ok {
		return // a model checked without its StreamedWorld (Model)
	}
	c.add(sw, Finding{Diagnostic: diag.Diagnostic{
		Code:    CodeNothingStreams,
		Message: msg,
		Hint:    hint,
		Subject: diag.Subject{Field: "StreamedWorld.cellSize"},
	}})
}

// checkStreamingSource warns about a world without an enabled source: the
// runtime streams cells around its WorldStreamingSources only, so nothing
// of it would ever load in the game (and simulate assumes a source at the
// route's positions with the default radii).
func (c *checker) checkStreamingSource() {
	if c.assumedSource() {
		return
	}
	for _, s := range c.plan.Sources {
		if s.Enabled {
			return
		}
	}
	msg := "the world has no WorldStreamingSource: Estella's runtime streams the cells around its sources, so none of its cells would ever load"
	if n := len(c.plan.Sources); n > 0 {
		msg = fmt.Sprintf("every WorldStreamingSource of the world is disabled (%d, enabled: false): Estella's runtime streams the cells around enabled sources, so none of its cells would ever load", n)
	}
	sw, ok := c.worldEntity()
	if !ok {
		return // a model checked without its StreamedWorld (Model)
	}
	c.add(sw, Finding{Diagnostic: diag.Diagnostic{
		Code:    CodeNoStreamingSource,
		Message: msg,
		Hint:    "add a WorldStreamingSource to the entity the game moves (the main camera or the player), marked WorldPersistent; worldcook init adds one to the main camera",
		Subject: diag.Subject{Field: "StreamedWorld"},
	}})
}

// Finding codes of this file's rules. They are stable: CI configurations,
// SARIF baselines and suppressions refer to them.
const (
	CodeNothingStreams    = "nothing-streams"
	CodeNoStreamingSource = "no-streaming-source"
)

var ruleNothingStreams = rule{
	Rule: Rule{ID: CodeNothingStreams, Level: SeverityWarning,
		Short: "The world's cut leaves nothing to stream",
		Full:  "A streamed world with no cell (every top-level entity persistent) or with all of its content in one cell: it loads whole or not at all, as an unstreamed scene does.",
		Help:  "Lower StreamedWorld.cellSize until the content spans several cells (the message says the span); for a 2D scene, cut it on x and y (plane: xy)."},
	phase: phaseWorld,
	check: (*checker).checkNothingStreams,
}

var ruleNoStreamingSource = rule{
	Rule: Rule{ID: CodeNoStreamingSource, Level: SeverityWarning,
		Short: "A streamed world without an enabled streaming source",
		Full:  "No entity of the world carries an enabled WorldStreamingSource. Estella's runtime streams the cells around its sources, so in the game none of the world's cells would load.",
		Help:  "Add a WorldStreamingSource to the entity the game moves (the main camera or the player) and mark its root WorldPersistent; worldcook init adds one to the main camera."},
	phase: phaseWorld,
	check: (*checker).checkStreamingSource,
}
