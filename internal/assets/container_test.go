package assets

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// containersProject is the repository's own project of containers: a
// Spine atlas of three pages (one in a subfolder, one spelt in capitals),
// a missing page and one that climbs out; DragonBones atlases with and
// without an image; bitmap fonts, one wrapped by a label atlas whose page
// is a logical path.
const containersProject = "../../testdata/containers"

func TestSpineAtlasPages(t *testing.T) {
	for _, tc := range []struct {
		name, atlas string
		want        []string
	}{
		{"spine 4 at column 0", "hero.png\nsize: 64, 32\nhead\n\tbounds: 0, 0, 16, 16\n\nhero_2.png\nsize: 8, 8\n", []string{"hero.png", "hero_2.png"}},
		{"spine 4.1 without spaces", "aran.png\nsize:2020,1952\nfilter:Linear,Linear\npma:true\n1\nbounds:381,1882,68,203\n", []string{"aran.png"}},
		{"CRLF line ends", "a.png\r\nsize: 8,8\r\nb.jpg\r\n", []string{"a.png", "b.jpg"}},
		{"indented, trimmed", "   a.png  \n\tb.png\t\n", []string{"a.png", "b.png"}},
		{"any case", "A.PNG\nb.Jpg\n", []string{"A.PNG", "b.Jpg"}},
		{"not jpeg, webp or ktx2", "a.jpeg\nb.webp\nc.ktx2\n", nil},
		{"a colon is a property", "file: a.png\nc:/a.png\n", nil},
		{"a region named like a page counts", "page.png\nsize: 8,8\nicon.png\n\tbounds: 0,0,1,1\n", []string{"page.png", "icon.png"}},
		{"repeats are kept", "a.png\na.png\n", []string{"a.png", "a.png"}},
		{"a byte order mark is not part of the name", "\ufeffa.png\n", []string{"a.png"}},
		{"no-break and ideographic spaces trim", "\u00a0a.png\u3000\n", []string{"a.png"}},
		// JavaScript's trim keeps U+0085 (Go's TrimSpace does not).
		{"next-line is part of the name", "\u0085a.png\n", []string{"\u0085a.png"}},
		{"a form feed or vertical tab trims", "\fa.png\v\n", []string{"a.png"}},
		{"no last line end", "a.png", []string{"a.png"}},
		{"empty", "", nil},
		{"invalid bytes are replaced", "a\xff.png\n", []string{"a\ufffd.png"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SpineAtlasPages([]byte(tc.atlas)); !slices.Equal(got, tc.want) {
				t.Errorf("pages %q, want %q", got, tc.want)
			}
		})
	}
}

func TestContainers(t *testing.T) {
	g := New(containersProject, NewIndex([]string{containersProject}), Rules{})
	for _, tc := range []struct {
		root   string
		want   []string
		misses []string // each "ref|via|reason part"
	}{
		{"assets/spine/hero.atlas",
			[]string{"assets/spine/hero.atlas", "assets/spine/hero.png", "assets/spine/hero_2.PNG", "assets/spine/pages/hero_3.png"},
			[]string{
				"../../../outside.png|assets/spine/hero.atlas|outside the project",
				"assets/spine/gone.jpg|assets/spine/hero.atlas|does not exist",
			}},
		{"assets/dragonbones/Boy_tex.json", []string{"assets/dragonbones/Boy_tex.json", "assets/dragonbones/Boy_tex.png"}, nil},
		{"assets/dragonbones/Blank_tex.json", []string{"assets/dragonbones/Blank_tex.json"},
			[]string{"assets/dragonbones/Blank_tex.json||names no image"}},
		// The skeleton of a DragonBones pair is a leaf: only its atlas
		// names the image.
		{"assets/dragonbones/Boy_ske.json", []string{"assets/dragonbones/Boy_ske.json"}, nil},
		{"assets/fonts/text.bmfont", []string{"assets/fonts/text.bmfont", "assets/fonts/title.fnt", "assets/fonts/title.png"}, nil},
		// A label atlas names its generated .fnt, not its fntFile; that
		// font's page is a logical path.
		{"assets/fonts/label.bmfont", []string{"assets/fonts/label.bmfont", "assets/fonts/label.fnt", "assets/fonts/label.png"}, nil},
	} {
		t.Run(tc.root, func(t *testing.T) {
			paths, misses := g.Closure([]string{tc.root})
			if !slices.Equal(paths, tc.want) {
				t.Errorf("closure %q, want %q", paths, tc.want)
			}
			if len(misses) != len(tc.misses) {
				t.Fatalf("misses %+v, want %q", misses, tc.misses)
			}
			for i, m := range misses {
				w := strings.SplitN(tc.misses[i], "|", 3)
				if m.Ref != w[0] || m.Via != w[1] || !strings.Contains(m.Reason, w[2]) || strings.Contains(m.Reason, "\n") {
					t.Errorf("miss %+v, want %q", m, tc.misses[i])
				}
			}
		})
	}
}

// TestContainerFormats covers what the fixture cannot hold: a document at
// the project's top, a repeated or escaped key, documents that name
// nothing, and the bound on how many files one may name.
func TestContainerFormats(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "project.esproject", "{}")
	writeFile(t, root, "top.atlas", "top.png\nsize: 1,1\n")
	writeFile(t, root, "top.png", "PNG")
	writeFile(t, root, "a/twice_tex.json", `{"imagePath": "first.png", "\u0069magePath": "last.png"}`)
	writeFile(t, root, "a/last.png", "PNG")
	writeFile(t, root, "a/num_tex.json", `{"imagePath": 7}`)
	writeFile(t, root, "a/bad_tex.json", `{"imagePath": `)
	writeFile(t, root, "a/list_tex.json", `[{"imagePath": "x.png"}]`)
	writeFile(t, root, "a/CAPS_TEX.JSON", `{"imagePath": "caps.png"}`)
	writeFile(t, root, "a/caps.png", "PNG")
	writeFile(t, root, "a/_tex.json", `{"imagePath": "caps.png"}`)
	writeFile(t, root, "f/nopage.fnt", "info face=\"x\"\n")
	writeFile(t, root, "f/up.fnt", "page id=0 file=\"../top.png\"\npage id=1 file=\"second.png\"\n")
	writeFile(t, root, "f/none.bmfont", `{"type": "bmfont"}`)
	writeFile(t, root, "f/broken.bmfont", `{"type": `)
	var many strings.Builder
	for i := range MaxContainerFiles + 2 {
		many.WriteString("p" + strconv.Itoa(i) + ".png\n")
	}
	writeFile(t, root, "many.atlas", many.String())
	g := New(root, nil, Rules{})
	for _, tc := range []struct {
		root, reason string
		want         []string
	}{
		{"top.atlas", "", []string{"top.atlas", "top.png"}},
		{"a/twice_tex.json", "", []string{"a/last.png", "a/twice_tex.json"}},
		{"a/num_tex.json", "names no image", []string{"a/num_tex.json"}},
		{"a/bad_tex.json", "names no image", []string{"a/bad_tex.json"}},
		{"a/list_tex.json", "names no image", []string{"a/list_tex.json"}},
		{"a/CAPS_TEX.JSON", "", []string{"a/CAPS_TEX.JSON", "a/caps.png"}},
		// A file named only the suffix is no DragonBones atlas: a leaf.
		{"a/_tex.json", "", []string{"a/_tex.json"}},
		{"f/nopage.fnt", "names no page image", []string{"f/nopage.fnt"}},
		// The loader reads the first page only.
		{"f/up.fnt", "", []string{"f/up.fnt", "top.png"}},
		{"f/none.bmfont", "names no .fnt file", []string{"f/none.bmfont"}},
		{"f/broken.bmfont", "not valid JSON", []string{"f/broken.bmfont"}},
	} {
		paths, misses := g.Closure([]string{tc.root})
		if !slices.Equal(paths, tc.want) {
			t.Errorf("%s: closure %q, want %q", tc.root, paths, tc.want)
		}
		switch {
		case tc.reason == "" && len(misses) > 0:
			t.Errorf("%s: misses %+v, want none", tc.root, misses)
		case tc.reason != "" && (len(misses) != 1 || !strings.Contains(misses[0].Reason, tc.reason)):
			t.Errorf("%s: misses %+v, want one saying %q", tc.root, misses, tc.reason)
		}
	}
	_, misses := g.Closure([]string{"many.atlas"})
	bound := 0
	for _, m := range misses {
		if strings.Contains(m.Reason, "more than") {
			bound++
		}
	}
	if bound != 1 || len(misses) != MaxContainerFiles+1 {
		t.Errorf("an atlas of %d pages: %d misses (%d on the bound), want %d pages missing and the bound once", MaxContainerFiles+2, len(misses), bound, MaxContainerFiles)
	}
}

// TestContainerKindReplaced: a kind from the settings with a container's
// extension replaces it, as for every built-in kind.
func TestContainerKindReplaced(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.atlas", "a.png\n")
	writeFile(t, root, "a.png", "PNG")
	g := New(root, nil, Rules{Kinds: []Kind{{Ext: ".atlas"}}})
	if paths, _ := g.Closure([]string{"a.atlas"}); !slices.Equal(paths, []string{"a.atlas"}) {
		t.Errorf("closure %q: the settings' leaf kind did not replace the Spine atlas", paths)
	}
	if DefaultRules().Key() == (Rules{Kinds: []Kind{{Ext: ".atlas", Follow: true}}}).Key() {
		t.Error("a replaced container kind keys like the built-in one")
	}
}

// FuzzContainers: whatever a container holds, its reader names files
// inside the project or reports why not, in one line, and the Spine pages
// are what the engine's reader takes.
func FuzzContainers(f *testing.F) {
	for _, name := range []string{"assets/spine/hero.atlas", "assets/dragonbones/Boy_tex.json", "assets/fonts/title.fnt", "assets/fonts/label.bmfont", "assets/fonts/text.bmfont"} {
		if data, err := os.ReadFile(filepath.Join(containersProject, filepath.FromSlash(name))); err == nil {
			f.Add(data)
		}
	}
	for _, p := range spineDemoAtlases() {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("\ufeff  a.PNG\r\n../../b.jpg\n/abs.png\nc:\\d.png\n\\\\server\\e.png\n"))
	f.Add([]byte(`{"imagePath": "../../x.png", "type": "label-atlas", "generatedFnt": "/g.fnt"}`))
	f.Add([]byte(`page id=0 file="/assets/x.png" file="y.png"`))
	root := f.TempDir()
	r := NewResolver(root, nil, Rules{})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range SpineAtlasPages(data) {
			if p == "" || p != trimJS(p) || strings.ContainsAny(p, ":\n") || !(hasSuffixFold(p, ".png") || hasSuffixFold(p, ".jpg")) {
				t.Fatalf("page %q is not what the engine's reader takes", p)
			}
		}
		for format, c := range containers {
			for _, doc := range []string{"x", "a/b/x"} {
				names, why := c.read(doc, data)
				if strings.Contains(why, "\n") || (why != "" && len(names) > 0) {
					t.Fatalf("%s: %q with names %q", format, why, names)
				}
				for _, n := range names {
					if n.value == "" {
						t.Fatalf("%s: an empty name", format)
					}
					got := r.Project(n.path)
					if (got.Path == "") == (got.Reason == "") || strings.Contains(got.Reason, "\n") {
						t.Fatalf("%s: %q resolves to %+v", format, n.path, got)
					}
					if got.Path != "" && escapes(got.Path) {
						t.Fatalf("%s: %q names %q, outside the project", format, n.path, got.Path)
					}
				}
			}
		}
	})
}

// spineDemoAtlases are the Spine atlases of the engine's spine-demo, as
// seeds when WORLDCOOK_ESTELLA names a checkout of the engine.
func spineDemoAtlases() []string {
	d := os.Getenv("WORLDCOOK_ESTELLA")
	if d == "" {
		return nil
	}
	m, _ := filepath.Glob(filepath.Join(d, "examples", "spine-demo", "assets", "spine", "*", "*.atlas"))
	n, _ := filepath.Glob(filepath.Join(d, "examples", "spine-demo", "assets", "spine", "*.atlas"))
	return append(n, m...)
}
