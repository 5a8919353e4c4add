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
	if err := c.FS.RemoveAll(c.stagingDir(scene)); err != nil {
		return fmt.Errorf("removing the staging folder of an interrupted cook: %w", err)
	}
	return nil
}

// Commit writes w's changed files into the directory and removes the
// cells that the previous manifest listed and w no longer has. Either all
// of it happens or, on failure before the journal is written, none of it.
func (c *Committer) Commit(w *World) (*Result, error) {
	scene := w.Plan.SceneName
	res := &Result{}
	keep := map[string]bool{}
	var pending []Output
	for _, f := range w.Files {
		if err := manifest.CheckPath(f.Path); err != nil {
			return nil, fmt.Errorf("refusing to write %s: %w", f.Path, err)
		}
		keep[f.Path] = true
		same, err := c.same(f)
		if err != nil {
			return nil, err
		}
		if same {
			res.Unchanged = append(res.Unchanged, f.Path)
		} else {
			res.Written = append(res.Written, f.Path)
			pending = append(pending, f)
		}
	}
	res.Removed = c.stale(w, keep)
	if c.Check || !res.Changed() {
		return res, nil
	}

	staging := c.stagingDir(scene)
	if err := c.FS.MkdirAll(staging, 0o755); err != nil {
		return nil, fmt.Errorf("cannot write to the output directory: %w", err)
	}
	j := journal{Removes: res.Removed}
	for k, f := range pending {
		tmp := path.Join(stagingRel(scene), fmt.Sprintf("%06d", k))
		if err := c.FS.WriteFile(c.abs(tmp), f.Bytes, 0o644); err != nil {
			c.FS.RemoveAll(staging)
			return nil, fmt.Errorf("writing %s: %w", f.Path, err)
		}
		j.Renames = append(j.Renames, [2]string{tmp, f.Path})
	}
	data, err := json.Marshal(&j)
	if err != nil {
		return nil, err
	}
	jp := c.journalPath(scene)
	if err := c.FS.WriteFile(jp+".tmp", data, 0o644); err != nil {
		c.FS.RemoveAll(staging)
		c.FS.Remove(jp + ".tmp")
		return nil, fmt.Errorf("writing the commit journal: %w", err)
	}
	if err := c.FS.Rename(jp+".tmp", jp); err != nil {
		c.FS.RemoveAll(staging)
		c.FS.Remove(jp + ".tmp")
		return nil, fmt.Errorf("writing the commit journal: %w", err)
	}
	// From here on the cook is decided: if applying fails or the process
	// dies, the next cook of this scene finishes the journal.
	if err := c.apply(scene, &j); err != nil {
		return nil, fmt.Errorf("%w (the next cook into %s finishes this commit)", err, c.Dir)
	}
	return res, nil
}

// same reports whether the file on disk already holds f's bytes.
func (c *Committer) same(f Output) (bool, error) {
	p := c.abs(f.Path)
	st, err := c.FS.Lstat(p)
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
	old, err := c.FS.ReadFile(p)
	if err != nil {
		return false, err
	}
	return bytes.Equal(old, f.Bytes), nil
}

// stale lists the files of the previous cook of this scene that the new
// one no longer has: cells that vanished, or the whole world when the
// scene stopped being streamed. Only paths the previous manifest names
// inside world/ are candidates, so nothing else in the directory is touched.
func (c *Committer) stale(w *World, keep map[string]bool) []string {
	data, err := c.FS.ReadFile(c.abs(w.ManifestPath))
	if err != nil {
		return nil
	}
	prev, err := manifest.Decode(w.ManifestPath, data)
	if err != nil {
		// A manifest we cannot read lists nothing we could safely delete;
		// if this cook writes a new one it replaces it.
		if !keep[w.ManifestPath] {
			return []string{w.ManifestPath}
		}
		return nil
	}
	var out []string
	for _, cell := range prev.Cells {
		if !keep[cell.Path] && strings.HasPrefix(cell.Path, "world/") {
			out = append(out, cell.Path)
		}
	}
	if !keep[w.ManifestPath] {
		out = append(out, w.ManifestPath)
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
