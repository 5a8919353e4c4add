package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestAssetRefs(t *testing.T) {
	write := func(body string) string {
		f := filepath.Join(t.TempDir(), "worldcook.yaml")
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	cfg, err := load(t, write("assetRefs:\n  fields: [portrait, voice]\n  kinds:\n    .ESDialog: {follow: true, fields: [clip]}\n    .tmj:\n      follow: false\n      fileRelative: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := AssetRefs{Fields: []string{"portrait", "voice"}, Kinds: map[string]AssetKind{
		".esdialog": {Follow: true, Fields: []string{"clip"}},
		".tmj":      {FileRelative: true},
	}}
	if !reflect.DeepEqual(cfg.AssetRefs, want) {
		t.Errorf("assetRefs = %+v, want %+v", cfg.AssetRefs, want)
	}
	for _, tc := range []struct{ body, want string }{
		{"assetRefs:\n  field: [x]\n", `unknown key "field" in assetRefs; did you mean "fields"?`},
		{"assetRefs:\n  kinds:\n    png: {follow: true}\n", `"png" must be a file extension with its dot`},
		{"assetRefs:\n  kinds:\n    .x: {follow: maybe}\n", `assetRefs.kinds..x.follow must be true or false`},
		{"assetRefs:\n  kinds:\n    .x: {folow: true}\n", `unknown key "folow" in assetRefs.kinds..x; did you mean "follow"?`},
		{"assetRefs:\n  fields: [[a]]\n", `assetRefs.fields: each item must be a field name`},
		{"assetRefs:\n  kinds:\n    .x: {}\n    .X: {}\n", `is given twice`},
	} {
		_, err := load(t, write(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.body, err, tc.want)
		}
	}
}
