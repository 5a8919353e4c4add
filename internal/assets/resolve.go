package assets

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/worldcook/worldcook/internal/regular"
)

// Resolver states, once for every user, which file of a project a
// reference names: the asset graph (what each cell loads), the prefab
// expansion and the asset extents all ask it. It follows the engine: an
// `@uuid:` (or a bare uuid) is looked up in the `.meta` sidecars; a
// `builtin:` name or a URL names no file; a logical path (a leading `/`, or
// `assets/…`) and any path written in a scene is relative to the project;
// a path inside a document of a followed kind is relative to the project
// or, for kinds that say so (Tiled maps, environments), to the document's
// folder, the other base tried second. Nothing outside the project is
// ever named. Each answer is remembered, so a reference met by many
// entities, cells or scenes is resolved once per run. It is safe for
// concurrent use.
type Resolver struct {
	root  string // absolute project root
	shown string // the root as given, for messages and file names
	index *Index
	rules compiled

	mu   sync.Mutex
	memo map[string]Resolved
}

// Resolved is what a reference names.
type Resolved struct {
	// Path is the project path (slash-separated) of the file the reference
	// names; "" when it names none (Reason then says why).
	Path string
	// Reason says why the reference names no file of the project; "" when
	// it names Path, which may still not exist (Open tells).
	Reason string
	// Ref is false when the text is not a file reference at all: empty, a
	// builtin: name or a URL.
	Ref bool
}

// DuplicateUUID starts the Reason of a uuid that two .meta files carry,
// which names both: the engine's asset database keeps one of them, so
// the reference is ambiguous, and adding an unrelated sidecar can change
// the world. IsDuplicateUUID tells such a reason.
const DuplicateUUID = "is the uuid of both "

// IsDuplicateUUID reports whether reason says a uuid is carried twice.
func IsDuplicateUUID(reason string) bool { return strings.HasPrefix(reason, DuplicateUUID) }

// NewResolver returns the resolver of the project at root, looking uuids
// up in index (nil: no uuid resolves) and telling the kinds of documents
// apart by rules (added to the defaults).
func NewResolver(root string, index *Index, rules Rules) *Resolver {
	shown := root
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if index == nil {
		index = NewIndex(nil)
	}
	full, err := DefaultRules().With(rules)
	if err != nil {
		full = DefaultRules()
	}
	return &Resolver{root: root, shown: shown, index: index, rules: full.compile()}
}

// Root is the project folder as it was given.
func (r *Resolver) Root() string { return r.shown }

// Index is the uuid index the resolver looks `@uuid:` references up in.
func (r *Resolver) Index() *Index { return r.index }

// Name is the file at project path p, joined to the root as it was given
// (for messages, and for the files a run reads).
func (r *Resolver) Name(p string) string { return filepath.Join(r.shown, filepath.FromSlash(p)) }

// Abs is the absolute path of the file at project path p.
func (r *Resolver) Abs(p string) string { return filepath.Join(r.root, filepath.FromSlash(p)) }

// Rel returns the project path of a file given by its path in the file
// system, and false when it lies outside the project.
func (r *Resolver) Rel(file string) (string, bool) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(r.root, abs)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if escapes(rel) {
		return "", false
	}
	return rel, true
}

// Resolve tells what ref, written in the document at project path from
// ("" for a scene, or any file that is not of a followed kind), names.
func (r *Resolver) Resolve(ref, from string) Resolved {
	if from != "" && r.rules.kindOf(from) == nil {
		// A scene's references, and those of any document whose kind
		// is not followed, are relative to the project: they share one
		// answer whatever file holds them.
		from = ""
	}
	key := from + "\x00" + ref
	r.mu.Lock()
	res, hit := r.memo[key]
	r.mu.Unlock()
	if hit {
		return res
	}
	res = r.resolve(ref, from)
	r.mu.Lock()
	if r.memo == nil {
		r.memo = make(map[string]Resolved)
	}
	r.memo[key] = res
	r.mu.Unlock()
	return res
}

func (r *Resolver) resolve(ref, from string) Resolved {
	if ref == "" {
		return Resolved{}
	}
	if id, isUUID := strings.CutPrefix(ref, "@uuid:"); isUUID || IsUUID(ref) {
		if !isUUID {
			id = ref
		}
		file, found := r.index.Lookup(id)
		if !found {
			return Resolved{Ref: true, Reason: "has no .meta with that uuid under " + r.index.Where()}
		}
		if a, b, dup := r.index.Duplicate(id); dup {
			return Resolved{Ref: true, Reason: DuplicateUUID + a + ".meta and " + b + ".meta, so it names neither for sure; give one of them a new uuid"}
		}
		rel, inside := r.Rel(file)
		if !inside {
			return Resolved{Ref: true, Reason: "resolves to " + file + ", outside the project " + r.shown}
		}
		return Resolved{Path: rel, Ref: true}
	}
	if hasScheme(ref) {
		return Resolved{}
	}
	// Backslashes are Windows separators: a project authored there names
	// the same file.
	s := strings.ReplaceAll(ref, "\\", "/")
	projectRel := path.Clean(strings.TrimPrefix(s, "/"))
	cands := []string{projectRel}
	if k := r.rules.kindOf(from); k != nil && !isLogical(s) {
		fileRel := path.Clean(path.Join(path.Dir(from), s))
		switch {
		case k.FileRelative:
			cands = []string{fileRel, projectRel}
		case !escapes(projectRel) && fileRel != projectRel:
			// A project path that climbs out of the project is refused,
			// as the engine's loader finds nothing there; only one that
			// stays inside falls back to the document's folder.
			cands = append(cands, fileRel)
		}
	}
	// The first candidate inside the project that exists wins; when none
	// exists, the first inside the project is the one reported missing.
	pick := ""
	for _, c := range cands {
		if escapes(c) {
			continue
		}
		if pick == "" {
			pick = c
		}
		if r.exists(c) {
			return Resolved{Path: c, Ref: true}
		}
	}
	if pick == "" {
		return Resolved{Ref: true, Reason: "is outside the project " + r.shown}
	}
	return Resolved{Path: pick, Ref: true}
}

// isLogical reports the engine's logical project paths, which no document
// resolves against its own folder: a leading "/", or "assets/".
func isLogical(s string) bool { return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "assets/") }

// escapes reports a cleaned slash path that names no file inside the
// project: the root itself, one that climbs out, or an absolute one (a
// document given by an absolute path joins its references to it).
func escapes(p string) bool {
	return p == ".." || strings.HasPrefix(p, "../") || p == "." || strings.HasPrefix(p, "/")
}

// hasScheme reports a "name:" prefix (builtin:, https:, data:) before any
// slash: such strings name no project file.
func hasScheme(s string) bool {
	c := strings.IndexByte(s, ':')
	if c <= 0 {
		return false
	}
	return !strings.ContainsAny(s[:c], "/\\")
}

// exists reports whether project path p is something other than a folder
// inside the project (a link is followed only while it stays inside).
func (r *Resolver) exists(p string) bool {
	root, err := os.OpenRoot(r.root)
	if err != nil {
		return false
	}
	defer root.Close()
	st, err := root.Stat(filepath.FromSlash(p))
	return err == nil && !st.IsDir()
}

// Open opens the file at project path p for reading through an os.Root
// over the project, so that neither "..", an absolute path nor a symbolic
// link leads out of it, and only if it is a regular file: a named pipe is
// refused without blocking. Why turns its error into a reason.
func (r *Resolver) Open(p string) (*os.File, fs.FileInfo, error) {
	root, err := os.OpenRoot(r.root)
	if err != nil {
		return nil, nil, errProject{r.shown, err}
	}
	defer root.Close()
	return regular.OpenIn(root, filepath.FromSlash(p))
}

type errProject struct {
	root string
	err  error
}

func (e errProject) Error() string {
	return "the project " + e.root + " cannot be opened: " + errText(e.err)
}

// Why says why Open's error leaves a file unusable, as a predicate of the
// file ("does not exist").
func Why(err error) string {
	var pe errProject
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case errors.Is(err, regular.ErrNotRegular):
		return "is " + errText(err)
	case errors.As(err, &pe):
		return "cannot be read: " + pe.Error()
	}
	return "cannot be read: " + errText(err)
}
