package assets

import (
	"bytes"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/worldcook/worldcook/internal/jsondoc"
	"github.com/worldcook/worldcook/internal/scene"
)

// This file holds the containers: documents whose engine loader reads
// further files the document names in a format of its own, not in
// reference fields. Nothing in a scene names those files; only the loader
// finds them, and so they cost what the loader loads:
//
//   - a Spine atlas (.atlas, text) names its page images, each loaded by
//     the Spine loader from the atlas's folder;
//   - a DragonBones atlas (_tex.json) names its one image in imagePath,
//     loaded from the atlas's folder;
//   - a bitmap font (.fnt, text) names its page image in file="…",
//     relative to the font (a logical path standing as it is);
//   - a bitmap font asset (.bmfont, JSON) names the .fnt it wraps in
//     fntFile (generatedFnt for a label atlas), from its own folder.

// A container is how the loader of one document format finds the files a
// document names.
type container struct {
	// what names the format in messages ("Spine atlas").
	what string
	// read returns what the document at project path doc names, in the
	// loader's order, and why it names nothing when it cannot be read
	// ("" when it can).
	read func(doc string, data []byte) ([]named, string)
}

// named is one file a container names: as the document writes it, and
// the path the engine's loader asks for (resolved as a project path).
type named struct {
	field, value, path string
}

// The formats of the containers, by the name Kind.format holds.
var containers = map[string]container{
	"spine-atlas":       {"Spine atlas", readSpineAtlas},
	"dragonbones-atlas": {"DragonBones atlas", readDragonBonesAtlas},
	"bitmap-font":       {"bitmap font", readFnt},
	"bitmap-font-json":  {"bitmap font asset", readBmfont},
}

// MaxContainerFiles bounds how many files one container may name: more
// than any real atlas has pages. The rest are reported, not counted.
const MaxContainerFiles = 4096

// SpineAtlasPages lists the page images a Spine atlas names, as the
// engine's atlas reader finds them: every line (split at "\n") that,
// trimmed of white space as JavaScript trims it, is not empty, holds no
// ":" and ends in ".png" or ".jpg" (any case). An indented line counts
// as well as one at column 0, and so does a region whose name ends so:
// the loader asks for it too. The text is decoded as the engine fetches
// it: UTF-8, a leading byte order mark dropped, invalid bytes replaced.
func SpineAtlasPages(data []byte) []string {
	text := decodeText(data)
	var pages []string
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		line = trimJS(line)
		if line != "" && !strings.Contains(line, ":") && (hasSuffixFold(line, ".png") || hasSuffixFold(line, ".jpg")) {
			pages = append(pages, line)
		}
	}
	return pages
}

// readSpineAtlas joins each page to the atlas's folder, as the Spine
// loader does (a page of an atlas at the project's top is its own path).
func readSpineAtlas(doc string, data []byte) ([]named, string) {
	var out []named
	for _, p := range SpineAtlasPages(data) {
		out = append(out, named{field: "page", value: p, path: inFolderOf(doc, p)})
	}
	return out, ""
}

// readDragonBonesAtlas reads the image a DragonBones atlas names: the
// string imagePath of its top-level object, joined to the atlas's folder.
func readDragonBonesAtlas(doc string, data []byte) ([]named, string) {
	img, ok := topString(data, "imagePath")
	if !ok || img == "" {
		return nil, "names no image (no \"imagePath\" string): the engine draws its armatures untextured"
	}
	return []named{{field: "imagePath", value: img, path: inFolderOf(doc, img)}}, ""
}

// fntPage is the engine's pattern for a bitmap font's page image: the
// first file="…" anywhere in the text.
var fntPage = regexp.MustCompile(`file="([^"]+)"`)

// readFnt reads the page image of a bitmap font, resolved as the font
// loader resolves a document's reference: a logical path (a leading "/",
// or "assets/…") as it is, anything else from the font's folder.
func readFnt(doc string, data []byte) ([]named, string) {
	m := fntPage.FindStringSubmatch(decodeText(data))
	if m == nil {
		return nil, "names no page image (no file=\"…\"): the engine refuses to load it"
	}
	p := m[1]
	if !isLogical(p) {
		p = inFolderOf(doc, p)
	}
	return []named{{field: "file", value: m[1], path: p}}, ""
}

// readBmfont reads the .fnt a bitmap font asset wraps: generatedFnt for a
// label atlas (type "label-atlas"), else fntFile, from its own folder.
func readBmfont(doc string, data []byte) ([]named, string) {
	if jsondoc.Check(data) != nil {
		return nil, "is not valid JSON: the engine refuses to load it"
	}
	typ, _ := topString(data, "type")
	key := "fntFile"
	if typ == "label-atlas" {
		key = "generatedFnt"
	}
	fnt, ok := topString(data, key)
	if !ok || fnt == "" {
		return nil, "names no .fnt file (no \"" + key + "\" string): the engine refuses to load it"
	}
	return []named{{field: key, value: fnt, path: inFolderOf(doc, fnt)}}, ""
}

// inFolderOf joins name to the folder of the project path doc as the
// engine's loaders join them: text, a "/" between (none for a document
// at the project's top).
func inFolderOf(doc, name string) string {
	if i := strings.LastIndexByte(doc, '/'); i >= 0 {
		return doc[:i] + "/" + name
	}
	return name
}

// topString returns the string member key of the JSON object data, the
// last when it repeats (as JSON.parse), keys compared unescaped; false
// when data is not a valid object or the member is not a string.
func topString(data []byte, key string) (string, bool) {
	if jsondoc.Check(data) != nil {
		return "", false
	}
	doc := bytes.TrimSpace(data)
	if scene.KindOf(doc) != scene.Object {
		return "", false
	}
	var val []byte
	found := false
	scene.Members(doc, func(k, v []byte) bool {
		name := string(k)
		if s, err := scene.Str(append(append([]byte{'"'}, k...), '"')); err == nil {
			name = s
		}
		if name == key {
			val, found = v, true
		}
		return true
	})
	if !found || scene.KindOf(val) != scene.String {
		return "", false
	}
	s, err := scene.Str(val)
	return s, err == nil
}

// decodeText is data as the engine's text fetch decodes it: UTF-8, a
// leading byte order mark dropped, each run of invalid bytes one U+FFFD.
func decodeText(data []byte) string {
	s := string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// trimJS trims s as JavaScript's String.prototype.trim does: white space
// (tab, vertical tab, form feed, space, no-break space, the byte order
// mark and every space separator) and line terminators. It differs from
// strings.TrimSpace, which keeps U+FEFF and trims U+0085.
func trimJS(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0xFEFF, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// hasSuffixFold reports whether s ends in the ASCII suffix, ASCII letters
// in any case (as a JavaScript /…$/i pattern without the u flag).
func hasSuffixFold(s, suffix string) bool {
	if len(s) < len(suffix) {
		return false
	}
	tail := s[len(s)-len(suffix):]
	for i := 0; i < len(suffix); i++ {
		a, b := tail[i], suffix[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

// followContainer records what a container document names: its deps, and
// a miss for each name that leads out of the project and for a document
// that names nothing the loader can use.
func (g *Graph) followContainer(n *node, c container, data []byte) {
	names, why := c.read(n.Path, data)
	if why != "" {
		n.misses = append(n.misses, Miss{Ref: n.Path, Path: n.Path, Reason: why})
	}
	if len(names) > MaxContainerFiles {
		n.misses = append(n.misses, Miss{Ref: n.Path, Path: n.Path,
			Reason: "names " + strconv.Itoa(len(names)) + " files, more than " + strconv.Itoa(MaxContainerFiles) + ": the rest are not counted"})
		names = names[:MaxContainerFiles]
	}
	seen := map[string]bool{}
	for _, f := range names {
		r := g.res.Project(f.path)
		if r.Reason != "" {
			n.misses = append(n.misses, Miss{Ref: f.value, Path: f.path, Via: n.Path, Reason: r.Reason})
			continue
		}
		if r.Path != n.Path && !seen[r.Path] {
			seen[r.Path] = true
			n.deps = append(n.deps, r.Path)
		}
	}
}

// Project resolves a path an engine loader made itself (a Spine atlas's
// folder joined to a page's name) as a project path: backslashes are
// folder separators, "." and ".." are collapsed, leading slashes
// dropped; a path that leaves the project names nothing.
func (r *Resolver) Project(p string) Resolved {
	c := path.Clean(strings.TrimLeft(strings.ReplaceAll(p, "\\", "/"), "/"))
	if escapes(c) {
		return Resolved{Ref: true, Reason: "is outside the project " + r.shown}
	}
	return Resolved{Path: c, Ref: true}
}
