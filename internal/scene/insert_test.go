package scene

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/testworld"
)

// sameInserted fails unless a and b read as the same document: the same
// members, records, spans, lines, components, children, instances, ids.
func sameInserted(t *testing.T, a, b *Document) {
	t.Helper()
	if !bytes.Equal(a.Src, b.Src) || len(a.Fields) != len(b.Fields) || len(a.Entities) != len(b.Entities) {
		t.Fatalf("documents differ: %d vs %d members, %d vs %d entities", len(a.Fields), len(b.Fields), len(a.Entities), len(b.Entities))
	}
	for k := range a.Fields {
		fa, fb := a.Fields[k], b.Fields[k]
		if fa.Key != fb.Key || offsetOf(a.Src, fa.RawKey) != offsetOf(b.Src, fb.RawKey) || !bytes.Equal(fa.RawKey, fb.RawKey) ||
			offsetOf(a.Src, fa.Value) != offsetOf(b.Src, fb.Value) || len(fa.Value) != len(fb.Value) {
			t.Fatalf("member %d differs: %q vs %q", k, fa.RawKey, fb.RawKey)
		}
	}
	for i := range a.Entities {
		ea, eb := a.Entities[i], b.Entities[i]
		if !bytes.Equal(ea.Raw, eb.Raw) {
			t.Fatalf("entity %d: Raw %q vs %q", i, ea.Raw, eb.Raw)
		}
		// The arenas' indices may differ; what they index may not.
		if ea.ID != eb.ID || ea.Parent != eb.Parent || ea.Name != eb.Name || ea.HasParent != eb.HasParent || ea.Hidden != eb.Hidden ||
			ea.hasChildren != eb.hasChildren || ea.parentAt != eb.parentAt || ea.parentEnd != eb.parentEnd ||
			ea.src != eb.src || ea.srcLen != eb.srcLen || ea.line != eb.line {
			t.Fatalf("entity %d: %+v vs %+v", i, ea, eb)
		}
		if !reflect.DeepEqual(a.Components(i), b.Components(i)) {
			t.Fatalf("entity %d: components %q vs %q", i, a.Components(i), b.Components(i))
		}
		ka, ha := a.Children(i)
		kb, hb := b.Children(i)
		if ha != hb || !slices.Equal(ka, kb) {
			t.Fatalf("entity %d: children %v vs %v", i, ka, kb)
		}
		pa, oa := a.Prefab(i)
		pb, ob := b.Prefab(i)
		aa, ra := a.PrefabEdits(i)
		ab, rb := b.PrefabEdits(i)
		if pa != pb || !bytes.Equal(oa, ob) || !bytes.Equal(aa, ab) || !bytes.Equal(ra, rb) || a.Entities[i].IsPrefab() != b.Entities[i].IsPrefab() {
			t.Fatalf("entity %d: instance differs", i)
		}
		la, ca := a.RecordPosition(i)
		lb, cb := b.RecordPosition(i)
		if la != lb || ca != cb {
			t.Fatalf("entity %d: at %d:%d vs %d:%d", i, la, ca, lb, cb)
		}
		ja, oka := a.Lookup(a.Entities[i].ID)
		jb, okb := b.Lookup(b.Entities[i].ID)
		if ja != jb || oka != okb {
			t.Fatalf("entity %d: looked up as %d vs %d", i, ja, jb)
		}
	}
	if !reflect.DeepEqual(a.Duplicates(), b.Duplicates()) {
		t.Fatalf("duplicates %v vs %v", a.Duplicates(), b.Duplicates())
	}
}

// insert makes the insertions (sorted) into src.
func insert(src []byte, at []int, text []string) ([]byte, []Insertion) {
	var out []byte
	var ins []Insertion
	prev := 0
	for k, a := range at {
		out = append(out, src[prev:a]...)
		out = append(out, text[k]...)
		ins = append(ins, Insertion{At: a, Len: len(text[k])})
		prev = a
	}
	return append(out, src[prev:]...), ins
}

// TestInserted compares Inserted with a parse of the whole edited text,
// for the edits init makes (components appended inside records, records
// after the last or another), in pretty, compact and CR LF scenes, and
// for edits it must read whole (elsewhere, or breaking the JSON).
func TestInserted(t *testing.T) {
	var scenes [][]byte
	for _, pretty := range []bool{true, false} {
		var b bytes.Buffer
		o := testworld.DefaultOptions(40, 7)
		o.Pretty = pretty
		if err := testworld.Write(&b, o); err != nil {
			t.Fatal(err)
		}
		scenes = append(scenes, b.Bytes())
	}
	scenes = append(scenes, bytes.ReplaceAll(scenes[0], []byte("\n"), []byte("\r\n")))
	scenes = append(scenes, []byte(`{"version":1,"entities":[{"id":5,"prefab":"@uuid:p","overrides":[]},{"id":2,"children":[3],"components":[]},{"id":3,"parent":2}],"name":"x"}`))
	rng := rand.New(rand.NewPCG(1, 2))
	record := []string{
		",\n    { \"id\": 9001, \"name\": \"New\", \"parent\": null, \"children\": [], \"components\": [{ \"type\": \"StreamedWorld\", \"data\": { \"cellSize\": 5 } }], \"visible\": true }",
		`,{"id":9002,"components":[]},{"id":9003,"parent":9002,"children":[]}`,
		`,{"id":2,"name":"dup"}`,
	}
	inRecord := []string{`, "x": 1`, ",\n      \"y\": [1,\n 2]", `,"components":[{"type":"WorldPersistent","data":{}}]`, `, "id": 77`}
	broken := []string{`, "x": }`, `,{"id":"a"}`, `]`, `,"name":5`}
	for si, src := range scenes {
		d, err := Parse("s.esscene", src)
		if err != nil {
			t.Fatal(err)
		}
		fast := 0
		for round := range 60 {
			var at []int
			var text []string
			for _, i := range rng.Perm(len(d.Entities))[:rng.IntN(4)] {
				e := d.Entities[i]
				end := int(e.src) + int(e.srcLen)
				switch rng.IntN(3) {
				case 0:
					at, text = append(at, end-1), append(text, inRecord[rng.IntN(len(inRecord))])
				case 1:
					at, text = append(at, end), append(text, record[rng.IntN(len(record))])
				default:
					at, text = append(at, int(e.src)+1+rng.IntN(int(e.srcLen)-1)), append(text, " ")
				}
			}
			switch rng.IntN(8) {
			case 0:
				at, text = append(at, rng.IntN(len(src))), append(text, broken[rng.IntN(len(broken))])
			case 1:
				v, _ := d.Field("version")
				at, text = append(at, offsetOf(src, v)), append(text, "1")
			}
			// Sort the edits by offset, keeping one per offset.
			idx := make([]int, len(at))
			for k := range idx {
				idx[k] = k
			}
			slices.SortStableFunc(idx, func(a, b int) int { return at[a] - at[b] })
			var sa []int
			var st []string
			for _, k := range idx {
				if len(sa) > 0 && sa[len(sa)-1] == at[k] {
					continue
				}
				sa, st = append(sa, at[k]), append(st, text[k])
			}
			out, ins := insert(src, sa, st)
			want, werr := Parse("s.esscene", out)
			if _, ok := d.inserted(out, ins); ok {
				fast++
			}
			got, gerr := d.Inserted(out, ins)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("scene %d round %d: error %v, want %v", si, round, gerr, werr)
			}
			if werr == nil {
				sameInserted(t, got, want)
			}
		}
		if fast < 20 {
			t.Errorf("scene %d: only %d of 60 edits were read without a whole parse", si, fast)
		}
		// The document inserted into is left as it was.
		again, _ := Parse("s.esscene", src)
		sameInserted(t, d, again)
	}
}

// TestInsertedReadsOnlyTheEdit proves the records the insertions miss are
// moved, not read: they keep their compact text.
func TestInsertedReadsOnlyTheEdit(t *testing.T) {
	src := []byte("{\"entities\": [\n  {\"id\": 1, \"components\": []},\n  {\"id\": 2, \"components\": []}\n]}")
	d, err := Parse("s.esscene", src)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(src), "[]},\n  {\"id\": 2") + 1
	out, ins := insert(src, []int{at, len(src) - 3}, []string{`{"type":"A"}`, `, {"id": 3}`})
	got, err := d.Inserted(out, ins)
	if err != nil {
		t.Fatal(err)
	}
	if &got.Entities[1].Raw[0] != &d.Entities[1].Raw[0] {
		t.Error("the record the edit misses was read again")
	}
	if &got.Entities[0].Raw[0] == &d.Entities[0].Raw[0] || got.Components(0)[0].Type != "A" || len(got.Entities) != 3 {
		t.Errorf("the edited record was not read again: %q", got.Entities[0].Raw)
	}
}

// FuzzInserted: for any scene and any text inserted at any offset (once
// or twice), Inserted gives what a whole parse of the edited text gives,
// the document or the error.
func FuzzInserted(f *testing.F) {
	f.Add([]byte(`{"version":1,"entities":[{"id":1,"components":[]},{"id":2,"parent":1}]}`), uint16(40), []byte(`,{"id":3}`), uint16(0), []byte(nil))
	f.Add([]byte("{\"entities\": [\n  {\"id\": 1, \"components\": [{\"type\": \"A\"}]}\n]}"), uint16(42), []byte(`, {"type": "B", "data": {}}`), uint16(45), []byte(",\n  {\"id\": 2}"))
	f.Add([]byte(`{"entities":[{"id":5,"prefab":"p","overrides":[]}],"name":"x"}`), uint16(47), []byte(`,"added":[]`), uint16(3), []byte(`x`))
	f.Fuzz(func(t *testing.T, src []byte, at1 uint16, text1 []byte, at2 uint16, text2 []byte) {
		d, err := Parse("s.esscene", src)
		if err != nil {
			return
		}
		a1, a2 := int(at1)%(len(src)+1), int(at2)%(len(src)+1)
		at, text := []int{a1}, []string{string(text1)}
		switch {
		case len(text2) == 0:
		case a2 > a1:
			at, text = append(at, a2), append(text, string(text2))
		case a2 < a1:
			at, text = []int{a2, a1}, []string{string(text2), string(text1)}
		}
		out, ins := insert(src, at, text)
		want, werr := Parse("s.esscene", out)
		got, gerr := d.Inserted(out, ins)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("error %v, want %v", gerr, werr)
		}
		if werr == nil {
			sameInserted(t, got, want)
		}
	})
}
