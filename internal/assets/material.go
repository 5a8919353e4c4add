package assets

import (
	"bytes"
	"sort"

	"github.com/worldcook/worldcook/internal/jsondoc"
	"github.com/worldcook/worldcook/internal/scene"
)

// materialExt is the extension of the engine's material documents, the
// one its material loader reads.
const materialExt = ".esmaterial"

// Material is what the engine's material loader reads of a `.esmaterial`
// document to know which other files to load.
type Material struct {
	// Type is the document's "type"; the loader refuses a document whose
	// type is not "material".
	Type string
	// Parent is the "instanceOf" reference ("" for none): an instance
	// loads its parent first and takes the parent's shader.
	Parent string
	// Shader is the "shader" reference, loaded only when the material has
	// no parent ("builtin:" shaders are code, not files).
	Shader string
	// Textures are the string values of "properties", by property name,
	// sorted: the loader loads every one as a texture whatever its name
	// (numbers, vectors and other values are uniforms, not files).
	Textures []Found
}

// DecodeMaterial reads a material document as the engine's loader does:
// JSON, a repeated key taking the last value, only strings counting as
// references.
func DecodeMaterial(data []byte) (Material, error) {
	if err := jsondoc.Check(data); err != nil {
		return Material{}, err
	}
	var m Material
	doc := bytes.TrimSpace(data)
	if scene.KindOf(doc) != scene.Object {
		return m, nil
	}
	str := func(key string) string {
		v, ok := scene.Field(doc, key)
		if !ok || scene.KindOf(v) != scene.String {
			return ""
		}
		s, err := scene.Str(v)
		if err != nil {
			return ""
		}
		return s
	}
	m.Type = str("type")
	m.Parent = str("instanceOf")
	if m.Parent == "" {
		m.Shader = str("shader")
	}
	props, ok := scene.Field(doc, "properties")
	if !ok || scene.KindOf(props) != scene.Object {
		return m, nil
	}
	last := map[string][]byte{}
	scene.Members(props, func(k, v []byte) bool {
		name := string(k)
		if s, err := scene.Str(append(append([]byte{'"'}, k...), '"')); err == nil {
			name = s
		}
		last[name] = v
		return true
	})
	for name, v := range last {
		if scene.KindOf(v) != scene.String {
			continue
		}
		if s, err := scene.Str(v); err == nil && s != "" {
			m.Textures = append(m.Textures, Found{Field: "properties." + name, Value: s})
		}
	}
	sort.Slice(m.Textures, func(a, b int) bool { return m.Textures[a].Field < m.Textures[b].Field })
	return m, nil
}

// refs lists the material's references as the loader meets them: its
// parent, else its shader, then its textures.
func (m Material) refs() []Found {
	var out []Found
	if m.Parent != "" {
		out = append(out, Found{Field: "instanceOf", Value: m.Parent})
	} else if m.Shader != "" {
		out = append(out, Found{Field: "shader", Value: m.Shader})
	}
	return append(out, m.Textures...)
}
