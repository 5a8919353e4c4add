package jsondoc

import (
	stdjson "encoding/json"
	"reflect"
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

// fuzzDoc holds a field of every kind worldcook's documents decode
// into (manifest.Manifest, the cook's journal and record, cell documents,
// prefabs, maps): integers of 32 and 64 bits, floats, strings, booleans,
// raw messages, pointers, slices, maps and untyped values. Its names
// include "s" and "k", which Unicode case folding matches with "ſ" and
// the Kelvin sign.
type fuzzDoc struct {
	A int                `json:"a"`
	B []string           `json:"b"`
	C map[string]any     `json:"c"`
	R stdjson.RawMessage `json:"r"`
	I int32              `json:"i"`
	L int64              `json:"l"`
	F float64            `json:"f"`
	P *int64             `json:"p"`
	S string             `json:"s"`
	K bool               `json:"k"`
	N []fuzzDoc          `json:"n"`
	Q [][2]string        `json:"q"`
}

// FuzzUnmarshal: any bytes decode or give one line that says where; what
// is accepted is JSON the standard library accepts, decoded the same:
// into a struct of every kind of field worldcook uses and into untyped
// values, a document decodes without error exactly when the standard
// library's decoder decodes it, to a deeply equal value. "The same" is
// the standard library's meaning, since it is the reference: the last of
// duplicate members wins, an object member merges into a struct field
// already set, names match case-insensitively, a number out of its
// field's range is an error, and bytes that are not UTF-8 become U+FFFD.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":["x"],"c":{"d":null}}`, "{\"\\H0\\", "[1,2", `"\u00e9"`, "{} {}", `{"a":"x"}`,
		`{"a":1,"a":2,"c":{"x":1},"c":{"y":2}}`, `{"A":1,"\u017f":"long s","\u212a":true}`,
		`{"l":9223372036854775807,"p":-9223372036854775808}`, `{"l":9223372036854775808}`, `{"p":-9223372036854775809}`,
		`{"i":2147483648}`, `{"f":1e308,"c":{"g":-0,"h":4.9e-324}}`, `{"f":1e309}`, `{"f":0.1000000000000000055511151231257827}`,
		"{\"s\":\"\xff\xfe\"}", "{\"c\":{\"\xc3\":1}}", `{"s":"\ud800"}`, `{"n":[{"a":1},{"n":[{"s":"x"}]}],"q":[["a","b"]]}`,
		`{"q":[["a","b","c"]]}`, `{"r":[1, 2 ],"r":{}}`, `{"a":1.0}`, `{"a":1e2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got fuzzDoc
		err := Unmarshal(data, &got)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r\x00") {
				t.Fatalf("a message that is not one line: %q", msg)
			}
		} else if !stdjson.Valid(data) {
			t.Fatalf("accepted %q, which is not JSON", data)
		}
		var want fuzzDoc
		stdErr := stdjson.Unmarshal(data, &want)
		switch {
		case err == nil && stdErr != nil:
			t.Fatalf("accepted %q into %+v, which the standard library refuses: %v", data, got, stdErr)
		case err != nil && stdErr == nil:
			t.Fatalf("refused %q, which the standard library decodes to %+v: %v", data, want, err)
		case err == nil && !reflect.DeepEqual(got, want):
			t.Fatalf("%q decoded to %+v, the standard library to %+v", data, got, want)
		}
		var any1, any2 any
		err1, err2 := Unmarshal(data, &any1), stdjson.Unmarshal(data, &any2)
		switch {
		case (err1 == nil) != (err2 == nil):
			t.Fatalf("%q: decoded into any with %v, the standard library with %v", data, err1, err2)
		case err1 == nil && !reflect.DeepEqual(any1, any2):
			t.Fatalf("%q decoded to %#v, the standard library to %#v", data, any1, any2)
		}
	})
}

// TestStandard: the documents goccy would read otherwise go to the
// standard library, and ordinary ones, digests full of digits included,
// stay with goccy.
func TestStandard(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want bool
	}{
		{`{"bytes":922337203685477580,"x":-1.5e300}`, false},
		{`{"blake3":"1234567890123456789012345678901234567890"}`, false},
		{`{"a":"\"1234567890123456789012\\"}`, false},
		{`{"name":"é","k":true}`, false},
		{`{"bytes":9223372036854775808}`, true},
		{`[-9223372036854775809]`, true},
		{`{"f":0.1000000000000000055511151231257827}`, true},
		{`{"a":"\\","b":1234567890123456789}`, true},
		{"{\"s\":\"\xff\"}", true},
		{"{\"\u017f\":1}", true},
		{`{"\u017F":1}`, true},
		{`{"\u212a":true}`, true},
		{`{"s":"\ud800"}`, true},
		{`{"s":"\uDBFF\uDC00"}`, true},
		{`{"s":"\u00e9\u0d80"}`, false},
	} {
		if got := standard([]byte(tc.doc)); got != tc.want {
			t.Errorf("standard(%q) = %v, want %v", tc.doc, got, tc.want)
		}
	}
	var v struct {
		Bytes int64 `json:"bytes"`
	}
	for _, decode := range []func([]byte, any) error{Unmarshal, UnmarshalStrict} {
		if err := decode([]byte(`{"bytes":9223372036854775808}`), &v); err == nil || !strings.HasPrefix(err.Error(), "line 1, column") {
			t.Errorf("an int64 out of range: %v (%d), want a refusal saying where", err, v.Bytes)
		}
	}
}
