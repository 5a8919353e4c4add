package validate

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/world/place"
)

// Promotion is one root moved to a coarser level (docs/format.md,
// "Levels").
type Promotion = place.Promotion

// LevelReport is what a report says of the levels: every promoted root,
// and how many roots each level holds (index L for level L, up to the
// coarsest level used).
type LevelReport struct {
	Promotions    []Promotion `json:"promotions"`
	RootsPerLevel []int       `json:"rootsPerLevel"`
}

// LevelSummary is the plan's level report; nil when no root was promoted.
func (p *Plan) LevelSummary() *LevelReport {
	if len(p.Promotions) == 0 {
		return nil
	}
	r := &LevelReport{Promotions: p.Promotions}
	for _, c := range p.Cells {
		for int(c.Level) >= len(r.RootsPerLevel) {
			r.RootsPerLevel = append(r.RootsPerLevel, 0)
		}
		r.RootsPerLevel[c.Level] += c.Roots
	}
	return r
}

// writeLevelsText writes the text report's lines about levels: the roots
// per level, then each promotion.
func writeLevelsText(w *bufio.Writer, p *Plan) {
	r := p.LevelSummary()
	if r == nil {
		return
	}
	parts := make([]string, 0, len(r.RootsPerLevel))
	for l, n := range r.RootsPerLevel {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("level %d: %s", l, english.Count(n, "root")))
		}
	}
	fmt.Fprintf(w, "  levels: %s\n", strings.Join(parts, ", "))
	for _, pr := range r.Promotions {
		f := pr.Footprint
		with := ""
		if pr.With != nil {
			with = fmt.Sprintf(", with the cluster of %d", *pr.With)
		}
		fmt.Fprintf(w, "  promoted %s (%d), footprint [%s, %s]x[%s, %s], to level %d: %s%s\n",
			quoteName(pr.Name), pr.Entity, short(f.MinX), short(f.MaxX), short(f.MinZ), short(f.MaxZ), pr.Level, pr.Cell, with)
	}
}
