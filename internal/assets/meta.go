package assets

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/worldcook/worldcook/internal/jsondoc"
	"github.com/worldcook/worldcook/internal/project"
	"github.com/worldcook/worldcook/internal/regular"
)

// ProjectFile marks the root of an Estella project.
const ProjectFile = project.File

// MetaExt ends the name of an asset's sidecar, FILE.meta.
const MetaExt = ".meta"

// MaxMetaBytes bounds a .meta sidecar: one is a few hundred bytes, and
// anything much larger is not one.
const MaxMetaBytes = 1 << 20

// Meta is what worldcook reads of a .meta sidecar.
type Meta struct {
	UUID string
	Type string
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// IsUUID reports whether s is a uuid in its 8-4-4-4-12 hex form.
func IsUUID(s string) bool { return len(s) == 36 && uuidRE.MatchString(s) }

// DecodeMeta reads a .meta sidecar. ok is false for anything that is not
// a JSON object with a uuid string: such files are not sidecars and are
// skipped, as the editor skips them.
func DecodeMeta(data []byte) (m Meta, ok bool) {
	if len(data) > MaxMetaBytes {
		return Meta{}, false
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return Meta{}, false
	}
	var raw struct {
		UUID any `json:"uuid"`
		Type any `json:"type"`
	}
	if jsondoc.Unmarshal(data, &raw) != nil {
		return Meta{}, false
	}
	u, _ := raw.UUID.(string)
	if u == "" {
		return Meta{}, false
	}
	t, _ := raw.Type.(string)
	return Meta{UUID: strings.ToLower(u), Type: t}, true
}

// Index maps the uuids of the .meta sidecars under some folders to the
// files they describe. It walks the folders once, on first use, and is
// safe for concurrent use.
type Index struct {
	dirs []string
	once sync.Once
	byID map[string]string // lower-case uuid → file (the sidecar's path without .meta)
	// dups holds, for a uuid two sidecars carry, the second one found.
	dups map[string]string
	// read is every sidecar opened: an edit of any of them can change
	// what a uuid names, so each is an input of a run that resolved one.
	read []string
}

// NewIndex returns an index of the .meta files under dirs.
func NewIndex(dirs []string) *Index {
	return &Index{dirs: append([]string(nil), dirs...)}
}

// Dirs are the folders the index searches.
func (x *Index) Dirs() []string { return x.dirs }

// Lookup returns the file whose sidecar carries uuid (any case).
func (x *Index) Lookup(uuid string) (string, bool) {
	x.once.Do(x.build)
	f, ok := x.byID[strings.ToLower(uuid)]
	return f, ok
}

// Duplicate returns the two files whose sidecars both carry uuid (any
// case), in walk order; ok is false when one sidecar or none does.
func (x *Index) Duplicate(uuid string) (first, second string, ok bool) {
	x.once.Do(x.build)
	id := strings.ToLower(uuid)
	second, ok = x.dups[id]
	return x.byID[id], second, ok
}

// Read returns every .meta file the index opened, sorted, or nil when no
// uuid was looked up (the folders were not walked).
func (x *Index) Read() []string {
	if x.byID == nil {
		return nil
	}
	return append([]string(nil), x.read...)
}

// Where names the searched folders for messages.
func (x *Index) Where() string {
	if len(x.dirs) == 0 {
		return "no asset folder"
	}
	return strings.Join(x.dirs, ", ")
}

// build walks the folders. Hidden folders and node_modules are skipped:
// they hold no authored assets and can be huge. Symbolic links are not
// followed and only regular sidecars are read, so a FIFO or a link to a
// device cannot stall the walk. When two sidecars carry one uuid, the
// first in walk order (lexical) is kept and the second noted (Duplicate):
// a reference through that uuid is ambiguous.
func (x *Index) build() {
	x.byID = make(map[string]string)
	x.dups = make(map[string]string)
	defer func() { sort.Strings(x.read) }()
	for _, root := range x.dirs {
		x.walk(root)
	}
}

// walk indexes the sidecars under one folder, opened as an os.Root so that
// a sidecar is read only where the walk found it, never through a link.
func (x *Index) walk(root string) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return
	}
	defer r.Close()
	_ = filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			if de != nil && de.IsDir() && path != root {
				return fs.SkipDir
			}
			return nil
		}
		name := de.Name()
		if de.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".meta") || !de.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return nil
		}
		f, st, err := regular.OpenIn(r, rel)
		if err != nil {
			return nil
		}
		defer f.Close()
		x.read = append(x.read, path)
		if st.Size() > MaxMetaBytes {
			return nil
		}
		data, err := readOpen(f, MaxMetaBytes)
		if err != nil {
			return nil
		}
		m, ok := DecodeMeta(data)
		if !ok {
			return nil
		}
		if _, dup := x.byID[m.UUID]; !dup {
			x.byID[m.UUID] = strings.TrimSuffix(path, ".meta")
		} else if _, noted := x.dups[m.UUID]; !noted {
			x.dups[m.UUID] = strings.TrimSuffix(path, ".meta")
		}
		return nil
	})
}

// FindProject returns the Estella project holding file: the nearest folder
// at or above file's folder with a project.esproject, as an absolute path.
func FindProject(file string) (string, bool) { return project.Find(file) }
