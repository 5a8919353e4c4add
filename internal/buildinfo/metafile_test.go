package buildinfo

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	json "github.com/goccy/go-json"
)

// TestMetafileNamesThatAreNotUTF8: a file whose name is not valid UTF-8
// (Latin-1 é, a lone 0xff) is still named exactly: pathBase64 decodes to
// the very path, whose bytes and digest are the entry's; a valid name has
// no pathBase64. Two such names that read alike in path stay two files.
func TestMetafileNamesThatAreNotUTF8(t *testing.T) {
	dir := t.TempDir()
	files := []string{filepath.Join(dir, "sc\xe8ne.esscene"), filepath.Join(dir, "a\xff.png"), filepath.Join(dir, "a\xfe.png"), filepath.Join(dir, "ok é.png")}
	for i, f := range files {
		if err := os.WriteFile(f, bytes.Repeat([]byte{byte('a' + i)}, i+1), 0o644); err != nil {
			t.Skipf("skipping: this file system refuses the name %q: %v", f, err)
		}
	}
	out := filepath.Join(dir, "out\xff.json")
	if err := os.WriteFile(out, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := &Graph{Scenes: []Scene{{File: files[0], Target: out, Inputs: files, Outputs: []Output{{Path: out, Inputs: files}}}}}
	var b bytes.Buffer
	if err := g.WriteMetafile(&b); err != nil {
		t.Fatal(err)
	}
	var m Metafile
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatalf("%v\n%s", err, b.Bytes())
	}
	real := func(f MetaFile) string {
		if f.PathBase64 == "" {
			return f.Path
		}
		p, err := base64.StdEncoding.DecodeString(f.PathBase64)
		if err != nil {
			t.Fatal(err)
		}
		return string(p)
	}
	seen := map[string]bool{}
	for _, f := range append(m.Inputs, m.Outputs[0].MetaFile) {
		p := real(f)
		seen[p] = true
		n, sum, err := hashFile(filepath.FromSlash(p))
		if err != nil || n != f.Bytes || sum != f.Blake3 {
			t.Errorf("%q (%s): on disk %d %s %v, the metafile %d %s", p, f.Path, n, sum, err, f.Bytes, f.Blake3)
		}
		if (f.PathBase64 == "") != (p == f.Path) {
			t.Errorf("%q: pathBase64 %q for path %q", p, f.PathBase64, f.Path)
		}
	}
	for _, f := range append(files, out) {
		if !seen[filepath.ToSlash(f)] {
			t.Errorf("the metafile does not name %q", f)
		}
	}
	o := m.Outputs[0]
	if len(o.InputsBase64) != len(files) || o.InputsBase64[3] != "" {
		t.Fatalf("inputsBase64 %q", o.InputsBase64)
	}
	for i, f := range files {
		if got := real(MetaFile{Path: o.Inputs[i], PathBase64: o.InputsBase64[i]}); got != filepath.ToSlash(f) {
			t.Errorf("output input %d names %q, want %q", i, got, f)
		}
	}
	if s, _ := base64.StdEncoding.DecodeString(o.SceneBase64); string(s) != filepath.ToSlash(files[0]) {
		t.Errorf("sceneBase64 %q", o.SceneBase64)
	}
}
