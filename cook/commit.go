package cook

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
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

// Committer writes cooked worlds into one output directory.
type Committer struct {
	FS  FS
	Dir string
	// Check computes the Result without writing anything.
	Check bool
}

// The names below are worldcook's own bookkeeping inside the output
// directory; they exist only while a commit runs (or after it was killed).
const (
	stagingPrefix = ".worldcook-staging-"
	journalSuffix = ".worldcook-journal"
)

// journal is the commit record: once it is in place, the commit is
// decided and any later cook finishes it (roll forward); before it is in
// place, the staged files are garbage and the previous world stands.
type journal struct {
	Renames [][2]string `json:"renames"`
	Removes []string    `json:"removes"`
}

func (c *Committer) abs(rel string) string { return filepath.Join(c.Dir, filepath.FromSlash(rel)) }

func (c *Committer) stagingDir(scene string) string { return c.abs(stagingRel(scene)) }

func stagingRel(scene string) string { return stagingPrefix + validate.FileSafe(scene) }

func (c *Committer) journalPath(scene string) string {
	return c.abs("." + validate.FileSafe(scene) + journalSuffix)
}

// Prepare makes sure the output directory is usable and finishes or
// discards whatever a killed cook of the same scene left behind.
func (c *Committer) Prepare(scene string) error {
	if st, err := c.FS.Lstat(c.Dir); err == nil {
		if st.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("output directory %s is a symbolic link; cook into a real directory (pass its resolved path to --out)", c.Dir)
		}
		if !st.IsDir() {
			return fmt.Errorf("output %s is not a directory; pass a directory to --out", c.Dir)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("output directory %s: %v", c.Dir, err)
	}
	if st, err := c.FS.Lstat(c.abs("world")); err == nil && (st.Mode()&fs.ModeSymlink != 0 || !st.IsDir()) {
		return fmt.Errorf("%s is not a real directory; remove it so that cells stay inside the output directory", c.abs("world"))
	}
	if c.Check {
		return nil
	}
	if data, err := c.FS.ReadFile(c.journalPath(scene)); err == nil {
		var j journal
		if err := json.Unmarshal(data, &j); err != nil {
			return fmt.Errorf("%s is damaged (%v); delete it and the %s* folder, then cook again", c.journalPath(scene), err, stagingPrefix)
		}
		if err := c.apply(scene, &j); err != nil {
			return fmt.Errorf("finishing the interrupted cook of %s: %w", scene, err)
		}
	}
	// A journal still named .tmp was never put in place: the cook that
	// wrote it died before its commit point, so it and its staging go.
	if err := c.FS.Remove(c.journalPath(scene) + ".tmp"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing the unfinished journal of an interrupted cook: %w", err)
	}
	if err := c.FS.RemoveAll(c.stagingDir(scene)); err != nil {
		return fmt.Errorf("removing the staging folder of an interrupted cook: %w", err)
	}
	return nil
}

// Txn is one scene's commit in progress. Put may be called from several
// goroutines; Commit makes the staged files the world, all at once.
type Txn struct {
	c            *Committer
	scene        string
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
}

// Begin starts a commit of scene, whose manifest lives at manifestPath.
func (c *Committer) Begin(scene, manifestPath string) *Txn {
	t := &Txn{c: c, scene: scene, manifestPath: manifestPath, keep: map[string]bool{}}
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
func (t *Txn) loadPrevious() {
	p := t.c.abs(t.manifestPath)
	st, err := t.c.FS.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return
	}
	data, err := t.c.FS.ReadFile(p)
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
func (t *Txn) Put(f Output) error {
	c := t.c
	if err := manifest.CheckPath(f.Path); err != nil {
		return fmt.Errorf("refusing to write %s: %w", f.Path, err)
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
		if err := c.FS.MkdirAll(c.stagingDir(t.scene), 0o755); err != nil {
			t.mu.Unlock()
			return fmt.Errorf("cannot write to the output directory: %w", err)
		}
		t.staged = true
	}
	tmp := path.Join(stagingRel(t.scene), fmt.Sprintf("%06d", t.serial))
	t.serial++
	t.renames = append(t.renames, [2]string{tmp, f.Path})
	t.mu.Unlock()
	if err := c.FS.WriteFile(c.abs(tmp), f.Bytes, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", f.Path, err)
	}
	return nil
}

// Abort discards whatever was staged; the previous world stays as it was.
func (t *Txn) Abort() {
	if t.staged {
		t.c.FS.RemoveAll(t.c.stagingDir(t.scene))
	}
}

// Commit writes the journal, the point after which the new world is
// decided, then moves the staged files into place (the manifest last) and
// removes the cells the previous manifest listed and this one does not.
func (t *Txn) Commit() (*Result, error) {
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
	jp := c.journalPath(t.scene)
	err = c.FS.WriteFile(jp+".tmp", data, 0o644)
	if err == nil {
		// The world is about to change: its record would no longer
		// describe it, so it goes before the commit point.
		err = c.forget(t.scene)
	}
	if err == nil {
		err = c.FS.Rename(jp+".tmp", jp)
	}
	if err != nil {
		c.FS.Remove(jp + ".tmp")
		t.Abort()
		return nil, fmt.Errorf("writing the commit journal: %w", err)
	}
	// From here on the cook is decided: if applying fails or the process
	// dies, the next cook of this scene finishes the journal.
	if err := c.apply(t.scene, &j); err != nil {
		return nil, fmt.Errorf("%w (%w: the next cook into %s finishes it)", err, ErrCommitPending, c.Dir)
	}
	return res, nil
}

// ErrCommitPending marks a failure after the commit point: the new world
// is decided and the next cook into the directory completes it.
var ErrCommitPending = errors.New("the commit is decided but not finished")

// same reports whether the file on disk already holds f's bytes.
func (t *Txn) same(f Output) (bool, error) {
	p := t.c.abs(f.Path)
	st, err := t.c.FS.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !st.Mode().IsRegular() {
		return false, fmt.Errorf("%s exists and is not a regular file; remove it", p)
	}
	if st.Size() != int64(len(f.Bytes)) {
		return false, nil
	}
	if r, ok := t.recorded[f.Path]; ok && r.size == st.Size() && r.digest == f.Digest && !st.ModTime().After(t.prevTime) {
		return true, nil
	}
	if f.Path == t.manifestPath && t.prevData != nil {
		return bytes.Equal(t.prevData, f.Bytes), nil
	}
	old, err := t.c.FS.ReadFile(p)
	if err != nil {
		return false, err
	}
	return bytes.Equal(old, f.Bytes), nil
}

// stale lists the files of the previous cook of this scene that the new
// one no longer has: cells that vanished, or the whole world when the
// scene stopped being streamed. Only paths the previous manifest names
// inside world/ are candidates, so nothing else in the directory is touched.
func (t *Txn) stale() []string {
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
		if !keep[cell.Path] && strings.HasPrefix(cell.Path, "world/") {
			out = append(out, cell.Path)
		}
	}
	if !keep[manifestPath] {
		out = append(out, manifestPath)
	}
	sort.Strings(out)
	return out
}

// apply carries out a journal. It is idempotent: a rename whose source is
// gone was done by an earlier, interrupted apply.
func (c *Committer) apply(scene string, j *journal) error {
	for _, r := range j.Renames {
		dst := c.abs(r[1])
		if err := c.FS.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", filepath.Dir(dst), err)
		}
		if err := c.FS.Rename(c.abs(r[0]), dst); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if _, serr := c.FS.Stat(dst); serr == nil {
					continue
				}
			}
			return fmt.Errorf("moving %s into place: %w", r[1], err)
		}
	}
	for _, p := range j.Removes {
		if err := c.FS.Remove(c.abs(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", p, err)
		}
	}
	if err := c.FS.Remove(c.journalPath(scene)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return c.FS.RemoveAll(c.stagingDir(scene))
}
