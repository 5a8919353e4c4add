package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/worldcook/worldcook/internal/regular"
)

// MaxFileBytes bounds worldcook.yaml: a settings file is a few hundred
// bytes, and --config /dev/zero or a runaway generated file must not take
// the memory of the machine.
const MaxFileBytes = 1 << 20

// readFile decodes a worldcook.yaml strictly: every key must name a
// setting (in either spelling), every value must parse as that setting
// parses it, and every error names the file, line and key. The YAML is
// read as a node tree (not into structs) so that each value keeps its
// position and no key can be dropped unseen.
//
// base, when not "", is the folder relative paths in the file are read
// from (a path or folder setting's value "build" becomes base/build).
func readFile(cfg *Config, root reflect.Value, file, base string) error {
	data, err := readBounded(file)
	if err != nil {
		return err
	}
	return decodeFile(cfg, root, file, base, data)
}

// decodeFile decodes data, the bytes of file.
func decodeFile(cfg *Config, root reflect.Value, file, base string, data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // an empty file sets nothing
		}
		return fmt.Errorf("config file %s: %v; fix the YAML or pass another file to --config", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return fmt.Errorf("config file %s:%d: a second YAML document; worldcook.yaml holds one mapping of settings", file, extra.Line)
	}
	d := &fileDecoder{cfg: cfg, root: root, file: file, base: base}
	top := deref(&doc)
	if top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
		top = deref(top.Content[0])
	}
	return d.top(top)
}

// readBounded reads a regular file of at most MaxFileBytes: a FIFO would
// block and a device never end.
func readBounded(file string) ([]byte, error) {
	f, size, err := regular.Open(file, "config")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("config file %s not found; pass an existing file to --config", file)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > MaxFileBytes {
		return nil, fmt.Errorf("config file %s is %d bytes, more than the %d a settings file may have", file, size, MaxFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read config file %s: %v", file, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("config file %s grew past %d bytes while being read", file, MaxFileBytes)
	}
	return data, nil
}

type fileDecoder struct {
	cfg  *Config
	root reflect.Value
	file string
	base string
}

func (d *fileDecoder) errorf(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", d.file, n.Line, n.Column, fmt.Sprintf(format, args...))
}

// deref follows an alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 8; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// pairs walks a mapping's keys and values, refusing anything else and a
// key given twice in any spelling.
func (d *fileDecoder) pairs(n *yaml.Node, where string, each func(k, v *yaml.Node) error) error {
	return d.pairsBy(n, where, normalize, each)
}

// pairsBy is pairs with the sameness of two keys given by norm.
func (d *fileDecoder) pairsBy(n *yaml.Node, where string, norm func(string) string, each func(k, v *yaml.Node) error) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, "%s must be a mapping of keys to values, not %s", where, kindName(n))
	}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return d.errorf(k, "a key in %s must be a name, not %s", where, kindName(k))
		}
		if k.Tag == "!!merge" {
			// Merged keys could hide one another unseen; a settings
			// file is short enough to say each once.
			return d.errorf(k, "merge keys (<<) are not read in %s; write the settings out", where)
		}
		if prev, dup := seen[norm(k.Value)]; dup {
			return d.errorf(k, "%q is given twice in %s (also at line %d); keep one", k.Value, where, prev.Line)
		}
		seen[norm(k.Value)] = k
		if err := each(k, v); err != nil {
			return err
		}
	}
	return nil
}

func (d *fileDecoder) top(n *yaml.Node) error {
	var keys []string
	for _, s := range Declared("") {
		keys = append(keys, s.Key)
	}
	keys = append(keys, Sections()...)
	keys = append(keys, "components", "assetRefs")
	return d.pairs(n, "worldcook.yaml", func(k, v *yaml.Node) error {
		name := normalize(k.Value)
		switch {
		case name == "components":
			return d.components(v)
		case name == normalize("assetRefs"):
			return d.assetRefs(v)
		case slices.Contains(Sections(), name):
			return d.section(name, v)
		}
		if s := lookup("", k.Value); s != nil {
			return d.value(s, k, v)
		}
		hint := suggest(k.Value, keys)
		if hint == "" {
			// A section's setting written at the top level.
			for _, sec := range Sections() {
				if s := lookup(sec, k.Value); s != nil {
					hint = fmt.Sprintf("; did you mean %q under %s:?", s.Key, sec)
					break
				}
			}
		}
		return d.errorf(k, "unknown key %q%s", k.Value, hint)
	})
}

func (d *fileDecoder) section(name string, n *yaml.Node) error {
	settings := Declared(name)
	var keys []string
	for _, s := range settings {
		keys = append(keys, s.Key)
	}
	return d.pairs(n, name, func(k, v *yaml.Node) error {
		if s := lookup(name, k.Value); s != nil {
			return d.value(s, k, v)
		}
		if name == "simulate" && normalize(k.Value) == "view" {
			return d.view(v)
		}
		hint := suggest(k.Value, keys)
		if hint == "" {
			var others []string
			for _, sec := range Sections() {
				if sec != name && lookup(sec, k.Value) != nil {
					others = append(others, sec)
				}
			}
			switch {
			case len(others) > 0:
				hint = fmt.Sprintf("; it is a setting of %s, not of %s", strings.Join(others, " and "), name)
			case lookup("", k.Value) != nil:
				hint = "; it is a global setting: put it at the top level"
			}
		}
		return d.errorf(k, "unknown key %q in %s%s", k.Value, name, hint)
	})
}

// value sets one setting from its yaml value: a scalar in the flag's
// syntax, or a sequence of scalars for a list.
func (d *fileDecoder) value(s *Setting, k, v *yaml.Node) error {
	if isNull(v) {
		return nil // "budget:" with nothing after it leaves the setting as it was
	}
	var raw []string
	switch {
	case v.Kind == yaml.ScalarNode && s.List():
		raw = strings.Split(v.Value, ",")
	case v.Kind == yaml.ScalarNode:
		raw = []string{v.Value}
	case v.Kind == yaml.SequenceNode && s.List():
		for _, item := range v.Content {
			item = deref(item)
			if item.Kind != yaml.ScalarNode {
				return d.errorf(item, "%s: each item must be a string, not %s", s.Path(), kindName(item))
			}
			raw = append(raw, item.Value)
		}
	default:
		want := "a single value"
		if s.List() {
			want = "a list of strings"
		}
		return d.errorf(v, "%s must be %s, not %s", s.Path(), want, kindName(v))
	}
	if d.base != "" && (s.Unit == "path" || s.Unit == "dir") {
		for i, p := range raw {
			if p != "" && !filepath.IsAbs(p) {
				raw[i] = filepath.Join(d.base, p)
			}
		}
	}
	return d.cfg.set(d.root, s, raw, Origin{Kind: FromFile, Name: d.file, Line: v.Line, Column: v.Column})
}

func (d *fileDecoder) components(n *yaml.Node) error {
	ct := reflect.TypeOf(Component{})
	var keys []string
	for i := 0; i < ct.NumField(); i++ {
		keys = append(keys, ct.Field(i).Tag.Get("key"))
	}
	// Component types are matched without regard to case (and only case).
	return d.pairsBy(n, "components", strings.ToLower, func(k, v *yaml.Node) error {
		name := strings.ToLower(k.Value)
		if d.cfg.Components == nil {
			d.cfg.Components = map[string]Component{}
		}
		var c Component
		cv := reflect.ValueOf(&c).Elem()
		where := "components." + k.Value
		err := d.pairs(v, where, func(fk, fv *yaml.Node) error {
			for i, key := range keys {
				if normalize(key) != normalize(fk.Value) {
					continue
				}
				var list []string
				switch fv.Kind {
				case yaml.ScalarNode:
					if !isNull(fv) {
						list = []string{fv.Value}
					}
				case yaml.SequenceNode:
					for _, item := range fv.Content {
						item = deref(item)
						if item.Kind != yaml.ScalarNode || item.Value == "" {
							return d.errorf(item, "%s.%s: each item must be a field name, not %s", where, key, kindName(item))
						}
						list = append(list, item.Value)
					}
				default:
					return d.errorf(fv, "%s.%s must be a list of field names, not %s", where, key, kindName(fv))
				}
				cv.Field(i).Set(reflect.ValueOf(list))
				return nil
			}
			return d.errorf(fk, "unknown key %q in %s%s", fk.Value, where, suggest(fk.Value, keys))
		})
		if err != nil {
			return err
		}
		d.cfg.Components[name] = c
		d.cfg.origins["components."+name] = Origin{Kind: FromFile, Name: d.file, Line: k.Line, Column: k.Column}
		return nil
	})
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(n) {
			return "empty"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "an alias"
}

// suggest returns "; did you mean X?" with the candidate key most likely
// means (Meant), else "".
func suggest(key string, candidates []string) string {
	if best := Meant(key, candidates); best != "" {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return ""
}
