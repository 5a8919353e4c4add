package scene

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestPositionAfterMatchesEdited: the position PositionAfter gives a
// point of a record once edits are made is the position Position finds
// in the edited text, for scenes on one line and on many, with
// multi-byte names, edits with and without line breaks (several on one
// line), and points inside an inserted text (lead).
func TestPositionAfterMatchesEdited(t *testing.T) {
	checked := 0
	for seed := range 200 {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		var b strings.Builder
		sep, in := "\n", "  "
		if seed%3 == 0 {
			sep, in = "", "" // one line
		}
		b.WriteString(`{"version": 1,` + sep + `"entities": [` + sep)
		n := 1 + r.IntN(6)
		for k := range n {
			if k > 0 {
				b.WriteString("," + sep)
			}
			name := []string{"Door", "Tür", "門", "x"}[r.IntN(4)]
			b.WriteString(in + `{"id": ` + string(rune('1'+k)) + `, "name": "` + name + `",` + sep + in + in + `"components": [{"type": "Transform", "data": {}}]}`)
		}
		b.WriteString(sep + "]}" + sep)
		src := []byte(b.String())
		d, err := Parse("t.esscene", src)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		// Edits at random offsets inside or just after records.
		var list []Edit
		for range r.IntN(6) {
			i := r.IntN(n)
			at := d.Offset(i) + r.IntN(len(d.Authored(i))+1)
			text := []string{", 7", ",\n  ü8", "\n", "éé", ",\n    {\"a\": 1}\n  "}[r.IntN(5)]
			list = append(list, Edit{At: at, Text: text})
		}
		slices.SortStableFunc(list, func(a, b Edit) int { return a.At - b.At })
		var ed strings.Builder
		prev := 0
		for _, e := range list {
			ed.WriteString(string(src[prev:e.At]) + e.Text)
			prev = e.At
		}
		ed.WriteString(string(src[prev:]))
		edited := &Document{Src: []byte(ed.String())}
		edits := NewEdits(list)
		for range 20 {
			i := r.IntN(n)
			at := r.IntN(len(d.Authored(i)) + 1)
			lead := []string{"", "", "ab", "\n  {\"c\"", "ß\nq"}[r.IntN(5)]
			off := d.Offset(i) + at
			shift := 0
			for _, e := range list {
				if e.At <= off {
					shift += len(e.Text)
				}
			}
			// The point in the edited text, with lead inserted there.
			withLead := &Document{Src: slices.Concat(edited.Src[:off+shift], []byte(lead), edited.Src[off+shift:])}
			wl, wc := withLead.Position(off + shift + len(lead))
			gl, gc := d.PositionAfter(i, at, edits, lead)
			if gl != wl || gc != wc {
				t.Fatalf("seed %d: entity %d at %d, lead %q, edits %+v: got %d:%d, want %d:%d\n%s", seed, i, at, lead, list, gl, gc, wl, wc, edited.Src)
			}
			checked++
		}
	}
	if checked < 4000 {
		t.Fatalf("weak test: %d points", checked)
	}
}
