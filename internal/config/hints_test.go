package config

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Hints name settings files' keys in two shapes: "plane: xy in
// worldcook.yaml" and "in worldcook.yaml (components: {…})".
var (
	hintBefore = regexp.MustCompile(`([A-Za-z.]+: [^ ()]+) in worldcook\.yaml`)
	hintAfter  = regexp.MustCompile(`in worldcook\.yaml \(([^()]+)\)`)
)

// TestHintsNameAcceptedKeys reads every string of worldcook's sources that
// tells the user what to write in worldcook.yaml and checks that each key
// it names is one the file accepts where the hint puts it: a hint that
// names a key the file refuses sends the user from one error to another.
func TestHintsNameAcceptedKeys(t *testing.T) {
	var hints []string
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range hintBefore.FindAllStringSubmatch(s, -1) {
				hints = append(hints, path+": "+m[1])
			}
			for _, m := range hintAfter.FindAllStringSubmatch(s, -1) {
				hints = append(hints, path+": "+m[1])
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(hints) < 2 {
		t.Fatalf("found %d hints naming worldcook.yaml keys; the patterns no longer match the sources", len(hints))
	}
	for _, h := range hints {
		where, snippet, _ := strings.Cut(h, ": ")
		// Format verbs stand for names the message fills in.
		text := strings.ReplaceAll(snippet, "%s", "x")
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(text), &n); err != nil || len(n.Content) != 1 {
			t.Errorf("%s: hint %q is not YAML: %v", where, snippet, err)
			continue
		}
		for _, key := range keyPaths(n.Content[0], "") {
			if !accepted(key) {
				t.Errorf("%s: hint %q names %s, which worldcook.yaml refuses", where, snippet, key)
			}
		}
	}
}

// keyPaths are the dotted paths of a mapping's keys down to its scalars.
func keyPaths(n *yaml.Node, prefix string) []string {
	if n.Kind != yaml.MappingNode {
		return []string{prefix}
	}
	var out []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		p := n.Content[i].Value
		if prefix != "" {
			p = prefix + "." + p
		}
		out = append(out, keyPaths(n.Content[i+1], p)...)
	}
	return out
}

// accepted resolves a dotted key as the file decoder does.
func accepted(path string) bool {
	parts := strings.Split(path, ".")
	switch {
	case len(parts) == 1:
		return lookup("", parts[0]) != nil
	case len(parts) == 2 && lookup(normalize(parts[0]), parts[1]) != nil:
		return true
	case len(parts) == 3 && normalize(parts[0]) == "simulate" && normalize(parts[1]) == "view":
		return slices.Contains([]string{"width", "height", "distance"}, normalize(parts[2]))
	case len(parts) == 3 && normalize(parts[0]) == "components":
		return normalize(parts[2]) == "entityfields" || normalize(parts[2]) == "softfields"
	}
	return false
}
