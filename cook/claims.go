package cook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/worldcook/worldcook/grid"
)

// claims are the files already in an output directory that a run's cooks
// may write, rename or remove, each known by its identity (device and
// inode), so that an input reached by another path, through ".", "..", a
// linked folder or a hard link, is still recognised.
type claims struct {
	c    *committer
	have []claim
}

type claim struct {
	rel  string
	l    layout
	info fs.FileInfo
}

// claimed finds what the cooks of scenes ls may touch in c's directory:
// each scene's fixed names, its staging folder's files and its cells in
// world/ (one listing of world/ for all scenes).
func claimed(c *committer, ls []layout) (*claims, error) {
	cl := &claims{c: c}
	add := func(l layout, rel string) {
		st, err := c.FS.Lstat(rel)
		if err != nil {
			return
		}
		cl.have = append(cl.have, claim{rel, l, st})
		if st.Mode()&fs.ModeSymlink != 0 {
			// Replacing the link leaves its target alone, but a link from
			// an output to an input is a mistake worth stopping for.
			if target, err := os.Stat(c.abs(rel)); err == nil {
				cl.have = append(cl.have, claim{rel, l, target})
			}
		}
	}
	byPrefix := make(map[string]layout, len(ls))
	for _, l := range ls {
		for _, p := range l.fixed() {
			add(l, p)
		}
		if entries, err := c.FS.ReadDir(l.staging()); err == nil {
			for _, e := range entries {
				add(l, l.staging()+"/"+e.Name())
			}
		}
		byPrefix[cellPrefix(l.scene)] = l
	}
	entries, err := c.FS.ReadDir(worldDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot list %s: %v", c.abs(worldDir), cause(err))
	}
	for _, e := range entries {
		p := worldDir + "/" + e.Name()
		prefix, _, ok := grid.ParseFile(e.Name())
		if !ok {
			continue
		}
		if l, ok := byPrefix[prefix]; ok && l.cell(p) {
			add(l, p)
		}
	}
	return cl, nil
}

// cellPrefix is what a scene's cell file names start with, before
// ".cell_".
func cellPrefix(scene string) string { return grid.FilePrefix(scene) }

// check refuses the run when file, an input of role what ("scene",
// "prefab"), is one of the claimed files.
func (cl *claims) check(file, what string) error {
	st, err := os.Stat(file)
	if err != nil {
		return nil // whoever reads it reports why it cannot
	}
	for _, c := range cl.have {
		if os.SameFile(st, c.info) {
			return fmt.Errorf("%s %s is also %s, %s of scene %s, which a cook into %s replaces or removes; cook into an --out folder that holds none of the input", what, file, cl.c.abs(c.rel), c.l.role(c.rel), c.l.scene, cl.c.Dir)
		}
	}
	return nil
}

// openOut opens the output directory of a job run on its own: created if
// missing, except by a check, which writes nothing and sees a missing
// directory as an empty one.
func openOut(dir string, check bool) (FS, error) {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if check {
			return missingFS{}, nil
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, writeErr(dir, "cannot create the output directory", err)
		}
	}
	return OpenFS(dir)
}

// missingFS is an output directory that does not exist yet.
type missingFS struct{}

var errCheckWrites = errors.New("a check writes nothing")

func notExist(op, name string) error { return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist} }

func (missingFS) MkdirAll(string, fs.FileMode) error          { return errCheckWrites }
func (missingFS) ReadFile(n string, _ int64) ([]byte, error)  { return nil, notExist("open", n) }
func (missingFS) WriteFile(string, []byte, fs.FileMode) error { return errCheckWrites }
func (missingFS) Rename(string, string) error                 { return errCheckWrites }
func (missingFS) Remove(n string) error                       { return notExist("remove", n) }
func (missingFS) RemoveAll(string) error                      { return nil }
func (missingFS) Lstat(n string) (fs.FileInfo, error)         { return nil, notExist("lstat", n) }
func (missingFS) ReadDir(n string) ([]fs.DirEntry, error)     { return nil, notExist("open", n) }
