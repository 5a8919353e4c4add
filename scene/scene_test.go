package scene

import (
	"bytes"
	"encoding/json"
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
