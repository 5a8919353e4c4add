package cook

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/worldcook/worldcook/internal/jsondoc"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/manifest"
)

// Result says what a commit did (or, with Check, would do) to the output
// directory. Paths are relative to it.
type Result struct {
	Written   []string
	Unchanged []string
	Removed   []string
}

// Changed reports whether the output directory was (or would be) modified.
func (r *Result) Changed() bool { return len(r.Written)+len(r.Removed) > 0 }

// committer writes cooked worlds into one output directory.
type committer struct {
	// FS is the output directory (nil: Prepare opens Dir as a RootFS).
	FS FS
	// Dir is the output directory's path, for messages.
	Dir string
	// Check computes the Result without writing anything.
	Check bool
	// Persist maps a scene's name to where its persistent world goes
	// instead of PersistentPath (see layout.persist).
	Persist map[string]string
}

// journal is the commit record: once it is in place, the commit is
// decided and any later cook finishes it (roll forward); before it is in
// place, the staged files are garbage and the previous world stands.
type journal struct {
	Renames [][2]string `json:"renames"`
	Removes []string    `json:"removes"`
}

// Bounds on the bookkeeping files a cook reads back: a journal lists one
// rename per changed file (about 100 bytes each), a record one path and
// size per file of the world. Anything larger was not written by a cook.
const (
	maxJournalBytes  = 64 << 20
	maxRecordBytes   = 64 << 20
	maxManifestBytes = 1 << 30
)

// abs is rel's path for messages.
func (c *committer) abs(rel string) string { return filepath.Join(c.Dir, filepath.FromSlash(rel)) }

// layout is the scene's layout in this directory: its persistent world
// where Persist puts it.
func (c *committer) layout(scene string) layout { return layoutAt(scene, c.Persist[scene]) }

func (c *committer) stagingDir(scene string) string { return c.abs(layoutOf(scene).staging()) }

func (c *committer) journalPath(scene string) string { return c.abs(layoutOf(scene).journal()) }

// named puts the output directory in front of the relative paths an FS
// reports, so that every message names the file as the user knows it.
func (c *committer) named(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && !filepath.IsAbs(pe.Path) && !strings.HasPrefix(filepath.Clean(pe.Path), filepath.Clean(c.Dir)) {
		pe.Path = c.abs(pe.Path)
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		if !filepath.IsAbs(le.Old) {
			le.Old = c.abs(le.Old)
		}
		if !filepath.IsAbs(le.New) {
			le.New = c.abs(le.New)
		}
	}
	return err
}

// exists reports whether there is anything at rel (a link counts).
func (c *committer) exists(rel string) bool {
	_, err := c.FS.Lstat(rel)
	return err == nil
}

// Prepare makes sure the output directory is usable and finishes or
// discards whatever a killed cook of the same scene left behind.
func (c *committer) Prepare(scene string) error {
	if c.FS == nil {
		fsys, err := OpenFS(c.Dir)
		if err != nil {
			return err
		}
		c.FS = fsys
	}
	l := c.layout(scene)
	if st, err := c.FS.Lstat(worldDir); err == nil && (st.Mode()&fs.ModeSymlink != 0 || !st.IsDir()) {
		return fmt.Errorf("%s is not a real directory; remove it so that cells stay inside the output directory", c.abs(worldDir))
	}
	if c.Check {
		return nil
	}
	if c.exists(l.journal()) {
		j, err := c.readJournal(l)
		if err != nil {
			return fmt.Errorf("%s is damaged (%v), so the interrupted cook it records cannot be finished safely; delete it and the folder %s, then cook again (the cook rewrites every file that differs)",
				c.journalPath(scene), err, c.stagingDir(scene))
		}
		if err := c.apply(l, j); err != nil {
			return fmt.Errorf("finishing the interrupted cook of %s: %w", scene, c.named(err))
		}
	}
	// A journal still named .tmp was never put in place: the cook that
	// wrote it died before its commit point, so it and its staging go.
	// Each is removed only when it is there: on a read-only file system
	// removing a missing file fails too, and the message would blame a
	// journal that does not exist.
	if c.exists(l.journal() + tmpSuffix) {
		if err := c.FS.Remove(l.journal() + tmpSuffix); err != nil {
			return writeErr(c.Dir, "removing the unfinished journal of an interrupted cook", c.named(err))
		}
	}
	if c.exists(l.staging()) {
		if err := c.FS.RemoveAll(l.staging()); err != nil {
			return writeErr(c.Dir, "removing the staging folder of an interrupted cook", c.named(err))
		}
	}
	return nil
}

// readJournal reads and checks a journal: a regular file of bounded size
// whose every path is a file of this scene's world or staging, so that
// no journal, however damaged or planted, moves or removes anything else.
func (c *committer) readJournal(l layout) (*journal, error) {
	data, err := c.FS.ReadFile(l.journal(), maxJournalBytes)
	if err != nil {
		return nil, cause(err)
	}
	return decodeJournal(l, data)
}

func decodeJournal(l layout, data []byte) (*journal, error) {
	var j journal
	if err := jsondoc.UnmarshalStrict(data, &j); err != nil {
		return nil, fmt.Errorf("not a journal: %v", err)
	}
	for _, r := range j.Renames {
		if !l.staged(r[0]) {
			return nil, fmt.Errorf("it moves %q, which is not a staged file of scene %q", r[0], l.scene)
		}
		if !l.target(r[1]) {
			return nil, fmt.Errorf("it moves a file to %q, which is not a file of the world of scene %q", r[1], l.scene)
		}
	}
	for _, p := range j.Removes {
		if p == l.persistent() || !l.target(p) {
			return nil, fmt.Errorf("it removes %q, which is not a cell or the manifest of scene %q", p, l.scene)
		}
	}
	return &j, nil
}

// writeErr words a failure to change the output directory, saying plainly
// when the directory cannot be written at all.
func writeErr(dir, doing string, err error) error {
	switch {
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("the output directory %s is on a read-only file system (%s: %w); cook into a writable --out%w", dir, doing, err, errAdvised)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("the output directory %s is not writable (%s: %w); fix its permissions or cook into another --out%w", dir, doing, err, errAdvised)
	}
	return fmt.Errorf("%s: %w", doing, err)
}

// errAdvised marks a message that already says what to do; it adds no
// text of its own.
var errAdvised = quiet{}

type quiet struct{}

func (quiet) Error() string { return "" }

// txn is one scene's commit in progress. Put may be called from several
// goroutines; Commit makes the staged files the world, all at once.
type txn struct {
	c            *committer
	l            layout
	manifestPath string

	// The previous world's manifest, its bytes and modification time.
	prev     *manifest.Manifest
	prevData []byte
	prevTime time.Time
	recorded map[string]recorded

	mu      sync.Mutex
	res     Result
	keep    map[string]bool
	renames [][2]string
	staged  bool
	serial  int
	// dirs are the folders realParents found to be real.
	dirs sync.Map
}

// Begin starts a commit of scene, whose manifest lives at manifestPath.
func (c *committer) Begin(scene, manifestPath string) *txn {
	t := &txn{c: c, l: c.layout(scene), manifestPath: manifestPath, keep: map[string]bool{}}
	t.loadPrevious()
	return t
}

// recorded is what the previous manifest says about one file.
type recorded struct {
	size   int64
	digest string
}

// loadPrevious reads the manifest of the world now in the directory. It
// lets Put recognise an unchanged file without reading it: same size and
// digest as recorded, and not modified since the manifest was written.
// That is safe because a commit renames the manifest last, so every file
// it lists is older than it; a file edited by hand afterwards is newer and
// is compared byte for byte. A missing or unreadable manifest just means
// every file is compared.
func (t *txn) loadPrevious() {
	st, err := t.c.FS.Lstat(t.manifestPath)
	if err != nil || !st.Mode().IsRegular() {
		return
	}
	data, err := t.c.FS.ReadFile(t.manifestPath, maxManifestBytes)
	if err != nil {
		return
	}
	t.prevData = data
	m, err := manifest.Decode(t.manifestPath, data)
	if err != nil {
		return
	}
	t.prev = m
	t.prevTime = st.ModTime()
	t.recorded = make(map[string]recorded, len(m.Cells)+1)
	t.recorded[m.Persistent.Path] = recorded{m.Persistent.Bytes, m.Persistent.Blake3}
	for _, cell := range m.Cells {
		t.recorded[cell.Path] = recorded{cell.Bytes, cell.Blake3}
	}
}

// Put offers one file of the new world. A file whose bytes are already on
// disk is left alone (its mtime stays); any other is staged. f.Bytes is not
// kept after Put returns.
func (t *txn) Put(f Output) error {
	c := t.c
	if err := manifest.CheckPath(f.Path); err != nil || !t.l.target(f.Path) {
		return fmt.Errorf("refusing to write %s: not a file of scene %s's world", f.Path, t.l.scene)
	}
	same, err := t.same(f)
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.keep[f.Path] = true
	if same {
		t.res.Unchanged = append(t.res.Unchanged, f.Path)
		t.mu.Unlock()
		return nil
	}
	t.res.Written = append(t.res.Written, f.Path)
	if c.Check {
		t.mu.Unlock()
		return nil
	}
	if !t.staged {
		if err := c.FS.MkdirAll(t.l.staging(), 0o755); err != nil {
			t.mu.Unlock()
			return writeErr(c.Dir, "cannot write to the output directory", c.named(err))
		}
		t.staged = true
	}
	tmp := path.Join(t.l.staging(), fmt.Sprintf("%06d", t.serial))
	t.serial++
	t.renames = append(t.renames, [2]string{tmp, f.Path})
	t.mu.Unlock()
	if err := c.FS.WriteFile(tmp, f.Bytes, 0o644); err != nil {
		return writeErr(c.Dir, "writing "+f.Path, c.named(err))
	}
	return nil
}

// Abort discards whatever was staged; the previous world stays as it was.
func (t *txn) Abort() {
	if t.staged {
		t.c.FS.RemoveAll(t.l.staging())
	}
}

// Commit writes the journal, the point after which the new world is
// decided, then moves the staged files into place (the manifest last) and
// removes the cells the previous manifest listed and this one does not.
func (t *txn) Commit() (*Result, error) {
	c := t.c
	res := &t.res
	sort.Strings(res.Written)
	sort.Strings(res.Unchanged)
	res.Removed = t.stale()
	if c.Check || !res.Changed() {
		t.Abort()
		return res, nil
	}
	// Renames in path order with the manifest last, so that at no moment
	// does a manifest point at cells that are not yet in place.
	sort.Slice(t.renames, func(i, j int) bool {
		a, b := t.renames[i][1], t.renames[j][1]
		if (a == t.manifestPath) != (b == t.manifestPath) {
			return b == t.manifestPath
		}
		return a < b
	})
	j := journal{Renames: t.renames, Removes: res.Removed}
	data, err := json.Marshal(&j)
	if err != nil {
		t.Abort()
		return nil, err
	}
	jp := t.l.journal()
	err = c.writeNew(jp+tmpSuffix, data)
	if err == nil {
		// The world is about to change: its record would no longer
		// describe it, so it goes before the commit point.
		err = c.forget(t.l)
	}
	if err == nil {
		err = c.FS.Rename(jp+tmpSuffix, jp)
	}
	if err != nil {
		c.FS.Remove(jp + tmpSuffix)
		t.Abort()
		return nil, writeErr(c.Dir, "writing the commit journal", c.named(err))
	}
	// From here on the cook is decided: if applying fails or the process
	// dies, the next cook of this scene finishes the journal.
	if err := c.apply(t.l, &j); err != nil {
		return nil, fmt.Errorf("%w (%w: the next cook into %s finishes it)", c.named(err), errCommitPending, c.Dir)
	}
	return res, nil
}

// writeNew writes a file of the cook's own under a fixed name: whatever
// is there (a file left by a killed cook, or a link planted to redirect
// the write) is removed first, and the file is then created exclusively,
// so the write never goes through a link.
func (c *committer) writeNew(rel string, data []byte) error {
	if c.exists(rel) {
		if err := c.FS.Remove(rel); err != nil {
			return err
		}
	}
	return c.FS.WriteFile(rel, data, 0o644)
}

// errCommitPending marks a failure after the commit point: the new world
// is decided and the next cook into the directory completes it.
var errCommitPending = errors.New("the commit is decided but not finished")

// same reports whether the file on disk already holds f's bytes. A check
// (cook --check) always compares the bytes: it answers whether the world
// on disk is exactly what the input gives, so it trusts no size or time.
func (t *txn) same(f Output) (bool, error) {
	c := t.c
	// Checked here, before the commit point, so that a link planted as a
	// folder stops the cook while the previous world stands.
	if err := t.realParents(f.Path); err != nil {
		return false, err
	}
	st, err := c.FS.Lstat(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("%s: %v; remove whatever is in the way so that the world stays inside %s%w", c.abs(f.Path), cause(err), c.Dir, errAdvised)
	}
	if !st.Mode().IsRegular() {
		return false, fmt.Errorf("%s exists and is not a regular file; remove it%w", c.abs(f.Path), errAdvised)
	}
	if st.Size() != int64(len(f.Bytes)) {
		return false, nil
	}
	if r, ok := t.recorded[f.Path]; ok && !c.Check && r.size == st.Size() && r.digest == f.Digest && !st.ModTime().After(t.prevTime) {
		return true, nil
	}
	if f.Path == t.manifestPath && t.prevData != nil {
		return bytes.Equal(t.prevData, f.Bytes), nil
	}
	old, err := c.FS.ReadFile(f.Path, int64(len(f.Bytes)))
	if err != nil {
		return false, c.named(err)
	}
	return bytes.Equal(old, f.Bytes), nil
}

// realParents checks that every folder on the way to p that exists is a
// real directory: a link there, even one that stays inside the output
// directory, would put the scene's files among another's.
func (t *txn) realParents(p string) error {
	dir := path.Dir(p)
	if dir == "." {
		return nil
	}
	if _, ok := t.dirs.Load(dir); ok {
		return nil
	}
	// From the top down: os.Root resolves a link inside the directory, so
	// a folder below one would look real.
	parts := strings.Split(dir, "/")
	for i := range parts {
		d := strings.Join(parts[:i+1], "/")
		st, err := t.c.FS.Lstat(d)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %v; remove whatever is in the way so that the world stays inside %s%w", t.c.abs(d), cause(err), t.c.Dir, errAdvised)
		}
		if !st.IsDir() {
			return fmt.Errorf("%s is not a real directory (a symbolic link or a file); remove it so that the world stays inside %s%w", t.c.abs(d), t.c.Dir, errAdvised)
		}
	}
	t.dirs.Store(dir, true)
	return nil
}

// stale lists the files of the previous cook of this scene that the new
// one no longer has: cells that vanished, or the whole world when the
// scene stopped being streamed. Only the scene's own cells and manifest
// are candidates, whatever the previous manifest says, so nothing else in
// the directory is touched.
func (t *txn) stale() []string {
	manifestPath, keep, prev := t.manifestPath, t.keep, t.prev
	if prev == nil {
		// A manifest we cannot read lists nothing we could safely delete;
		// if this cook writes a new one it replaces it.
		if t.prevData != nil && !keep[manifestPath] {
			return []string{manifestPath}
		}
		return nil
	}
	var out []string
	for _, cell := range prev.Cells {
		if !keep[cell.Path] && t.l.cell(cell.Path) {
			out = append(out, cell.Path)
		}
	}
	if !keep[manifestPath] {
		out = append(out, manifestPath)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// apply carries out a journal. It is idempotent: a rename whose source is
// gone was done by an earlier, interrupted apply.
func (c *committer) apply(l layout, j *journal) error {
	for _, r := range j.Renames {
		if dir := path.Dir(r[1]); dir != "." {
			if err := c.FS.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("creating %s: %w", c.abs(dir), err)
			}
		}
		if err := c.FS.Rename(r[0], r[1]); err != nil {
			if errors.Is(err, fs.ErrNotExist) && c.exists(r[1]) {
				continue
			}
			return fmt.Errorf("moving %s into place: %w", r[1], err)
		}
	}
	for _, p := range j.Removes {
		if err := c.FS.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", p, err)
		}
	}
	if err := c.FS.Remove(l.journal()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return c.FS.RemoveAll(l.staging())
}
