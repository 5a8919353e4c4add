package expand

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/jsondoc"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// MaxPrefabBytes bounds a prefab document read while expanding instances:
// editors write a few kilobytes, and a file much larger is not a prefab.
const MaxPrefabBytes = 64 << 20

// pdoc is a prefab document as the engine's flatten reads it, after its
// migration (legacy numeric ids read as their decimal text).
type pdoc struct {
	file string
	name string
	root string
	base string // basePrefab reference, "" when it is not a variant
	ents []pent
	ovs  []Override // a variant's own overrides
}

// pent is one entity of a prefab document.
type pent struct {
	id, name, parent string
	hasParent        bool
	children         []string
	comps            []scene.Component
	hidden           bool
	// nested is set for a slot that mounts another prefab.
	nested     bool
	nestedPath string
	nestedOvs  []Override
}

type rawPrefab struct {
	Name         json.RawMessage `json:"name"`
	RootEntityID json.RawMessage `json:"rootEntityId"`
	BasePrefab   json.RawMessage `json:"basePrefab"`
	Overrides    json.RawMessage `json:"overrides"`
	Entities     []struct {
		PrefabEntityID json.RawMessage   `json:"prefabEntityId"`
		Name           json.RawMessage   `json:"name"`
		Parent         json.RawMessage   `json:"parent"`
		Children       []json.RawMessage `json:"children"`
		Visible        json.RawMessage   `json:"visible"`
		Components     []struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		} `json:"components"`
		NestedPrefab *struct {
			PrefabPath json.RawMessage `json:"prefabPath"`
			Overrides  json.RawMessage `json:"overrides"`
		} `json:"nestedPrefab"`
	} `json:"entities"`
}

// readPrefabAt reads and decodes the prefab document at project path at,
// opened through the resolver (inside the project, regular files only).
// The error text says what is wrong with the file, for findings.
func readPrefabAt(r *assets.Resolver, at string) (*pdoc, string) {
	file := r.Name(at)
	f, st, err := r.Open(at)
	if err != nil {
		return nil, "prefab " + file + " " + assets.Why(err)
	}
	defer f.Close()
	if size := st.Size(); size > MaxPrefabBytes {
		return nil, fmt.Sprintf("prefab %s is %d bytes, more than the %d a prefab document may have", file, size, MaxPrefabBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxPrefabBytes+1))
	if err != nil {
		return nil, "cannot read prefab " + file + ": " + assets.ErrText(err)
	}
	return decodePrefabDoc(file, data)
}

// decodePrefabDoc decodes a prefab document's bytes.
func decodePrefabDoc(file string, data []byte) (*pdoc, string) {
	if len(data) > MaxPrefabBytes {
		return nil, "prefab " + file + " is larger than a prefab document may be"
	}
	var raw rawPrefab
	if err := jsondoc.Unmarshal(data, &raw); err != nil {
		return nil, "prefab " + file + " is not valid JSON: " + err.Error()
	}
	p := &pdoc{file: file, name: rawText(raw.Name), root: rawID(raw.RootEntityID)}
	if p.root == "" {
		return nil, "prefab " + file + " has no rootEntityId"
	}
	p.base = rawText(raw.BasePrefab)
	p.ovs = rawOverrides(raw.Overrides)
	p.ents = make([]pent, len(raw.Entities))
	for k, re := range raw.Entities {
		e := &p.ents[k]
		e.id = rawID(re.PrefabEntityID)
		e.name = rawText(re.Name)
		if pv := bytes.TrimSpace(re.Parent); len(pv) > 0 && string(pv) != "null" {
			e.parent, e.hasParent = rawID(pv), true
		}
		for _, c := range re.Children {
			e.children = append(e.children, rawID(c))
		}
		e.hidden = string(bytes.TrimSpace(re.Visible)) == "false"
		for _, c := range re.Components {
			e.comps = append(e.comps, scene.Component{Type: c.Type, Data: compact(c.Data)})
		}
		if np := re.NestedPrefab; np != nil {
			e.nested = true
			e.nestedPath = rawText(np.PrefabPath)
			e.nestedOvs = rawOverrides(np.Overrides)
		}
	}
	return p, ""
}

// compact returns v without white space outside strings, nil for nothing.
func compact(v json.RawMessage) []byte {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return nil
	}
	return scene.AppendCompact(nil, v)
}

// rawText reads a JSON string value; anything else is "".
func rawText(v json.RawMessage) string {
	return geometry.Str(bytes.TrimSpace(v))
}

// rawOverrides reads an overrides list of a prefab document.
func rawOverrides(v json.RawMessage) []Override {
	c := compact(v)
	if scene.KindOf(c) != scene.Array {
		return nil
	}
	return overrideList(c)
}

// rawID reads an id written as a string or (legacy) a number.
func rawID(v json.RawMessage) string { return idText(bytes.TrimSpace(v)) }

// jsText is JavaScript's String(value) for the JSON values an override's
// value can hold, as the engine's parent override applies it.
func jsText(v []byte) string {
	switch scene.KindOf(v) {
	case scene.String:
		return geometry.Str(v)
	case scene.Number:
		if f, err := scene.Float(v); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return string(v)
	case scene.Bool:
		return string(v)
	}
	return "[object Object]"
}
