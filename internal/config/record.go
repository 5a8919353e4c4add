package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/regular"
)

// PlaneRecord is the edit that records a plane at the top of a settings
// file, so that every command cuts the world on it: the value of an
// existing top-level plane: replaced, else a line "plane: xy" inserted
// before the first key (or a new file holding that line). Every other
// byte of the file is kept.
type PlaneRecord struct {
	// File is the settings file written; Create says it does not exist
	// yet.
	File   string
	Create bool
	Plane  string
	// Before and After are the file's bytes now and with the edit.
	Before, After []byte
	// Line is the line of plane: in After.
	Line int
	// Overrides name the sections of the file whose own plane still
	// overrides the top-level one ("cook.plane: xz at worldcook.yaml:4").
	Overrides []string
}

// RecordPlane returns the edit that makes plane the top-level plane of the
// run's settings file: the file it read, else a new worldcook.yaml at the
// root of the Estella project holding scene (beside the scene outside a
// project), where every command given the scene finds it. It returns nil
// when the file already says plane, and when plane is the default and no
// file says otherwise.
func (cfg *Config) RecordPlane(scene, plane string) (*PlaneRecord, error) {
	r := &PlaneRecord{File: cfg.File, Plane: plane}
	if r.File == "" {
		dir := filepath.Dir(scene)
		if root, ok := assets.FindProject(scene); ok {
			dir = root
			if !filepath.IsAbs(scene) {
				if cwd, err := os.Getwd(); err == nil {
					if rel, err := filepath.Rel(cwd, root); err == nil {
						dir = rel
					}
				}
			}
		}
		r.File, r.Create = filepath.Join(dir, DefaultFile), true
		if _, err := os.Lstat(r.File); err == nil {
			// Not the run's file (the working directory's wins), but
			// there: never overwrite it unseen.
			return nil, fmt.Errorf("%s exists but this run read no settings file; pass it with --config to record the plane in it", r.File)
		}
		if plane == defaultPlane() {
			return nil, nil
		}
		r.After = []byte("plane: " + plane + "\n")
		r.Line = 1
		return r, nil
	}
	if err := replaceable(r.File); err != nil {
		return nil, err
	}
	data, err := readBounded(r.File)
	if err != nil {
		return nil, err
	}
	r.Before = data
	after, line, changed, err := withPlane(r.File, data, plane)
	if err != nil || !changed {
		return nil, err
	}
	r.After, r.Line = after, line
	if err := r.check(); err != nil {
		return nil, err
	}
	r.Overrides = sectionPlanes(r.File, after, plane)
	return r, nil
}

// check reads the edited file as a run would: it must be a settings file
// whose top-level plane is the one recorded.
func (r *PlaneRecord) check() error {
	cfg := &Config{origins: map[string]Origin{}}
	root := reflect.ValueOf(cfg).Elem()
	err := decodeFile(cfg, root, r.File, "", r.After)
	if err == nil && cfg.Plane != r.Plane {
		err = errors.New("the plane it gives is " + cfg.Plane)
	}
	if err != nil {
		return fmt.Errorf("%s: adding plane: %s would not give a settings file that says so (%v); add it yourself", r.File, r.Plane, err)
	}
	return nil
}

func defaultPlane() string {
	for _, s := range Declared("") {
		if s.Key == "plane" {
			return s.Default
		}
	}
	return ""
}

// withPlane returns data with its top-level plane set to plane, the line
// of the plane: key, and whether anything changed.
func withPlane(file string, data []byte, plane string) ([]byte, int, bool, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, 0, false, fmt.Errorf("config file %s: %v; fix the YAML first", file, err)
	}
	eol := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		eol = "\r\n"
	}
	if doc.Kind == 0 || len(doc.Content) == 0 || isNull(doc.Content[0]) {
		// Empty, or comments only: the line goes at the end.
		out := append([]byte(nil), data...)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, eol...)
		}
		line := bytes.Count(out, []byte("\n")) + 1
		return append(out, "plane: "+plane+eol...), line, true, nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode || top.Style&yaml.FlowStyle != 0 || len(top.Content) == 0 {
		return nil, 0, false, fmt.Errorf("%s:%d:%d: worldcook can add plane: only to a block mapping of settings; add plane: %s at its top yourself", file, top.Line, top.Column, plane)
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if normalize(k.Value) != "plane" {
			continue
		}
		if v.Kind == yaml.ScalarNode && v.Value == plane {
			return data, k.Line, false, nil
		}
		if v.Kind != yaml.ScalarNode || !(v.Style == 0 || v.Style == yaml.DoubleQuotedStyle || v.Style == yaml.SingleQuotedStyle) {
			return nil, 0, false, fmt.Errorf("%s:%d:%d: plane is not a plain value; set it to %s yourself", file, v.Line, v.Column, plane)
		}
		token := v.Value
		if v.Style != 0 {
			q := `"`
			if v.Style == yaml.SingleQuotedStyle {
				q = `'`
			}
			token = q + token + q
		}
		at, ok := offset(data, v.Line, v.Column)
		if !ok || !bytes.HasPrefix(data[at:], []byte(token)) {
			return nil, 0, false, fmt.Errorf("%s:%d:%d: cannot find the plane's value to replace; set it to %s yourself", file, v.Line, v.Column, plane)
		}
		out := append(append(append([]byte(nil), data[:at]...), plane...), data[at+len(token):]...)
		return out, k.Line, true, nil
	}
	// Before the first key, indented as it is: a comment block above it
	// stays above both.
	first := top.Content[0]
	at, ok := offset(data, first.Line, 1)
	if !ok {
		return nil, 0, false, fmt.Errorf("%s:%d: cannot find the first key; add plane: %s at the top yourself", file, first.Line, plane)
	}
	indent := data[at:]
	indent = indent[:len(indent)-len(bytes.TrimLeft(indent, " \t"))]
	ins := string(indent) + "plane: " + plane + eol
	out := append(append(append([]byte(nil), data[:at]...), ins...), data[at:]...)
	return out, first.Line, true, nil
}

// offset is the byte offset of a yaml position (1-based line, 1-based
// column in characters).
func offset(data []byte, line, col int) (int, bool) {
	at := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[at:], '\n')
		if i < 0 {
			return 0, false
		}
		at += i + 1
	}
	for c := 1; c < col; c++ {
		if at >= len(data) || data[at] == '\n' {
			return 0, false
		}
		_, n := utf8.DecodeRune(data[at:])
		at += n
	}
	return at, true
}

// sectionPlanes names the sections of the edited file whose own plane is
// not plane: they still override the top-level key for their command.
func sectionPlanes(file string, data []byte, plane string) []string {
	cfg := &Config{origins: map[string]Origin{}}
	root := reflect.ValueOf(cfg).Elem()
	if err := decodeFile(cfg, root, file, "", data); err != nil {
		return nil
	}
	var out []string
	for _, sec := range Sections() {
		s := lookup(sec, "plane")
		if s == nil {
			continue
		}
		o, ok := cfg.origins[s.Path()]
		if !ok || o.Kind != FromFile {
			continue
		}
		if v := root.FieldByIndex(s.index).String(); v != plane {
			out = append(out, fmt.Sprintf("%s: %s at %s:%d", s.Path(), v, o.Name, o.Line))
		}
	}
	return out
}

// replaceable refuses a settings file that cannot be replaced as a plain
// file: a link (replacing it would cut the link, not edit what it
// names), a named pipe, a device or a folder.
func replaceable(file string) error {
	st, err := os.Lstat(file)
	if err != nil {
		return fmt.Errorf("cannot read config file %s: %v", file, errors.Unwrap(err))
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link; pass the file it points to with --config to record the plane in it", file)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", file)
	}
	return nil
}

// Write puts the edit in place atomically: the new text goes to a
// temporary file in the same folder and is renamed over the settings file
// only if that still holds what RecordPlane read (a new file is linked
// into place only if none appeared meanwhile), so that no edit made
// meanwhile is lost.
func (r *PlaneRecord) Write() error {
	mode := fs.FileMode(0o644)
	if !r.Create {
		if err := replaceable(r.File); err != nil {
			return err
		}
		st, err := os.Stat(r.File)
		if err != nil {
			return fmt.Errorf("cannot read config file %s: %v", r.File, errors.Unwrap(err))
		}
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(r.File), "."+filepath.Base(r.File)+".init-*")
	if err != nil {
		return fmt.Errorf("cannot write beside %s: %v", r.File, errors.Unwrap(err))
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(r.After)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cannot write beside %s: %v", r.File, err)
	}
	if r.Create {
		if err := os.Link(tmp.Name(), r.File); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s appeared while init ran; run worldcook init again", r.File)
			}
			return fmt.Errorf("cannot create %s: %v", r.File, errors.Unwrap(err))
		}
		return nil
	}
	now, err := regular.ReadFile(r.File, "config")
	if err != nil {
		return err
	}
	if !bytes.Equal(now, r.Before) {
		return fmt.Errorf("%s changed while init read it; run worldcook init again", r.File)
	}
	if err := os.Rename(tmp.Name(), r.File); err != nil {
		return fmt.Errorf("cannot replace %s: %v", r.File, errors.Unwrap(err))
	}
	return nil
}
