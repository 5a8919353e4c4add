package scene

import (
	json "github.com/goccy/go-json"
)

// AppendEntity appends entity i's record as compact JSON. With cutParent
// the parent value is written as null: the record's parent is not in the
// document being written. Nothing else about the record changes.
func (d *Document) AppendEntity(dst []byte, i int, cutParent bool) []byte {
	e := &d.Entities[i]
	if !cutParent || e.parentAt < 0 {
		return append(dst, e.Raw...)
	}
	dst = append(dst, e.Raw[:e.parentAt]...)
	dst = append(dst, "null"...)
	return append(dst, e.Raw[e.parentEnd:]...)
}

// Writer renders documents that share this scene's top-level fields: the
// persistent scene and the cell documents. Each gets its own name and a
// subset of the entities in authored order.
type Writer struct {
	d *Document
}

// NewWriter returns a Writer for documents cut from d.
func (d *Document) NewWriter() *Writer { return &Writer{d: d} }

// Append appends a compact document named name holding the given entity
// indices (ascending, so authored order is kept), followed by a newline.
// cut reports whether an entity's parent lies outside this document.
func (w *Writer) Append(dst []byte, name string, entities []int32, cut func(i int) bool) []byte {
	return w.appendDoc(dst, name, true, entities, cut)
}

// AppendAuthored is Append for a document that keeps the scene's own
// name, as authored (or no name, if the scene has none): the persistent
// world, which the engine's own cook writes under the authored name.
func (w *Writer) AppendAuthored(dst []byte, entities []int32, cut func(i int) bool) []byte {
	return w.appendDoc(dst, "", false, entities, cut)
}

func (w *Writer) appendDoc(dst []byte, name string, rename bool, entities []int32, cut func(i int) bool) []byte {
	d := w.d
	dst = append(dst, '{')
	sawName := !rename
	for n, f := range d.Fields {
		if n > 0 {
			dst = append(dst, ',')
		}
		switch {
		case f.Key == "name" && rename:
			sawName = true
			dst = append(dst, f.RawKey...)
			dst = append(dst, ':')
			dst = appendString(dst, name)
		case f.Key == "entities":
			if !sawName {
				dst = append(dst, `"name":`...)
				dst = appendString(dst, name)
				dst = append(dst, ',')
				sawName = true
			}
			dst = append(dst, f.RawKey...)
			dst = append(dst, ':', '[')
			for k, i := range entities {
				if k > 0 {
					dst = append(dst, ',')
				}
				dst = d.AppendEntity(dst, int(i), cut != nil && cut(int(i)))
			}
			dst = append(dst, ']')
		default:
			dst = append(dst, f.RawKey...)
			dst = append(dst, ':')
			dst = AppendCompact(dst, f.Value)
		}
	}
	return append(dst, '}', '\n')
}

// Size returns an upper bound of the length Append produces (compacting
// never grows a span), so callers can allocate each output once.
func (w *Writer) Size(name string, entities []int32) int {
	n := 64 + len(name)
	for _, f := range w.d.Fields {
		if f.Key != "entities" {
			n += len(f.RawKey) + len(f.Value) + 2
		}
	}
	for _, i := range entities {
		n += len(w.d.Entities[i].Raw) + 1
	}
	return n
}

func appendString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(dst, b...)
}
