package assets

import (
	"strings"
	"testing"
)

func FuzzDecodeMeta(f *testing.F) {
	f.Add([]byte(`{"uuid": "39f5134b-c99d-44f6-9023-13debee745da", "version": "2.0", "type": "model", "importer": {"scale": 1}}`))
	f.Add([]byte(`{"uuid": 7}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"uuid": "x", "type": ["a"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, ok := DecodeMeta(data)
		if ok && m.UUID == "" {
			t.Fatal("a sidecar without a uuid was accepted")
		}
	})
}

func FuzzExtract(f *testing.F) {
	f.Add([]byte(`{"components": [{"type": "Sprite", "data": {"texture": "@uuid:x"}}], "prefab": "a.esprefab"}`))
	f.Add([]byte(`{"tilesets": [{"source": "t.tsj", "image": "../x.png"}]}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["@uuid:deep"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`))
	f.Add([]byte(`{"propertyName": "texture", "value": "p.png"}`))
	r := DefaultRules().compile()
	f.Fuzz(func(t *testing.T, data []byte) {
		found, err := Extract(data, r.fields, nil)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a message of two lines: %q", err)
			}
			return
		}
		for i, x := range found {
			if x.Value == "" {
				t.Fatalf("empty reference at %s", x.Field)
			}
			if i > 0 && (found[i-1].Field > x.Field || found[i-1] == x) {
				t.Fatal("references not sorted or repeated")
			}
		}
	})
}
