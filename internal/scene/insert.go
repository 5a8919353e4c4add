package scene

import (
	"bytes"
	"slices"
	"sort"
)

// Insertion is text put into a document's source: Len bytes inserted
// before byte At of the source the document was parsed from.
type Insertion struct {
	At, Len int
}

// Inserted returns the document of src, which is d.Src with the
// insertions made (sorted by At), as Parse(d.Path, src) reads it. Only
// the records an insertion falls inside are read again, and the records
// text inserted at the end of a record holds; every other record is
// moved, not parsed: a tool that edits a few records of a large scene
// and checks the result (worldcook init) reads the scene once. Text
// inserted anywhere else (outside the entities list, before a record, in
// an empty list) makes it read src whole, as it does where the result
// does not parse. d is not changed, and the result shares its records.
func (d *Document) Inserted(src []byte, ins []Insertion) (*Document, error) {
	if nd, ok := d.inserted(src, ins); ok {
		return nd, nil
	}
	return Parse(d.Path, src)
}

// inserted is Inserted without the fallback: ok is false where it would
// read src whole.
func (d *Document) inserted(src []byte, ins []Insertion) (*Document, bool) {
	n := len(d.Entities)
	grown := 0
	for k, in := range ins {
		if in.Len < 0 || in.At < 0 || in.At > len(d.Src) || k > 0 && in.At < ins[k-1].At {
			return nil, false
		}
		grown += in.Len
	}
	if d.Src == nil || n == 0 || len(src) != len(d.Src)+grown {
		return nil, false
	}
	// What each insertion edits: the record it falls inside (read
	// again), or the record it follows (the text after it is read).
	inside := map[int]bool{}
	after := map[int]bool{}
	for _, in := range ins {
		if in.Len == 0 {
			continue
		}
		// The last record starting before At.
		k := sort.Search(n, func(k int) bool { return d.Entities[k].src >= int64(in.At) }) - 1
		if k < 0 {
			return nil, false
		}
		e := &d.Entities[k]
		switch end := int(e.src) + int(e.srcLen); {
		case in.At < end:
			inside[k] = true
		case in.At == end:
			after[k] = true
		default:
			return nil, false
		}
	}
	// shift is how far old offset o moves: the text inserted before it.
	shifts := make([]int, len(ins)+1) // shifts[k]: the bytes ins[:k] insert
	for k, in := range ins {
		shifts[k+1] = shifts[k] + in.Len
	}
	shift := func(o int) int {
		return o + shifts[sort.Search(len(ins), func(k int) bool { return ins[k].At >= o })]
	}
	nd := &Document{Path: d.Path, Src: src, lines: &lineIndex{}}
	for _, f := range d.Fields {
		ks, vs := offsetOf(d.Src, f.RawKey), offsetOf(d.Src, f.Value)
		nk, nv := shift(ks), shift(vs)
		nd.Fields = append(nd.Fields, TopField{Key: f.Key, RawKey: src[nk : nk+len(f.RawKey)], Value: src[nv:shift(vs+len(f.Value))]})
	}
	nd.Entities = make([]Entity, 0, n+len(after))
	nd.components = slices.Clip(d.components)
	nd.children = slices.Clip(d.children)
	nd.prefabs = slices.Clip(d.prefabs)
	p := &parser{d: nd, s: scan{b: src, pend: -1}}
	lines := 0 // line breaks inserted before the record at hand
	at := 0    // the insertions counted in lines
	for k := range d.Entities {
		e := &d.Entities[k]
		start, end := int(e.src), int(e.src)+int(e.srcLen)
		for ; at < len(ins) && ins[at].At < start; at++ {
			o := ins[at].At + shifts[at]
			lines += bytes.Count(src[o:o+ins[at].Len], []byte{'\n'})
		}
		ns, ne := shift(start), shift(end)
		if src[ns] != '{' {
			return nil, false
		}
		if inside[k] {
			p.s.lines = int(e.line) - 1 + lines
			got, err := p.entity(ns)
			if err != nil || got != ne {
				return nil, false
			}
			p.s.pend = -1
		} else {
			c := *e
			c.src = int64(ns)
			c.line += int32(lines)
			nd.Entities = append(nd.Entities, c)
		}
		if !after[k] {
			continue
		}
		// The records the text after this one holds, up to the next
		// record or the end of the list.
		line := int(nd.Entities[len(nd.Entities)-1].line) - 1 + bytes.Count(src[ns:ne], []byte{'\n'})
		stop := -1
		if k+1 < n {
			stop = shift(int(d.Entities[k+1].src))
		}
		for from := ne; ; {
			next, more, err := p.s.after(from, ']', "an entity record")
			switch {
			case err != nil:
				return nil, false
			case !more:
				// The list ends where it ended before.
				list := d.entitiesList()
				if stop >= 0 || next != shift(offsetOf(d.Src, list)+len(list)) {
					return nil, false
				}
			case next == stop:
			case stop >= 0 && next > stop || src[next] != '{':
				return nil, false
			default:
				line += bytes.Count(src[from:next], []byte{'\n'})
				p.s.lines = line
				end, err := p.entity(next)
				if err != nil {
					return nil, false
				}
				p.s.pend = -1
				line += bytes.Count(src[next:end], []byte{'\n'})
				from = end
				continue
			}
			break
		}
	}
	nd.index()
	return nd, true
}

// entitiesList is the value of the entities member.
func (d *Document) entitiesList() []byte {
	v, _ := d.Field("entities")
	return v
}
