package scene

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
)

// decodeAny decodes JSON keeping number literals as text, so comparisons
// see an altered literal (1.0 vs 1) as a difference.
func decodeAny(t testing.TB, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode: %v\n%s", err, b)
	}
	return v
}

func TestCorpusRoundTrip(t *testing.T) {
	files := append(corpus.Files(t, ".esscene"), corpus.Files(t, ".esprefab")...)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(f, ".esprefab") {
				// Prefabs are not scenes (string ids, no entities of records
				// with numeric ids), but the JSON layer must still read them.
				if _, _, err := scanValue(src, 0); err != nil {
					t.Fatalf("scan: %v", err)
				}
				return
			}
			d, err := Parse(f, src)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			checkCompactSpans(t, d)
			all := make([]int32, len(d.Entities))
			for i := range all {
				all[i] = int32(i)
			}
			name := "copy"
			out := d.NewWriter().Append(nil, name, all, nil)
			want := decodeAny(t, src).(map[string]any)
			want["name"] = name
			got := decodeAny(t, out)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round trip changed the document")
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, src); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(AppendCompact(nil, src), compact.Bytes()) {
				t.Fatal("AppendCompact differs from encoding/json.Compact")
			}
			for i := range d.Entities {
				if _, _, err := d.Transform(i); err != nil {
					t.Errorf("transform: %v", err)
				}
			}
		})
	}
}

// TestLookup covers both id indexes: a dense table for editor-numbered
// ids and a map for scattered ones, with duplicates and misses.
func TestLookup(t *testing.T) {
	for name, ids := range map[string][]int64{
		"dense":     {0, 1, 2, 5, 3, 2, -1},
		"scattered": {7, -9_000_000_000, 1 << 40, 7, 12},
	} {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString(`{"entities":[`)
			for i, id := range ids {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"id":%d}`, id)
			}
			b.WriteString(`]}`)
			d, err := Parse("x", []byte(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			first := map[int64]int{}
			var dups []Duplicate
			for i, id := range ids {
				if f, seen := first[id]; seen {
					dups = append(dups, Duplicate{ID: id, First: f, Second: i})
				} else {
					first[id] = i
				}
			}
			for id, want := range first {
				if got, ok := d.Lookup(id); !ok || got != want {
					t.Errorf("Lookup(%d) = %d, %v; want %d", id, got, ok, want)
				}
			}
			for _, miss := range []int64{4, 100, -2, 1 << 50, -1 << 62} {
				if _, ok := first[miss]; ok {
					continue
				}
				if i, ok := d.Lookup(miss); ok {
					t.Errorf("Lookup(%d) found %d", miss, i)
				}
			}
			if !reflect.DeepEqual(d.Duplicates(), dups) {
				t.Errorf("duplicates %v, want %v", d.Duplicates(), dups)
			}
		})
	}
}

// checkCompactSpans requires every span the parser hands out to be the
// compact form of what was authored: each record's Raw is exactly
// AppendCompact of its authored text, component data and parent spans lie
// inside it, and the decoded fields agree with the bytes kept.
func checkCompactSpans(t testing.TB, d *Document) {
	t.Helper()
	line, at := 1, 0
	for i := range d.Entities {
		e := &d.Entities[i]
		// Records are in file order: count the lines between them.
		line += bytes.Count(d.Src[at:d.Offset(i)], []byte{'\n'})
		at = d.Offset(i)
		if d.Line(i) != line {
			t.Fatalf("entity %d: line %d, want %d", i, d.Line(i), line)
		}
		if want := AppendCompact(nil, d.Authored(i)); !bytes.Equal(e.Raw, want) {
			t.Fatalf("entity %d: Raw %q, want the compact record %q", i, e.Raw, want)
		}
		if e.parentAt >= 0 {
			v := e.Raw[e.parentAt:e.parentEnd]
			if e.HasParent {
				if id, err := Int(v); err != nil || id != e.Parent {
					t.Fatalf("entity %d: parent span %q, parent %d", i, v, e.Parent)
				}
			} else if string(v) != "null" {
				t.Fatalf("entity %d: parent span %q for a root", i, v)
			}
		}
		for _, c := range d.Components(i) {
			if c.Data != nil && (!bytes.Equal(AppendCompact(nil, c.Data), c.Data) || !bytes.Contains(e.Raw, c.Data)) {
				t.Fatalf("entity %d: component %s data %q is not a compact span of the record", i, c.Type, c.Data)
			}
		}
	}
}

// TestStringSpecial checks the word-at-a-time string scan against a byte
// loop: the lowest flagged byte must be the first quote, backslash or
// control character.
func TestStringSpecial(t *testing.T) {
	interesting := []byte{0, 1, 0x1f, 0x20, 0x21, '"', '#', '\\', ']', 0x7f, 0x80, 0xa0, 0xa2, 0xdc, 0xff, 'a'}
	rng := uint64(1)
	for n := 0; n < 200000; n++ {
		var w [8]byte
		for k := range w {
			rng = rng*6364136223846793005 + 1442695040888963407
			w[k] = interesting[rng>>59%uint64(len(interesting))]
		}
		want := 8
		for k, c := range w {
			if c == '"' || c == '\\' || c < 0x20 {
				want = k
				break
			}
		}
		m := stringSpecial(uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56)
		got := 8
		if m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if got != want {
			t.Fatalf("%q: first special byte at %d, want %d", w, got, want)
		}
	}
}

// TestInvalidUTF8 checks that bytes which are not UTF-8 are reported where
// they stand, inside strings and out, while valid non-ASCII text passes.
func TestInvalidUTF8(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int // 0: parses
	}{
		{"valid non-ASCII", "{\"name\":\"Café 日本 😀\",\"entities\":[{\"id\":1,\"name\":\"ü\"}]}", 0, 0},
		{"in a top-level string", "{\"name\":\"m\xff\xfe\",\"entities\":[]}", 1, 11},
		{"in an entity name", "{\"entities\":[\n {\"id\":1,\n  \"name\":\"ab\xc3\"}]}", 3, 13},
		{"in component data", "{\"entities\":[{\"id\":1,\"components\":[{\"type\":\"T\",\"data\":{\"s\":\"\xed\xa0\x80\"}}]}]}", 1, 61},
		{"in a key", "{\"entities\":[{\"id\":1,\"n\xffme\":1}]}", 1, 24},
		{"outside strings", "{\"entities\":[{\"id\":1,\xff:1}]}", 1, 22},
		{"as a value", "{\"entities\":[{\"id\":\xff}]}", 1, 20},
		{"after a value", "{\"entities\":[{\"id\":1\xff}]}", 1, 21},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("u.esscene", []byte(tc.src))
			if tc.line == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var se *Error
			if !errors.As(err, &se) || !strings.Contains(se.Message, "invalid UTF-8") || se.Line != tc.line || se.Column != tc.col {
				t.Fatalf("got %v (line %d col %d), want invalid UTF-8 at %d:%d", err, se.Line, se.Column, tc.line, tc.col)
			}
		})
	}
}
