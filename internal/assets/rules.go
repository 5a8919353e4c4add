// Package assets owns a project's asset graph: which files a streamed
// world's entities reference, directly and through the assets they
// reference in turn, and what each file costs. It resolves `@uuid:`
// references through the `.meta` sidecars of an Estella project and
// project-relative paths, reads only regular files inside the project, and
// reads, stats and hashes each file once however many cells share it.
package assets

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Kind says how worldcook treats the asset files with one extension.
type Kind struct {
	// Ext is the file extension, with its dot (".esmaterial").
	Ext string
	// Follow means the file is a JSON document whose references are
	// assets too: a prefab's meshes, a material's textures, a map's
	// tilesets. Files of other kinds are leaves.
	Follow bool
	// FileRelative means a plain path inside the document is relative to
	// the document's folder (Tiled maps, environments), not to the
	// project root. The other base is tried when the first finds nothing.
	FileRelative bool
	// Fields are reference fields of this kind beyond Rules.Fields.
	Fields []string

	// format names the container reader of a built-in kind whose
	// document is not read for reference fields (see containers); a
	// kind from the settings has none, and replaces the built-in one.
	format string
}

// Rules decide what a reference is. A string is an asset reference when it
// is an `@uuid:` reference anywhere, or when it is the value of one of the
// reference fields (or an element of a list there); strings naming a
// scheme (`builtin:cube`, `https:`) are not files and are ignored.
type Rules struct {
	// Fields are the keys whose string values are asset references, in
	// component data, prefab-instance entries and followed documents.
	Fields []string
	// Kinds are keyed by extension; an extension not listed is a leaf.
	Kinds []Kind
}

// DefaultRules are the reference forms of Estella projects: the asset
// fields of the engine's components, prefab references, and the
// documents whose own references a runtime load pulls in.
func DefaultRules() Rules {
	return Rules{
		Fields: []string{
			"atlas", "atlasPath", "basePrefab", "bt", "clip", "controller",
			"environment", "font", "fsm", "material", "mesh", "normalMap",
			"prefab", "shader", "skeleton", "skeletonPath", "source",
			"texture", "tileset", "tilesetAsset", "tilesetAssets", "timeline",
		},
		Kinds: []Kind{
			{Ext: ".esprefab", Follow: true},
			// The engine's material loader resolves every reference a
			// material holds against the material (see DecodeMaterial).
			{Ext: ".esmaterial", Follow: true, FileRelative: true},
			// An animation clip's frames and sheet name their textures.
			{Ext: ".esanim", Follow: true},
			{Ext: ".estileset", Follow: true},
			{Ext: ".estimeline", Follow: true},
			{Ext: ".esenv", Follow: true, FileRelative: true, Fields: []string{"specular", "irradianceMap"}},
			{Ext: ".tmj", Follow: true, FileRelative: true, Fields: []string{"image"}},
			{Ext: ".tsj", Follow: true, FileRelative: true, Fields: []string{"image"}},
			// Containers: their loaders read files the document names in
			// a format of its own (see container.go).
			{Ext: ".atlas", Follow: true, format: "spine-atlas"},
			{Ext: "_tex.json", Follow: true, format: "dragonbones-atlas"},
			{Ext: ".fnt", Follow: true, format: "bitmap-font"},
			{Ext: ".bmfont", Follow: true, format: "bitmap-font-json"},
		},
	}
}

// codeNamed are the reference fields whose plain value may instead be
// a name the game registers in code: the engine preloads such a value
// only when it ends with the field's extension or is a uuid reference
// (the components' own asset discovery), and so does worldcook.
var codeNamed = map[string]string{
	"bt":         ".esbt",
	"fsm":        ".esfsm",
	"controller": ".esanimator",
}

// namesAsset reports whether the value s of reference field key names an
// asset rather than a code-registered name.
func namesAsset(key, s string) bool {
	ext, ok := codeNamed[key]
	if !ok || strings.HasSuffix(s, ext) {
		return true
	}
	return IsUUID(strings.TrimPrefix(s, "@uuid:"))
}

// ValidKindExt reports whether ext (lower-cased) can name a kind of asset
// file: a dot, then at least one character, and no folder separator.
func ValidKindExt(ext string) bool {
	return strings.HasPrefix(ext, ".") && len(ext) >= 2 && !strings.ContainsAny(ext, `/\`)
}

// With returns r extended by more: its fields added, its kinds added or,
// for an extension r already has, replacing r's kind.
func (r Rules) With(more Rules) (Rules, error) {
	out := Rules{Fields: slices.Clone(r.Fields), Kinds: slices.Clone(r.Kinds)}
	for _, f := range more.Fields {
		if f == "" {
			return Rules{}, fmt.Errorf("asset reference field names must not be empty")
		}
		out.Fields = append(out.Fields, f)
	}
	for _, k := range more.Kinds {
		ext := strings.ToLower(k.Ext)
		if !ValidKindExt(ext) {
			return Rules{}, fmt.Errorf("asset kind extension %q must start with a dot, like \".esmaterial\"", k.Ext)
		}
		k.Ext = ext
		if i := slices.IndexFunc(out.Kinds, func(o Kind) bool { return o.Ext == ext }); i >= 0 {
			out.Kinds[i] = k
		} else {
			out.Kinds = append(out.Kinds, k)
		}
	}
	sort.Strings(out.Fields)
	out.Fields = slices.Compact(out.Fields)
	sort.Slice(out.Kinds, func(a, b int) bool { return out.Kinds[a].Ext < out.Kinds[b].Ext })
	return out, nil
}

// Key is a stable text of the rules, for cache keys: equal rules give
// equal keys.
func (r Rules) Key() string {
	n, _ := DefaultRules().With(r)
	var b strings.Builder
	b.WriteString(strings.Join(n.Fields, ","))
	for _, k := range n.Kinds {
		fmt.Fprintf(&b, ";%s:%t:%t:%s:%s", k.Ext, k.Follow, k.FileRelative, strings.Join(k.Fields, ","), k.format)
	}
	return b.String()
}

// compiled is Rules ready for lookups.
type compiled struct {
	fields map[string]bool
	kinds  map[string]*compiledKind
	// suffixed are the kinds named by the end of a file name rather than
	// by its extension (DragonBones' "_tex.json"): they come first.
	suffixed []*compiledKind
}

type compiledKind struct {
	Kind
	fields map[string]bool
}

func (r Rules) compile() compiled {
	c := compiled{fields: make(map[string]bool, len(r.Fields)), kinds: make(map[string]*compiledKind, len(r.Kinds))}
	for _, f := range r.Fields {
		c.fields[f] = true
	}
	for _, k := range r.Kinds {
		ck := &compiledKind{Kind: k, fields: make(map[string]bool, len(k.Fields))}
		for _, f := range k.Fields {
			ck.fields[f] = true
		}
		if strings.HasPrefix(k.Ext, ".") {
			c.kinds[strings.ToLower(k.Ext)] = ck
		} else {
			c.suffixed = append(c.suffixed, ck)
		}
	}
	return c
}

// kindOf returns the kind of a slash path by its extension, or nil.
func (c compiled) kindOf(p string) *compiledKind {
	for _, k := range c.suffixed {
		if base := p[strings.LastIndexByte(p, '/')+1:]; len(base) > len(k.Ext) && hasSuffixFold(base, k.Ext) {
			return k
		}
	}
	dot := strings.LastIndexByte(p, '.')
	if dot < 0 || strings.LastIndexByte(p, '/') > dot {
		return nil
	}
	return c.kinds[strings.ToLower(p[dot:])]
}
