package initworld

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/scene"
)

// Every edit init makes is an insertion into the authored text: a
// component appended to an entity's components list, and one entity
// appended to the entities list. Nothing is re-encoded, so every byte the
// author wrote stays where it was, and the result reads like the rest of
// the file: the insertions copy the indentation of their neighbours.

// insertion is text inserted before byte At of the scene, in place of
// the Cut bytes from At (none for init's edits; a value tune --diff
// replaces).
type insertion struct {
	At   int
	Cut  int
	Text string
}

// apply returns src with the insertions made (sorted by At, stable; the
// cuts must not overlap).
func apply(src []byte, ins []insertion) []byte {
	sort.SliceStable(ins, func(a, b int) bool { return ins[a].At < ins[b].At })
	n := len(src)
	for _, e := range ins {
		n += len(e.Text) - e.Cut
	}
	var out bytes.Buffer
	out.Grow(n)
	writeApplied(&out, src, ins)
	return out.Bytes()
}

// writeApplied writes src with the insertions made (sorted by At; the
// cuts must not overlap) to w, without holding the result.
func writeApplied(w io.Writer, src []byte, ins []insertion) error {
	prev := 0
	crlf := usesCRLF(src)
	for _, e := range ins {
		if _, err := w.Write(src[prev:e.At]); err != nil {
			return err
		}
		if _, err := io.WriteString(w, lineEnds(e.Text, crlf)); err != nil {
			return err
		}
		prev = e.At + e.Cut
	}
	_, err := w.Write(src[prev:])
	return err
}

// lineEnds gives inserted text the scene's line breaks: an editor on
// Windows (or git's autocrlf) wrote CRLF.
func lineEnds(text string, crlf bool) string {
	if crlf {
		return strings.ReplaceAll(text, "\n", "\r\n")
	}
	return text
}

// edits are the insertions ins (sorted by At) as they are made in src,
// line breaks as the scene's, for positions in the edited scene.
func edits(src []byte, ins []insertion) []scene.Edit {
	crlf := usesCRLF(src)
	out := make([]scene.Edit, len(ins))
	for k, e := range ins {
		out[k] = scene.Edit{At: e.At, Text: lineEnds(e.Text, crlf)}
	}
	return out
}

// inserted is where ins put text into src, and how much, as apply makes
// them (line breaks as the scene's), for scene.Document.Inserted. init's
// edits only insert.
func inserted(src []byte, ins []insertion) []scene.Insertion {
	crlf := usesCRLF(src)
	out := make([]scene.Insertion, len(ins))
	for k, e := range ins {
		n := len(e.Text)
		if crlf {
			n += strings.Count(e.Text, "\n")
		}
		out[k] = scene.Insertion{At: e.At, Len: n}
	}
	return out
}

// usesCRLF reports whether src's first line ends with CR LF.
func usesCRLF(src []byte) bool {
	i := bytes.IndexByte(src, '\n')
	return i > 0 && src[i-1] == '\r'
}

// offsetIn is the offset of sub, a subslice of b, inside b.
func offsetIn(b, sub []byte) int { return cap(b) - cap(sub) }

// compact reports whether the text around a record is minified (no space
// after a colon), so that inserted text is minified too.
func compact(rec []byte) bool {
	return !bytes.Contains(rec, []byte(": ")) && !bytes.Contains(rec, []byte{'\n'})
}

// lineIndent is the white space that starts the line holding off.
func lineIndent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// separator is what goes before an element appended after the last one,
// whose text starts at elemAt in src, prev being where the space before
// it starts (just after '[' or ',' or '{'): a comma and the same break
// and indentation, or a comma and the same spacing on one line.
func separator(src []byte, prev, elemAt int) string {
	ws := src[prev:elemAt]
	if k := bytes.LastIndexByte(ws, '\n'); k >= 0 {
		return ",\n" + string(ws[k+1:])
	}
	if len(ws) == 0 {
		return ","
	}
	return ", "
}

// spaceBefore returns where the white space before off starts.
func spaceBefore(src []byte, off int) int {
	for off > 0 && (src[off-1] == ' ' || src[off-1] == '\t' || src[off-1] == '\n' || src[off-1] == '\r') {
		off--
	}
	return off
}

// component renders one components-list entry.
func component(typ, data string, min bool) string {
	if min {
		return `{"type":"` + typ + `","data":` + strings.ReplaceAll(data, " ", "") + `}`
	}
	return `{ "type": "` + typ + `", "data": ` + data + ` }`
}

// addComponents returns the insertion that appends comps (rendered
// entries) to entity i's components list, creating the list when the
// record has none.
func addComponents(d *scene.Document, i int, comps []string) (insertion, error) {
	rec := d.Authored(i)
	base := d.Offset(i)
	var list []byte
	var lastKey, lastVal []byte
	scene.Members(rec, func(k, v []byte) bool {
		if string(k) == "components" {
			list = v
		}
		lastKey, lastVal = k, v
		return true
	})
	if list == nil {
		// No components member: add one after the record's last member.
		if lastVal == nil {
			return insertion{}, d.EntityError(i, "components", "the record has no members", "give the entity an id and components")
		}
		keyAt := base + offsetIn(rec, lastKey) - 1
		sep := separator(d.Src, spaceBefore(d.Src, keyAt), keyAt)
		colon := ": "
		if compact(rec) {
			colon = ":"
		}
		return insertion{At: base + offsetIn(rec, lastVal) + len(lastVal), Text: sep + `"components"` + colon + "[" + strings.Join(comps, ", ") + "]"}, nil
	}
	if scene.KindOf(list) != scene.Array {
		line, col, _ := d.FieldPosition(i, "components")
		e := d.EntityError(i, "components", "is not a list", "make components a list of {type, data}")
		e.Line, e.Column = line, col
		return insertion{}, e
	}
	listAt := base + offsetIn(rec, list)
	var last []byte
	scene.Each(list, func(el []byte) bool { last = el; return true })
	if last == nil {
		// An empty list: the entries go inside it, on its line.
		text := strings.Join(comps, ", ")
		if !compact(rec) {
			text = " " + text + " "
		}
		return insertion{At: listAt + 1, Text: text}, nil
	}
	lastAt := listAt + offsetIn(list, last)
	sep := separator(d.Src, spaceBefore(d.Src, lastAt), lastAt)
	var b strings.Builder
	for _, c := range comps {
		b.WriteString(sep)
		b.WriteString(c)
	}
	return insertion{At: lastAt + len(last), Text: b.String()}, nil
}

// addEntity returns the insertion that appends a settings entity with id
// and a StreamedWorld of cellSize at the end of the entities list.
func addEntity(d *scene.Document, id int64, name, cellSize string) (insertion, error) {
	list, ok := d.Field("entities")
	if !ok || scene.KindOf(list) != scene.Array {
		line, col := d.Position(0)
		return insertion{}, &scene.Error{Diagnostic: diag.Diagnostic{Severity: diag.SeverityError, Message: "the scene has no entities list",
			Location: diag.Location{File: d.Path, Line: line, Column: col}, Hint: "add \"entities\": [] to the scene object"}, Index: -1}
	}
	listAt := offsetIn(d.Src, list)
	q := strconv.Quote(name)
	data := fmt.Sprintf("{ \"cellSize\": %s }", cellSize)
	if len(d.Entities) == 0 {
		min := compact(list) && !bytes.Contains(d.Src, []byte{'\n'})
		rec := entityText(id, q, component("StreamedWorld", data, min), "", "  ", min)
		if min {
			return insertion{At: listAt + 1, Text: rec}, nil
		}
		outer := lineIndent(d.Src, listAt)
		return insertion{At: listAt + 1, Text: "\n" + outer + "  " + strings.ReplaceAll(rec, "\n", "\n"+outer+"  ") + "\n" + outer}, nil
	}
	k := len(d.Entities) - 1
	lastAt := d.Offset(k)
	rec := d.Authored(k)
	min := compact(rec)
	sep := separator(d.Src, spaceBefore(d.Src, lastAt), lastAt)
	indent, step := "", "  "
	if !min {
		indent = lineIndent(d.Src, lastAt)
		// The record's members are indented one step further than the
		// record: measure the step on its first member.
		var first []byte
		scene.Members(rec, func(k, _ []byte) bool { first = k; return false })
		if first != nil && bytes.Contains(rec, []byte{'\n'}) {
			if in := lineIndent(d.Src, lastAt+offsetIn(rec, first)); strings.HasPrefix(in, indent) && len(in) > len(indent) {
				step = in[len(indent):]
			}
		} else {
			step = ""
		}
	}
	text := entityText(id, q, component("StreamedWorld", data, min), indent, step, min)
	return insertion{At: lastAt + len(rec), Text: sep + text}, nil
}

// entityText renders the settings entity: indent is the record's own
// indentation, step one level more ("" for a record on one line).
func entityText(id int64, q, comp, indent, step string, min bool) string {
	if min {
		return fmt.Sprintf(`{"id":%d,"name":%s,"parent":null,"children":[],"components":[%s],"visible":true}`, id, q, comp)
	}
	if step == "" {
		return fmt.Sprintf(`{ "id": %d, "name": %s, "parent": null, "children": [], "components": [%s], "visible": true }`, id, q, comp)
	}
	in := "\n" + indent + step
	return "{" + in + fmt.Sprintf(`"id": %d,`, id) + in + `"name": ` + q + "," + in + `"parent": null,` + in + `"children": [],` +
		in + `"components": [` + in + step + comp + in + "]," + in + `"visible": true` + "\n" + indent + "}"
}

// edit makes res's edit of its scene (res.Before) from ins: the scene
// after it, checked to parse, and the diff naming the scene name ("" for
// its path from where the command runs, DiffPath's, whose folder to apply
// it in is returned). No insertion leaves res unchanged.
func (res *Result) edit(name string, ins []insertion) (applyIn string, err error) {
	if len(ins) == 0 {
		return "", nil
	}
	res.ins = ins
	if _, err := scene.Parse(res.File, res.After()); err != nil {
		return "", fmt.Errorf("%s: the edited scene does not parse (%v); report this with the scene", res.File, err)
	}
	if name == "" {
		name, applyIn = DiffPath(res.File)
	}
	res.Diff = unifiedDiff(name, res.Before, slices.Clone(ins))
	return applyIn, nil
}
