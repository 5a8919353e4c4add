package validate

import (
	"sort"
	"strconv"

	"github.com/worldcook/worldcook/internal/scene"
)

// Findings: completed with the file, entity and field position, ordered,
// and the names messages use.

// add records a finding about entity i.
func (c *checker) add(i int32, f Finding) {
	c.plan.Findings = append(c.plan.Findings, c.finding(i, f))
	c.fents = append(c.fents, i)
}

// finding completes f with the file and entity i's id and name, and
// with its rule's severity when it states none.
func (c *checker) finding(i int32, f Finding) Finding {
	var id int64
	if c.settingsEntity(i) {
		id, f.EntityName = c.settings.ID, c.settings.Name
	} else {
		e := &c.d.Entities[i]
		id, f.EntityName = e.ID, e.Name
	}
	f.File = c.d.Path
	f.Entity = &id
	if f.Severity == "" {
		f.Severity = levelOf[f.Code]
	}
	return f
}

// finish orders the findings by entity (authored order), then code, keeping
// the order they were found in (authored field order) otherwise, and gives
// each the line of its entity's record.
func (c *checker) finish() {
	fs := c.plan.Findings
	if len(fs) == 0 {
		c.plan.Findings = []Finding{}
		return
	}
	perm := make([]int, len(fs))
	for k := range perm {
		perm[k] = k
	}
	sort.SliceStable(perm, func(a, b int) bool {
		ea, eb := c.fents[perm[a]], c.fents[perm[b]]
		if ea != eb {
			return ea < eb
		}
		return fs[perm[a]].Code < fs[perm[b]].Code
	})
	out := make([]Finding, len(fs))
	ents := make([]int32, len(fs))
	for k, p := range perm {
		out[k], ents[k] = fs[p], c.fents[p]
		if !c.settingsEntity(ents[k]) {
			locate(c.d, int(ents[k]), &out[k])
		}
	}
	c.plan.Findings, c.plan.fents = out, ents
}

// locate gives a finding about entity i the position of its field's key,
// or of the record when the field is not in it. The parser counted each
// record's line, so only the records of findings are read again.
func locate(d *scene.Document, i int, f *Finding) {
	f.Line = d.Line(i)
	line, col, ok := d.FieldPosition(i, f.Field)
	if !ok {
		line, col = d.RecordPosition(i)
	}
	if line > 0 {
		f.Line, f.Column = line, col
		f.LineText = string(d.SourceLine(i, line))
	}
}

// who names an entity in messages: "Door" (12).
func (c *checker) who(i int32) string {
	e := &c.d.Entities[i]
	return quoteName(e.Name) + " (" + strconv.FormatInt(e.ID, 10) + ")"
}

func quoteName(name string) string {
	if name == "" {
		return "unnamed entity"
	}
	return strconv.Quote(name)
}

// fmtNum formats a coordinate compactly and exactly enough for messages.
func fmtNum(f float64) string {
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func clip(v []byte) string {
	if len(v) > 24 {
		return string(v[:24]) + "…"
	}
	return string(v)
}
