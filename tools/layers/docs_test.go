package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const architecture = "../../docs/architecture.md"

// TestArchitectureDoc keeps docs/architecture.md true: its layer diagram
// is the layers list, its package list names every package of the module
// and no other, and every Go file it names exists.
func TestArchitectureDoc(t *testing.T) {
	b, err := os.ReadFile(architecture)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)

	// The diagram: "N  pkg pkg …" lines of the text block under "## Layers",
	// "." for the module's root.
	_, after, ok := strings.Cut(doc, "\n## Layers\n")
	if !ok {
		t.Fatal(`docs/architecture.md has no "## Layers" section`)
	}
	_, block, ok := strings.Cut(after, "```text\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/architecture.md: the Layers section has no text block")
	}
	got := map[int][]string{}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		fs := strings.Fields(line)
		n, err := strconv.Atoi(fs[0])
		if err != nil || len(fs) < 2 {
			t.Errorf("docs/architecture.md: diagram line %q is not \"N  package …\"", line)
			continue
		}
		for _, p := range fs[1:] {
			if p == "." {
				p = ""
			}
			got[n] = append(got[n], p)
		}
	}
	if len(got) != len(layers) {
		t.Errorf("docs/architecture.md: the diagram has %d layers, tools/layers/main.go %d", len(got), len(layers))
	}
	for n, l := range layers {
		want := slices.Sorted(slices.Values(l))
		have := slices.Sorted(slices.Values(got[n]))
		if !slices.Equal(have, want) {
			t.Errorf("docs/architecture.md: layer %d is %q, tools/layers/main.go says %q", n, have, want)
		}
	}

	// The package list: "- `path` — job" lines.
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^- `([^`]+)` — ").FindAllStringSubmatch(doc, -1) {
		p := m[1]
		if p == "." {
			p = ""
		}
		listed[p] = true
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages with")
	}
	out, err := exec.Command("go", "list", module+"/...").Output()
	if err != nil {
		t.Fatal("go list:", err)
	}
	pkgs := map[string]bool{}
	for _, path := range strings.Fields(string(out)) {
		if p, ok := rel(path); ok {
			pkgs[p] = true
		}
	}
	for p := range pkgs {
		if !listed[p] {
			t.Errorf("docs/architecture.md: package %q is not in the package list", p)
		}
	}
	for p := range listed {
		if !pkgs[p] {
			t.Errorf("docs/architecture.md: the package list names %q, which is no package of the module", p)
		}
	}

	// Every Go file a recipe names.
	for _, m := range regexp.MustCompile("`([a-z0-9_/]+\\.go)`").FindAllStringSubmatch(doc, -1) {
		if _, err := os.Stat(filepath.Join("..", "..", m[1])); err != nil {
			t.Errorf("docs/architecture.md names %s, which does not exist", m[1])
		}
	}
}
