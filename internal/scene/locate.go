package scene

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Locating a field is for messages only: it reads one record again, so a
// report that points at the field's line costs nothing per entity, only
// per finding.

// FieldPosition returns the line and column (1-based) at which the field
// named by path starts in entity i's record as authored, so that a finding
// lands on the line a person has to edit. path is a finding's field:
//
//   - a top-level member of the record ("id", "parent", "children[2]"),
//   - or a component type, then members of its data, with an optional list
//     index on the last one ("RevoluteJoint.connectedEntity",
//     "MeshSkin.joints[3]", "Transform.position", "StreamedWorld"). A
//     component type matches exactly, or else ignoring case, as the
//     project's component table does; the first component of that type is
//     taken.
//
// The position is that of the member's key (of the element for a list
// index, of the component's object for a bare type). When only a prefix of
// path exists, the position of the deepest part found is returned; ok is
// false when not even the first part is in the record, or the document no
// longer holds its source (after Detach).
func (d *Document) FieldPosition(i int, path string) (line, col int, ok bool) {
	at, ok := d.FieldAt(i, path)
	if !ok {
		return 0, 0, false
	}
	line, col = d.positionIn(i, d.Authored(i), at)
	return line, col, true
}

// FieldAt is where FieldPosition's field starts: its offset in entity
// i's record as authored (Authored).
func (d *Document) FieldAt(i int, path string) (at int, ok bool) {
	rec := d.Authored(i)
	if rec == nil || path == "" {
		return 0, false
	}
	parts := strings.Split(path, ".")
	last := len(parts) - 1
	index := -1
	if name, n, found := cutIndex(parts[last]); found {
		parts[last], index = name, n
	}
	at = -1
	var val []byte
	// The first part: a member of the record, or a component type.
	if k, v, found := member(rec, parts[0]); found {
		at, val = k, v
	} else if k, v, found := component(rec, parts[0]); found {
		at, val = k, v
		if data, ok := memberValue(v, "data"); ok {
			val = data
		} else {
			val = nil
		}
	} else {
		return 0, false
	}
	for p := 1; p < len(parts) && val != nil; p++ {
		k, v, found := member(val, parts[p])
		if !found {
			val = nil
			break
		}
		at, val = offsetIn(rec, val, k), v
	}
	if index >= 0 && val != nil && KindOf(val) == Array {
		n := 0
		Each(val, func(elem []byte) bool {
			if n == index {
				at = offsetOf(rec, elem)
				return false
			}
			n++
			return true
		})
	}
	return at, true
}

// cutIndex splits "joints[3]" into "joints" and 3.
func cutIndex(s string) (string, int, bool) {
	if !strings.HasSuffix(s, "]") {
		return s, 0, false
	}
	open := strings.LastIndexByte(s, '[')
	if open < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[open+1 : len(s)-1])
	if err != nil || n < 0 {
		return s, 0, false
	}
	return s[:open], n, true
}

// member finds key in obj and returns the offset of its opening quote in
// obj and the member's value. The last of repeated keys wins, as for Field.
func member(obj []byte, key string) (at int, val []byte, ok bool) {
	Members(obj, func(k, v []byte) bool {
		if string(k) == key {
			// k is the key without its quotes, inside obj.
			at, val, ok = offsetOf(obj, k)-1, v, true
		}
		return true
	})
	return at, val, ok
}

func memberValue(obj []byte, key string) ([]byte, bool) {
	_, v, ok := member(obj, key)
	return v, ok
}

// component finds the first element of the record's components list whose
// type is typ (exactly, else ignoring case) and returns its offset in rec
// and the element.
func component(rec []byte, typ string) (at int, elem []byte, ok bool) {
	comps, found := memberValue(rec, "components")
	if !found {
		return 0, nil, false
	}
	var folded []byte
	Each(comps, func(e []byte) bool {
		t, _ := memberValue(e, "type")
		name, err := Str(t)
		if err != nil {
			return true
		}
		if name == typ {
			elem, ok = e, true
			return false
		}
		if folded == nil && strings.EqualFold(name, typ) {
			folded = e
		}
		return true
	})
	if !ok && folded != nil {
		elem, ok = folded, true
	}
	if !ok {
		return 0, nil, false
	}
	return offsetOf(rec, elem), elem, true
}

// offsetOf returns where sub, a subslice of b, starts in b.
func offsetOf(b, sub []byte) int { return cap(b) - cap(sub) }

// offsetIn returns the offset in rec of position k of val, a subslice of
// rec.
func offsetIn(rec, val []byte, k int) int { return offsetOf(rec, val) + k }

// positionIn turns an offset in entity i's record into a line and column,
// counting from the record's line, which the parser counted.
func (d *Document) positionIn(i int, rec []byte, at int) (line, col int) {
	before := rec[:at]
	line = d.Line(i) + bytes.Count(before, []byte{'\n'})
	if nl := bytes.LastIndexByte(before, '\n'); nl >= 0 {
		return line, 1 + utf8.RuneCount(before[nl+1:])
	}
	// On the record's first line: the column counts from the start of
	// that line in the file.
	_, runes := d.lineStart(d.Offset(i))
	return line, 1 + runes + utf8.RuneCount(before)
}

// Edit is text inserted before byte At of a document's source.
type Edit struct {
	At   int
	Text string
}

// Edits are the edits of a document's source, sorted by At, with what
// PositionAfter needs to find a position among many of them quickly.
type Edits struct {
	list []Edit
	nl   []int // nl[k]: the line breaks list[:k] insert
}

// NewEdits returns list, which must be sorted by At, ready for
// PositionAfter.
func NewEdits(list []Edit) *Edits {
	e := &Edits{list: list, nl: make([]int, len(list)+1)}
	for k, x := range list {
		e.nl[k+1] = e.nl[k] + strings.Count(x.Text, "\n")
	}
	return e
}

// PositionAfter is the line and column (as Position counts them) that the
// byte at offset at of entity i's record (at may be the record's length:
// just after it) has once the edits are made. With lead, the position is
// of the end of lead, text inserted there after the edits: a point inside
// an inserted text. Only the record's line is read.
func (d *Document) PositionAfter(i, at int, edits *Edits, lead string) (line, col int) {
	line, _ = d.positionIn(i, d.Authored(i), at)
	off := d.Offset(i) + at
	start, _ := d.lineStart(off)
	list := edits.list
	k := sort.Search(len(list), func(k int) bool { return list[k].At > off })
	line += edits.nl[k] + strings.Count(lead, "\n")
	// The line's text before the point, as edited.
	var text []byte
	prev := start
	for _, e := range list[sort.Search(k, func(j int) bool { return list[j].At >= start }):k] {
		text = append(text, d.Src[prev:e.At]...)
		text = append(text, e.Text...)
		prev = e.At
	}
	text = append(text, d.Src[prev:off]...)
	text = append(text, lead...)
	if nl := bytes.LastIndexByte(text, '\n'); nl >= 0 {
		text = text[nl+1:]
	}
	return line, 1 + utf8.RuneCount(text)
}

// MaxSourceLine is the longest line SourceLine returns, in bytes.
const MaxSourceLine = 400

// SourceLine returns the text of line (1-based), which must be on or after
// the first line of entity i's record, without its line break: the line a
// message frame shows under a position. It returns nil once the source is
// detached, and for a line longer than MaxSourceLine.
func (d *Document) SourceLine(i, line int) []byte {
	rec := d.Authored(i)
	if rec == nil {
		return nil
	}
	// Start from the record's first line and walk forward.
	start, _ := d.lineStart(d.Offset(i))
	for l := d.Line(i); l < line; l++ {
		nl := bytes.IndexByte(d.Src[start:], '\n')
		if nl < 0 {
			return nil
		}
		start += nl + 1
	}
	// Only so far ahead is read: a longer line (a minified scene is one
	// line) shows nothing useful in a frame, and reading it to its end
	// for every finding would read the file once per finding.
	rest := d.Src[start:min(len(d.Src), start+MaxSourceLine+2)]
	end := bytes.IndexByte(rest, '\n')
	if end < 0 {
		if start+len(rest) < len(d.Src) {
			return nil
		}
		end = len(rest)
	}
	text := bytes.TrimRight(rest[:end], "\r")
	if len(text) > MaxSourceLine {
		return nil
	}
	return text
}
