package config

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/internal/assets"
	"go.yaml.in/yaml/v3"
)

// AssetRefs extends the built-in asset reference rules:
//
//	assetRefs:
//	  fields: [portrait]
//	  kinds:
//	    .esdialog: {follow: true, fileRelative: false, fields: [voice]}
type AssetRefs struct {
	// Fields are more keys whose string values name assets.
	Fields []string `json:"fields,omitempty"`
	// Kinds are keyed by file extension (".esdialog", lower-cased); a
	// listed kind replaces the built-in one for its extension.
	Kinds map[string]AssetKind `json:"kinds,omitempty"`
}

// AssetKind says how the asset files with one extension are read.
type AssetKind struct {
	// Follow: the file is JSON whose references are assets too.
	Follow bool `json:"follow"`
	// FileRelative: plain paths inside it are relative to its folder.
	FileRelative bool `json:"fileRelative"`
	// Fields are reference fields of this kind only.
	Fields []string `json:"fields,omitempty"`
}

// Rules are the asset reference rules the section adds to the built-in
// ones, kinds in extension order. The decoder has checked every name and
// extension (assets.ValidKindExt), so they are valid rules.
func (a AssetRefs) Rules() assets.Rules {
	r := assets.Rules{Fields: a.Fields}
	for _, ext := range slices.Sorted(maps.Keys(a.Kinds)) {
		k := a.Kinds[ext]
		r.Kinds = append(r.Kinds, assets.Kind{Ext: ext, Follow: k.Follow, FileRelative: k.FileRelative, Fields: k.Fields})
	}
	return r
}

// assetRefs reads the assetRefs: section.
func (d *fileDecoder) assetRefs(n *yaml.Node) error {
	return d.pairs(n, "assetRefs", func(k, v *yaml.Node) error {
		switch normalize(k.Value) {
		case "fields":
			list, err := d.names(v, "assetRefs.fields")
			d.cfg.AssetRefs.Fields = list
			return err
		case "kinds":
			return d.pairsBy(v, "assetRefs.kinds", strings.ToLower, func(ek, ev *yaml.Node) error {
				ext := strings.ToLower(ek.Value)
				if !assets.ValidKindExt(ext) {
					return d.errorf(ek, "assetRefs.kinds: %q must be a file extension with its dot, like \".esmaterial\"", ek.Value)
				}
				where := "assetRefs.kinds." + ek.Value
				var kind AssetKind
				err := d.pairs(ev, where, func(fk, fv *yaml.Node) error {
					switch normalize(fk.Value) {
					case "follow":
						return d.flag(fv, where+".follow", &kind.Follow)
					case "filerelative":
						return d.flag(fv, where+".fileRelative", &kind.FileRelative)
					case "fields":
						list, err := d.names(fv, where+".fields")
						kind.Fields = list
						return err
					}
					return d.errorf(fk, "unknown key %q in %s%s", fk.Value, where, suggest(fk.Value, []string{"follow", "fileRelative", "fields"}))
				})
				if err != nil {
					return err
				}
				if d.cfg.AssetRefs.Kinds == nil {
					d.cfg.AssetRefs.Kinds = map[string]AssetKind{}
				}
				d.cfg.AssetRefs.Kinds[ext] = kind
				return nil
			})
		}
		return d.errorf(k, "unknown key %q in assetRefs%s", k.Value, suggest(k.Value, []string{"fields", "kinds"}))
	})
}

// names reads a list of field names (a single name is a list of one).
func (d *fileDecoder) names(v *yaml.Node, where string) ([]string, error) {
	v = deref(v)
	switch v.Kind {
	case yaml.ScalarNode:
		if isNull(v) {
			return nil, nil
		}
		if v.Value == "" {
			return nil, d.errorf(v, "%s: a field name must not be empty", where)
		}
		return []string{v.Value}, nil
	case yaml.SequenceNode:
		var out []string
		for _, item := range v.Content {
			item = deref(item)
			if item.Kind != yaml.ScalarNode || item.Value == "" {
				return nil, d.errorf(item, "%s: each item must be a field name, not %s", where, kindName(item))
			}
			out = append(out, item.Value)
		}
		return out, nil
	}
	return nil, d.errorf(v, "%s must be a list of field names, not %s", where, kindName(v))
}

func (d *fileDecoder) flag(v *yaml.Node, where string, out *bool) error {
	v = deref(v)
	b, err := strconv.ParseBool(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil {
		return d.errorf(v, "%s must be true or false, not %s", where, kindName(v))
	}
	*out = b
	return nil
}
