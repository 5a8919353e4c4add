// Package scene reads and writes Estella scene documents (.esscene).
//
// A Document keeps the file's bytes and describes each entity record as a
// span of them, decoding only what cooking needs: ids, parents, children,
// names, component types and the byte ranges of component data. Everything
// else passes through untouched, so writing a record back is a copy, not a
// re-encode: that is what makes a cook both lossless and fast.
package scene

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/worldcook/worldcook/diag"
)

// Document is one parsed scene file.
type Document struct {
	// Path names the file in messages.
	Path string
	// Src is the file's bytes. Every span below aliases it.
	Src []byte
	// Fields are the top-level members in authored order, entities included.
	Fields []TopField
	// Entities are the records and prefab-instance entries in authored order.
	Entities []Entity

	components []Component
	children   []int64
	prefabs    []prefabEntry
	// Ids index entities through dense (slot id-denseBase holds index+1,
	// 0 for no entity) when they are packed closely enough, as editors
	// number them, and through byID otherwise.
	dense     []int32
	denseBase int64
	byID      map[int64]int32
	dups      []Duplicate
	// lines finds line starts and columns for positions (lines.go).
	lines *lineIndex
}

// TopField is one top-level member of the scene object.
type TopField struct {
	Key string
	// RawKey is the quoted key as authored, escapes and all.
	RawKey []byte
	Value  []byte
}

// Component is one entry of an entity's components list.
type Component struct {
	Type string
	// Data is the raw `data` value (nil when the entry has none).
	Data []byte
}

// Entity is one entry of the entities list: an entity record or, when
// Prefab is set, a prefab-instance entry.
type Entity struct {
	// Raw is the whole record in compact form: white space outside
	// strings removed, every other byte as authored (key order, escapes,
	// number text). Authored returns the record as it stands in Src.
	Raw []byte
	ID  int64
	// Parent is the parent id when HasParent; a null or missing parent
	// makes the entity a root.
	Parent int64
	Name   string
	// Fields are ordered by size, so that a million records waste no
	// padding: the record is 104 bytes.
	HasParent bool
	// Hidden is true for `"visible": false`.
	Hidden      bool
	hasChildren bool

	// parentAt..parentEnd locate the parent value inside Raw, so that a
	// writer can cut the link without decoding the record.
	parentAt, parentEnd int32
	compFrom, compTo    int32
	kidFrom, kidTo      int32
	// prefab is 1 + the index of a prefab-instance entry's asset and
	// overrides in the document's prefabs, 0 for other entities: few
	// entities are instances, so the others do not carry the fields.
	prefab int32
	// src and srcLen locate the authored record in Src; line is the line
	// it starts on.
	srcLen int32
	line   int32
	src    int64
}

// prefabEntry is what a prefab-instance entry adds to an entity record.
type prefabEntry struct {
	asset          string
	overrides      []byte
	added, removed []byte
}

// Duplicate records an id that appears on more than one entry.
type Duplicate struct {
	ID            int64
	First, Second int
}

// IsPrefab reports whether e is a prefab-instance entry.
func (e *Entity) IsPrefab() bool { return e.prefab != 0 }

// Prefab returns the asset reference and the raw overrides list of entity
// i when it is a prefab-instance entry, and "" and nil otherwise.
func (d *Document) Prefab(i int) (asset string, overrides []byte) {
	if k := d.Entities[i].prefab; k != 0 {
		p := &d.prefabs[k-1]
		return p.asset, p.overrides
	}
	return "", nil
}

// PrefabEdits returns the raw added and removed lists of entity i when it
// is a prefab-instance entry (nil when absent or for other entities).
func (d *Document) PrefabEdits(i int) (added, removed []byte) {
	if k := d.Entities[i].prefab; k != 0 {
		p := &d.prefabs[k-1]
		return p.added, p.removed
	}
	return nil, nil
}

// Components returns entity i's components in authored order.
func (d *Document) Components(i int) []Component {
	e := &d.Entities[i]
	return d.components[e.compFrom:e.compTo]
}

// Component returns the data of entity i's first component of type typ.
func (d *Document) Component(i int, typ string) (data []byte, ok bool) {
	for _, c := range d.Components(i) {
		if c.Type == typ {
			return c.Data, true
		}
	}
	return nil, false
}

// Has reports whether entity i carries a component of type typ.
func (d *Document) Has(i int, typ string) bool {
	_, ok := d.Component(i, typ)
	return ok
}

// Children returns the ids listed in entity i's children field and whether
// the field is present.
func (d *Document) Children(i int) ([]int64, bool) {
	e := &d.Entities[i]
	return d.children[e.kidFrom:e.kidTo], e.hasChildren
}

// Lookup returns the index of the entity with the given id. When an id is
// duplicated, the first entry wins; Duplicates lists the others.
func (d *Document) Lookup(id int64) (int, bool) {
	if d.dense != nil {
		k := uint64(id - d.denseBase)
		if id < d.denseBase || k >= uint64(len(d.dense)) || d.dense[k] == 0 {
			return 0, false
		}
		return int(d.dense[k] - 1), true
	}
	i, ok := d.byID[id]
	return int(i), ok
}

// Duplicates lists ids that appear more than once, in authored order.
func (d *Document) Duplicates() []Duplicate { return d.dups }

// Field returns the value of a top-level member.
func (d *Document) Field(key string) ([]byte, bool) {
	for _, f := range d.Fields {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// Position returns the line and column (1-based) of byte offset off in Src.
func (d *Document) Position(off int) (line, col int) {
	if off > len(d.Src) {
		off = len(d.Src)
	}
	line = 1 + bytes.Count(d.Src[:off], []byte{'\n'})
	start := bytes.LastIndexByte(d.Src[:off], '\n') + 1
	col = 1 + utf8.RuneCount(d.Src[start:off])
	return line, col
}

// Offset returns the byte offset of entity i's record in Src.
func (d *Document) Offset(i int) int { return int(d.Entities[i].src) }

// RecordPosition is Position of entity i's record, with the line counted
// while parsing: only the record's own line is read for the column. The
// column is 0 once the source is detached.
func (d *Document) RecordPosition(i int) (line, col int) {
	off := d.Offset(i)
	if d.Src == nil || off > len(d.Src) {
		return d.Line(i), 0
	}
	_, runes := d.lineStart(off)
	return d.Line(i), 1 + runes
}

// Line returns the line (1-based) on which entity i's record starts,
// counted while parsing, so that it costs no pass over Src.
func (d *Document) Line(i int) int { return int(d.Entities[i].line) }

// Authored returns entity i's record as it stands in Src, white space and
// all (nil after Detach).
func (d *Document) Authored(i int) []byte {
	if d.Src == nil {
		return nil
	}
	e := &d.Entities[i]
	return d.Src[e.src : e.src+int64(e.srcLen)]
}

// Detach makes the document independent of Src, so that a mapped input
// can be unmapped: the top-level members are copied (the entities member
// is dropped, its records live on in Entities) and Src is let go.
// Authored and line numbers are not available afterwards.
func (d *Document) Detach() {
	for k := range d.Fields {
		f := &d.Fields[k]
		f.RawKey = bytes.Clone(f.RawKey)
		if f.Key == "entities" {
			f.Value = nil
		} else {
			f.Value = bytes.Clone(f.Value)
		}
	}
	d.Src = nil
}

// Error is a problem with a scene file: a syntax error (with line and
// column) or a record whose fields have the wrong shape (with the entity
// and field). It always says how to fix it (its Hint). It is a
// diagnostic of severity error, without a code: it stops the read, so
// it is the run's error line rather than one of a report's findings.
type Error struct {
	diag.Diagnostic
	// Index is the entity's index in entities, or -1 when the problem is
	// not in one. Subject.Entity is its id, when it has one.
	Index int
}

// newError is an error of file at no entity.
func newError(file, msg, fix string) *Error {
	return &Error{Diagnostic: diag.Diagnostic{Severity: diag.SeverityError, Message: msg, Location: diag.Location{File: file}, Hint: fix}, Index: -1}
}

// Error renders e as one line: "file:line:col: entity 12 "Name" field F:
// message; hint".
func (e *Error) Error() string {
	var b bytes.Buffer
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	b.WriteString(": ")
	if e.Index >= 0 {
		if e.Entity != nil {
			fmt.Fprintf(&b, "entity %d", *e.Entity)
		} else {
			fmt.Fprintf(&b, "entities[%d]", e.Index)
		}
		if e.EntityName != "" {
			fmt.Fprintf(&b, " %q", e.EntityName)
		}
		if e.Field != "" {
			fmt.Fprintf(&b, " field %s", e.Field)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	return b.String()
}
