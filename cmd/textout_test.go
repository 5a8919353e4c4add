package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTextOut(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain\ttext\n", "plain\ttext\n"},
		{"crlf\r\nlines\r\n", "crlf\r\nlines\r\n"},
		{"title \x1b]0;PWNED\x07 set", `title \x1b]0;PWNED\x07 set`},
		{"over\rwrite", `over\rwrite`},
		{"back\bspace\x7f", `back\x08space\x7f`},
		{"c1 \xc2\x9b2J and \xc2\xa0 nbsp é", `c1 \u009b2J and ` + "\xc2\xa0 nbsp é"},
		{"ends in CR\r", `ends in CR\r`},
		{"ends in \xc2", "ends in \xc2"},
		{"not utf-8 \xff\xc2", "not utf-8 \xff\xc2"},
	} {
		// Whole, and a byte at a time: a write may end inside CR LF or
		// a two-byte character.
		for _, split := range []bool{false, true} {
			var b bytes.Buffer
			w := newTextOut(&b)
			if split {
				for i := range len(tc.in) {
					w.Write([]byte{tc.in[i]})
				}
			} else {
				w.Write([]byte(tc.in))
			}
			w.Flush()
			if b.String() != tc.want {
				t.Errorf("%q (split %v): wrote %q, want %q", tc.in, split, b.String(), tc.want)
			}
		}
	}
}

// TestControlCharactersNeverReachTheTerminal: a scene whose names and
// references carry ESC, BEL, a lone CR and a C1 CSI, validated, cooked and
// initialised, prints none of them raw.
func TestControlCharactersNeverReachTheTerminal(t *testing.T) {
	dir := t.TempDir()
	demo, err := os.ReadFile("../testdata/demo/main.esscene")
	if err != nil {
		t.Fatal(err)
	}
	hostile := `\u001b]0;PWNED\u0007\r\u009b2J`
	s := strings.Replace(string(demo), `"name": "Sun"`, `"name": "Sun`+hostile+`"`, 1)
	s = strings.Replace(s, `"name": "Player"`, `"name": "Player`+hostile+`"`, 1)
	// A reference to an asset that is not there: its path is printed.
	s = strings.Replace(s, `"name": "Sky",`, `"name": "Sky", "_": "@uuid:x", `, 1)
	scene := filepath.Join(dir, "main.esscene")
	if err := os.WriteFile(scene, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	// A scene not yet streamed, for init: it names the camera it gives
	// a source and the entities it marks.
	flat := `{"version": 1, "name": "Flat", "entities": [
{"id": 1, "name": "Cam` + hostile + `", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 0, "y": 2, "z": 0}}}, {"type": "Camera", "data": {"isActive": true}}], "visible": true},
{"id": 2, "name": "Sun` + hostile + `", "parent": null, "children": [], "components": [{"type": "Light2D", "data": {"type": 1}}], "visible": true},
{"id": 3, "name": "Crate` + hostile + `", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 90, "y": 0, "z": 90}}}], "visible": true}]}`
	flatFile := filepath.Join(dir, "flat.esscene")
	if err := os.WriteFile(flatFile, []byte(flat), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", flatFile},
		{"validate", scene},
		{"validate", "--format", "text-frames", scene},
		{"cook", scene, "--out", filepath.Join(dir, "out")},
		{"init", filepath.Join(dir, "nope\x1b]0;X\x07.esscene")},
		{"simulate", filepath.Join(dir, "nope\x1b[2J"), "--path", "x\x9b.csv"},
	} {
		_, stdout, stderr := run(t, args...)
		for _, out := range []string{stdout, stderr} {
			if strings.ContainsAny(out, "\x1b\x07\r\u009b") {
				t.Errorf("%s printed a control character raw:\n%q", args[0], out)
			}
		}
		if stderr == "" && stdout == "" {
			t.Errorf("%s printed nothing", args[0])
		}
	}
}

// TestSceneFileNameWithAControlCharacter: a scene file named with a tab,
// a line break or ESC is refused before the output folder is made, with
// the name quoted and the fix (it said "make sure OUT is writable" and
// left OUT empty).
func TestSceneFileNameWithAControlCharacter(t *testing.T) {
	demo, err := os.ReadFile("../testdata/demo/main.esscene")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"t\tab", "n\nl", "e\x1bsc"} {
		dir := t.TempDir()
		scene := filepath.Join(dir, name+".esscene")
		if err := os.WriteFile(scene, demo, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out")
		code, _, stderr := run(t, "cook", scene, "--out", out)
		if code != ExitInput || !strings.Contains(stderr, "control character") || !strings.Contains(stderr, "rename the file") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, %q", name, code, stderr)
		}
		if _, err := os.Lstat(out); err == nil {
			t.Errorf("%q: the refused cook made %s", name, out)
		}
	}
}
