package jsondoc

import (
	stdjson "encoding/json"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
		std             bool
	}{
		{name: "raw newline in the offending byte", doc: "{\"a\":n\nll}", want: "line 1, column"},
		{name: "second line", doc: "{\n\"a\": tru}", want: "line 2, column"},
		{name: "wrong type", doc: `{"a":"x"}`, want: "line 1, column"},
		{name: "ends early", doc: `{"a":`, want: "line 1, column 6: unexpected end of JSON input", std: true},
		{name: "standard library syntax", doc: "{\n\"a\":\x01}", want: "line 2, column", std: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v struct{ A int }
			var err error
			if tc.std {
				err = stdjson.Unmarshal([]byte(tc.doc), &v)
			} else {
				err = json.Unmarshal([]byte(tc.doc), &v)
			}
			if err == nil {
				t.Fatal("decoded")
			}
			got := Describe([]byte(tc.doc), err)
			if !strings.Contains(got, tc.want) || strings.ContainsAny(got, "\n\x00\x01") {
				t.Errorf("Describe = %q, want one line containing %q", got, tc.want)
			}
		})
	}
}

func TestLineCol(t *testing.T) {
	data := []byte("ab\ncd\n")
	for _, tc := range []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {6, 3, 1}, {-4, 1, 1}, {99, 3, 1},
	} {
		if l, c := LineCol(data, tc.off); l != tc.line || c != tc.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":     "plain text",
		"a\nb":           `a\nb`,
		"nul \x00 tab\t": `nul \x00 tab\t`,
		"é ok":           "é ok",
		"\u2028":         `\u2028`,
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMalformedEndsAreRefused gives documents that end inside an escape
// of an object key, which goccy/go-json decodes by reading past the end
// of its buffer (a crash found by fuzzing prefabs and sidecars): each is
// refused with one line saying where, before goccy sees it.
func TestMalformedEndsAreRefused(t *testing.T) {
	var into struct {
		UUID     any            `json:"uuid"`
		Entities []any          `json:"entities"`
		Rest     map[string]any `json:"rest"`
	}
	for _, doc := range []string{"{\"\\H0\\", "{\"\\08\\", "{\"\\", "{\"a\\", "{\"uuid\":\"\\", "{\"\\u12", "[\"\\", "{\"a\":1,\"\\", "{} {}", ""} {
		for _, decode := range []func([]byte, any) error{Unmarshal, UnmarshalStrict} {
			err := decode([]byte(doc), &into)
			if err == nil || !strings.HasPrefix(err.Error(), "line ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: %v, want one line starting with its position", doc, err)
			}
		}
	}
}

func TestStrictRefusesUnknownMembers(t *testing.T) {
	var v struct {
		A int `json:"a"`
	}
	if err := Unmarshal([]byte(`{"a":1,"b":2}`), &v); err != nil || v.A != 1 {
		t.Fatalf("Unmarshal: %v, %+v", err, v)
	}
	err := UnmarshalStrict([]byte("{\"a\":1,\n\"b\":2}"), &v)
	if err == nil || !strings.Contains(err.Error(), `"b"`) {
		t.Fatalf("UnmarshalStrict = %v, want the unknown member named", err)
	}
}

// FuzzUnmarshal: any bytes decode or give one line that says where; what
// is accepted is JSON the standard library accepts, decoded the same.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":["x"],"c":{"d":null}}`, "{\"\\H0\\", "[1,2", `"\u00e9"`, "{} {}", `{"a":"x"}`} {
		f.Add([]byte(s))
	}
	type doc struct {
		A int                `json:"a"`
		B []string           `json:"b"`
		C map[string]any     `json:"c"`
		R stdjson.RawMessage `json:"r"`
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got doc
		err := Unmarshal(data, &got)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r\x00") {
				t.Fatalf("a message that is not one line: %q", msg)
			}
			return
		}
		if !stdjson.Valid(data) {
			t.Fatalf("accepted %q, which is not JSON", data)
		}
		var any1, any2 any
		if err := Unmarshal(data, &any1); err != nil {
			t.Fatalf("accepted into a struct but not into any: %v", err)
		}
		if err := stdjson.Unmarshal(data, &any2); err != nil {
			t.Fatalf("the standard library refuses what was accepted: %v", err)
		}
	})
}
