package scene

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"unicode/utf8"

	"github.com/worldcook/worldcook/internal/corpus"
)

// FuzzParse feeds arbitrary bytes to the decoder. It must never panic;
// reading records byte by byte and through each squeeze kernel,
// sequentially and in parallel, must give the same document or error; when it accepts a document, encoding/json
// must accept it too, and writing every record back must give the same
// document.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"version":1,"name":"m","entities":[{"id":1,"name":"A","parent":null,"children":[2],"components":[{"type":"Transform","data":{"position":{"x":1.5e3,"y":-0,"z":2}}}]},{"id":2,"name":"B\u00e9","parent":1,"children":[],"components":[]}]}`))
	f.Add([]byte(`{"entities":[{"id":3,"parent":null,"prefab":"@uuid:x","overrides":[],"added":[],"removed":[]}]}`))
	f.Add([]byte(`{"entities":[]} `))
	f.Add([]byte("\xef\xbb\xbf{}"))
	f.Add([]byte(`{"entities":[{"id":1,"components":[{"type":"A","data":[[[{"a":"\ud83d\ude00"}]]]}]}]}`))
	if d := corpus.Dir(); d != "" {
		for _, name := range []string{"examples__hello-world__main.esscene", "examples__physics-playground__showcase.esscene", "examples__platformer__main.esscene"} {
			if b, err := os.ReadFile(d + "/" + name); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("{\"entities\": [\n  {\"id\": 1 2, \"name\": \"a b\"},\n  {\"id\": 3, \"visible\": tr ue}\n]}"))
	f.Add([]byte("{\"entities\": [{\"id\": 1, \"name\": \"\\\\\" \\\" x\"}, {\"id\": - 2}]}"))
	f.Fuzz(func(t *testing.T, src []byte) {
		// Every way of reading records must agree, errors included.
		d, err := parseBoth(t, src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if !json.Valid(src) || !utf8.Valid(src) {
			t.Fatalf("accepted invalid JSON: %q", src)
		}
		checkCompactSpans(t, d)
		all := make([]int32, len(d.Entities))
		for i := range all {
			all[i] = int32(i)
		}
		out := d.NewWriter().Append(nil, "n", all, func(int) bool { return true })
		if !json.Valid(out) {
			t.Fatalf("wrote invalid JSON: %q", out)
		}
		d2, err := Parse("again", out)
		if err != nil {
			t.Fatalf("cannot read back what was written: %v\n%q", err, out)
		}
		if len(d2.Entities) != len(d.Entities) {
			t.Fatalf("entity count changed")
		}
		for i := range d.Entities {
			a, b := d.Entities[i], d2.Entities[i]
			pa, _ := d.Prefab(i)
			pb, _ := d2.Prefab(i)
			if a.ID != b.ID || b.HasParent || a.Name != b.Name || pa != pb {
				t.Fatalf("entity %d changed: %+v vs %+v", i, a, b)
			}
		}
		for i := range d.Entities {
			d.Transform(i)
		}
	})
}

// FuzzCompact checks the word-at-a-time compactor against encoding/json's.
func FuzzCompact(f *testing.F) {
	f.Add([]byte(`{"a": [1, 2.5e3, "x y\"z\\\\"],   "b":{"c" :null}}`))
	f.Add([]byte("[\n        \"\u00e9\\u0041\",\n\ttrue\r\n]"))
	f.Fuzz(func(t *testing.T, v []byte) {
		if !json.Valid(v) {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, v); err != nil {
			return
		}
		// encoding/json escapes U+2028/U+2029 and '<' etc. only when
		// asked (HTMLEscape); Compact copies them, as AppendCompact does.
		if got := AppendCompact(nil, v); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("AppendCompact(%q) = %q, want %q", v, got, want.Bytes())
		}
	})
}
